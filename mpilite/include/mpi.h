/*
 * mpi.h of mpisim: the MPI interface a target program is compiled against: every constant, type
 * and function of MPI-3.1's C interface. docs/mpi-coverage.md says which functions are
 * implemented; the others end the run with a message naming them when called.
 *
 * Every MPI_x and PMPI_x declared here is bound, with an assembler label, to the symbol
 * mpisim_MPI_x / mpisim_PMPI_x. The simulator's host processes also link MPICH, whose own
 * MPI_x symbols therefore never meet the target program's calls. MPI_x is a weak alias of
 * PMPI_x, so a profiling library that defines MPI_x (against this header) still works.
 *
 * Handles are integers, as in MPICH, so Fortran bindings can pass them unchanged.
 *
 * The target program's `main` is renamed to `mpisim_user_main` (define MPISIM_NO_MAIN_RENAME to
 * prevent it); the simulator's own main runs it once per simulated rank, each on its own fiber.
 */
#ifndef MPISIM_MPI_H
#define MPISIM_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define MPISIM_MPI_H_VERSION 1

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Group;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_Message;
typedef int MPI_Session;
typedef struct mpisim_file* MPI_File;
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

/* Layout as in MPICH (five ints), so that MPI_STATUS_SIZE is 5 for Fortran. */
typedef struct MPI_Status {
  int count_lo;
  int count_hi_and_cancelled;
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
} MPI_Status;

/* The C form of a Fortran 2008 (mpi_f08) status. */
typedef struct MPI_F08_status {
  MPI_Fint count_lo;
  MPI_Fint count_hi_and_cancelled;
  MPI_Fint MPI_SOURCE;
  MPI_Fint MPI_TAG;
  MPI_Fint MPI_ERROR;
} MPI_F08_status;

/* Handles of the tool information interface (MPI_T). */
typedef struct mpisim_t_enum* MPI_T_enum;
typedef struct mpisim_t_cvar_handle* MPI_T_cvar_handle;
typedef struct mpisim_t_pvar_handle* MPI_T_pvar_handle;
typedef struct mpisim_t_pvar_session* MPI_T_pvar_session;
/* MPI-4.0 events (section 15.3.8): mpisim exports no event types, so no handle of these exists. */
typedef struct mpisim_t_event_registration* MPI_T_event_registration;
typedef struct mpisim_t_event_instance* MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
  MPI_T_CB_REQUIRE_NONE = 0,
  MPI_T_CB_REQUIRE_MPI_RESTRICTED,
  MPI_T_CB_REQUIRE_THREAD_SAFE,
  MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
  MPI_T_SOURCE_ORDERED = 0,
  MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;

/* ---- handles ---------------------------------------------------------------------------- */
#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_COMM_SELF ((MPI_Comm)0x44000001)

#define MPI_GROUP_NULL ((MPI_Group)0x08000000)
#define MPI_GROUP_EMPTY ((MPI_Group)0x48000000)

#define MPI_REQUEST_NULL ((MPI_Request)0x2c000000)
#define MPI_MESSAGE_NULL ((MPI_Message)0x6c000000)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x6c000001)
#define MPI_INFO_NULL ((MPI_Info)0x1c000000)
#define MPI_INFO_ENV ((MPI_Info)0x5c000001)
#define MPI_WIN_NULL ((MPI_Win)0x20000000)
#define MPI_FILE_NULL ((MPI_File)0)
#define MPI_SESSION_NULL ((MPI_Session)0x38000000)
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)(intptr_t)-1)

#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x14000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x54000000)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x54000001)
/* MPI-4.0: aborts the processes of the object's communicator; a simulation ends there, as with
 * MPI_ERRORS_ARE_FATAL. */
#define MPI_ERRORS_ABORT ((MPI_Errhandler)0x54000003)

