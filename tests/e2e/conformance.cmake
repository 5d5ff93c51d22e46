# Conformance: what real MPI programs rely on (issue "All of MPI that real codes use"), each item
# with a program of its own whose result is MPICH's (or, where MPICH 4.0.2 is wrong, the
# standard's), on 1 and 2 host processes.
set(CONFORMANCE_PROGRAMS ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs)

# A rank's heap is as fresh as a process's: new memory reads as zero (NPB DT reads a malloc'd
# array before writing it), also where other ranks of the host freed data (docs/model.md, Memory).
e2e_program(fresh_heap ${CONFORMANCE_PROGRAMS}/fresh_heap.c)
foreach(hosts 1 2)
  add_test(NAME conformance.fresh_heap_reads_zero.hosts${hosts} COMMAND ${EXPECT} 0
    -m "fresh_heap: 64 ranks, sum of unwritten bytes 0$"
    -- env MPISIM_CPU=off ${RUN} -np 64 -hosts ${hosts} ${E2E_BIN}/fresh_heap)
endforeach()
# MPISIM_FRESH_HEAP=off: the same program sees freed data (glibc's tcache gives a block back with
# its old contents). AddressSanitizer's allocator quarantines freed blocks: plain build only.
if(NOT MPISIM_SANITIZE)
  add_test(NAME conformance.fresh_heap_off_sees_freed_data COMMAND ${EXPECT} 0
    -m "fresh_heap: 64 ranks, sum of unwritten bytes [1-9][0-9]*$"
    -- env MPISIM_CPU=off MPISIM_FRESH_HEAP=off ${RUN} -np 64 ${E2E_BIN}/fresh_heap)
endif()

# Several host processes print at once and mpiexec merges their output: every line stays whole
# (MPICH's start-up leaves stdout unbuffered, and puts() wrote a line and its newline apart).
e2e_program(whole_lines ${CONFORMANCE_PROGRAMS}/whole_lines.c)
add_test(NAME conformance.whole_lines_across_host_processes COMMAND ${EXPECT} 0
  -m "^whole 1200 cut 0$"
  -- sh -c "MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/whole_lines 300 2>/dev/null | awk '/^rank [0-9] line [0-9]+ of a line long enough to be cut$/ { w++; next } { c++ } END { print \"whole\", w + 0, \"cut\", c + 0 }'")

# MPI-4.0's MPI_Isendrecv, MPI_Isendrecv_replace and MPI_Comm_idup_with_info.
e2e_program(isendrecv ${CONFORMANCE_PROGRAMS}/isendrecv.c)
foreach(hosts 1 2)
  add_test(NAME conformance.isendrecv.hosts${hosts} COMMAND ${EXPECT} 0
    -m "isendrecv: 6 ranks, 0 failed checks"
    -- env MPISIM_CPU=off ${RUN} -np 6 -hosts ${hosts} ${E2E_BIN}/isendrecv)
endforeach()

if(MPISIM_HAVE_FORTRAN)
  # What Debian's mpif90/mpif77 accept: a BOZ constant written X'...' (NPB's randi8.f). (Not
  # through f2c: its INTEGER*8 needs f2c.h's longint, which Debian's f2c.h misspells.)
  foreach(wrapper mpisimfort mpisimf77)
    add_test(NAME conformance.fortran_invalid_boz_compiles.${wrapper} COMMAND ${EXPECT} 0
      -m "^boz: +18014398509481983$"
      -- sh -c "cd ${E2E_BIN} && ${CMAKE_BINARY_DIR}/bin/${wrapper} ${FORTRAN_TESTS}/boz.f -o boz_${wrapper} && MPISIM_CPU=off ${RUN} -np 2 ./boz_${wrapper}")
  endforeach()
  # The f2c route builds multi-file programs: COMMON /FIELD/ (and mpif.h's /MPISIMF1/) defined
  # in three files. Sum over ranks r of r*100+i, i = 1..10: 4 ranks give 6220.
  if(F2C_PROGRAM)
    foreach(hosts 1 2)
      add_test(NAME conformance.f2c_common_blocks_across_files.hosts${hosts} COMMAND ${EXPECT} 0
        -m "^common3: ranks  4 n 10 total +6220\\.0$"
        -- sh -c "cd ${E2E_BIN} && ${CMAKE_BINARY_DIR}/bin/mpisimf77 --f2c -O1 ${FORTRAN_TESTS}/common3_main.f ${FORTRAN_TESTS}/common3_fill.f ${FORTRAN_TESTS}/common3_sum.f -o common3_f2c_${hosts} && MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ./common3_f2c_${hosts}")
    endforeach()
  endif()
endif()

# The C library's sleeps and clocks in simulated time (docs/model.md, Time): 19 ranks that each
# sleep 10 s (then 0.5 s with usleep, 0.25 s with nanosleep) end at 10.75 s plus the barrier's
# cost, in well under a second of wall time instead of 19 * 10.75 s; every clock measures the
# sleeps as MPI_Wtime does, the process CPU-time clocks too (the host's would say how long the host
# process ran every rank); with --cpu off real-time clocks start at 2000-01-01 (docs/model.md).
e2e_program(libc_time ${CONFORMANCE_PROGRAMS}/libc_time.c)
foreach(hosts 1 2)
  add_test(NAME conformance.libc_sleep_advances_simulated_time.hosts${hosts} COMMAND ${EXPECT} 0
    -m "libc_time: 19 ranks slept 10\\.750000 s by MPI_Wtime, 10\\.750000 by CLOCK_MONOTONIC, 10\\.750000 by CLOCK_REALTIME, 10\\.750000 by gettimeofday, 10 by time \\(year 2000\\)"
    -m "libc_time: every rank started at 2000-01-01T00:00:00Z"
    -m "libc_time: CPU time 10\\.750000 s by clock, 10\\.750000 by CLOCK_PROCESS_CPUTIME_ID, 10\\.750000 by getrusage, 10\\.75 by times$"
    -m "calendar from 2000-01-01T00:00:00Z \\(fixed\\)"
    -m "predicted time: 10\\.750[0-9]+ s"
    -- env MPISIM_CPU=off ${RUN} -np 19 -hosts ${hosts} ${E2E_BIN}/libc_time 10 500000 250000000)
endforeach()
# MPISIM_EPOCH: with measured CPU the calendar starts at the launch (one instant for every host
# process), so that a program naming its output files by date does not overwrite the last run's;
# a given date starts it there on any host count.
add_test(NAME conformance.libc_time_calendar_starts_at_launch
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/calendar_is_launch.sh ${RUN} ${E2E_BIN}/libc_time)
foreach(hosts 1 2)
  add_test(NAME conformance.libc_time_calendar_from_a_date.hosts${hosts} COMMAND ${EXPECT} 0
    -m "libc_time: every rank started at 2024-05-01T12:34:56Z"
    -m "10 by time \\(year 2024\\)" -m "calendar from 2024-05-01T12:34:56Z \\(date\\)"
    -- env MPISIM_EPOCH=2024-05-01T12:34:56 ${RUN} -np 3 -hosts ${hosts} ${E2E_BIN}/libc_time 10 0 0)
endforeach()
# MPISIM_LIBC_TIME=host: the host's clocks; sleeps take host time and leave the prediction alone
# (1 ms each, so that the test stays short).
add_test(NAME conformance.libc_time_host_leaves_simulated_time COMMAND ${EXPECT} 0
  -m "libc_time: 2 ranks slept 0\\.000000 s by MPI_Wtime"
  -m "predicted time: 0\\.0000[0-9]+ s"
  -- env MPISIM_CPU=off MPISIM_LIBC_TIME=host ${RUN} -np 2 ${E2E_BIN}/libc_time 0 1000 0)
# The C library's clocks and sleeps in a record: read like MPI_Wtime, slept as declared compute.
add_test(NAME e2e.replay_equals_live.libc_time
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/replay_equals_live.py ${RUN}
    $<TARGET_FILE:mpisim-replay> sp2 ${E2E_BIN}/libc_time 4 1 500 250000)
# A loop that waits for the clock to pass a value ends with measured CPU; with --cpu off nothing in
# it takes simulated time, and the run ends with an error naming the rank, the call and the fix
# instead of never ending. A loop that polls MPI_Iprobe until a timeout runs either way.
e2e_program(clock_spin ${CONFORMANCE_PROGRAMS}/clock_spin.c)
foreach(clock wtime monotonic gettimeofday iprobe)
  add_test(NAME e2e.clock_spin_ends_with_measured_cpu.${clock} COMMAND ${EXPECT} 0
    -m "^clock_spin: ${clock} waited >= 1 ms, message 0$"
    -- ${RUN} -np 2 ${E2E_BIN}/clock_spin ${clock})
