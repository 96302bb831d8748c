// SIGINT and SIGTERM (xme(1), SIGNALS): a job that writes its outputs pair by pair stops
// between pairs and ends every output whole, with the frames all of them hold, then the process ends
// by the signal as it would have; at any other time the process ends at once, its temporary files
// removed (xme/staged_file.hpp), so that no output path is left holding a cut file.
#pragma once

#include <stdexcept>
#include <string>

namespace xme::cli {

// Installs the handlers; main() does, before anything is written.
void install_interrupt_handlers();

// While one lives, a first SIGINT or SIGTERM only asks the job to stop (interrupt_signal()); a second
// one ends the process at once, for a job that does not get to its next pair (a pipe that stays
// silent).
class StopBetweenPairs {
public:
    StopBetweenPairs();
    ~StopBetweenPairs();
    StopBetweenPairs(const StopBetweenPairs&) = delete;
    StopBetweenPairs& operator=(const StopBetweenPairs&) = delete;
};

// The signal that asked the job to stop, or 0.
[[nodiscard]] int interrupt_signal();
// "SIGINT", "SIGTERM".
[[nodiscard]] std::string signal_name(int signal);

// Thrown when a job stopped for a signal, after its outputs were ended; main() says so and ends the
// process by the signal.
class Interrupted : public std::runtime_error {
public:
    Interrupted(int signal, const std::string& message) : std::runtime_error(message), signal_(signal) {}
    [[nodiscard]] int signal() const noexcept { return signal_; }

private:
    int signal_;
};

// Ends the process by `signal`, as its default action does (a shell then sees 128 + the signal, and a
// loop of it stops), after removing any temporary file left.
[[noreturn]] void end_by_signal(int signal);

}  // namespace xme::cli