/* Predefined datatypes: 0x4c00 | index. The index order is fixed (mpilite/src/datatype_builtin). */
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_CHAR ((MPI_Datatype)0x4c000001)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x4c000002)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x4c000003)
#define MPI_BYTE ((MPI_Datatype)0x4c000004)
#define MPI_WCHAR ((MPI_Datatype)0x4c000005)
#define MPI_SHORT ((MPI_Datatype)0x4c000006)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x4c000007)
#define MPI_INT ((MPI_Datatype)0x4c000008)
#define MPI_UNSIGNED ((MPI_Datatype)0x4c000009)
#define MPI_LONG ((MPI_Datatype)0x4c00000a)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x4c00000b)
#define MPI_LONG_LONG_INT ((MPI_Datatype)0x4c00000c)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x4c00000d)
#define MPI_FLOAT ((MPI_Datatype)0x4c00000e)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00000f)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x4c000010)
#define MPI_C_BOOL ((MPI_Datatype)0x4c000011)
#define MPI_INT8_T ((MPI_Datatype)0x4c000012)
#define MPI_INT16_T ((MPI_Datatype)0x4c000013)
#define MPI_INT32_T ((MPI_Datatype)0x4c000014)
#define MPI_INT64_T ((MPI_Datatype)0x4c000015)
#define MPI_UINT8_T ((MPI_Datatype)0x4c000016)
#define MPI_UINT16_T ((MPI_Datatype)0x4c000017)
#define MPI_UINT32_T ((MPI_Datatype)0x4c000018)
#define MPI_UINT64_T ((MPI_Datatype)0x4c000019)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x4c00001a)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x4c00001b)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c00001c)
#define MPI_AINT ((MPI_Datatype)0x4c00001d)
#define MPI_OFFSET ((MPI_Datatype)0x4c00001e)
#define MPI_COUNT ((MPI_Datatype)0x4c00001f)
#define MPI_PACKED ((MPI_Datatype)0x4c000020)
#define MPI_FLOAT_INT ((MPI_Datatype)0x4c000021)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x4c000022)
#define MPI_LONG_INT ((MPI_Datatype)0x4c000023)
#define MPI_2INT ((MPI_Datatype)0x4c000024)
#define MPI_SHORT_INT ((MPI_Datatype)0x4c000025)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x4c000026)
#define MPI_UB ((MPI_Datatype)0x4c000027)
#define MPI_LB ((MPI_Datatype)0x4c000028)
/* Predefined datatypes from index 0x40: C++'s bool and std::complex, and Fortran's (gfortran's
   INTEGER, REAL, LOGICAL: 4 bytes, DOUBLE PRECISION: 8). */
#define MPI_CXX_BOOL ((MPI_Datatype)0x4c000040)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x4c000041)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000042)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000043)
#define MPI_INTEGER ((MPI_Datatype)0x4c000044)
#define MPI_REAL ((MPI_Datatype)0x4c000045)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x4c000046)
#define MPI_COMPLEX ((MPI_Datatype)0x4c000047)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000048)
#define MPI_LOGICAL ((MPI_Datatype)0x4c000049)
#define MPI_CHARACTER ((MPI_Datatype)0x4c00004a)
#define MPI_2REAL ((MPI_Datatype)0x4c00004b)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x4c00004c)
#define MPI_2INTEGER ((MPI_Datatype)0x4c00004d)
#define MPI_INTEGER1 ((MPI_Datatype)0x4c00004e)
#define MPI_INTEGER2 ((MPI_Datatype)0x4c00004f)
#define MPI_INTEGER4 ((MPI_Datatype)0x4c000050)
#define MPI_INTEGER8 ((MPI_Datatype)0x4c000051)
#define MPI_INTEGER16 ((MPI_Datatype)0x4c000052)
#define MPI_REAL2 ((MPI_Datatype)0x4c000053)
#define MPI_REAL4 ((MPI_Datatype)0x4c000054)
#define MPI_REAL8 ((MPI_Datatype)0x4c000055)
#define MPI_REAL16 ((MPI_Datatype)0x4c000056)
#define MPI_COMPLEX4 ((MPI_Datatype)0x4c000057)
#define MPI_COMPLEX8 ((MPI_Datatype)0x4c000058)
#define MPI_COMPLEX16 ((MPI_Datatype)0x4c000059)
#define MPI_COMPLEX32 ((MPI_Datatype)0x4c00005a)
#define MPISIM_BUILTIN_TYPE_COUNT 0x5b

/* Predefined reduction operations. */
#define MPI_OP_NULL ((MPI_Op)0x18000000)
#define MPI_MAX ((MPI_Op)0x58000001)
#define MPI_MIN ((MPI_Op)0x58000002)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_PROD ((MPI_Op)0x58000004)
#define MPI_LAND ((MPI_Op)0x58000005)
#define MPI_BAND ((MPI_Op)0x58000006)
#define MPI_LOR ((MPI_Op)0x58000007)
#define MPI_BOR ((MPI_Op)0x58000008)
#define MPI_LXOR ((MPI_Op)0x58000009)
#define MPI_BXOR ((MPI_Op)0x5800000a)
#define MPI_MINLOC ((MPI_Op)0x5800000b)
#define MPI_MAXLOC ((MPI_Op)0x5800000c)
#define MPI_REPLACE ((MPI_Op)0x5800000d)
#define MPI_NO_OP ((MPI_Op)0x5800000e)

