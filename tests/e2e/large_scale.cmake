# Predicting runs larger than the host (docs/large-scale.md): memory folding and compute
# sampling, with exact expectations on 1 and 2 host processes.
e2e_program(large_scale ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/large_scale.c)
set(LARGE_SCALE ${E2E_BIN}/large_scale)
set(CHECK_LARGE_SCALE ${CMAKE_CURRENT_SOURCE_DIR}/e2e/check_large_scale.py ${RUN} ${E2E_BIN})

# 1 000 ranks x 64 MiB (64 GiB of arrays) fold into well under 1 GiB, with the same prediction on
# 1 and 2 host processes. Each rank writes every page of its first 2 MiB and a byte in every
# further MiB: 2 GiB that would be resident unfolded (a page fault costs microseconds: faulting in
# all 64 GiB would take many minutes; e2e.fold.auto_100_ranks writes every page).
add_test(NAME e2e.fold.shared_malloc_1000_ranks_64MiB COMMAND ${CHECK_LARGE_SCALE} fold1000
  --max-peak-mib 1024 --folded-blocks 1000 -- -- -np 1000 ${LARGE_SCALE} fold 64 2)
add_test(NAME e2e.fold.auto_100_ranks COMMAND ${CHECK_LARGE_SCALE} auto100
  --max-peak-mib 1024 --folded-blocks 300 -- MPISIM_AUTO_SHARED_MALLOC=1MiB -- -np 100
  ${LARGE_SCALE} auto 4)
