C     Fortran 77 callbacks and CHARACTER arguments, the same through both routes (gfortran loaded
C     per rank, f2c privatized): MPI-1 keyvals with a copy subroutine (the value times the extra
C     state) and MPI_DUP_FN, a communicator's error handler, info keys and a type's name. The
C     expected values are stated in tests/CMakeLists.txt.
      PROGRAM CB77
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, KMUL, KDUP, C2, IVAL, JVAL, INFO, T, RL, EH
      INTEGER CALLS, LAST
      LOGICAL FLAG, FLAG2
      CHARACTER*20 KEY, VALUE, NAME
      COMMON /HANDLD/ CALLS, LAST
      EXTERNAL MULC, NOTE
      CALLS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_KEYVAL_CREATE(MULC, MPI_NULL_DELETE_FN, KMUL, 3, IERR)
      CALL MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, KDUP, 0,
     &     IERR)
      CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KMUL, 5 + ME, IERR)
      CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KDUP, 9 + ME, IERR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, C2, IERR)
      CALL MPI_ATTR_GET(C2, KMUL, IVAL, FLAG, IERR)
      CALL MPI_ATTR_GET(C2, KDUP, JVAL, FLAG2, IERR)
      IF (ME .EQ. 1) WRITE (*, '(A, L1, I4, 1X, L1, I4)')
     &     'cb77: copied ', FLAG, IVAL, FLAG2, JVAL
      CALL MPI_COMM_FREE(C2, IERR)
      CALL MPI_COMM_CREATE_ERRHANDLER(NOTE, EH, IERR)
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, EH, IERR)
      CALL MPI_COMM_CALL_ERRHANDLER(MPI_COMM_WORLD, MPI_ERR_ARG, IERR)
      IF (ME .EQ. 1) WRITE (*, '(A, I2, 1X, L1)') 'cb77: handler ',
     &     CALLS, LAST .EQ. MPI_ERR_ARG
      CALL MPI_INFO_CREATE(INFO, IERR)
      CALL MPI_INFO_SET(INFO, 'colour', 'green  ', IERR)
      CALL MPI_INFO_GET_NTHKEY(INFO, 0, KEY, IERR)
      CALL MPI_INFO_GET(INFO, KEY, 20, VALUE, FLAG, IERR)
      IF (ME .EQ. 1) WRITE (*, '(5A, L1)') 'cb77: info [', KEY(1:8),
     &     '] [', VALUE(1:8), '] ', FLAG
      CALL MPI_INFO_FREE(INFO, IERR)
      CALL MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, T, IERR)
      CALL MPI_TYPE_SET_NAME(T, 'pair', IERR)
      CALL MPI_TYPE_GET_NAME(T, NAME, RL, IERR)
      IF (ME .EQ. 1) WRITE (*, '(3A, I2)') 'cb77: type [', NAME(1:6),
     &     '] ', RL
      CALL MPI_TYPE_FREE(T, IERR)
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE MULC(OLD, KEY, EXTRA, VIN, VOUT, FLAG, IERR)
      INTEGER OLD, KEY, EXTRA, VIN, VOUT, IERR
      LOGICAL FLAG
      VOUT = VIN * EXTRA
      FLAG = .TRUE.
      IERR = 0
      END

      SUBROUTINE NOTE(COMM, CODE)
      INTEGER COMM, CODE, CALLS, LAST
      COMMON /HANDLD/ CALLS, LAST
      CALLS = CALLS + 1
      LAST = CODE
      END