/* ---- constants ------------------------------------------------------------------------- */
#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0x24000000
#define MPI_BSEND_OVERHEAD 96

#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

#define MPI_STATUS_IGNORE ((MPI_Status*)1)
#define MPI_STATUSES_IGNORE ((MPI_Status*)1)
#define MPI_F_STATUS_IGNORE ((MPI_Fint*)1)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint*)1)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status*)1)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status*)1)
#define MPI_IN_PLACE ((void*)-1)
#define MPI_BOTTOM ((void*)0)
/* Objects of the library, not small integers cast to pointers: a compiler that checks array
   arguments (GCC's -Wstringop-overread) would warn on every call that passes them as weights. */
extern int mpisim_unweighted[];
extern int mpisim_weights_empty[];
#define MPI_UNWEIGHTED (mpisim_unweighted)
#define MPI_WEIGHTS_EMPTY (mpisim_weights_empty)
#define MPI_ARGV_NULL ((char**)0)
#define MPI_ARGVS_NULL ((char***)0)
#define MPI_ERRCODES_IGNORE ((int*)0)

#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_DATAREP_STRING 128
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_COMM_TYPE_SHARED 1

/* Datatype classes of MPI_Type_match_size. */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* Predefined attribute keys. */
#define MPI_TAG_UB 0x64400001
#define MPI_HOST 0x64400003
#define MPI_IO 0x64400005
#define MPI_WTIME_IS_GLOBAL 0x64400007
#define MPI_UNIVERSE_SIZE 0x64400009
#define MPI_LASTUSEDCODE 0x6440000b
#define MPI_APPNUM 0x6440000d
#define MPI_WIN_BASE 0x66000001
#define MPI_WIN_SIZE 0x66000003
#define MPI_WIN_DISP_UNIT 0x66000005
#define MPI_WIN_CREATE_FLAVOR 0x66000007
#define MPI_WIN_MODEL 0x66000009

/* Values of MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL. */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* Assertions of RMA synchronization calls. */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* File access modes, seek positions and views (MPI I/O). */
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)

/* Type constructor combiners. */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 8
#define MPI_COMBINER_HINDEXED 10
#define MPI_COMBINER_INDEXED_BLOCK 11
#define MPI_COMBINER_HINDEXED_BLOCK 12
#define MPI_COMBINER_STRUCT 14
#define MPI_COMBINER_SUBARRAY 15
#define MPI_COMBINER_DARRAY 16
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_F90_REAL 19
#define MPI_COMBINER_F90_COMPLEX 20
#define MPI_COMBINER_F90_INTEGER 21

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* Error classes (values as in MPICH). */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_GROUP 8
#define MPI_ERR_OP 9
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_DIMS 11
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
#define MPI_T_ERR_MEMORY 59
#define MPI_T_ERR_NOT_INITIALIZED 60
#define MPI_T_ERR_CANNOT_INIT 61
#define MPI_T_ERR_INVALID_INDEX 62
#define MPI_T_ERR_INVALID_ITEM 63
#define MPI_T_ERR_INVALID_HANDLE 64
#define MPI_T_ERR_OUT_OF_HANDLES 65
#define MPI_T_ERR_OUT_OF_SESSIONS 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_CVAR_SET_NOT_NOW 68
#define MPI_T_ERR_CVAR_SET_NEVER 69
#define MPI_T_ERR_PVAR_NO_STARTSTOP 70
#define MPI_T_ERR_PVAR_NO_WRITE 71
#define MPI_T_ERR_PVAR_NO_ATOMIC 72
#define MPI_T_ERR_INVALID_NAME 73
#define MPI_T_ERR_INVALID 74
#define MPI_ERR_SESSION 75
#define MPI_ERR_LASTCODE 0x3fffffff

/* ---- tool information interface (MPI_T) ------------------------------------------------ */
#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229

#define MPI_T_BIND_NO_OBJECT 9700
#define MPI_T_BIND_MPI_COMM 9701
#define MPI_T_BIND_MPI_DATATYPE 9702
#define MPI_T_BIND_MPI_ERRHANDLER 9703
#define MPI_T_BIND_MPI_FILE 9704
#define MPI_T_BIND_MPI_GROUP 9705
#define MPI_T_BIND_MPI_OP 9706
#define MPI_T_BIND_MPI_REQUEST 9707
#define MPI_T_BIND_MPI_WIN 9708
#define MPI_T_BIND_MPI_MESSAGE 9709
#define MPI_T_BIND_MPI_INFO 9710

