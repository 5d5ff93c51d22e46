! The `use mpisim` module: the Fortran forms of <mpisim.h> (docs/large-scale.md). Fortran has no
! block macros, so a sampled body is a loop whose condition is called before and after it:
!
!   do while (mpisim_sample_local(10, 0.05d0))
!     ... body ...
!   end do
!
! The body runs (and is measured) until this rank has `iterations` samples at this call, or at
! least 2 whose relative standard deviation is below `threshold`; from then on it is skipped and
! the samples' mean is charged. mpisim_sample_global shares the samples of a call among the ranks
! of a host process. Programs that include mpif.h instead declare the functions LOGICAL.
!
! Folding: mpisim_shared_malloc(bytes) is MPISIM_SHARED_MALLOC, a C pointer for c_f_pointer:
!   call c_f_pointer(mpisim_shared_malloc(int(8 * n, c_size_t)), a, [n])
!   ...
!   call mpisim_shared_free(c_loc(a))
module mpisim
  use, intrinsic :: iso_c_binding, only: c_ptr, c_size_t
  implicit none
  interface
    type(c_ptr) function mpisim_shared_malloc(bytes) bind(C, name="mpisim_shared_malloc_f")
      import :: c_ptr, c_size_t
      integer(c_size_t), value :: bytes
    end function mpisim_shared_malloc
    subroutine mpisim_shared_free(p) bind(C, name="mpisim_shared_free_f")
      import :: c_ptr
      type(c_ptr), value :: p
    end subroutine mpisim_shared_free
    logical function mpisim_sample_local(iterations, threshold)
      integer, intent(in) :: iterations
      double precision, intent(in) :: threshold
    end function mpisim_sample_local
    logical function mpisim_sample_global(iterations, threshold)
      integer, intent(in) :: iterations
      double precision, intent(in) :: threshold
    end function mpisim_sample_global
    ! MPISIM_Compute: charges `seconds` of compute to the rank's clock.
    subroutine mpisim_compute(seconds)
      double precision, intent(in) :: seconds
    end subroutine mpisim_compute
  end interface
end module mpisim
