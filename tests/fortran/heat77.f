C     A Fortran 77 program with COMMON blocks, built through both routes (mpisimfort, which
C     loads a copy per rank, and mpisimf77 --f2c, which privatizes the converted C): a 1-D heat
C     stencil with halo exchanges and a global residual. The two builds must print the same
C     residual and the same MPI_Wtime (the prediction, with MPISIM_CPU=off).
      PROGRAM HEAT77
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N=64)
      DOUBLE PRECISION U(0:N+1), V(0:N+1)
      INTEGER ME, NP, STEPS
      COMMON /GRID/ U, V
      COMMON /MPISTF/ ME, NP, STEPS
      INTEGER IERR, I, IT
      DOUBLE PRECISION RES, GRES, T0, T1
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      STEPS = 20
      DO 10 I = 0, N + 1
         U(I) = DBLE(ME * N + I)
   10 CONTINUE
      T0 = MPI_WTIME()
      DO 30 IT = 1, STEPS
         CALL HALO()
         DO 20 I = 1, N
            V(I) = 0.5D0 * U(I) + 0.25D0 * (U(I-1) + U(I+1))
   20    CONTINUE
         DO 25 I = 1, N
            U(I) = V(I)
   25    CONTINUE
   30 CONTINUE
      RES = 0.0D0
      DO 40 I = 1, N
         RES = RES + U(I)
   40 CONTINUE
      CALL MPI_REDUCE(RES, GRES, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      T1 = MPI_WTIME()
      IF (ME .EQ. 0) THEN
C        In picoseconds: libf2c writes no leading zero before the
C        decimal point where libgfortran does.
         WRITE (*, 100) NP, GRES, (T1 - T0) * 1.0D12
      END IF
  100 FORMAT ('heat77: ranks ', I3, ' sum ', F16.4, ' time ps ', F14.1)
      CALL MPI_FINALIZE(IERR)
      END

C     Exchanges the halo cells with the neighbours (the ends stay fixed).
      SUBROUTINE HALO()
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N=64)
      DOUBLE PRECISION U(0:N+1), V(0:N+1)
      INTEGER ME, NP, STEPS
      COMMON /GRID/ U, V
      COMMON /MPISTF/ ME, NP, STEPS
      INTEGER IERR, STAT(MPI_STATUS_SIZE)
      IF (ME .LT. NP - 1) THEN
         CALL MPI_SENDRECV(U(N), 1, MPI_DOUBLE_PRECISION, ME + 1, 1,
     &        U(N+1), 1, MPI_DOUBLE_PRECISION, ME + 1, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      IF (ME .GT. 0) THEN
         CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, ME - 1, 2,
     &        U(0), 1, MPI_DOUBLE_PRECISION, ME - 1, 1,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      END
