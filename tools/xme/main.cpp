// xme: motion estimation on any device. `xme --help` lists the subcommands.
#include <iostream>
#include <vector>

#include "commands.hpp"
#include "xme/error.hpp"

int main(int argc, char** argv) {
    CLI::App app{"xme: block motion estimation on CPU, CUDA and Vulkan devices"};
    app.require_subcommand(1);
    app.footer("What every device computes is defined in docs/SPEC.md of xme's source tree; the README has\n"
               "every option, output column and exit code.");
    const std::vector<xme::cli::Command> commands = {xme::cli::add_devices_command(app),
                                                     xme::cli::add_estimate_command(app),
                                                     xme::cli::add_compare_command(app),
                                                     xme::cli::add_bench_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);  // CLI11 prints the message; 0 for --help, 2+ for a bad option
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
