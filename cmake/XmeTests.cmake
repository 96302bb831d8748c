# The suites become separate CTest tests, so that a failure names its area and `ctest -j` runs them
# side by side. Conformance runs once per backend family; a family with no usable device here exits
# 77 after saying why, which CTest shows as skipped, never as passed.
# Under ThreadSanitizer only the threaded suites exist (tests/CMakeLists.txt).
set(xme_suites reference io scheduler operations)
if(xme_tests_threaded_only)
  set(xme_suites scheduler)
endif()
foreach(suite ${xme_suites})
  add_test(NAME ${suite} COMMAND xme_tests --test-suite=${suite})
endforeach()
# The cli suite in two entries that `ctest -j` runs side by side (under the sanitizers it is the
# longest after the CPU conformance): the option files, and every other file of the suite.
set(xme_cli_option_files "*test_cli.cpp,*test_cli_promises.cpp,*test_cli_redirect.cpp")
if(NOT xme_tests_threaded_only)
  add_test(NAME cli_options COMMAND xme_tests --test-suite=cli "--source-file=${xme_cli_option_files}")
  add_test(NAME cli_runs COMMAND xme_tests --test-suite=cli "--source-file-exclude=${xme_cli_option_files}")
endif()
# The conformance suite on one device family, optionally on one shard of its rows only ("k/n": see
# XME_TEST_SHARD in tests/test_support.hpp).
function(xme_conformance_test name device)
  set(environment "XME_TEST_DEVICE=${device}")
  if(ARGC GREATER 2)
    list(APPEND environment "XME_TEST_SHARD=${ARGV2}")
  endif()
  add_test(NAME ${name} COMMAND xme_tests --test-suite=conformance)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${environment}" SKIP_RETURN_CODE 77)
endfunction()
if(NOT xme_tests_threaded_only)
  xme_conformance_test(conformance_cuda cuda)
  # Vulkan's rows in two halves too: on lavapipe the longest test, and alone on one core while the
  # other finished everything else (106 s against ~45 s in a CI run), so halves end together.
  xme_conformance_test(conformance_vulkan_rows_0 vulkan "0/2")
  xme_conformance_test(conformance_vulkan_rows_1 vulkan "1/2")
  # The CPU's rows in two halves that `ctest -j` runs side by side (the longest test otherwise), every
  # variant in each: split by variant, both halves computed every row's reference, the larger part
  # of the time under the sanitizers.
  xme_conformance_test(conformance_cpu_rows_0 cpu "0/2")
  xme_conformance_test(conformance_cpu_rows_1 cpu "1/2")
endif()
# tools/perf_table.py, the README's performance table, on a small `xme bench --json` made at test time on
# every device here (the CPU, lavapipe in CI): a smoke test of the script (standard library only), not of
# the figures. Not under the sanitizers: the script is Python, and their minutes are the C++'s.
if(NOT XME_SANITIZE AND NOT xme_tests_threaded_only)
  find_program(xme_test_python3 python3 PATHS /usr/bin NO_DEFAULT_PATH NO_CACHE)  # Debian's, else PATH's
  if(NOT xme_test_python3)
    find_program(xme_test_python3 python3 NO_CACHE)
  endif()
  if(xme_test_python3)
    add_test(NAME perf_table COMMAND ${xme_test_python3} ${PROJECT_SOURCE_DIR}/tools/test_perf_table.py -v)
    set_tests_properties(perf_table PROPERTIES ENVIRONMENT "XME_BINARY=$<TARGET_FILE:xme>" SKIP_RETURN_CODE 77)
  endif()
endif()
# Vulkan runs with the validation layer; any message fails the test, and so does a missing layer.
# Not under the sanitizers: the layer (Debian's 1.3.239) leaks when the instance that loaded it is
# destroyed, and once the loader has unloaded it LeakSanitizer cannot name it, so no suppression can
# match. The sanitize preset now builds no Vulkan (CI's minutes); the ci workflow runs the layer.
if(NOT XME_SANITIZE AND NOT xme_tests_threaded_only)
  set_property(TEST conformance_vulkan_rows_0 conformance_vulkan_rows_1 APPEND PROPERTY ENVIRONMENT
                                                                          XME_VULKAN_VALIDATION=1)
endif()
# CTest runs tests side by side: OpenMP threads that spin while they wait would take the cores the
# other test's threads need (two CPU-conformance halves took 47 s together against 15 s each alone;
# 16 s with passive waiting).
get_property(xme_all_tests DIRECTORY PROPERTY TESTS)
set_property(TEST ${xme_all_tests} APPEND PROPERTY ENVIRONMENT OMP_WAIT_POLICY=passive)
# The longest tests first (CTest starts higher COST earlier), so that two cores end together.
if(NOT xme_tests_threaded_only)
  set_tests_properties(cli_options cli_runs PROPERTIES COST 60)
  set_tests_properties(conformance_cpu_rows_0 conformance_cpu_rows_1 PROPERTIES COST 100)
  # Vulkan's conformance on lavapipe is the longest test since the §8 rows: its halves first.
  set_tests_properties(conformance_vulkan_rows_0 conformance_vulkan_rows_1 PROPERTIES COST 200)
endif()