endforeach()
foreach(clock_call "wtime MPI_Wtime" "monotonic clock_gettime" "gettimeofday gettimeofday")
  string(REPLACE " " ";" clock_call "${clock_call}")
  list(GET clock_call 0 clock)
  list(GET clock_call 1 call)
  add_test(NAME e2e.clock_spin_refused.${clock} COMMAND ${EXPECT} 1
    -m "rank 0: ${call} read the same simulated time, 0\\.000000000 s, 16777216 times in a row"
    -m "Run with measured CPU \\(`--cpu measured`, the default\\)" -x "^clock_spin:"
    -- ${RUN} -np 2 --cpu off ${E2E_BIN}/clock_spin ${clock})
endforeach()
add_test(NAME e2e.clock_spin_refused.hosts2 COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Wtime read the same simulated time" -x "^clock_spin:"
  -- ${RUN} -np 2 -hosts 2 --cpu off ${E2E_BIN}/clock_spin wtime)
# A rank that polls while every other waits for what only it could send polls forever: the
# 2^24-th failed poll in a row ends the run naming the rank and the call. A loop that computes more
# than it polls, or waits for a message on its way, runs to its end.
e2e_program(poll_alone ${CONFORMANCE_PROGRAMS}/poll_alone.c)
foreach(mode_call "test MPI_Test" "iprobe MPI_Iprobe")
  string(REPLACE " " ";" mode_call "${mode_call}")
  list(GET mode_call 0 mode)
  list(GET mode_call 1 call)
  add_test(NAME e2e.poll_alone_refused.${mode} COMMAND ${EXPECT} 1
    -m "rank 0: ${call} found nothing 16777216 times in a row, over 1\\.677722 s of simulated time, while every other unfinished rank waited for a message only rank 0 could cause"
    -x "^poll_alone:" -- ${RUN} -np 2 ${E2E_BIN}/poll_alone ${mode})
endforeach()
# Over several host processes no host sees on its own that the others' ranks wait: the poller's
# host asks a global round at the limit, under every protocol, wherever the poller is. 2^24 polls
# over two busy-polling host processes take 5-30 s each on 2 cores, minutes under the sanitizers:
# the plain build runs these (label long_polls, scripts/test); the one-host tests above run in both.
if(NOT MPISIM_SANITIZE)
foreach(protocol cep nmp nmp+cep quantum)
  add_test(NAME e2e.poll_alone_refused.test.hosts2.${protocol} COMMAND ${EXPECT} 1
    -m "rank 0: MPI_Test found nothing 1677[0-9]+ times in a row, .* while every other unfinished rank waited for a message only rank 0 could cause"
    -x "^poll_alone:" -- ${RUN} -np 2 -hosts 2 --protocol ${protocol} ${E2E_BIN}/poll_alone test)
endforeach()
file(WRITE ${E2E_BIN}/poll_alone_swap.map "1\n0\n")
add_test(NAME e2e.poll_alone_refused.iprobe.poller_on_host1 COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Iprobe found nothing 1677[0-9]+ times in a row"
  -x "^poll_alone:" -- ${RUN} -np 2 -hosts 2 --map ${E2E_BIN}/poll_alone_swap.map
     ${E2E_BIN}/poll_alone iprobe)
# Rank 0 alone on its host polls past the limit while ranks 1 and 2 on the other host keep pace
# with it: the global round says it is not alone, and the run goes on to its end.
file(WRITE ${E2E_BIN}/poll_alone_others.map "0\n1\n1\n")
foreach(hosts_map "1 block" "2 ${E2E_BIN}/poll_alone_others.map")
  string(REPLACE " " ";" hosts_map "${hosts_map}")
  list(GET hosts_map 0 hosts)
  list(GET hosts_map 1 map)
  add_test(NAME e2e.poll_alone_others_keep_pace.hosts${hosts} COMMAND ${EXPECT} 0
    -m "^poll_alone: others got 7 after more than 2\\^24 polls: 1$"
    -- ${RUN} -np 3 -hosts ${hosts} --map ${map} --cpu off ${E2E_BIN}/poll_alone others)
endforeach()
set_tests_properties(e2e.poll_alone_refused.test.hosts2.cep e2e.poll_alone_refused.test.hosts2.nmp
  e2e.poll_alone_refused.test.hosts2.nmp+cep e2e.poll_alone_refused.test.hosts2.quantum
  e2e.poll_alone_refused.iprobe.poller_on_host1 e2e.poll_alone_others_keep_pace.hosts1
  e2e.poll_alone_others_keep_pace.hosts2 PROPERTIES LABELS long_polls)
endif()
add_test(NAME e2e.poll_alone_working_loop_runs COMMAND ${EXPECT} 0
  -m "^poll_alone: working loop ended$" -m "^poll_alone: rank 1 got 9$"
  -- ${RUN} -np 2 --cpu off ${E2E_BIN}/poll_alone working)
add_test(NAME e2e.poll_alone_write_in_progress_completes COMMAND ${EXPECT} 0
  -m "^poll_alone: io done after more than 2\\^24 polls: 1$"
  -- ${RUN} -np 2 --cpu off --io-bandwidth 1KB/s ${E2E_BIN}/poll_alone io
     ${E2E_BIN}/poll_alone_io.out)
add_test(NAME e2e.poll_alone_message_on_its_way_arrives COMMAND ${EXPECT} 0
  -m "^poll_alone: late got 7 after more than 2\\^24 polls: 1$"
  -- ${RUN} -np 2 --cpu off ${E2E_BIN}/poll_alone late)
add_test(NAME e2e.clock_spin_polling_iprobe_runs_with_cpu_off COMMAND ${EXPECT} 0
  -m "^clock_spin: iprobe waited >= 1 ms, message 0$"
  -- ${RUN} -np 2 --cpu off ${E2E_BIN}/clock_spin iprobe)

# Bugs a conformance suite found: each program prints what MPICH's mpicc + mpiexec print for the
# same source, on 1 and on 2 host processes (compare_with_mpiexec.sh), and a line of its own.
set(COMPARE_WITH_MPICH ${CMAKE_CURRENT_SOURCE_DIR}/e2e/compare_with_mpiexec.sh)
# conformance_vs_mpich(program ranks regex [args...])
function(conformance_vs_mpich program ranks regex)
  add_test(NAME conformance.${program}_matches_mpich COMMAND ${EXPECT} 0
    -m "all three agree" -m "${regex}"
    -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin ${ranks} ${E2E_BIN}/${program}
       ${CONFORMANCE_PROGRAMS}/${program}.c ${ARGN})
endfunction()
foreach(program comm_create_group comm_free_loop logical_float type_get_name cart_sub_zero
        keyval_double_free persistent_derived bottom_absolute bottom_collectives
        object_attributes error_codes win_errhandler cancel_send grequest big_count
        big_count_families big_count_requests comm_split_many comm_many_held type_dup_copy_fails
        rma_large_ops rma_linked_list rma_lock_own_window non_overtaking neighbor_periodic_pair
        resized_in_struct user_op_calls_mpi rma_pairs_and_polls file_append_open
        shared_window_fence freed_receive win_sync_spin dims_create_grid status_error_kept
        info_outside_init status_error_multi many_sources random_wildcards)
  e2e_program(${program} ${CONFORMANCE_PROGRAMS}/${program}.c)
endforeach()

# MPI_Dims_create gives MPICH's grid for every size up to 2 048 in 2-5 dimensions, of equally
# balanced ones too (360 in 3-D was 9 x 8 x 5).
conformance_vs_mpich(dims_create_grid 1 "^free 3 360: 10 6 6$")

# status.MPI_ERROR is the program's after a call that completes one operation, as under MPICH
# (it was overwritten with the operation's code, MPI_SUCCESS or MPI_ERR_TRUNCATE).
conformance_vs_mpich(status_error_kept 2 "MPI_Wait of a truncated message: error, 777$")
# The calls that complete several operations, and the probes, set status.MPI_ERROR where MPICH
# does and keep the program's value elsewhere (every status was overwritten with the code).
conformance_vs_mpich(status_error_multi 2 "MPI_Iprobe, MPI_Improbe of MPI_PROC_NULL: ok, kept kept$")

# MPI_Info calls before MPI_Init and after MPI_Finalize work (they were refused before MPI_Init).
conformance_vs_mpich(info_outside_init 2 "after finalize: 1 keys, 1 value$")

