# Faults of the target program and of the run itself (docs/model.md, "Limits"; docs/observing.md,
# "Outputs" and "Progress"): every one named, with a non-zero exit code, never a hang.
e2e_program(faults ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/faults.c)
set(FAULTS ${E2E_BIN}/faults)

foreach(hosts 1 2)
  # Signals in a rank: the rank, its last MPI call and the signal; mpiexec's code (128 + signal);
  # the lines the ranks printed before it, though stdout is a pipe (its buffer is flushed).
  add_test(NAME e2e.fault.segv_names_rank.hosts${hosts} COMMAND ${EXPECT} 139
    -m "rank 1 received SIGSEGV \\(invalid memory access\\) in its own code after MPI_Barrier"
    -m "faults: rank 1 started \\(segv\\)"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} ${FAULTS} segv)
  add_test(NAME e2e.fault.abort_names_rank.hosts${hosts} COMMAND ${EXPECT} 134
    -m "rank 1 received SIGABRT \\(abort\\(\\) called" -m "after MPI_Barrier"
    -m "faults: rank 1 started \\(abort\\)"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} ${FAULTS} abort)
  # exit(3) before MPI_Finalize ends the run with code 3, as mpiexec does; not a deadlock.
  add_test(NAME e2e.fault.exit_before_finalize_ends_run.hosts${hosts} COMMAND ${EXPECT} 3
    -m "rank 1 called exit\\(3\\) before MPI_Finalize \\(its last MPI call: MPI_Barrier\\)"
    -x "DEADLOCK"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} ${FAULTS} exit)

  # Simulated time past its limit: the call and the rank named, exit code 1.
  add_test(NAME e2e.time.huge_latency_is_named.hosts${hosts} COMMAND ${EXPECT} 1
    -m "rank 0: MPI_Send: a message of 4 bytes to rank 1: simulated time would pass the limit of 2000000 s \\(23 days\\)"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} --latency 1500000s ${FAULTS} send)

  # Limits: MPISIM_TIME_LIMIT ends a rank working and polling MPI_Test for a finalized peer, with the
# report.
  add_test(NAME e2e.limit.time_limit_ends_polling.hosts${hosts} COMMAND ${EXPECT} 124
    -m "MPISIM_TIME_LIMIT reached: rank 0 passed 1 ms of simulated time"
    -m "rank 0 was entering (MPI_Test|MPISIM_Compute)"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} --time-limit 1ms ${FAULTS} poll)
  # The limit may strike inside rank 0's call or while every rank waits between its polls.
  add_test(NAME e2e.limit.wall_limit_ends_polling.hosts${hosts} COMMAND ${EXPECT} 124
    -m "MPISIM_WALL_LIMIT reached: the run took more than 1 s of wall time; (rank 0 was entering (MPI_Test|MPISIM_Compute)|every rank of this host process was waiting \\(rank 0 in (MPI_Test|MPISIM_Compute)\\))"
    -- env MPISIM_CPU=off ${RUN} -np 2 -hosts ${hosts} --wall-limit 1s ${FAULTS} poll)
endforeach()

add_test(NAME e2e.fault.fpe_names_rank COMMAND ${EXPECT} 136
  -m "rank 1 received SIGFPE \\(arithmetic error" -m "after MPI_Barrier"
  -- env MPISIM_CPU=off ${RUN} -np 2 ${FAULTS} fpe)
add_test(NAME e2e.limit.time_limit_report COMMAND ${EXPECT} 124
  -m "STOPPED: MPISIM_TIME_LIMIT reached" -m "predicted time: 0\\.001"
  -m "ranks that did not call MPI_Finalize \\(1\\): 0"
  -- env MPISIM_CPU=off ${RUN} -np 2 --time-limit 1ms ${FAULTS} poll)

add_test(NAME e2e.time.compute_past_limit_is_named COMMAND ${EXPECT} 1
  -m "rank 0: MPISIM_Compute\\(1e\\+07 s\\): simulated time would pass the limit of 2000000 s \\(23 days\\) \\(the rank is at 0\\.0"
  -- env MPISIM_CPU=off ${RUN} -np 1 ${FAULTS} compute 1e7)
