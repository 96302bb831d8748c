# Warnings every xme target compiles with (host C++ only; CUDA sources get their own flags).
add_library(xme_warnings INTERFACE)
target_compile_options(xme_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough>
  # GCC 12 reports -Wrestrict inside libstdc++ for `"text" + std::string` at -O3 (GCC bug 105329,
  # fixed in 13): a false positive in the library, not in xme.
  $<$<AND:$<COMPILE_LANG_AND_ID:CXX,GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${XME_WARNINGS_AS_ERRORS}>>:-Werror>)