# A rank with a receive posted for every other rank at once, two per source, wildcards between
# them and a second communicator: each receive takes what MPI's order gives it (a message is
# matched against its own source's receives and the wildcards it can change).
conformance_vs_mpich(many_sources 16 "many_sources: 16 ranks, 53 receives, named 240015, wildcards 36, other comm 840, out of order 0$")
# Random traffic between neighbours (random numbers per rank) taken by a random mix of named,
# MPI_ANY_SOURCE and MPI_ANY_SOURCE + MPI_ANY_TAG receives, eager and rendezvous sizes: every
# message arrives once and in order within its stream, as under MPICH.
conformance_vs_mpich(random_wildcards 13 "random_wildcards: 13 ranks, sum 19074392, out of order 0, named 1179, any source 1134, any source and tag 1145$")

# Receives freed while active take their messages as they come, not at the rank's next
# point-to-point call: a buffer read right after the barrier that followed the send holds the data
# (before, the default network left all eighteen unwritten until then, or to the end).
conformance_vs_mpich(freed_receive 2
  "after the barrier: one 1000, persistent 2000, 16 of 16 freed ones")

# A rank spins with MPI_Win_sync until the others' puts land in its window: each MPI_Win_sync is
# a poll that lets the window's service run (before, the rank spun for ever at one simulated
# time). MPICH 4.0.2 hangs on this program (no asynchronous progress), so no comparison with it.
foreach(hosts 1 2)
  add_test(NAME e2e.rma.win_sync_spin.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 3 saw every put: sum 6, spun yes$"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ${E2E_BIN}/win_sync_spin)
endforeach()

# A C++ rank that calls MPI inside a catch block rethrows its own exception, reads it, keeps it,
# and counts those in flight: the C++ runtime's record of them switches with the rank.
e2e_program(exceptions_per_rank ${CONFORMANCE_PROGRAMS}/exceptions_per_rank.cpp)
add_test(NAME conformance.exceptions_per_rank_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "rank 3 rethrown: error of rank 3"
  -m "rank 2 exceptions in flight in a destructor: 1"
  -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 4 ${E2E_BIN}/exceptions_per_rank
     ${CONFORMANCE_PROGRAMS}/exceptions_per_rank.cpp)

# MPI_BOTTOM with types of absolute addresses in Bcast, Gather, Scatter and Alltoallw (4 ranks:
# rank 0's gather weighs 0,1,100,101,... by 1..8; alltoallw sums 1000..1003).
conformance_vs_mpich(bottom_collectives 4 "gather: weighted sum 7420")

# Attributes on datatypes and windows: a dup copies 1000 as 1001, each rank's value on MPI_INT is
# its own; deletes run at delete, replace, MPI_Type_free and MPI_Win_free (rank 2: 7 + 22 = 29,
# a line that MPICH's output, equal to ours, has too). MPI_Finalize deletes MPI_COMM_WORLD's
# attributes after MPI_COMM_SELF's.
conformance_vs_mpich(object_attributes 3
  "rank 2: MPI_COMM_WORLD's attribute deleted at MPI_Finalize, after MPI_COMM_SELF's 1$")

# Non-overtaking across the eager limit and across host processes: a small MPI_Isend, then a
# rendezvous, then a small send with one tag arrive in that order, named, from MPI_ANY_SOURCE and
# probed. On 2 host processes the request to send went ahead of the first message, still at
# its NIC, and was matched first; so did an empty message after a small one (its line was
# "message 0: 0 ints").
conformance_vs_mpich(non_overtaking 4 "rank 1, empty after small, message 0: 1 ints, first 41$")

# A long broadcast's empty pieces between host processes (they overtook the piece before them,
# sent when its sender's NIC woke it: MPI_ERR_TRUNCATE on 2 host processes).
e2e_program(bcast_pieces ${CONFORMANCE_PROGRAMS}/bcast_pieces.c)
add_test(NAME conformance.bcast_pieces.hosts2 COMMAND ${EXPECT} 0
  -m "bcast pieces: 200 ranks, 0 wrong bytes"
  -- env MPISIM_CPU=off ${RUN} -np 200 -hosts 2 ${E2E_BIN}/bcast_pieces)
add_test(NAME conformance.bcast_pieces_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map block --hosts 1,2,3
  ${RUN} ${E2E_BIN}/bcast_pieces 200)

# Neighbourhood collectives on a periodic grid of 2x2, where each neighbour is both the lower
# and the upper one: each slot receives what that neighbour sent the other way.
conformance_vs_mpich(neighbor_periodic_pair 4
  "rank 0 .grid 2x2, neighbours 2 and 2.: received 21 20 13 12, again 21 20 13 12$")

# Error classes, codes and strings the program adds: rank r adds 2 + r of each, all checks pass.
conformance_vs_mpich(error_codes 3 "rank 2: added 4 classes and codes, 0 errors$")

# MPI_Cancel of sends (docs/model.md, Cancel and free): on one host process the rendezvous and
# synchronous sends are withdrawn, the eager and buffered ones were delivered; across host
# processes the cancel of a pending send is refused by name rather than left to fail.
add_test(NAME conformance.cancel_send.hosts1 COMMAND ${EXPECT} 0
  -m "send of 0 bytes \\(kind 0\\) cancelled 0$" -m "send of 100000 bytes \\(kind 1\\) cancelled 1$"
  -m "send of 200000 bytes \\(kind 2\\) cancelled 1$" -m "send of 300000 bytes \\(kind 3\\) cancelled 0$"
  -- env MPISIM_CPU=off ${RUN} -np 3 ${E2E_BIN}/cancel_send)
add_test(NAME conformance.cancel_send_across_hosts_is_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Cancel of a pending send to rank 2, which runs in another host process, is not supported"
  -- env MPISIM_CPU=off ${RUN} -np 3 -hosts 2 ${E2E_BIN}/cancel_send)

# Error handlers of windows: the program's handler gets the window and the code; with
# MPI_ERRORS_RETURN a put outside an epoch returns MPI_ERR_RMA_SYNC, and bad ranks, counts and
# datatypes are returned too (they used to follow the communicator's fatal handler).
conformance_vs_mpich(win_errhandler 3 "rank 1: bad rank 1, bad count 1, null datatype 1$")

# Generalized requests: the query callback's status (elements, cancelled), one free callback per
# request (at MPI_Request_free when that comes first, as in MPICH), the cancel callback, Waitall
# over a generalized request and a receive (whose line, equal to MPICH's, is "rank 2: pending 1,
# count 7, cancelled 0, frees 1 | cancel calls 1 saw complete 0, cancelled 1, frees 1 | waitall
# count 3 got 1 frees 1 | freed early 1 then 1"). The query callback runs in the wait, not in
# MPI_Grequest_complete (the count set after completion is seen), and its error is the wait's
# (before, such a wait crashed).
conformance_vs_mpich(grequest 3
  "rank 2: updated after completion: count 9 \\| failing query: MPI_Wait class [0-9]+ \\(MPI_ERR_OTHER 1\\), MPI_Waitall class [0-9]+ \\(MPI_ERR_IN_STATUS 1\\), its status 1, frees 2$")

# Generalized requests are recorded (format 7): each completes at the point of its rank's run
# where the program completed it, freed first or not, and its wait is no wildcard match.
replay_equals_live(grequest sp2 grequest 3)

# MPI-4.0's large-count (_c) forms of point-to-point and collective calls, MPI_Get_count_c,
# MPI_Type_size_c, MPI_Info_get_string; a count above 2^31 - 1 is refused by name.
conformance_vs_mpich(big_count 4
  "rank 3: sendrecv 20..24 count 5, isend 0 1 2 count 3, send 24, bcast 42 43, max 3 1, allgather 6, alltoall 612, scatter 3, double 8, info 1 3 16 3$")
add_test(NAME conformance.big_count_above_int_is_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Send_c: MPI_ERR_COUNT: count 2147483648 is above 2\\^31 - 1"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/big_count huge)
# The other _c forms family by family (point-to-point, persistent, collectives with v-collectives'
# MPI_Count and MPI_Aint arrays, MPI_Reduce_local_c, datatype constructors, one-sided, packing
# and type queries); a count above 2^31 - 1 is refused on the window of a put, by a datatype
# constructor and in a counts array.
conformance_vs_mpich(big_count_families 4
  "rank 3: p2p [0-9]+, nonblocking [0-9]+, collectives [0-9]+, reduce_local [0-9]+, types [0-9]+, rma [0-9]+, pack [0-9]+$")
add_test(NAME conformance.big_count_families_put_above_int_is_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Put_c: MPI_ERR_COUNT: count 2147483648 is above 2\\^31 - 1"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/big_count_families huge-put)
add_test(NAME conformance.big_count_families_type_above_int_is_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Type_contiguous_c: MPI_ERR_COUNT: count 2147483648 is above 2\\^31 - 1"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/big_count_families huge-type)
add_test(NAME conformance.big_count_families_counts_above_int_are_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Alltoallv_c: MPI_ERR_COUNT: count 2147483648 is above 2\\^31 - 1"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/big_count_families huge-counts)
# The _c forms of the non-blocking and persistent v-collectives, whose converted int arrays last
# as long as their requests (persistent ones started after other calls came and went), and
# MPI_Op_create_c, MPI_Type_get_envelope_c, MPI_Type_get_contents_c; a count above 2^31 - 1 in
# the counts array of a non-blocking one is refused.
conformance_vs_mpich(big_count_requests 4
  "^rank 3 persistent, start 2: gatherv=0,7,8,14,15,16,21,22,23,24 scatterv=1009 allgatherv=21,22,23,24,14,15,16,7,8,0 ")
add_test(NAME conformance.big_count_requests_counts_above_int_are_refused COMMAND ${EXPECT} 1
  -m "rank 0: MPI_Ialltoallv_c: MPI_ERR_COUNT: count 2147483648 is above 2\\^31 - 1"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/big_count_requests huge)

# One-sided communication (docs/model.md): puts between fences, accumulates, a strided get from an
# allocated window, as MPICH on 1 and 2 host processes; the invariant on 1-4 host processes
# under every protocol; post/start/complete/wait against the standard (MPICH 4.0.2 fails it).
e2e_program(rma ${CONFORMANCE_PROGRAMS}/rma.c)
conformance_vs_mpich(rma 4 "sum of squares 14, contributions 4")
# Atomics (4 ranks): a counter of 4 whose fetched values sum to 0+1+2+3, one compare-and-swap winner.
add_test(NAME conformance.rma_atomics.hosts2 COMMAND ${EXPECT} 0
  -m "atomics: counter 4, fetched sum 6, cas winners 1, lock word valid 1, sum 10$"
  -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/rma)
add_test(NAME conformance.rma_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map block ${RUN} ${E2E_BIN}/rma 6)
foreach(hosts 1 2)
  add_test(NAME conformance.rma_post_start_complete_wait.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0: pscw word 7005$" -m "rank 3: pscw word 7002$"
    -- env MPISIM_CPU=off ${RUN} -np 6 -hosts ${hosts} ${E2E_BIN}/rma pscw)
endforeach()
add_test(NAME conformance.rma_put_outside_an_epoch_is_refused COMMAND ${EXPECT} 1
  -m "MPI_Put: MPI_ERR_RMA_SYNC: no access epoch to rank [01] is open on the window: call MPI_Win_fence, MPI_Win_start or MPI_Win_lock first"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/rma nosync)

# Passive target synchronization (docs/model.md, One-sided communication): a shared counter by
# MPI_Fetch_and_op under exclusive locks while its target sleeps, a read-modify-write held across
# MPI_Win_flush, MPI_Win_lock_all with a put and a compare-and-swap, shared-lock accumulates, a
# strided get from an allocated window, MPI_Rget and MPI_Raccumulate; as MPICH prints on 1 and 2 host processes; each rank's
# tickets (which depend on timing) the same on 1-4 host processes under every protocol.
e2e_program(rma_passive ${CONFORMANCE_PROGRAMS}/rma_passive.c)
conformance_vs_mpich(rma_passive 4
  "passive: 4 ranks, counter 20, ticket sum 190, cas winners 1, owner valid 1, raccumulated 4$")
add_test(NAME conformance.rma_passive.ranks7.hosts2 COMMAND ${EXPECT} 0
  -m "passive: 7 ranks, counter 35, ticket sum 595, cas winners 1, owner valid 1, raccumulated 7$"
  -m "passive: rmw 140, accumulated 21.0 3.5 91.0$"
  -m "passive: rank 0: slot 1006, got 61 63 65 67, rget 17$"
  -- env MPISIM_CPU=off ${RUN} -np 7 -hosts 2 ${E2E_BIN}/rma_passive)
add_test(NAME conformance.rma_passive_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py ${RUN} ${E2E_BIN}/rma_passive 6 detail)
add_test(NAME conformance.rma_lock_of_a_no_locks_window_is_refused COMMAND ${EXPECT} 1
  -m "MPI_Win_lock: MPI_ERR_RMA_SYNC: rank [01] made the window with the info no_locks=true: it cannot be locked"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/rma_passive nolocks)

# Request-based one-sided operations in flight together (docs/model.md, One-sided communication):
# MPI_Rget, MPI_Rput, MPI_Raccumulate and MPI_Rget_accumulate completed by MPI_Waitall, MPI_Test
# and MPI_Win_flush_all, the put's buffer reused, the results read back, a counter incremented
# and read with both in flight under exclusive locks; as MPICH prints, and the
# same clocks on 1 to 4 host processes under every protocol.
e2e_program(rma_requests ${CONFORMANCE_PROGRAMS}/rma_requests.c)
conformance_vs_mpich(rma_requests 4
  "requests: 4 ranks, fetch-and-add results sum 34, counter reads under exclusive locks sum 114$")
add_test(NAME conformance.rma_requests_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py ${RUN} ${E2E_BIN}/rma_requests 4)
# Their cost overlaps the origin's work: MPI_Rput, a compute section, MPI_Wait take
# max(call + compute, flush) to the picosecond, on 1 and 2 host processes; the same clocks on 1
# to 4 host processes under every protocol.
e2e_program(rma_request_overlap ${CONFORMANCE_PROGRAMS}/rma_request_overlap.c)
foreach(hosts 1 2)
  add_test(NAME conformance.rma_request_overlaps_compute.hosts${hosts} COMMAND ${EXPECT} 0
    -m "^MPI_Rput \\+ MPI_Wait against MPI_Put \\+ MPI_Win_flush: took [0-9]+ ps, expected [0-9]+ ps: equal$"
    -m "^compute of a quarter of the flush: took [0-9]+ ps, expected [0-9]+ ps: equal$"
    -m "^compute until the reply: took [0-9]+ ps, expected [0-9]+ ps: equal$"
    -m "^compute of three flushes: took [0-9]+ ps, expected [0-9]+ ps: equal$"
    -m "^MPI_Rget overlapped: 0 wrong values, the wait cost 0 ps$"
    -m "^wait after MPI_Win_flush: 0 ps$"
    -m "^exclusive epoch of requests: got 1.0 16.0$"
    -m "^target: 0 wrong values$"
    -- env MPISIM_CPU=off ${RUN} -np 3 -hosts ${hosts} ${E2E_BIN}/rma_request_overlap)
endforeach()
add_test(NAME conformance.rma_request_overlap_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py ${RUN} ${E2E_BIN}/rma_request_overlap 3)

# Dynamic windows (MPI_Win_create_dynamic, _attach, _detach): rank r puts r*10+i into the 4 ints
# its right neighbour attached (fence), takes a ticket from a counter rank 0 attached (exclusive
# lock), then reads the double its left neighbour attached after a detach (lock_all); as MPICH
# prints, on 1 and 2 host processes. The target checks what it attached: a put past it, and an
# overlapping attach, are refused by name.
e2e_program(rma_dynamic ${CONFORMANCE_PROGRAMS}/rma_dynamic.c)
conformance_vs_mpich(rma_dynamic 4 "dynamic: 4 ranks, counter 4, ticket sum 6$")
add_test(NAME conformance.rma_dynamic_outside_attached_is_refused COMMAND ${EXPECT} 1
  -m "MPI_ERR_RMA_RANGE: rank 1 could not carry out an operation of this epoch: it reaches outside the memory that rank attached to the window"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/rma_dynamic outside)
# A put outside what the target attached, in a fence epoch with other operations: the error is
# raised at the target's fence once it has served the epoch's other operations (they were left
# queued, and the next epoch applied them in place of its own); a refused get returns nothing.
e2e_program(rma_dynamic_range ${CONFORMANCE_PROGRAMS}/rma_dynamic_range.c)
add_test(NAME conformance.rma_dynamic_range_leaves_no_operation_behind COMMAND ${EXPECT} 0
  -m "rank 0: first fence range error 1, mem0 7$"
  -m "rank 0: second fence success 1, mem0 7 mem1 9$" -m "rank 1: the refused get left -1$"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/rma_dynamic_range)
add_test(NAME conformance.rma_dynamic_overlapping_attach_is_refused COMMAND ${EXPECT} 0
  -m "rank 0: overlapping attach refused 1$" -m "dynamic: 2 ranks, counter 2, ticket sum 1$"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/rma_dynamic overlap)

# Shared-memory windows (MPI_Win_allocate_shared, MPI_Win_shared_query): each rank reads its
# right neighbour's part through the queried pointer; parts are contiguous. Over MPI_COMM_WORLD
# on one host process as MPICH prints on one machine; across host processes refused by name; on
# the communicators of MPI_Comm_split_type (one and two ranks per node) on 2 host processes.
e2e_program(win_shared ${CONFORMANCE_PROGRAMS}/win_shared.c)
add_test(NAME conformance.win_shared_world.hosts1 COMMAND ${EXPECT} 0
  -m "rank 0: node of 4, right 1 has 2 ints summing to 201, contiguous 1$"
  -m "rank 2: node of 4, right 3 has 4 ints summing to 1206, contiguous 1$"
  -m "rank 3: node of 4, right 0 has 1 ints summing to 0, contiguous 1$"
  -- env MPISIM_CPU=off ${RUN} -np 4 ${E2E_BIN}/win_shared world)
add_test(NAME conformance.win_shared_across_hosts_is_refused COMMAND ${EXPECT} 1
  -m "MPI_Win_allocate_shared needs every rank of the communicator in one host process, and rank [0-3] runs in another"
  -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/win_shared world)
add_test(NAME conformance.win_shared_per_node.hosts2 COMMAND ${EXPECT} 0
  -m "rank 3: node of 1, right 0 has 1 ints summing to 0, contiguous 1$"
  -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/win_shared)
add_test(NAME conformance.win_shared_two_per_node.hosts2 COMMAND ${EXPECT} 0
  -m "rank 0: node of 2, right 1 has 2 ints summing to 201, contiguous 1$"
  -m "rank 4: node of 2, right 1 has 2 ints summing to 201, contiguous 1$"
  -m "rank 5: node of 2, right 0 has 1 ints summing to 0, contiguous 1$"
  -- env MPISIM_CPU=off ${RUN} -np 6 -hosts 2 --ranks-per-node 2 ${E2E_BIN}/win_shared)

# A node's ranks are those the machine puts on it (--ranks-per-node, block placement), found
# by MPI_COMM_TYPE_SHARED, by processor name and by the launcher's MPI_LOCALRANKID alike: 10
# ranks, 4 per node, make nodes of 4, 4 and 2. With one rank per node (the presets) each rank is
# a node of its own.
e2e_program(node_ranks ${CONFORMANCE_PROGRAMS}/node_ranks.c)
add_test(NAME conformance.node_ranks_follow_the_machine COMMAND ${EXPECT} 0
  -m "rank 0: node of 4, rank 0 there, name mpisim-node-0 shared by 4, launcher agrees, leaders' sum 10$"
  -m "rank 7: node of 4, rank 3 there, name mpisim-node-1 shared by 4, launcher agrees, leaders' sum -1$"
  -m "rank 8: node of 2, rank 0 there, name mpisim-node-2 shared by 2, launcher agrees, leaders' sum 10$"
  -m "rank 9: node of 2, rank 1 there, name mpisim-node-2 shared by 2, launcher agrees, leaders' sum -1$"
  -- env MPISIM_CPU=off ${RUN} -np 10 -hosts 2 --ranks-per-node 4 ${E2E_BIN}/node_ranks)
add_test(NAME conformance.node_ranks_one_per_node COMMAND ${EXPECT} 0
  -m "rank 2: node of 1, rank 0 there, name mpisim-node-2 shared by 1, launcher agrees, leaders' sum 3$"
  -- env MPISIM_CPU=off ${RUN} -np 3 ${E2E_BIN}/node_ranks)

# MPI-IO (docs/model.md, File I/O): a checkpoint through a file view, read back whole; strided
# memory, non-blocking and split collective accesses; an ordered log through the shared pointer.
e2e_program(file_io ${CONFORMANCE_PROGRAMS}/file_io.c)
conformance_vs_mpich(file_io 4 "file_io: 4 ranks, 0 failed checks"
  ${CMAKE_CURRENT_BINARY_DIR}/file_io_vs_mpich.dat)
foreach(hosts 1 2)
  add_test(NAME conformance.file_io.ranks7.hosts${hosts} COMMAND ${EXPECT} 0
    -m "file_io: 7 ranks, 0 failed checks"
    -m "file_io: log: rank 6 of 7 #######$"
    -m "file_io: shared pointer after the log: 119$"
    -- env MPISIM_CPU=off ${RUN} -np 7 -hosts ${hosts}
       ${E2E_BIN}/file_io ${CMAKE_CURRENT_BINARY_DIR}/file_io_7_${hosts}.dat)
endforeach()
# Each rank's file on MPI_COMM_SELF and each half's file of a split has a shared pointer of its
# own (one per host process and context before: zero-filled holes and other ranks' offsets), and
# MPI_File_set_size cuts the file only once every rank has written and reached it.
e2e_program(file_per_comm ${CONFORMANCE_PROGRAMS}/file_per_comm.c)
add_test(NAME conformance.file_per_comm_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "rank 3: own file at 15 of 15: r3\\.0;r3\\.1;r3\\.2;$"
  -m "rank 2: after set_size 200$" -m "rank 1: after preallocate 1000$"
  -m "rank 1: half 1 at 28: h1\\.0\\.0;h1\\.1\\.0;h1\\.0\\.1;h1\\.1\\.1;$"
  -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 4 ${E2E_BIN}/file_per_comm
     ${CONFORMANCE_PROGRAMS}/file_per_comm.c)
# The invariant holds for MPI-IO: the same reads and the same clocks on 1-4 host processes, under
# every protocol (8 ranks: the checkpoint's views interleave ranks of different host processes).
add_test(NAME conformance.file_io_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map cyclic ${RUN}
    ${E2E_BIN}/file_io 8 ${CMAKE_CURRENT_BINARY_DIR}/file_io_invariant.dat)
# The cost of an access: 1 MiB per rank at 10 us + 1 GB/s is 1058.576 us alone; collectively 4 MiB
# through 2 GB/s shared is 2107.152 us (on the ideal machine the allreduce adds a few ps). Four
# non-blocking writes and a blocking one take the rank's path in turn: 5 x 1058.576 us (all five
# took one access's time before).
add_test(NAME conformance.file_io_time_is_the_storage_model COMMAND ${EXPECT} 0
  -m "file_io: rank 3: write_at 1058\\.576 us, write_at_all 2107\\.152 us$"
  -m "file_io: rank 2: 4 iwrite_at and a write_at 5292\\.880 us$"
  -- env MPISIM_CPU=off MPISIM_MACHINE=ideal MPISIM_IO_LATENCY=10us MPISIM_IO_BANDWIDTH=1GB/s
     MPISIM_IO_SHARED_BANDWIDTH=2GB/s ${RUN} -np 4 -hosts 2
     ${E2E_BIN}/file_io ${CMAKE_CURRENT_BINARY_DIR}/file_io_time.dat time 1048576)
# MPI-IO is recorded (format 7) and replayed on stand-in files: the checkpoint, its timing mode,
# files per communicator, an append open and the ordered log through the shared pointer replay
# exactly, and on another machine as its live run predicts there; a record of independent
# shared-pointer calls, made on one host process, replays on two. The replay leaves the recorded
# run's files alone: a file put at the recorded path keeps its contents, and nothing is created.
replay_equals_live(file_checkpoint sp2 file_io 8 ${CMAKE_CURRENT_BINARY_DIR}/file_io_replay.dat)
replay_equals_live(file_access_times sp2 file_io 4 ${CMAKE_CURRENT_BINARY_DIR}/file_io_replay_time.dat
  time 1048576)
replay_equals_live(file_per_comm sp2 file_per_comm 4)
replay_equals_live(file_append_open sp2 file_append_open 4
  ${CMAKE_CURRENT_BINARY_DIR}/file_append_replay.dat)
add_test(NAME e2e.replay_equals_live.file_shared_order
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/replay_equals_live.py --record-on-one-host ${RUN}
    $<TARGET_FILE:mpisim-replay> sp2 ${E2E_BIN}/file_shared_order 5
    ${CMAKE_CURRENT_BINARY_DIR}/file_shared_order_replay.dat)
set(FILE_RECORD ${CMAKE_CURRENT_BINARY_DIR}/file-io-record)
set(FILE_KEPT_DIR ${CMAKE_CURRENT_BINARY_DIR}/file_io_kept)
add_test(NAME e2e.replay_leaves_the_recorded_files_alone COMMAND ${EXPECT} 0
  -m "file_io: 4 ranks, 0 failed checks" -m "^kept: the recorded run's data$" -m "^files: data$"
  -- sh -c "rm -rf ${FILE_RECORD} ${FILE_KEPT_DIR} && mkdir ${FILE_KEPT_DIR} && cd ${FILE_KEPT_DIR} && ${RUN} -np 4 --cpu off --record ${FILE_RECORD} ${E2E_BIN}/file_io data && echo \"the recorded run's data\" > data && $<TARGET_FILE:mpisim-replay> ${FILE_RECORD} --strict && echo kept: $(cat data) && echo files: $(ls)")
# Independent shared-pointer calls need every rank of the open in one host process: refused, named,
# also under the default handler of files, MPI_ERRORS_RETURN (the program went on without its data).
e2e_program(file_shared_pointer ${CONFORMANCE_PROGRAMS}/file_shared_pointer.c)
add_test(NAME conformance.file_write_shared.hosts1 COMMAND ${EXPECT} 0
  -m "file_shared_pointer: 5 ranks wrote 5 records, each once$"
  -- env MPISIM_CPU=off ${RUN} -np 5 ${E2E_BIN}/file_shared_pointer
     ${CMAKE_CURRENT_BINARY_DIR}/file_shared_pointer_1.dat)
add_test(NAME conformance.file_write_shared_on_two_hosts_is_refused COMMAND ${EXPECT} 1
  -m "rank [0-3]: the shared file pointer of .* is opened by ranks of several host processes"
  -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/file_shared_pointer
     ${CMAKE_CURRENT_BINARY_DIR}/file_shared_pointer_2.dat)

# MPI_MODE_APPEND: every pointer starts at the file's end at the collective open, though rank 0
# writes its record before the others have opened (they took the end after it: holes of zeros).
conformance_vs_mpich(file_append_open 4
  "file_append_open: 4 ranks, 64 bytes, the header and every record in rank order$"
  ${CMAKE_CURRENT_BINARY_DIR}/file_append_open.dat)
# The collective shared-pointer calls wait for every rank's earlier MPI_File_write_shared (they
# read or reset the pointer as each rank entered: records lost under later ones). MPICH's file.
e2e_program(file_shared_order ${CONFORMANCE_PROGRAMS}/file_shared_order.c)
add_test(NAME conformance.file_shared_pointer_collectives_come_after_independent COMMAND ${EXPECT} 0
  -m "file_shared_order: 5 ranks, 1040 bytes, pointer after seek_shared 40, A each once 1, B in rank order 1, C each once 1, D each once 1$"
  -- env MPISIM_CPU=off ${RUN} -np 5 ${E2E_BIN}/file_shared_order
     ${CMAKE_CURRENT_BINARY_DIR}/file_shared_order.dat)
# Two nodes of four ranks, one per host process on two: each node's shared window is read with
# plain loads after MPI_Win_fence (an origin's fence returned before its target had applied the
# puts, and before the other ranks' stores).
add_test(NAME conformance.shared_window_fence_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "rank 7: after the fences all of the node's puts and all of its stores are there"
  -- env MPISIM_RANKS_PER_NODE=4 ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 8
     ${E2E_BIN}/shared_window_fence ${CONFORMANCE_PROGRAMS}/shared_window_fence.c)

# MPI_Comm_split at 12 ranks (a held-out test once deadlocked there): colors, keys that reverse
# or tie, MPI_UNDEFINED, nested splits, 30 splits of two parents in a row, each freed.
conformance_vs_mpich(comm_split_many 12 "comm_split_many: 12 ranks, 0 failed checks")
# Its splits take each host process's entries from one table that only messages between host
# processes fill (comm_agreement.cpp, split_group): the same clocks on 1-4 host processes under
# every protocol, ranks of a host process interleaved with the others' (cyclic) and not (block),
# and the checks pass on 4 interleaved host processes.
foreach(map block cyclic)
  add_test(NAME conformance.comm_split_many_invariant_${map}
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map ${map} --clocks-only ${RUN}
      ${E2E_BIN}/comm_split_many 12)
endforeach()
add_test(NAME conformance.comm_split_many_on_4_cyclic_hosts COMMAND ${EXPECT} 0
  -m "comm_split_many: 12 ranks, 0 failed checks$"
  -- env MPISIM_CPU=off ${RUN} -np 12 -hosts 4 --map cyclic ${E2E_BIN}/comm_split_many)

# A rank holds 1000 communicators and 10 windows at once (MPICH has 2048 context ids; the limit
# was 512), and with all 2048 taken (2 by MPI_COMM_WORLD and MPI_COMM_SELF) a dup fails.
conformance_vs_mpich(comm_many_held 2 "rank 1: held 1000 communicators and 10 windows, checksum 1000000")
add_test(NAME conformance.comm_ids_run_out_as_in_mpich COMMAND ${EXPECT} 0
  -m "exhaust: 2046 dups, then class MPI_ERR_OTHER"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/comm_many_held exhaust)

# A datatype attribute whose copy callback fails fails MPI_Type_dup, which leaves
# MPI_DATATYPE_NULL; a failing delete callback keeps the value.
conformance_vs_mpich(type_dup_copy_fails 2 "rank 1: set ok, replace failed, delete failed, value kept yes \\(2\\), dup failed after 1 copy call\\(s\\), new type MPI_DATATYPE_NULL, free ran 1 delete\\(s\\)")

# The C++ predefined datatypes: sizes and names, sums and products of std::complex, logical
# reductions of bool (3 ranks: (1,0)(1,1)(1,2) multiply to (-1,3)).
e2e_program(cxx_types ${CONFORMANCE_PROGRAMS}/cxx_types.cpp)
add_test(NAME conformance.cxx_types_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "rank 2: sum \\(6,6\\), product \\(-1,3\\), all odd 0, any odd 1, from left \\(1,1\\), 0 wrong sizes"
  -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 3 ${E2E_BIN}/cxx_types
     ${CONFORMANCE_PROGRAMS}/cxx_types.cpp)

# C++17 with no -std= option, as g++ 12 compiles it: the privatizer parses with the compiler's
# default standard, not Clang's older one (which refused std::optional). The inline variable is
# a global of each rank.
e2e_program(cxx17 ${CONFORMANCE_PROGRAMS}/cxx17.cpp)
add_test(NAME conformance.cxx17_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "rank 3: total 15 of 42, text odd, half none, 3 calls"
  -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 4 ${E2E_BIN}/cxx17
     ${CONFORMANCE_PROGRAMS}/cxx17.cpp)

# A resized type's bounds are ordinary bounds in a struct's type (MPICH): an outer struct holding
# an inner struct resized to its C size spans all its members (it started at the inner one, and
# the second and third structs of a send arrived with wrong fields). A subarray with a subsize
# of 0 is allowed (it was refused).
conformance_vs_mpich(resized_in_struct 2 "received 2: id 102, \\(2,e\\) \\(2\\.5,f\\)$")

# A user's MPI_Op that calls MPI (MPI_Type_size, MPI_Comm_rank) is its owner's: run where another
# rank's fiber or the scheduler delivered the message, it ended the run ("called outside a
# simulated rank") or got that rank's answers.
conformance_vs_mpich(user_op_calls_mpi 5 "rank 4: allreduce 10 5 100 10, reduce 0 0, iallreduce 10 5 100 10, every call its own$")

# One-sided operations above the eager limit (128 KiB accumulates and puts, a 384 KiB get) in
# fence and post/start/complete/wait epochs: their messages are read from the origin's buffers
# when the target receives them, so the buffers must live until then (was SIGSEGV in
# MPI_Win_fence, or a silent read of freed memory).
conformance_vs_mpich(rma_large_ops 4 "reversed rank 3: sum 0, transpose 264492908, neighbour 622271527, after replace 993884241")

# A linked list appended to by every rank through one-sided operations in one lock_all epoch.
conformance_vs_mpich(rma_linked_list 4 "list of 200: 50 50 50 50" 200)

# MINLOC and MAXLOC accumulates on the padded pair types (MPI_DOUBLE_INT, MPI_LONG_INT,
# MPI_SHORT_INT: elements after the first were lost, three corrupted the heap), the window's
# memory model (unified), and MPI_Win_test polled by a target that answers a message its origin
# needs before the epoch (MPI_Win_test used to block: a false deadlock).
conformance_vs_mpich(rma_pairs_and_polls 5 "rank 0: double \\(-5.5,101\\) \\(1,4\\) \\(4,3\\) long \\(0,0\\) \\(-1,4\\) short \\(0,3\\) \\(0,0\\)$")

# A lock on the caller's own window is held when MPI_Win_lock returns: another rank's operations
# wait for its unlock (was: they went in at once, overwrote its stores and finished early).
conformance_vs_mpich(rma_lock_own_window 8 "rank 0: 10 rounds, 0 stores overwritten while locked, 0 early done, checksum 154768419$")

# MPI_Comm_create_group: concurrent calls of two disjoint groups, then one of all ranks.
conformance_vs_mpich(comm_create_group 4 "comm_create_group: 4 ranks, 0 failed checks")
foreach(ranks 2 8)
  add_test(NAME conformance.comm_create_group.ranks${ranks} COMMAND ${EXPECT} 0
    -m "comm_create_group: ${ranks} ranks, 0 failed checks"
    -- env MPISIM_CPU=off ${RUN} -np ${ranks} -hosts 2 ${E2E_BIN}/comm_create_group)
endforeach()
# 4000 communicators made and freed: context ids are used again (MPICH on 2 ranks: on 4 it is
# slow on a 2-core machine).
conformance_vs_mpich(comm_free_loop 2 "comm_free_loop: 2 ranks, 4000 communicators, 0 failed")
# A receive left posted on a freed communicator: the next MPI_Comm_dup got its context, and the
# new communicator's message matched the old receive (a deadlock here, a wrong match in general).
e2e_program(comm_free_pending ${CONFORMANCE_PROGRAMS}/comm_free_pending.c)
foreach(hosts 1 2)
  add_test(NAME conformance.comm_free_pending_keeps_its_context.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0: new comm got 2, receive on the freed one done 0, cancelled 1, v -1$"
    -m "rank 2: new comm got 1, receive on the freed one done 0, cancelled 1, v -1$"
    -- env MPISIM_CPU=off ${RUN} -np 3 -hosts ${hosts} ${E2E_BIN}/comm_free_pending)
endforeach()
add_test(NAME conformance.comm_free_loop.ranks6 COMMAND ${EXPECT} 0
  -m "comm_free_loop: 6 ranks, 4000 communicators, 0 failed checks"
  -- env MPISIM_CPU=off ${RUN} -np 6 -hosts 2 ${E2E_BIN}/comm_free_loop)
# Logical operations on floating types: MPICH's MPI_LXOR result (its MPI_LAND and MPI_LOR abort).
foreach(hosts 1 2)
  add_test(NAME conformance.logical_ops_on_float.hosts${hosts} COMMAND ${EXPECT} 0
    -m "logical_float: 3 ranks lxor float 1 double 1$"
    -m "logical_float: 3 ranks land float 0 double 0$"
    -m "logical_float: 3 ranks lor float 1 double 1$"
    -- env MPISIM_CPU=off ${RUN} -np 3 -hosts ${hosts} ${E2E_BIN}/logical_float)
endforeach()
conformance_vs_mpich(type_get_name 1 "type_get_name: MPI_LONG_LONG: error 0, 'MPI_LONG_LONG_INT'")
conformance_vs_mpich(cart_sub_zero 4 "rank 1: sub of 2-D: MPI_COMM_NULL")
conformance_vs_mpich(keyval_double_free 2 "keyval_double_free: 0 errors, 1 delete callbacks")
conformance_vs_mpich(persistent_derived 4 "persistent_derived: 4 ranks, 0 failed checks")
conformance_vs_mpich(bottom_absolute 4 "bottom_absolute: 4 ranks, 0 failed checks")

# Process topologies of the distributed-graph kind and the neighbourhood collectives on
# Cartesian and distributed graphs: halo exchanges on a periodic and an open 4x3 grid (alltoall,
# alltoallw of ghost rows and columns, allgather, Ialltoall overlapped with compute, a duplicate
# keeps the topology); a graph (MPI_Graph_create), adjacent and general distributed graphs with
# weights queried back, and the v and w variants with displacements (6 ranks). Without a
# topology, a neighbourhood collective is an MPI error.
foreach(program neighbor_halo dist_graph neighbor_no_topology)
  e2e_program(${program} ${CONFORMANCE_PROGRAMS}/${program}.c)
endforeach()
conformance_vs_mpich(neighbor_halo 12 "neighbor_halo: 12 ranks on a 4x3 grid, 0 failed checks")
conformance_vs_mpich(dist_graph 6 "dist_graph: 6 ranks, 0 failed checks")
add_test(NAME conformance.neighbor_collective_needs_a_topology COMMAND ${EXPECT} 1
  -m "MPI_Neighbor_allgather: MPI_ERR_TOPOLOGY: MPI_COMM_WORLD has no process topology"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/neighbor_no_topology)
# MPI_x_c2f / MPI_x_f2c of every handle kind and of statuses; the converted handles work.
e2e_program(handle_conversion ${CONFORMANCE_PROGRAMS}/handle_conversion.c)
conformance_vs_mpich(handle_conversion 3
  "rank 1: got 100 from 0 tag 7 count 1, request null 1, message null 1")
# MPI_Type_match_size and MPI_Type_create_f90_*: MPICH's kinds and error classes.
e2e_program(type_match ${CONFORMANCE_PROGRAMS}/type_match.c)
conformance_vs_mpich(type_match 2 "f90_integer r=19: MPI_ERR_OTHER")
# MPI_Type_create_darray: BLOCK, CYCLIC and NONE, default and explicit dargs, C and Fortran
# order, as sends and as file views.
e2e_program(darray ${CONFORMANCE_PROGRAMS}/darray.c)
conformance_vs_mpich(darray 4
  "rank 3: C 6x7 block x cyclic\\(2\\): 9 elements, lb 0 extent 168, combiner darray 1, 12 ints: 1023 1024 1027 1030 1031 1034 1037 1038 1041"
  ${CMAKE_CURRENT_BINARY_DIR}/darray.dat)
# MPI_Pack_external in external32: big-endian bytes of the standard's sizes (long: 4 bytes,
# long double: IEEE quad), unpacked on another rank.
e2e_program(pack_external ${CONFORMANCE_PROGRAMS}/pack_external.c)
conformance_vs_mpich(pack_external 2
  "item 4 \\(16 bytes\\): 3f ff 80 00 00 00 00 00 00 00 00 00 00 00 00 00")
# Intercommunicators (docs/model.md): a coupled "atmosphere" and "ocean" exchange boundary data
# with wildcard receives, probe, broadcast across with MPI_ROOT / MPI_PROC_NULL, reduce, dup and
# merge; a master (local group MPI_COMM_SELF) serves workers with MPI_ANY_SOURCE. Both groups
# span the two host processes.
e2e_program(intercomm_coupled ${CONFORMANCE_PROGRAMS}/intercomm_coupled.c)
conformance_vs_mpich(intercomm_coupled 6 "rank 3: merged rank 5 of 6 inter 0 check 40")
e2e_program(intercomm_master_worker ${CONFORMANCE_PROGRAMS}/intercomm_master_worker.c)
conformance_vs_mpich(intercomm_master_worker 5
  "master: 4 workers, 20 results, sum of squares 2870, mismatches 0")
# The master's wildcard receives wait on the workers' group, the intercommunicator's remote group
# (a host holding only the master must not think it waits on itself alone).
add_test(NAME conformance.intercomm_master_worker_invariant
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map block --clocks-only ${RUN}
    ${E2E_BIN}/intercomm_master_worker 5)
# Every collective on intercommunicators of 2 and 3 ranks, contiguous and interleaved in
# MPI_COMM_WORLD, roots in either group, blocking and not (docs/model.md, Intercommunicators).
e2e_program(intercomm_collectives ${CONFORMANCE_PROGRAMS}/intercomm_collectives.c)
conformance_vs_mpich(intercomm_collectives 5
  "interleaved nonblocking ialltoall with iallreduce: 122119264 2198671667 439273024 5874327434 756426784")
# MPI_Comm_split (keys reversing the order, a color only one group has, MPI_UNDEFINED) and
# MPI_Comm_create (an empty group on one side) on intercommunicators, contiguous and interleaved.
e2e_program(intercomm_split ${CONFORMANCE_PROGRAMS}/intercomm_split.c)
conformance_vs_mpich(intercomm_split 5
  "interleaved split 1: rank 1: inter 1 rank 0 of 1, remote 2: 2 0, sum across 2")
# What mpisim does not do on an intercommunicator ends the run naming the call.
e2e_program(intercomm_unsupported ${CONFORMANCE_PROGRAMS}/intercomm_unsupported.c)
foreach(call Scan Iexscan Comm_split_type)
  string(TOLOWER ${call} arg)
  string(REPLACE "comm_" "" arg ${arg})
  add_test(NAME conformance.intercomm_${arg}_is_refused COMMAND ${EXPECT} 1
    -m "MPI_${call}: MPI_ERR_COMM: MPI_${call} on an intercommunicator is not supported by mpisim"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${E2E_BIN}/intercomm_unsupported ${arg})
endforeach()
add_test(NAME conformance.intercomm_cart_is_refused COMMAND ${EXPECT} 1
  -m "MPI_Cart_create: MPI_ERR_COMM: MPI_Cart_create on an intercommunicator is not supported"
  -- env MPISIM_CPU=off ${RUN} -np 4 ${E2E_BIN}/intercomm_unsupported cart)

# MPI-4.0 persistent collectives (docs/model.md): every MPI_*_init, the neighbourhood ones on a
# ring, started three times with new data (MPI_Start, MPI_Startall; MPI_Wait, MPI_Test,
# MPI_Waitall), their derived type and user op freed after the init calls.
e2e_program(persistent_collectives ${CONFORMANCE_PROGRAMS}/persistent_collectives.c)
# MPICH 4.0.2 gets persistent Gather, Allgather and Scatter wrong after their first start: mpisim
# checks them against the standard.
conformance_vs_mpich(persistent_collectives 4
  "persistent collectives: 4 ranks, 3 rounds, requests freed 1, total 1467219$")
foreach(hosts 1 2)
  add_test(NAME conformance.persistent_collectives_standard.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0: persistent gather, allgather, scatter: 0 wrong elements in 3 rounds$"
    -m "rank 3: persistent gather, allgather, scatter: 0 wrong elements in 3 rounds$"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ${E2E_BIN}/persistent_collectives standard)
endforeach()
# A persistent broadcast started 20 times costs what 20 MPI_Ibcast cost.
e2e_program(persistent_bcast_cost ${CONFORMANCE_PROGRAMS}/persistent_bcast_cost.c)
add_test(NAME conformance.persistent_bcast_costs_as_ibcast COMMAND ${EXPECT} 0
  -m "same prediction: persistent and nonblocking, [1-9][0-9]* ps"
  -- python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/same_prediction.py ${RUN} ${E2E_BIN}/persistent_bcast_cost 6
     persistent nonblocking)

# MPI-4.0 partitioned communication (docs/model.md): a halo exchange on a ring with partitions
# marked in several orders (MPI_Pready, _range, _list) and MPI_Parrived polling, as MPICH; errors
# of MPI_Pready return their classes; a receive partitioned unlike its send is refused.
e2e_program(partitioned ${CONFORMANCE_PROGRAMS}/partitioned.c)
conformance_vs_mpich(partitioned 4
  "partitioned: 4 ranks, 3 rounds, partitions seen arrived 48, checksum -1107360$")
add_test(NAME conformance.partitioned_errors COMMAND ${EXPECT} 0
  -m "rank 1: MPI_Pready on an inactive request: MPI_ERR_REQUEST$"
  -m "rank 1: MPI_Pready of partition 4 of 4: MPI_ERR_ARG$"
  -m "rank 1: MPI_Pready_range\\(2, 1\\): MPI_ERR_ARG$"
  -m "rank 1: MPI_Request_free of an active request: MPI_ERR_REQUEST$"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${E2E_BIN}/partitioned errors)
foreach(hosts 1 2)
  add_test(NAME conformance.partitioned_mismatch_is_refused.hosts${hosts} COMMAND ${EXPECT} 1
    -m "partitioned receive of 2 partitions matched a partitioned send of 4 partitions from rank"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ${E2E_BIN}/partitioned mismatch)
endforeach()

# MPI-4.0 sessions (docs/model.md): psets mpi://WORLD and mpi://SELF, a communicator of each made
# by MPI_Comm_create_from_group with an allreduce, a ring exchange and a broadcast on it, beside
# MPI_Init (with the errors of an unknown pset and of MPI_SESSION_NULL, and a session's own error
# handler) and, with "alone", without MPI_Init at all.
e2e_program(sessions ${CONFORMANCE_PROGRAMS}/sessions.c)
conformance_vs_mpich(sessions 3
  "rank 2: sum 60, from left 1, bcast 4242, self size 1, congruent to world 1$")
add_test(NAME conformance.sessions_alone_matches_mpich COMMAND ${EXPECT} 0
  -m "all three agree" -m "sessions: 3 ranks, without MPI_Init, finalized$"
  -- ${COMPARE_WITH_MPICH} ${CMAKE_BINARY_DIR}/bin 3 ${E2E_BIN}/sessions
     ${CONFORMANCE_PROGRAMS}/sessions.c alone)

# Sessions and the communicators made from their groups are recorded (format 7) and replay
# exactly, with MPI_Init beside them and without it, and on another machine as live there.
replay_equals_live(sessions sp2 sessions 3)
replay_equals_live(sessions_alone sp2 sessions 3 alone)
# MPI_Intercomm_create_from_groups (docs/model.md, Sessions): the even and the odd world ranks of
# mpi://WORLD joined, with receives from any source and any tag pending on MPI_COMM_WORLD and a
# duplicate of it all along (they get the messages sent after, not the leaders' exchange);
# sizes, remote group, the call's error handler, point-to-point, an allreduce and a broadcast
# across, a merge. A remote leader of the local group is refused by name.
e2e_program(intercomm_from_groups ${CONFORMANCE_PROGRAMS}/intercomm_from_groups.c)
conformance_vs_mpich(intercomm_from_groups 5
  "rank 3: pending receives got 102 from 2 tag 11, 202 from 2 tag 12$")
foreach(hosts 1 2)
  add_test(NAME conformance.intercomm_from_groups_leader_inside_is_refused.hosts${hosts}
    COMMAND ${EXPECT} 1
    -m "MPI_Intercomm_create_from_groups: MPI_ERR_RANK: the remote leader \\(world rank [0-9]\\) is a member of the local group$"
    -- env MPISIM_CPU=off ${RUN} -np 5 -hosts ${hosts} ${E2E_BIN}/intercomm_from_groups leader_inside)
endforeach()
replay_equals_live(intercomm_from_groups sp2 intercomm_from_groups 5)

# The tool information interface with no variables and no categories (docs/model.md): counts 0,
# MPI_T errors by index, handle, name and session, MPI_T_ERR_NOT_INITIALIZED outside a counted
# MPI_T_init_thread / MPI_T_finalize; no event types or sources (MPI-4.0), none of their handles.
e2e_program(tool_interface ${CONFORMANCE_PROGRAMS}/tool_interface.c)
add_test(NAME conformance.tool_interface_exports_no_variables COMMAND ${EXPECT} 0
  -m "^cvar_get_num before init: MPI_T_ERR_NOT_INITIALIZED$" -m "^cvars \\+ pvars \\+ categories: 0$"
  -m "^cvar_get_info\\(0\\): MPI_T_ERR_INVALID_INDEX$"
  -m "^cvar_read\\(MPI_T_CVAR_HANDLE_NULL\\): MPI_T_ERR_INVALID_HANDLE$"
  -m "^pvar_start on a freed session: MPI_T_ERR_INVALID_SESSION$"
  -m "^category_get_num after one of two finalizes: MPI_SUCCESS$"
  -m "^pvar_get_num after the last finalize: MPI_T_ERR_NOT_INITIALIZED$"
  -m "^event_get_num before init: MPI_T_ERR_NOT_INITIALIZED$" -m "^event types \\+ sources: 0$"
  -m "^event_handle_alloc\\(0\\): MPI_T_ERR_INVALID_INDEX$"
  -m "^source_get_info\\(0\\): MPI_T_ERR_INVALID_INDEX$"
  -m "^category_get_num_events\\(0\\): MPI_T_ERR_INVALID_INDEX$"
  -m "^event_register_callback\\(NULL\\): MPI_T_ERR_INVALID_HANDLE$"
  -m "^event_handle_alloc\\(0\\) after the last finalize: MPI_T_ERR_NOT_INITIALIZED$"
  -m "^rank 0: 0 surprises$" -m "^rank 1: 0 surprises$"
  -- env MPISIM_CPU=off ${RUN} -np 2 -hosts 2 ${E2E_BIN}/tool_interface)
