# The same machine model in SimGrid SMPI (mpisim-to-simgrid; docs/machines.md): a ping-pong built
# with smpicc and with mpisimcc predicts the same times, up to the differences the docs explain.
find_program(SMPICC smpicc)
find_program(SMPIRUN smpirun)
if(SMPICC AND SMPIRUN)
  set(PINGPONG_SIZES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/programs/pingpong_sizes.c)
  e2e_program(pingpong_sizes ${PINGPONG_SIZES})
  add_custom_command(OUTPUT ${E2E_BIN}/pingpong_sizes_smpi
    COMMAND ${SMPICC} -O1 ${PINGPONG_SIZES} -o ${E2E_BIN}/pingpong_sizes_smpi
    DEPENDS ${PINGPONG_SIZES} COMMENT "smpicc pingpong_sizes")
  add_custom_target(e2e_pingpong_sizes_smpi ALL DEPENDS ${E2E_BIN}/pingpong_sizes_smpi)
  add_test(NAME e2e.simgrid.pingpong_same_model
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/same_model_in_simgrid.py
      $<TARGET_FILE:mpisim-to-simgrid> ${RUN} ${E2E_BIN}/pingpong_sizes ${E2E_BIN}/pingpong_sizes_smpi)
else()
  message(STATUS "smpicc not found: the comparison with SimGrid SMPI is not tested")
endif()
