/*
 * mpisimcc and mpisimcxx include this in every object they compile (-include). At the link,
 * the wrapper tells its own objects, whose globals are per rank and whose MPI calls are
 * mpisim's, from objects built otherwise (plain cc, another MPI's mpicc), which it refuses when
 * they define writable data or call MPI (docs/privatization.md). Weak and hidden: one per
 * object, none in the program's dynamic symbols; read-only, so it is not data of the program.
 */
#ifndef MPISIM_WRAPPER_OBJECT_H
#define MPISIM_WRAPPER_OBJECT_H
#ifdef __cplusplus
/* extern: a namespace-scope const would otherwise have internal linkage. */
extern "C" {
__attribute__((weak, visibility("hidden"), used)) extern const char mpisim_wrapper_object = 1;
}
#else
extern const char mpisim_wrapper_object;
__attribute__((weak, visibility("hidden"), used)) const char mpisim_wrapper_object = 1;
#endif
#endif
