# The sanitized builds: ASan + UBSan (XME_SANITIZE address or ON) or TSan (thread) everywhere, and
# in both a support file compiled into every program that links the engine (LeakSanitizer's
# suppressions for drivers, and stdio flushed when a sanitizer ends the process).
if(XME_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(XME_SANITIZE STREQUAL "address" OR XME_SANITIZE STREQUAL "ON")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
else()
  message(FATAL_ERROR "XME_SANITIZE=${XME_SANITIZE}: use OFF, address (or ON) or thread")
endif()

function(xme_add_sanitizer_support target)
  file(READ ${PROJECT_SOURCE_DIR}/tests/lsan.supp suppressions)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/generated)
  file(CONFIGURE OUTPUT ${generated}/lsan_suppressions.inc
       CONTENT "static const char xme_lsan_suppressions[] = R\"supp(${suppressions})supp\";\n")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/lsan.supp)
  # INTERFACE sources are compiled into each program that links the target, so the static
  # initialiser and the hook are linked in (from a static library they would be dropped).
  target_sources(${target} INTERFACE ${PROJECT_SOURCE_DIR}/engine/src/sanitizer_support.cpp)
  target_include_directories(${target} INTERFACE ${generated})
endfunction()