foreach(hosts 1 2)
  # Folded pages are shared: a rank sees another's writes (contents are garbage by design). A
  # site's ring of pages is 128 MiB: blocks of that size all map the whole ring.
  add_test(NAME e2e.fold.shared_malloc_shares_pages.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 1 sees rank 0's write: yes"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ${LARGE_SCALE} fold 128 1)
  add_test(NAME e2e.fold.auto_folds_large_blocks_only.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 1 sees rank 0's write: yes" -x "rank 1 sees rank 0's write: no"
    -m "small blocks private and realloc copied: yes" -m "folded memory: 12 blocks from 3 call sites"
    -- env MPISIM_CPU=off MPISIM_AUTO_SHARED_MALLOC=1MiB ${RUN} -np 4 -hosts ${hosts}
    ${LARGE_SCALE} auto 128)
endforeach()
# Without MPISIM_AUTO_SHARED_MALLOC nothing is folded: each rank has its own pages.
add_test(NAME e2e.fold.auto_off_keeps_blocks_private COMMAND ${EXPECT} 0
  -m "rank 1 sees rank 0's write: no" -m "small blocks private and realloc copied: yes"
  -x "folded memory"
  -- env MPISIM_CPU=off ${RUN} -np 4 ${LARGE_SCALE} auto 8)
add_test(NAME e2e.fold.bad_shared_free_is_named COMMAND ${EXPECT} 1
  -m "rank 0: MPISIM_SHARED_FREE\\(0x[0-9a-f]+\\): not a block of MPISIM_SHARED_MALLOC"
  -- env MPISIM_CPU=off ${RUN} -np 1 ${LARGE_SCALE} badfree)
add_test(NAME e2e.fold.bad_threshold_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_AUTO_SHARED_MALLOC=0 is not valid: it must be greater than zero \\(or off\\); allowed: off, or a size"
  -- env MPISIM_AUTO_SHARED_MALLOC=0 ${RUN} -np 1 ${LARGE_SCALE} fold 1)
add_test(NAME e2e.fold.bad_threshold_word_is_refused COMMAND ${EXPECT} 2
  -m "MPISIM_AUTO_SHARED_MALLOC" -m "allowed: off, or a size"
  -- env MPISIM_AUTO_SHARED_MALLOC=big ${RUN} -np 1 ${LARGE_SCALE} fold 1)

# Sampling: 10 bodies charging 1, 2, 1, 2, ... ms on 4 ranks.
foreach(hosts 1 2)
  # Threshold 0.5: after 1 and 2 ms (relative deviation 1/3) the other 8 bodies are skipped and
  # charged the mean, 1.5 ms: 15 ms.
  add_test(NAME e2e.sample.local_threshold_skips.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0 ran 2 bodies; clock 15000000000 ps" -m "bodies run by all ranks: 8$"
    -m "sampled sites:" -m "large_scale.c:[0-9]+ +local +8 +32 +1.5"
    -- env MPISIM_CPU=off MPISIM_SAMPLING_REPORT=on ${RUN} -np 4 -hosts ${hosts}
    ${LARGE_SCALE} sample local 5 0.5)
  # Threshold 0.01 is never reached: 5 samples (1, 2, 1, 2, 1 ms), then 5 x their mean 1.4 ms.
  add_test(NAME e2e.sample.local_iterations_cap.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0 ran 5 bodies; clock 14000000000 ps" -m "bodies run by all ranks: 20$"
    -- env MPISIM_CPU=off ${RUN} -np 4 -hosts ${hosts} ${LARGE_SCALE} sample local 5 0.01)
  # MPISIM_SAMPLING=off runs every body: 1, 2, ... = 15 ms, 40 executions.
  add_test(NAME e2e.sample.off_runs_every_body.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0 ran 10 bodies; clock 15000000000 ps" -m "bodies run by all ranks: 40$"
    -- env MPISIM_CPU=off MPISIM_SAMPLING=off ${RUN} -np 4 -hosts ${hosts}
    ${LARGE_SCALE} sample local 5 0.5)
endforeach()
# Global: rank 0 takes the site's 5 samples, every other rank of its host process charges their
# mean (1.4 ms) 10 times. Each host process samples once: 5 bodies on 1, 10 on 2 host processes,
# the same prediction.
add_test(NAME e2e.sample.global_shared_by_host.hosts1 COMMAND ${EXPECT} 0
  -m "rank 0 ran 5 bodies; clock 14000000000 ps" -m "bodies run by all ranks: 5$"
  -- env MPISIM_CPU=off ${RUN} -np 4 ${LARGE_SCALE} sample global 5 0.01)
add_test(NAME e2e.sample.global_shared_by_host.hosts2 COMMAND ${EXPECT} 0
  -m "rank 0 ran 5 bodies; clock 14000000000 ps" -m "bodies run by all ranks: 10$"
  -- env MPISIM_CPU=off ${RUN} -np 4 -hosts 2 ${LARGE_SCALE} sample global 5 0.01)
add_test(NAME e2e.sample.same_prediction_on_2_hosts COMMAND ${CHECK_LARGE_SCALE} sample_global
  --site-samples 5 --site-skipped 35 -- -- -np 4 ${LARGE_SCALE} sample global 5 0.01)
# A cold first execution (7 ms, then 1 ms) is a warm-up, left out of the mean: after 7, 1, 1 ms
# the other 97 bodies are charged 1 ms, 106 ms as when every body runs (it was 160 ms: the
# first sample kept the deviation high until 10 samples, whose mean 1.6 ms the rest were charged).
add_test(NAME e2e.sample.cold_first_execution_is_a_warm_up COMMAND ${EXPECT} 0
  -m "rank 0 ran 3 bodies; clock 106000000000 ps" -m "large_scale.c:[0-9]+ +local +6 +194 +1 ms"
  -- env MPISIM_CPU=off MPISIM_SAMPLING_REPORT=on ${RUN} -np 2 ${LARGE_SCALE} warmup 10 0.01)
add_test(NAME e2e.sample.cold_first_execution_unsampled COMMAND ${EXPECT} 0
  -m "rank 0 ran 100 bodies; clock 106000000000 ps"
  -- env MPISIM_CPU=off MPISIM_SAMPLING=off ${RUN} -np 2 ${LARGE_SCALE} warmup 10 0.01)
add_test(NAME e2e.sample.bad_iterations_is_an_error COMMAND ${EXPECT} 1
  -m "MPISIM_SAMPLE_LOCAL at .*large_scale.c:[0-9]+: iterations must be >= 1"
  -- env MPISIM_CPU=off ${RUN} -np 1 ${LARGE_SCALE} sample local 0 0.5)
# Ranks that cannot fit in any machine's memory (10^9 x 5 KiB: 4.7 TiB) are refused before they
# exist, naming what they need, instead of growing until the kernel kills the run.
add_test(NAME e2e.ranks_beyond_memory_are_refused_at_once COMMAND ${EXPECT} 2
  -m "1000000000 ranks per host process need at least [0-9.]+ TiB of memory .*available, enough for about [0-9]+ ranks per host process"
  -x "predicted time"
  -- ${RUN} -np 1000000000 ${LARGE_SCALE} fold 1 1)

# A machine that runs out of memory during a run: the run ends with its report and a message
# before the kernel kills it (here a reserve larger than any machine makes every run "short").
add_test(NAME e2e.memory_reserve_ends_the_run COMMAND ${EXPECT} 1
  -m "the machine has only [0-9.]+ [KMGT]?i?B of memory left \\(MPISIM_MEMORY_RESERVE is [0-9.]+ [PT]iB\\)"
  -m "predicted time"
  -- ${RUN} -np 8 --cpu off --memory-reserve 1000TiB ${E2E_BIN}/jacobi1d 8 200000)

# A rank that waits for every other at once (MPI_Gatherv's root posts a receive per source):
# each message is matched against the receives of its own source only, so 20 000 ranks take
# well under a second; the prediction grows by the root's NIC time per message, the same on 1
# and 2 host processes, and every rank's ints are in their place.
e2e_program(gatherv ${PROJECT_SOURCE_DIR}/benchmarks/micro/gatherv.c)
foreach(hosts 1 2)
  add_test(NAME e2e.scale.gatherv_20000_ranks.hosts${hosts} COMMAND ${EXPECT} 0
    -m "^gatherv verified$" -m "predicted time: 0.004001500667 s"
    -- env MPISIM_CPU=off ${RUN} -np 20000 -hosts ${hosts} ${E2E_BIN}/gatherv)
endforeach()
