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
# Inside a node the same, at the intra-node bandwidth: fifteen ranks send 1 MiB each to a
# sixteenth of their node, 15 MiB through its memory at 20 GB/s (786 us; 56 us before nic v4).
add_test(NAME e2e.network.nic_incast_inside_a_node COMMAND ${EXPECT} 0
  -m "incast: 15 x 1048576 bytes in 0\\.000(78[6-9]|79)[0-9]* s: .* within the link"
  -- ${RUN} -np 16 --ranks-per-node 16 --cpu off ${E2E_BIN}/link_bound incast 1048576 20e9)
# A message keeps the links busy for its bytes and the overhead of each packet or flit, also a
# wormhole message of one flit (contention v3: 1 000 x 8 B crossed an ethernet-1996 link in
# 1.46 ms, where the link needs 8.07 ms), and inside a node whose ranks talk through the network
# (nic v5: 100 x 4 KiB between the ranks of an sp2 node in 0.74 ms, where the link needs
# 11.07 ms). One-packet messages pay their packet overhead under contention as under nic
# (1 000 x 1 000 B with 1 us per packet took 85.8 us, where nic says 1 084.8 us).
add_test(NAME e2e.network.contention_one_flit_messages_within_the_link COMMAND ${EXPECT} 0
  -m "uniband: 1000 x 8 bytes in 0\\.0095[0-9]* s: .* within the link"
  -- ${RUN} -np 2 --machine ethernet-1996 --switching wormhole --flit-size 8 --network contention
     --cpu off ${E2E_BIN}/link_bound uniband 1000 8 991473)
add_test(NAME e2e.network.nic_one_flit_messages_inside_a_node_within_the_link COMMAND ${EXPECT} 0
  -m "uniband: 100 x 4096 bytes in 0\\.011[0-9]* s: .* within the link"
  -- ${RUN} -np 2 --machine sp2 --ranks-per-node 2 --switching wormhole --flit-size 4096 --cpu off
     ${E2E_BIN}/link_bound uniband 100 4096 37e6)
foreach(network nic contention)
  add_test(NAME e2e.network.${network}_charges_each_packets_overhead COMMAND ${EXPECT} 0
    -m "uniband: 1000 x 1000 bytes in 0\\.00108[0-9]* s: .* within the link"
    -- ${RUN} -np 2 --network ${network} --packet-overhead 1us --packet-size 1500
       --send-overhead 0 --recv-overhead 0 --cpu off ${E2E_BIN}/link_bound uniband 1000 1000 12e9)
endforeach()
# 64 buffered sends of 64 KiB (eager), then MPI_Buffer_detach: the sends return after their
# overheads (12.8 us), detach once the NIC has sent the 4 MiB, 200 ns + 64 x 5.461 us (it used to
# return at 12.8 us), on one host process and on two.
e2e_program(bsend_detach ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/bsend_detach.c)
foreach(hosts 1 2)
  add_test(NAME e2e.network.bsend_detach_waits_for_the_nic.hosts${hosts} COMMAND ${EXPECT} 0
    -m "rank 0: 64 buffered sends of 65536 bytes returned at 0\\.000012800 s, detach at 0\\.000349725 s$"
    -m "rank 1: received 64, last bytes sum -448"
    -- ${RUN} -np 2 -hosts ${hosts} --cpu off ${E2E_BIN}/bsend_detach 64 65536)
endforeach()
add_test(NAME e2e.network.latency_model_ignores_overlap COMMAND ${EXPECT} 0
  -m "uniband: 64 x 4194304 bytes .* FASTER THAN THE LINK"
  -m "switching, network latency v1\\)"
  -- ${RUN} -np 2 --network latency --cpu off ${E2E_BIN}/link_bound uniband 64 4194304 12e9)
# The default is the NIC model, named with its version in the report and in a recording, on one
# host process and on two.
foreach(hosts 1 2)
  add_test(NAME e2e.network.default_is_nic.hosts${hosts} COMMAND ${EXPECT} 0
    -m "uniband: 64 x 4194304 bytes in 0\\.02(23[7-9]|2[4-9]|[3-9])[0-9]* s: .* within the link"
    -m "switching, network nic v5\\)"
    -- ${RUN} -np 2 -hosts ${hosts} --cpu off ${E2E_BIN}/link_bound uniband 64 4194304 12e9)
