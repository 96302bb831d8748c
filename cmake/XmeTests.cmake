# The suites become separate CTest tests, so that a failure names its area and `ctest -j` runs them
# side by side. Conformance runs once per backend family; a family with no usable device here exits
# 77 after saying why, which CTest shows as skipped, never as passed.
foreach(suite reference io scheduler)
  add_test(NAME ${suite} COMMAND xme_tests --test-suite=${suite})
endforeach()
# The cli suite in two entries that `ctest -j` runs side by side (under the sanitizers it is the
# longest after the CPU conformance): the option files, and every other file of the suite.
set(xme_cli_option_files "*test_cli.cpp,*test_cli_promises.cpp,*test_cli_redirect.cpp")
add_test(NAME cli_options COMMAND xme_tests --test-suite=cli "--source-file=${xme_cli_option_files}")
add_test(NAME cli_runs COMMAND xme_tests --test-suite=cli "--source-file-exclude=${xme_cli_option_files}")
foreach(backend cuda vulkan)
  add_test(NAME conformance_${backend} COMMAND xme_tests --test-suite=conformance)
  set_tests_properties(conformance_${backend} PROPERTIES ENVIRONMENT "XME_TEST_DEVICE=${backend}" SKIP_RETURN_CODE 77)
endforeach()
# The CPU's variants in two halves that `ctest -j` runs side by side (the longest test otherwise); a
# half whose variants this processor lacks is skipped, saying so.
foreach(half "avx:avx512bw,avx2" "sse2_portable:sse2,portable")
  string(REPLACE ":" ";" half "${half}")
  list(GET half 0 suffix)
  list(GET half 1 variants)
  add_test(NAME conformance_cpu_${suffix} COMMAND xme_tests --test-suite=conformance)
  set_tests_properties(conformance_cpu_${suffix} PROPERTIES
    ENVIRONMENT "XME_TEST_DEVICE=cpu;XME_TEST_VARIANTS=${variants}" SKIP_RETURN_CODE 77)
endforeach()
# Vulkan runs with the validation layer; any message fails the test, and so does a missing layer.
# Not under the sanitizers: the layer (Debian's 1.3.239) leaks when the instance that loaded it is
# destroyed, and once the loader has unloaded it LeakSanitizer cannot name it, so no suppression can
# match. The sanitizers still check xme's own Vulkan code there; the ci workflow runs the layer.
if(NOT XME_SANITIZE)
  set_property(TEST conformance_vulkan APPEND PROPERTY ENVIRONMENT XME_VULKAN_VALIDATION=1)
endif()
# CTest runs tests side by side: OpenMP threads that spin while they wait would take the cores the
# other test's threads need (two CPU-conformance halves took 47 s together against 15 s each alone;
# 16 s with passive waiting).
get_property(xme_all_tests DIRECTORY PROPERTY TESTS)
set_property(TEST ${xme_all_tests} APPEND PROPERTY ENVIRONMENT OMP_WAIT_POLICY=passive)
# The longest tests first (CTest starts higher COST earlier), so that two cores end together.
set_tests_properties(conformance_cpu_avx conformance_cpu_sse2_portable PROPERTIES COST 100)
set_tests_properties(cli_options cli_runs PROPERTIES COST 60)
set_tests_properties(conformance_vulkan PROPERTIES COST 30)
