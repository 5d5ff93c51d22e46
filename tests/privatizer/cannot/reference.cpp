// A reference bound to a privatized global would point at one rank's copy.
int value;
int& alias = value;
int main() {
  return alias;
}
