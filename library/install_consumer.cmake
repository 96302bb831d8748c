# CTest's install_consumer: `cmake --install` into WORK_DIR/prefix, then the README's example built
# against what was installed, as a user builds it: with find_package (consumer/) and with
# `g++ -std=c++20 ... $(pkg-config --cflags --libs xme)`. Each built example runs on two frames of
# random content (and on the README's clip where FFmpeg is in the build) and must print what the
# build's own example prints; consumer/'s check_library must load a libxme of the headers' release
# with the backends of the build's `xme version`.
# Arguments (-D): BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX XME EXAMPLE.
cmake_minimum_required(VERSION 3.25)

function(run what)  # run WHAT COMMAND... : the command's stdout in `output`; any failure stops the test
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# The installed library is named by its version, and its SONAME is libxme.so.MAJOR.MINOR.
run("xme version" ${XME} version)
set(xme_version_text "${output}")
string(REGEX MATCH "^xme ([0-9]+)\\.([0-9]+)\\.([0-9]+)\nbackends:[^\n]*" built_backends "${output}")
set(soname libxme.so.${CMAKE_MATCH_1}.${CMAKE_MATCH_2})
file(GLOB_RECURSE library ${prefix}/*/${soname}.${CMAKE_MATCH_3})
if(NOT library)
  message(FATAL_ERROR "install_consumer: ${soname}.${CMAKE_MATCH_3} was not installed under ${prefix}")
endif()
run("readelf" readelf -d ${library})
if(NOT output MATCHES "Library soname: \\[${soname}\\]")
  message(FATAL_ERROR "install_consumer: ${library}'s SONAME is not ${soname}:\n${output}")
endif()
cmake_path(GET library PARENT_PATH libdir)
foreach(file include/xme/video.hpp include/xme/version.hpp share/man/man1/xme.1 bin/xme)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "install_consumer: ${prefix}/${file} was not installed")
  endif()
endforeach()

# Two frames of random samples (33..126: what string(RANDOM) can write), 64x48 4:2:0; the seed is
# printed, and XME_TEST_SEED=<seed> replays it.
if(DEFINED ENV{XME_TEST_SEED})
  set(seed $ENV{XME_TEST_SEED})
else()
  string(RANDOM LENGTH 9 ALPHABET 0123456789 seed)
endif()
string(RANDOM LENGTH 1 RANDOM_SEED ${seed} unused)  # seeds the calls below
message(STATUS "install_consumer: random frames of seed ${seed}")
set(characters "")
foreach(code RANGE 33 126)
  string(ASCII ${code} character)
  string(APPEND characters "${character}")
endforeach()
set(y4m "YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n")
foreach(frame 1 2)
  string(RANDOM LENGTH 4608 ALPHABET "${characters}" samples)
  string(APPEND y4m "FRAME\n${samples}")
endforeach()
file(WRITE ${WORK_DIR}/random.y4m "${y4m}")
set(inputs ${WORK_DIR}/random.y4m)
set(clip /usr/share/doc/opencv-doc/examples/data/vtest.avi)
if(EXISTS ${clip} AND xme_version_text MATCHES "input: [^\n]*, FFmpeg")
  list(APPEND inputs ${clip})
else()
  message(STATUS "install_consumer: only random frames: ${clip} is missing or this build has no FFmpeg")
endif()

# With find_package: a CMake project of the example and check_library.
run("the find_package project's configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/library/consumer
  -B ${WORK_DIR}/cmake -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
  -DXME_EXAMPLE=${SOURCE_DIR}/tools/examples/estimate_two_frames.cpp)
run("the find_package project's build" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake)
run("check_library" ${WORK_DIR}/cmake/check_library)
string(FIND "${output}" "${built_backends}\n" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "install_consumer: the installed libxme says\n${output}but the build's xme says\n"
    "${built_backends}")
endif()

# With pkg-config, from the installed xme.pc alone (tools/install-deps.sh installs pkg-config; a
# machine without it, such as the GPU machine, checks the find_package half only, and says so).
set(examples ${WORK_DIR}/cmake/estimate_two_frames)
find_program(pkg_config pkg-config)
if(pkg_config)
  run("pkg-config" ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${libdir}/pkgconfig ${pkg_config} --cflags --libs xme)
  separate_arguments(flags UNIX_COMMAND "${output}")
  run("g++ with pkg-config's flags" ${CXX} -std=c++20 ${SOURCE_DIR}/tools/examples/estimate_two_frames.cpp
    ${flags} -o ${WORK_DIR}/estimate_two_frames_pkg_config)
  list(APPEND examples ${WORK_DIR}/estimate_two_frames_pkg_config)
else()
  message(STATUS "install_consumer: skipped the pkg-config build: no pkg-config on this machine")
endif()

foreach(input ${inputs})
  run("the build's example on ${input}" ${EXAMPLE} ${input})
  set(expected "${output}")
  if(NOT expected MATCHES "the centre block moved by \\(")
    message(FATAL_ERROR "install_consumer: the build's example printed ${expected}")
  endif()
  foreach(example ${examples})
    # The pkg-config build has no RPATH: the loader finds the installed library as a user's would.
    run("${example} ${input}" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${example} ${input})
    if(NOT output STREQUAL expected)
      message(FATAL_ERROR "install_consumer: ${example} ${input} printed\n${output}instead of\n${expected}")
    endif()
    message(STATUS "install_consumer: ${example} ${input}: ${output}")
  endforeach()
endforeach()
