// The subcommands of `xme`: each adds itself to the command line and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace xme::cli {

// A subcommand registered on the command line, and what to run when it was chosen (its exit code).
struct Command {
    CLI::App* subcommand;
    std::function<int()> run;
};
Command add_devices_command(CLI::App& app);
struct EstimateSettings;
// `adjust` changes the settings parsed before the job runs (run_estimate_arguments' caller's registry).
Command add_estimate_command(CLI::App& app, std::function<void(EstimateSettings&)> adjust = {});
Command add_bench_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_draw_command(CLI::App& app);
Command add_version_command(CLI::App& app);

// Parses and runs an `xme` command line (argv[0] is the program); returns its exit code (xme(1), EXIT
// STATUS). A signal that ended a run ends the process as that signal (interrupt.hpp).
[[nodiscard]] int run_command_line(int argc, char** argv);

// The command line being run, as typed after the program's name (which is "xme" here): `xme bench
// --json` records it, so that a figure carries the command that measured it.
[[nodiscard]] const std::vector<std::string>& command_line_arguments();

// "xme VERSION", the backends in this build and those left out (with why), the inputs it reads.
[[nodiscard]] std::string version_text();

}  // namespace xme::cli
