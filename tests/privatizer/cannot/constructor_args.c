static int argc_seen;
/* glibc passes argc, argv and envp to constructors; a rank's copy cannot have them. */
__attribute__((constructor)) static void remember(int argc) {
  argc_seen = argc;
}
int main(void) {
  return argc_seen == 0;
}