# Two charges that pass the limit together (each alone fits); the timeline stays drawable.
add_test(NAME e2e.time.compute_sum_past_limit_is_named COMMAND ${EXPECT} 1
  -m "rank 1: MPISIM_Compute\\(1\\.5e\\+06 s\\): simulated time would pass the limit of 2000000 s \\(23 days\\) \\(the rank is at 1500000\\.0"
  -m "timeline: "
  -- env MPISIM_CPU=off ${RUN} -np 2 ${FAULTS} compute 1.5e6 2)
add_test(NAME e2e.time.compute_near_limit_is_drawn COMMAND ${EXPECT} 0
  -m "predicted time: 1999999\\.0000" -m "timeline: "
  -- env MPISIM_CPU=off ${RUN} -np 2 ${FAULTS} compute 999999.5 2)
add_test(NAME e2e.time.nan_compute_is_an_error COMMAND ${EXPECT} 1
  -m "rank 0: MPISIM_Compute: MPI_ERR_ARG: the time to charge is not a number"
  -- env MPISIM_CPU=off ${RUN} -np 1 ${FAULTS} compute nan)
add_test(NAME e2e.time.huge_cpu_scale_is_named COMMAND ${EXPECT} 1
  -m "times MPISIM_CPU_SCALE=1e\\+12\\): simulated time would pass the limit of 2000000 s"
  -- ${RUN} -np 2 --cpu-scale 1e12 ${E2E_BIN}/jacobi1d 2000 50)
add_test(NAME e2e.time.latency_past_limit_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_LATENCY.*too large \\(the largest time is 2000000 s, the limit of simulated time\\)"
  -- ${RUN} -np 2 --latency 2000001s ${FAULTS} send)

# The wall limit, in MPI (the full report) and in a rank's endless loop (a partial report).
add_test(NAME e2e.limit.wall_limit_in_mpi COMMAND ${EXPECT} 124
  # The limit falls either as rank 0 enters MPI_Test or while it polls from the idle loop.
  -m "STOPPED: MPISIM_WALL_LIMIT reached: the run took more than 1 s of wall time; (rank 0 was entering (MPI_Test|MPISIM_Compute)|every rank of this host process was waiting \\(rank 0 in (MPI_Test|MPISIM_Compute))"
  -m "predicted time: "
  -- env MPISIM_CPU=off ${RUN} -np 2 --wall-limit 1s ${FAULTS} poll)
add_test(NAME e2e.limit.wall_limit_in_endless_loop COMMAND ${EXPECT} 124
  -m "MPISIM_WALL_LIMIT reached: the run took more than 1 s of wall time; rank 1 is running its own code after MPI_Barrier"
  -m "==== mpisim report \\(partial\\) ====" -m "rank 0: waiting" -m "rank 1: running"
  -- env MPISIM_CPU=off ${RUN} -np 2 --wall-limit 1s ${FAULTS} spin)
# A rank that waits on a flag another rank of its node sets in a shared-memory window, with no MPI
# call in the loop, never ends under mpisim (the other rank runs only when this one calls MPI):
# after MPISIM_OWN_CODE_NOTE of host time in its own code, a note says so, naming the rank and its
# last call; `off` silences it. With MPI_Win_sync in the loop the same program runs.
e2e_program(shared_flag_spin ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/shared_flag_spin.c)
add_test(NAME e2e.limit.own_code_note_names_the_waiting_rank COMMAND ${EXPECT} 124
  -m "^mpisim: note: rank 1 has run its own code for 1 s of host time without calling MPI since MPI_Send[.]"
  -m "Put an MPI call in the waiting loop [(]MPI_Win_sync, MPI_Iprobe[)]"
  -m "MPISIM_WALL_LIMIT reached: the run took more than 3 s of wall time; rank 1 is running its own code after MPI_Send"
  -- env MPISIM_OWN_CODE_NOTE=1s ${RUN} -np 2 --ranks-per-node 2 --wall-limit 3s ${E2E_BIN}/shared_flag_spin)
add_test(NAME e2e.limit.own_code_note_off COMMAND ${EXPECT} 124 -x "note:"
  -m "MPISIM_WALL_LIMIT reached: the run took more than 2 s of wall time; rank 1 is running its own code"
  -- ${RUN} -np 2 --ranks-per-node 2 --wall-limit 2s --own-code-note off ${E2E_BIN}/shared_flag_spin)
