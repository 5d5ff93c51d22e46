// A transport library as another mpisim built it: another interface version. The loader must
// refuse it before calling anything in it (tests/unit/test_transport_loader.cpp).
extern "C" __attribute__((visibility("default"))) int mpisim_transport_interface() {
  return 1;
}

extern "C" __attribute__((visibility("default"))) void* mpisim_open_mpich_transport(int*, char***) {
  __builtin_trap();
}
