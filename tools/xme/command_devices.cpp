// `xme devices`: every backend compiled in, every device found, or why one is missing.
#include <iostream>

#include "commands.hpp"
#include "xme/builtin_backends.hpp"

namespace xme::cli {

Command add_devices_command(CLI::App& app) {
    auto* subcommand =
        app.add_subcommand("devices", "List every backend and device, with capabilities or the reason it is unavailable");
    return {subcommand, [] {
        Registry registry = make_builtin_registry();
        std::string best;
        try {
            best = registry.best_device_name();
        } catch (const std::exception&) {
        }
        for (const auto& info : registry.devices()) {
            if (info.available) {
                std::cout << info.name << (info.name == best ? "  [default]" : "") << "\n    " << info.description
                          << "\n    variants:";
                for (const auto& variant : info.variants) std::cout << " " << variant;
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
