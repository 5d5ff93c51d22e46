/* A C header of the user's, found through -idirafter: a static global and a static local of a
   static inline function. */
static int hdr_calls;
static inline int hdr_tick(void) {
  static int t;
  ++hdr_calls;
  return ++t;
}
static inline int hdr_ignores(int unused) {
  return 0;
}
