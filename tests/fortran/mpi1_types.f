! MPI-1's datatype routines from Fortran 77, whose addresses and extents are default INTEGERs:
! results must fill one INTEGER (not the COMMON member after it), arguments must be read as
! one. The expected values are stated in tests/CMakeLists.txt.
      PROGRAM MPI1T
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, VT, HV, HI, ST, LB, UB, I
      INTEGER EXT, GUARD, IA(3), GUARD2, STRIDE, JUNK
      COMMON /C/ EXT, GUARD
      COMMON /A/ IA, GUARD2
      COMMON /S/ STRIDE, JUNK
      DOUBLE PRECISION X(12), Y(3), Z(2)
      INTEGER BL(2), DI(2), TY(2), STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      GUARD = 12345
      GUARD2 = 4242
      JUNK = 777
      DO I = 1, 12
        X(I) = 1.5D0 * I
      END DO
      CALL MPI_TYPE_VECTOR(3, 2, 4, MPI_DOUBLE_PRECISION, VT, IERR)
      CALL MPI_TYPE_EXTENT(VT, EXT, IERR)
      CALL MPI_TYPE_LB(VT, LB, IERR)
      CALL MPI_TYPE_UB(VT, UB, IERR)
      IF (ME .EQ. 0) PRINT '(A, 4I7)', 'MPI1 EXT GUARD LB UB', EXT,
     &    GUARD, LB, UB
      CALL MPI_ADDRESS(X(1), IA(1), IERR)
      CALL MPI_ADDRESS(X(3), IA(2), IERR)
      CALL MPI_ADDRESS(X(7), IA(3), IERR)
      IF (ME .EQ. 0) PRINT '(A, 3I7)', 'MPI1 ADDRESS DIFFS GUARD',
     &    IA(2) - IA(1), IA(3) - IA(1), GUARD2
      STRIDE = 16
      CALL MPI_TYPE_HVECTOR(3, 1, STRIDE, MPI_DOUBLE_PRECISION, HV,
     &    IERR)
      BL(1) = 1
      BL(2) = 2
      DI(1) = 8
      DI(2) = 40
      CALL MPI_TYPE_HINDEXED(2, BL, DI, MPI_DOUBLE_PRECISION, HI, IERR)
      BL(2) = 1
      DI(1) = 0
      DI(2) = IA(3) - IA(1)
      TY(1) = MPI_DOUBLE_PRECISION
      TY(2) = MPI_DOUBLE_PRECISION
      CALL MPI_TYPE_STRUCT(2, BL, DI, TY, ST, IERR)
      CALL MPI_TYPE_COMMIT(HV, IERR)
      CALL MPI_TYPE_COMMIT(HI, IERR)
      CALL MPI_TYPE_COMMIT(ST, IERR)
      IF (ME .EQ. 0) THEN
        CALL MPI_SEND(X, 1, HV, 1, 1, MPI_COMM_WORLD, IERR)
        CALL MPI_SEND(X, 1, HI, 1, 2, MPI_COMM_WORLD, IERR)
        CALL MPI_SEND(X, 1, ST, 1, 3, MPI_COMM_WORLD, IERR)
      ELSE IF (ME .EQ. 1) THEN
        CALL MPI_RECV(Y, 3, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD,
     &      STATUS, IERR)
        PRINT '(A, 3F6.1)', 'MPI1 HVECTOR', Y
        CALL MPI_RECV(Y, 3, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD,
     &      STATUS, IERR)
        PRINT '(A, 3F6.1)', 'MPI1 HINDEXED', Y
        CALL MPI_RECV(Z, 2, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD,
     &      STATUS, IERR)
        PRINT '(A, 2F6.1, I4)', 'MPI1 STRUCT', Z, JUNK
      END IF
      CALL MPI_TYPE_FREE(VT, IERR)
      CALL MPI_TYPE_FREE(HV, IERR)
      CALL MPI_TYPE_FREE(HI, IERR)
      CALL MPI_TYPE_FREE(ST, IERR)
      CALL MPI_FINALIZE(IERR)
      END