#define MPI_T_SCOPE_CONSTANT 60438
#define MPI_T_SCOPE_READONLY 60439
#define MPI_T_SCOPE_LOCAL 60440
#define MPI_T_SCOPE_GROUP 60441
#define MPI_T_SCOPE_GROUP_EQ 60442
#define MPI_T_SCOPE_ALL 60443
#define MPI_T_SCOPE_ALL_EQ 60444

#define MPI_T_PVAR_CLASS_STATE 240
#define MPI_T_PVAR_CLASS_LEVEL 241
#define MPI_T_PVAR_CLASS_SIZE 242
#define MPI_T_PVAR_CLASS_PERCENTAGE 243
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 244
#define MPI_T_PVAR_CLASS_LOWWATERMARK 245
#define MPI_T_PVAR_CLASS_COUNTER 246
#define MPI_T_PVAR_CLASS_AGGREGATE 247
#define MPI_T_PVAR_CLASS_TIMER 248
#define MPI_T_PVAR_CLASS_GENERIC 249

/* ---- callbacks ------------------------------------------------------------------------- */
typedef void(MPI_User_function)(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype);
typedef void(MPI_User_function_c)(void* invec, void* inoutvec, MPI_Count* len,
                                  MPI_Datatype* datatype);
typedef void(MPI_T_event_cb_function)(MPI_T_event_instance event_instance,
                                      MPI_T_event_registration event_registration,
                                      MPI_T_cb_safety cb_safety, void* user_data);
typedef void(MPI_T_event_free_cb_function)(MPI_T_event_registration event_registration,
                                           MPI_T_cb_safety cb_safety, void* user_data);
typedef void(MPI_T_event_dropped_cb_function)(MPI_Count count,
                                              MPI_T_event_registration event_registration,
                                              int source_index, MPI_T_cb_safety cb_safety,
                                              void* user_data);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm*, int*, ...);
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm, int, void*, void*, void*, int*);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm, int, void*, void*);
typedef void(MPI_File_errhandler_function)(MPI_File*, int*, ...);
typedef void(MPI_Win_errhandler_function)(MPI_Win*, int*, ...);
typedef void(MPI_Session_errhandler_function)(MPI_Session*, int*, ...);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype, int, void*, void*, void*, int*);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype, int, void*, void*);
typedef int(MPI_Win_copy_attr_function)(MPI_Win, int, void*, void*, void*, int*);
typedef int(MPI_Win_delete_attr_function)(MPI_Win, int, void*, void*);
typedef int(MPI_Grequest_query_function)(void* extra_state, MPI_Status* status);
typedef int(MPI_Grequest_free_function)(void* extra_state);
typedef int(MPI_Grequest_cancel_function)(void* extra_state, int complete);
typedef int(MPI_Datarep_conversion_function)(void* userbuf, MPI_Datatype datatype, int count,
                                             void* filebuf, MPI_Offset position, void* extra_state);
typedef int(MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint* extent,
                                         void* extra_state);
/* Deprecated names (MPI-2.0 and MPI-2.2), still part of MPI-3.1. */
typedef int(MPI_Copy_function)(MPI_Comm, int, void*, void*, void*, int*);
typedef int(MPI_Delete_function)(MPI_Comm, int, void*, void*);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

/* Predefined attribute callbacks. The null ones are null pointers, which the attribute calls
   treat as "do not copy" and "nothing to delete"; the DUP ones copy the attribute value. All
   handle types are int, so one function serves communicators, datatypes and windows. */
int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void* extra_state, void* attribute_val_in,
               void* attribute_val_out, int* flag) __asm__("mpisim_MPI_DUP_FN");
#define MPI_NULL_COPY_FN ((MPI_Copy_function*)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function*)0)
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function*)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function*)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function*)MPI_DUP_FN)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function*)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function*)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function*)MPI_DUP_FN)
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function*)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function*)0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function*)MPI_DUP_FN)
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function*)0)

/* ---- functions ------------------------------------------------------------------------- */
/* MPISIM_DECLARE(ret, name, params) declares MPI_name and PMPI_name bound to mpisim's symbols. */
#define MPISIM_DECLARE(ret, name, params)                                                          \
  ret MPI_##name params __asm__("mpisim_MPI_" #name);                                              \
  ret PMPI_##name params __asm__("mpisim_PMPI_" #name);

#include "mpisim_functions.h"

#undef MPISIM_DECLARE

#ifdef __cplusplus
}
#endif

#if !defined(MPISIM_NO_MAIN_RENAME) && !defined(MPISIM_BUILDING_LIBRARY)
#define main mpisim_user_main
#endif

#endif /* MPISIM_MPI_H */
