# The application corpus (label `apps`): each real code of ../shared/apps (or $MPISIM_APPS) built
# with mpisim's wrappers and with MPICH's, run under both, and its own verification output
# compared, on 1 and 2 host processes (tests/apps/apps.py). Without the corpus every test says
# so and is skipped.
set(APPS_RUN ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/apps/apps.py)
set(APPS_WORK --work ${CMAKE_BINARY_DIR}/apps --bin ${CMAKE_BINARY_DIR}/bin)
execute_process(COMMAND ${APPS_RUN} list OUTPUT_VARIABLE APPS_LIST OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "\n" ";" APPS_LIST "${APPS_LIST}")
list(GET APPS_LIST 0 APPS_NAMES)
list(GET APPS_LIST 1 APPS_CASES)
separate_arguments(APPS_NAMES)
separate_arguments(APPS_CASES)

foreach(app ${APPS_NAMES})
  foreach(flavour mpisim mpich)
    add_test(NAME apps.${app}.build_${flavour}
      COMMAND ${APPS_RUN} build ${app} --flavour ${flavour} ${APPS_WORK})
    set_tests_properties(apps.${app}.build_${flavour} PROPERTIES LABELS apps
      SKIP_RETURN_CODE 77 TIMEOUT 1800 FIXTURES_SETUP apps_${app}_${flavour})
  endforeach()
endforeach()

foreach(case ${APPS_CASES})
  string(REGEX REPLACE "\\..*" "" app ${case})
  add_test(NAME apps.${case}.mpich COMMAND ${APPS_RUN} reference ${case} ${APPS_WORK})
  set_tests_properties(apps.${case}.mpich PROPERTIES LABELS apps SKIP_RETURN_CODE 77
    TIMEOUT 900 FIXTURES_REQUIRED apps_${app}_mpich FIXTURES_SETUP apps_${case}_answer)
  # Recorded with MPISIM_RECORD and replayed by mpisim-replay: the same prediction, exactly.
  add_test(NAME apps.${case}.replay COMMAND ${APPS_RUN} replay ${case} ${APPS_WORK})
  set_tests_properties(apps.${case}.replay PROPERTIES LABELS apps SKIP_RETURN_CODE 77
    TIMEOUT 900 FIXTURES_REQUIRED apps_${app}_mpisim)
  foreach(hosts 1 2)
    add_test(NAME apps.${case}.hosts${hosts}
      COMMAND ${APPS_RUN} check ${case} --hosts ${hosts} ${APPS_WORK})
    set_tests_properties(apps.${case}.hosts${hosts} PROPERTIES LABELS apps SKIP_RETURN_CODE 77
      TIMEOUT 900 FIXTURES_REQUIRED "apps_${app}_mpisim;apps_${case}_answer")
  endforeach()
endforeach()
