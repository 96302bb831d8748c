// Errors carry a category so that every front end maps them to the same exit code.
#pragma once

#include <stdexcept>
#include <string>

#include "xme/text_escape.hpp"

namespace xme {

enum class ErrorKind {
    invalid_argument = 2,  // a bad option or parameter value
    bad_input = 3,         // a missing, malformed or truncated file
    unsupported = 4,       // a size or feature a device cannot handle
    device = 5,            // a device failed, ran out of memory or was lost
    mismatch = 6,          // backends disagree (xme compare)
    io = 7,                // writing an output file failed
};

// The message is escaped (xme/text_escape.hpp): it often quotes input, such as a file name or a
// header tag, and a control byte in it must not reach the terminal.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message)
        : std::runtime_error(escape_text(message)), kind_(kind) {}
    [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }
    [[nodiscard]] int exit_code() const noexcept { return static_cast<int>(kind_); }

private:
    ErrorKind kind_;
};

}  // namespace xme