add_test(NAME e2e.shared_flag_with_win_sync_runs COMMAND ${EXPECT} 0 -x "note:"
  -m "^rank 1 read 42 after the flag$"
  -- env MPISIM_OWN_CODE_NOTE=1s ${RUN} -np 2 --ranks-per-node 2 ${E2E_BIN}/shared_flag_spin sync)
# SIGINT and SIGTERM: the report of what ran so far, 128 + the signal.
add_test(NAME e2e.limit.sigint_prints_report COMMAND ${EXPECT} 130
  -m "STOPPED: interrupted by SIGINT" -m "predicted time: "
  -- ${CMAKE_CURRENT_SOURCE_DIR}/e2e/interrupt.sh INT 2 env MPISIM_CPU=off MPISIM_RANKS=2 ${FAULTS} poll)
add_test(NAME e2e.limit.sigterm_in_endless_loop COMMAND ${EXPECT} 143
  -m "interrupted by SIGTERM; rank 1 is running its own code" -m "mpisim report \\(partial\\)"
  -- ${CMAKE_CURRENT_SOURCE_DIR}/e2e/interrupt.sh TERM 2 env MPISIM_CPU=off MPISIM_RANKS=2 ${FAULTS} spin)
# Progress: a line once a run takes more than 3 s, unless MPISIM_PROGRESS=off.
add_test(NAME e2e.progress_line COMMAND ${EXPECT} 124
  -m "mpisim: [0-9]+ s: 1 of 2 ranks finished, simulated time [0-9.]+ [mu]?s, [0-9]+ messages"
  -- env MPISIM_CPU=off ${RUN} -np 2 --wall-limit 4s ${FAULTS} poll)
add_test(NAME e2e.progress_off COMMAND ${EXPECT} 124
  -x "ranks finished"
  -- env MPISIM_CPU=off MPISIM_PROGRESS=off ${RUN} -np 2 --wall-limit 4s ${FAULTS} poll)

# Output paths are checked before the run starts.
add_test(NAME e2e.output.trace_to_folder_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_TRACE=/tmp is a folder; give the path of a file in it, e.g. /tmp/out" -x "faults: rank"
  -- env MPISIM_CPU=off ${RUN} -np 2 --trace /tmp ${FAULTS} send)
add_test(NAME e2e.output.matrix_in_missing_folder_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_COMM_MATRIX=/nonexistent/m.csv: the folder /nonexistent does not exist" -x "faults: rank"
  -- env MPISIM_CPU=off ${RUN} -np 2 --comm-matrix /nonexistent/m.csv ${FAULTS} send)
add_test(NAME e2e.output.record_to_file_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_RECORD=${FAULTS} is a file, not a folder"
  -- env MPISIM_CPU=off ${RUN} -np 2 --record ${FAULTS} ${FAULTS} send)
add_test(NAME e2e.output.report_in_missing_folder_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_REPORT=/nonexistent/r.json: the folder /nonexistent does not exist"
  -- env MPISIM_CPU=off ${RUN} -np 2 --report /nonexistent/r.json ${FAULTS} send)

# mpisim-replay: a few hundred mutants of real records (of every record format 3, 4, 6 and 7
# operation too: one-sided communication in fence, post/start/complete/wait and passive target
# epochs; MPI-IO, whose program makes and deletes its file in the test's folder; generalized
# requests and sessions) end cleanly (exit 0, 1 or 2), never with a signal or a hang; checked fields give
# file:line errors.
add_test(NAME e2e.replay_fuzz
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/replay_fuzz.py ${RUN}
    $<TARGET_FILE:mpisim-replay> ${E2E_BIN}/invariant 300
    ${E2E_BIN}/record_coverage cart_halo topologies persistent groups nonblocking buffered probes
    persistent_collectives isendrecv idup partitioned intercomm pair_types
    ${E2E_BIN}/rma fence pscw ${E2E_BIN}/rma_passive detail
    ${E2E_BIN}/file_io replay_fuzz_file_io.dat ${E2E_BIN}/grequest all ${E2E_BIN}/sessions alone)
set_tests_properties(e2e.replay_fuzz PROPERTIES TIMEOUT 480)
