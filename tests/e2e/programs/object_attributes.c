// Attributes on datatypes and windows, in the style of MPICH's attr tests: a keyval whose copy
// callback duplicates the value into a dup'ed type, delete callbacks counted at delete, free and
// MPI_Win_free, values private to each rank even on a predefined type, and a keyval of the wrong
// kind refused. Every rank prints what it saw; the lines must equal MPICH's.
#include <mpi.h>
#include <stdio.h>

static int deleted[2]; // per kind: sum of the values whose delete callback ran

static int count_type_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
  (void)type, (void)keyval, (void)extra;
  deleted[0] += *(int*)value;
  return MPI_SUCCESS;
}

static int count_win_delete(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win, (void)keyval, (void)extra;
  deleted[1] += *(int*)value;
  return MPI_SUCCESS;
}

static int add_one_copy(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                        int* flag) {
  (void)type, (void)keyval;
  int* slot = (int*)extra; // the copy lives in the extra state, as MPICH's tests keep theirs
  *slot = *(int*)in + 1;
  *(void**)out = slot;
  *flag = 1;
  return MPI_SUCCESS;
}

/* Libraries hang their clean-up on MPI_COMM_WORLD too: MPI_Finalize deletes its attributes,
 * after MPI_COMM_SELF's. */
static int say_finalized(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)extra;
  int rank = *(int*)value, self_done = *(int*)extra;
  printf("rank %d: MPI_COMM_WORLD's attribute deleted at MPI_Finalize, after MPI_COMM_SELF's %d\n",
         rank, self_done);
  return MPI_SUCCESS;
}

static int self_deleted;

static int mark_self_deleted(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  self_deleted = 1;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, flag, copy_slot = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  int tkey, dupkey, wkey;
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_type_delete, &tkey, NULL);
  MPI_Type_create_keyval(add_one_copy, count_type_delete, &dupkey, &copy_slot);
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_win_delete, &wkey, NULL);

  // A value on a predefined type is this rank's own.
  int mine = 100 + rank;
  MPI_Type_set_attr(MPI_INT, tkey, &mine);
  MPI_Barrier(MPI_COMM_WORLD);
  int* got = NULL;
  MPI_Type_get_attr(MPI_INT, tkey, &got, &flag);
  printf("rank %d: MPI_INT attribute found %d value %d\n", rank, flag, flag ? *got : -1);
  MPI_Type_delete_attr(MPI_INT, tkey);
  MPI_Type_get_attr(MPI_INT, tkey, &got, &flag);
  printf("rank %d: after delete found %d, deleted %d\n", rank, flag, deleted[0]);

  // Dup copies what the copy callback says; a null copy function copies nothing.
  MPI_Datatype pair, twin;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  int a = 10 * (rank + 1), b = 1000;
  MPI_Type_set_attr(pair, tkey, &a);
  MPI_Type_set_attr(pair, dupkey, &b);
  MPI_Type_dup(pair, &twin);
  int found_t, found_d;
  int* vt = NULL;
  int* vd = NULL;
  MPI_Type_get_attr(twin, tkey, &vt, &found_t);
  MPI_Type_get_attr(twin, dupkey, &vd, &found_d);
  printf("rank %d: dup has tkey %d dupkey %d value %d\n", rank, found_t, found_d,
         found_d ? *vd : -1);
  // Freeing the keyval leaves the values in place until their types go.
  MPI_Type_free_keyval(&dupkey);
  printf("rank %d: freed keyval is MPI_KEYVAL_INVALID %d\n", rank, dupkey == MPI_KEYVAL_INVALID);
  deleted[0] = 0;
  MPI_Type_free(&twin);
  int after_twin = deleted[0];
  MPI_Type_free(&pair);
  printf("rank %d: deletes at free: twin %d, pair %d\n", rank, after_twin, deleted[0]);

  // Windows: set, replace (the old value's delete runs), and delete at MPI_Win_free.
  int buf[4] = {0};
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int w1 = 7, w2 = 20 + rank;
  MPI_Win_set_attr(win, wkey, &w1);
  MPI_Win_set_attr(win, wkey, &w2);
  int* wv = NULL;
  MPI_Win_get_attr(win, wkey, &wv, &flag);
  int* size = NULL;
  int size_flag;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &size_flag);
  printf("rank %d: window attribute %d, replaced deletes %d, MPI_WIN_SIZE %d\n", rank,
         flag ? *wv : -1, deleted[1], size_flag ? *size : -1);
  MPI_Win_free(&win);
  printf("rank %d: after MPI_Win_free deleted %d\n", rank, deleted[1]);

  // A window keyval on a datatype is refused.
  int err = MPI_Type_set_attr(MPI_DOUBLE, wkey, &mine), cls;
  MPI_Error_class(err, &cls);
  printf("rank %d: window keyval on a type: MPI_ERR_KEYVAL %d\n", rank, cls == MPI_ERR_KEYVAL);
  MPI_Win_free_keyval(&wkey);
  MPI_Type_free_keyval(&tkey);
  int ckey, skey;
  static int world_value;
  world_value = rank;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, say_finalized, &ckey, &self_deleted);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mark_self_deleted, &skey, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, &world_value);
  MPI_Comm_set_attr(MPI_COMM_SELF, skey, &world_value);
  MPI_Finalize();
  return 0;
}
