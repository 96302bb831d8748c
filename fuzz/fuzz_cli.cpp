// The option parser: argv from the input (split on NUL or newline bytes), parsed by the same CLI11
// setup as `xme`, then turned into a job's settings, without running anything: no device is
// opened and no file read. A bad option is xme::Error or CLI::ParseError; anything else (another
// exception, a crash, a sanitizer report) is a finding.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fuzz_support.hpp"
#include "job_options.hpp"
#include "xme/error.hpp"

namespace {

std::vector<std::string> split_arguments(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> arguments{"xme"};
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\0' || c == '\n') {
            arguments.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) arguments.push_back(current);
    return arguments;
}

void check(const xme::cli::EstimateSettings& settings) {
    if (settings.devices.empty()) xme::fuzz::finding("settings with no device");
    if (settings.policy == xme::Policy::single && settings.devices.size() != 1) {
        xme::fuzz::finding("policy single with " + std::to_string(settings.devices.size()) + " devices");
    }
    if (settings.raw.width < 0 || settings.raw.height < 0) xme::fuzz::finding("a negative --size");
    if (settings.start < 0 || settings.frames == 0 || settings.frames < -1) {
        xme::fuzz::finding("--start or --frames out of range");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;  // argv lines, not files
    std::vector<std::string> arguments = split_arguments(data, size);
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());

    // estimate and compare as their add_*_command build them, but keeping their options here, so
    // that settings_from runs on what was parsed; devices and bench only parse (their run opens devices).
    CLI::App app{"xme"};
    app.require_subcommand(1);
    xme::cli::JobOptions estimate, compare;
    compare.policy = "mirror";
    compare.settings.json = "compare.json";
    auto* estimate_command = app.add_subcommand("estimate");
    xme::cli::add_job_options(*estimate_command, estimate);
    auto* compare_command = app.add_subcommand("compare");
    xme::cli::add_job_options(*compare_command, compare);
    // Kept alive: their options point into state that the commands own.
    const auto devices = xme::cli::add_devices_command(app);
    const auto bench = xme::cli::add_bench_command(app);
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        if (estimate_command->parsed()) check(xme::cli::settings_from(estimate));
        if (compare_command->parsed()) check(xme::cli::settings_from(compare));
    } catch (const CLI::ParseError&) {
    } catch (const xme::Error&) {
    }
    return 0;
}
