int count_handles(void) {
  enum { MOST = 64 };
  static int made[MOST];
  return made[0] + MOST;
}
