# Network models on overlapping messages (link_bound.c): the NIC model never predicts more
# bandwidth than the link has; the latency model, which ignores overlap, does.
e2e_program(link_bound ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/link_bound.c)
# 64 x 4 MiB from one rank to another (IMB Uniband's pattern): 256 MiB at 12 GB/s is 22.37 ms,
# at 37 MB/s 7.25 s.
add_test(NAME e2e.network.nic_uniband_cluster COMMAND ${EXPECT} 0
  -m "uniband: 64 x 4194304 bytes in 0\\.02(23[7-9]|2[4-9]|[3-9])[0-9]* s: .* within the link"
  -- ${RUN} -np 2 --network nic --cpu off ${E2E_BIN}/link_bound uniband 64 4194304 12e9)
add_test(NAME e2e.network.nic_uniband_sp2 COMMAND ${EXPECT} 0
  -m "uniband: 64 x 4194304 bytes in 7\\.[2-9][0-9]* s: .* within the link"
  -- ${RUN} -np 2 --machine sp2 --network nic --cpu off ${E2E_BIN}/link_bound uniband 64 4194304
  37e6)
# Eight ranks send 16 MiB each to a ninth at once: 128 MiB through its NIC.
add_test(NAME e2e.network.nic_incast_cluster COMMAND ${EXPECT} 0
  -m "incast: 8 x 16777216 bytes in .* within the link"
  -- ${RUN} -np 9 --network nic --cpu off ${E2E_BIN}/link_bound incast 16777216 12e9)
add_test(NAME e2e.network.latency_model_ignores_overlap COMMAND ${EXPECT} 0
  -m "uniband: 64 x 4194304 bytes .* FASTER THAN THE LINK"
  -- ${RUN} -np 2 --network latency --cpu off ${E2E_BIN}/link_bound uniband 64 4194304 12e9)
add_test(NAME e2e.network.nic_on_two_hosts_is_refused_at_start_up COMMAND ${EXPECT} 2
  -m "MPISIM_NETWORK=nic is only exact on one host process so far"
  -- ${RUN} -np 2 -hosts 2 --network nic --cpu off ${E2E_BIN}/link_bound uniband 2 8 12e9)
