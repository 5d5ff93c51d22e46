/* Declarations shared by the files of the C privatization matrix. */
#ifndef SHARED_H
#define SHARED_H

extern int counter;       /* defined in main.c, used in other.c */
extern double grid[3][4]; /* multi-dimensional */
int repeated;             /* tentative definition repeated in every file */

struct point {
  int x, y;
};
union number {
  int i;
  double d;
};
extern struct point points[2]; /* array of structs */
extern union number num;

typedef struct {
  int me, np;
} mpistuff_t;
extern mpistuff_t mpistuff_;
#define me (mpistuff_.me) /* f2c style: a global inside a macro body */

int other_file_reads(int rank);
void other_file_writes(int rank);
int bump(void);

#endif
