/* The entry of a program converted by f2c: f2c turns the PROGRAM unit into MAIN__, and libf2c's
 * own main (which would call it) is replaced by the simulator's, which runs mpisim_user_main
 * in every rank. libf2c's I/O units are shared by the ranks: they are set up once. */
#define MPISIM_NO_MAIN_RENAME
#include <mpi.h>

extern int MAIN__(void);
extern void f_init(void);
extern int xargc;
extern char** xargv;

int mpisim_user_main(int argc, char** argv, char** envp) {
  static int initialized; /* one host process, one libf2c: shared on purpose */
  (void)envp;
  if (!initialized) {
    initialized = 1;
    xargc = argc;
    xargv = argv;
    f_init();
  }
  MAIN__();
  return 0;
}
