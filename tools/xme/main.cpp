// xme: motion estimation on any device. `xme --help` lists the subcommands.

#include "commands.hpp"
#include "interrupt.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

// A job's results are allocated on the devices' worker threads and freed on its delivery thread; a
// 1080p field with SPEC §9's partitions is 5.7 MB. glibc at times gave a worker's arena pages back
// after such frees and faulted them in again for the next result: under split, each GPU's receive
// then took 0.9 ms a pair instead of 0.06 (two H200s, docs/scheduler.md, "Memory"). Fixed thresholds
// keep freed memory for reuse (32 MB is the largest mmap threshold glibc takes).
void keep_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    keep_freed_memory();
    xme::cli::install_interrupt_handlers();  // before anything is written
    return xme::cli::run_command_line(argc, argv);
}
