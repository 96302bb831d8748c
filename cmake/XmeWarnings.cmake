# Warnings every xme target compiles with (host C++ only; CUDA sources get their own flags).
add_library(xme_warnings INTERFACE)
target_compile_options(xme_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${XME_WARNINGS_AS_ERRORS}>>:-Werror>)
