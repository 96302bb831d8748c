// `xme devices`: every backend compiled in, every device found, or why one is missing.
#include <iostream>

#include "commands.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/operations.hpp"

namespace xme::cli {
namespace {

// The searches of the table of operations that `device` runs with its default variant (block 16, range
// 16, 64x64 frames: what supports() answers for the search itself), from its own answers.
std::string searches_line(Registry& registry, const DeviceInfo& info) {
    std::string runs;
    std::string refuses;
    std::unique_ptr<Device> device;
    try {
        device = registry.open(info.name);
    } catch (const std::exception& error) {
        return "searches: not listed (" + std::string(error.what()) + ")";
    }
    for (const StageDescription& row : stages_of(StageKind::integer_search)) {
        SessionOptions options;
        options.params.search = static_cast<SearchMethod>(row.code);
        options.width = 64;
        options.height = 64;
        std::string& list = device->supports(options).supported ? runs : refuses;
        list += " " + std::string(row.name);
    }
    return "searches:" + runs + (refuses.empty() ? "" : "; not supported:" + refuses);
}

}  // namespace

Command add_devices_command(CLI::App& app) {
    auto* subcommand = app.add_subcommand(
        "devices", "List every backend and device, with capabilities or the reason it is unavailable");
    return {subcommand, [] {
                Registry registry = make_builtin_registry();
                std::string best;
                try {
                    best = registry.best_device_name();
                } catch (const std::exception&) {
                }
                for (const auto& info : registry.devices()) {
                    if (info.available) {
                        std::cout << info.name << (info.name == best ? "  [default]" : "") << "\n    "
                                  << info.description << "\n    variants:";
                        for (const auto& variant : info.variants) std::cout << " " << variant;
                        std::cout << "\n    " << searches_line(registry, info);
                        // Two such devices under split compete for the cores (the scheduler says so too).
                        if (info.on_host_cores) std::cout << "\n    computes on this machine's CPU cores";
                        std::cout << "\n";
                    } else {
                        std::cout << info.name << "  [unavailable]\n    " << info.unavailable_reason << "\n";
                    }
                }
                return 0;
            }};
}

}  // namespace xme::cli
