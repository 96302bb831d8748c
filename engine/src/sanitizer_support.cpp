// Compiled into every program of the sanitize build (see engine/CMakeLists.txt), never elsewhere.
#include <sanitizer/common_interface_defs.h>

#include <cstdio>

// tests/lsan.supp, turned into a string literal at configure time.
#include "lsan_suppressions.inc"

extern "C" {

// LeakSanitizer reads its built-in suppressions from here, so every run of the build has them
// (under ThreadSanitizer, which has no leak checker, nothing calls it).
const char* __lsan_default_suppressions() { return xme_lsan_suppressions; }

}  // extern "C"

namespace {

// A sanitizer ends the process with _exit, skipping the flush of stdio: output redirected to a file
// would be lost. Flushing in its death callback keeps everything the program wrote before.
void flush_standard_streams() { std::fflush(nullptr); }

const bool registered = [] {
    __sanitizer_set_death_callback(flush_standard_streams);
    return true;
}();

}  // namespace
