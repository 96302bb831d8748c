// xme: motion estimation on any device. `xme --help` lists the subcommands.
#include <iostream>
#include <vector>

#include "commands.hpp"
#include "xme/error.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

// A job's results are allocated on the devices' worker threads and freed on its delivery thread; a
// 1080p field with SPEC §9's partitions is 5.7 MB. glibc at times gave a worker's arena pages back
// after such frees and faulted them in again for the next result: under split, each GPU's receive
// then took 0.9 ms a pair instead of 0.06 (two H200s, docs/scheduler-notes.md). Fixed thresholds
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
    CLI::App app{"xme: block motion estimation on CPU, CUDA and Vulkan devices"};
    app.require_subcommand(1);
    app.footer(
        "What every device computes is defined in docs/SPEC.md of xme's source tree; the README has\n"
        "every option, output column and exit code.");
    app.set_version_flag("--version", xme::cli::version_text,
                         "Print the version and the backends compiled in");
    // CLI11's own message, in the form of every other error of xme.
    app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
        return "xme: error: " + CLI::FailureMessage::simple(failed, e);
    });
    const std::vector<xme::cli::Command> commands = {
        xme::cli::add_devices_command(app), xme::cli::add_estimate_command(app),
        xme::cli::add_compare_command(app), xme::cli::add_bench_command(app),
        xme::cli::add_draw_command(app),    xme::cli::add_version_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 prints the help, the version or the message; its own codes (105, 106, 109 ...) are
        // not xme's, which documents 2 for every bad option or value.
        return app.exit(e) == 0 ? 0 : static_cast<int>(xme::ErrorKind::invalid_argument);
    }
    try {
        for (const auto& command : commands) {
            if (command.subcommand->parsed()) return command.run();
        }
    } catch (const xme::Error& e) {
        std::cerr << "xme: error: " << e.what() << "\n";
        return e.exit_code();
    } catch (const std::exception& e) {
        std::cerr << "xme: internal error: " << e.what() << "\n";
        return 70;
    }
    return 0;
}