endforeach()
add_test(NAME e2e.network.recording_names_the_model COMMAND ${EXPECT} 0
  -m "\"network_model\": \"nic v5\""
  -- sh -c "rm -rf nic_record && ${RUN} -np 2 --cpu off --record nic_record ${E2E_BIN}/link_bound uniband 2 8 12e9 >/dev/null && cat nic_record/meta.json")
# A size segment whose line starts below the latency (a calibrated intercept, -2 us here) is
# followed by the NIC model too, on one host process and on two: a one-way rendezvous message of
# n bytes takes o_s + o_r + 2 L (request and clear-to-send) - 2 us + n / 7 GB/s, 38.849143 us for
# 256 KiB and 151.196572 us for 1 MiB (the cluster preset: o_s = o_r = 200 ns, L = 1.5 us).
foreach(hosts 1 2)
  add_test(NAME e2e.network.nic_follows_a_negative_intercept.hosts${hosts} COMMAND ${EXPECT} 0
    -m "^262144 3\\.884914300000e-05$" -m "^1048576 1\\.511965720000e-04$"
    -- ${RUN} -np 2 -hosts ${hosts} --cpu off --segments "256KiB -2us 7GB/s" ${E2E_BIN}/pingpong
    262144 1048576)
endforeach()
# On several host processes each node's queues are where its ranks are: the same figures.
add_test(NAME e2e.network.nic_uniband_two_hosts COMMAND ${EXPECT} 0
  -m "uniband: 64 x 4194304 bytes in 0\\.02(23[7-9]|2[4-9]|[3-9])[0-9]* s: .* within the link"
  -- ${RUN} -np 2 -hosts 2 --network nic --cpu off ${E2E_BIN}/link_bound uniband 64 4194304 12e9)
add_test(NAME e2e.network.nic_incast_three_hosts COMMAND ${EXPECT} 0
  -m "incast: 8 x 16777216 bytes in .* within the link"
  -- ${RUN} -np 9 -hosts 3 --network nic --cpu off ${E2E_BIN}/link_bound incast 16777216 12e9)
add_test(NAME e2e.network.nic_refuses_a_map_that_splits_a_node COMMAND ${EXPECT} 2
  -m "MPISIM_NETWORK=nic keeps each node's ranks on one host process, but MPISIM_MAP=cyclic puts rank 0 on host 0 and rank 1 of the same node"
  -m "use MPISIM_MAP=block"
  -- ${RUN} -np 4 -hosts 2 --map cyclic --ranks-per-node 2 --network nic --cpu off
  ${E2E_BIN}/link_bound uniband 2 8 12e9)
# Fewer nodes than host processes: the last host process simulates no rank.
add_test(NAME e2e.network.nic_more_hosts_than_nodes COMMAND ${EXPECT} 0
  -m "uniband: 2 x 8 bytes in .* within the link"
  -m "4 ranks on 3 host process"
  -- ${RUN} -np 4 -hosts 3 --ranks-per-node 2 --network nic --cpu off
  ${E2E_BIN}/link_bound uniband 2 8 12e9)
# The central invariant under the NIC model: identical on 1 to 4 host processes, every protocol
# with DET off and on (block maps of whole nodes: one rank per node, then three).
foreach(pattern pingpong ring halo2d collectives farm waitany)
  add_test(NAME e2e.invariant_nic.${pattern}
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map block --network nic ${RUN}
      ${E2E_BIN}/invariant 12 ${pattern})
endforeach()
foreach(pattern pingpong halo2d collectives)
  add_test(NAME e2e.invariant_nic_nodes.${pattern}
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/invariant.py --map block --ranks-per-node 3
      --network nic ${RUN} ${E2E_BIN}/invariant 12 ${pattern})
endforeach()

# Under contention a receive that waits for an earlier message's arrival may answer a
# request-to-send that came before it: the data starts when the network learns of it (it started
# before the network's time, and the run aborted), with DET on and off.
e2e_program(eager_then_rendezvous ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/eager_then_rendezvous.c)
foreach(det 0 1)
  add_test(NAME e2e.network.contention_rendezvous_behind_eager.det${det} COMMAND ${EXPECT} 0
    -m "eager_then_rendezvous: received 56280 and 73220 bytes"
    -- env MPISIM_CPU=off ${RUN} -np 2 --network contention --det ${det}
       ${E2E_BIN}/eager_then_rendezvous)
endforeach()
