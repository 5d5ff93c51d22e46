c     Part of common3_main.f: fills this rank's COMMON /FIELD/.
      subroutine fill(me)
      implicit none
      include 'mpif.h'
      integer me, i
      integer n
      double precision x(10)
      common /field/ x, n
      n = 10
      do 10 i = 1, n
        x(i) = dble(me * 100 + i)
   10 continue
      end
