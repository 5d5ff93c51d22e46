/* Compiler warnings about a privatized file name the user's file and line. */
int first_global = 1;
static int second_global;
int* pointer = &first_global;

int main(void) {
  second_global = *pointer;
  first_global += second_global;
  int unused_local;
  return 0;
}
