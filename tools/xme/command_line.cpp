// The whole command line of `xme`, in-process: main() calls it, and so does the command-line fuzz
// target (fuzz/fuzz_cli_files.cpp), which runs real commands on real files.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "estimate_job.hpp"
#include "interrupt.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme::cli {
namespace {

std::vector<std::string>& arguments_run() {
    static std::vector<std::string> arguments;
    return arguments;
}

// A write to standard output that failed (a full disk, a closed descriptor) is an error as a file's
// is (xme(1), EXIT STATUS: 7): stdio only records it in the stream's error flag, and exit() flushes
// what is left without a word. `code` is what the command returned: a failure of its own was reported
// and stays.
int checked_stdout(int code) {
    if (code != 0) return code;
    errno = 0;
    std::cout.flush();
    const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
    if (!failed) return code;
    const int error = errno;
    std::cerr << "xme: error: cannot write to standard output"
              << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << "\n";
    return static_cast<int>(xme::ErrorKind::io);
}

}  // namespace

const std::vector<std::string>& command_line_arguments() { return arguments_run(); }

namespace {

// `xme estimate ARGUMENTS...` parsed by the CLI's own parser; a bad option is Error(invalid_argument).
Command parse_estimate_arguments(CLI::App& app, const std::vector<std::string>& arguments,
                                 const std::function<void(EstimateSettings&)>& adjust) {
    arguments_run().assign({"xme", "estimate"});
    arguments_run().insert(arguments_run().end(), arguments.begin(), arguments.end());
    app.require_subcommand(1);
    const Command estimate = add_estimate_command(app, adjust);
    std::vector<char*> argv;
    for (std::string& argument : arguments_run()) argv.push_back(argument.data());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        throw Error(ErrorKind::invalid_argument, std::string("xme estimate: ") + e.what());
    }
    return estimate;
}

}  // namespace

void run_estimate_arguments(const std::vector<std::string>& arguments,
                            const std::function<void(EstimateSettings&)>& adjust) {
    CLI::App app{"xme"};
    static_cast<void>(parse_estimate_arguments(app, arguments, adjust).run());
}

EstimateCheck check_estimate_arguments(const std::vector<std::string>& arguments) {
    // The settings are made (and checked) where the command runs; it stops there, before the input.
    struct Checked {};
    EstimateCheck check;
    CLI::App app{"xme"};
    const Command estimate = parse_estimate_arguments(app, arguments, [&check](EstimateSettings& settings) {
        check.reads_previous_pair = needs_previous_field(settings.session.params);
        check.policy = settings.policy;
        check.devices = settings.devices;
        check.refresh = settings.session.params.refresh;
        check.threads = settings.session.threads;
        throw Checked{};
    });
    try {
        static_cast<void>(estimate.run());
    } catch (const Checked&) {
    }
    return check;
}

std::vector<std::pair<std::string, bool>> estimate_option_names() {
    CLI::App app{"xme"};
    const Command estimate = add_estimate_command(app);
    std::vector<std::pair<std::string, bool>> names;
    for (const CLI::Option* option : estimate.subcommand->get_options()) {
        const bool takes_value = option->get_type_size() != 0;
        for (const std::string& name : option->get_snames()) names.emplace_back("-" + name, takes_value);
        for (const std::string& name : option->get_lnames()) names.emplace_back("--" + name, takes_value);
    }
    return names;
}

int run_command_line(int argc, char** argv) {
    arguments_run().assign({"xme"});
    for (int i = 1; i < argc; ++i) arguments_run().emplace_back(argv[i]);
    CLI::App app{"xme: block motion estimation on CPU, CUDA and Vulkan devices"};
    app.require_subcommand(1);
    app.footer(
        "What every device computes is defined in docs/SPEC.md of xme's source tree; the man page\n"
        "(man xme, or man docs/xme.1 there) has every option, output column and exit code.");
    app.set_version_flag("--version", version_text, "Print the version and the backends compiled in");
    // CLI11's own message, in the form of every other error of xme.
    app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
        return "xme: error: " + CLI::FailureMessage::simple(failed, e);
    });
    const std::vector<Command> commands = {add_devices_command(app), add_estimate_command(app),
                                           add_compare_command(app), add_bench_command(app),
                                           add_draw_command(app),    add_version_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 prints the help, the version or the message; its own codes (105, 106, 109 ...) are
        // not xme's, which documents 2 for every bad option or value.
        return checked_stdout(app.exit(e) == 0 ? 0 : static_cast<int>(ErrorKind::invalid_argument));
    }
    try {
        for (const auto& command : commands) {
            if (command.subcommand->parsed()) {
                const int code = command.run();
                // A signal that came after the job's last pair: it ended whole, and so does xme.
                if (const int signal = interrupt_signal(); signal != 0) end_by_signal(signal);
                return checked_stdout(code);
            }
        }
    } catch (const Interrupted& e) {
        std::cerr << "xme: " << e.what() << "\n";
        end_by_signal(e.signal());
    } catch (const Error& e) {
        std::cerr << "xme: error: " << e.what() << "\n";
        return e.exit_code();
    } catch (const std::exception& e) {
        std::cerr << "xme: internal error: " << e.what() << "\n";
        return 70;
    }
    return 0;
}

}  // namespace xme::cli
