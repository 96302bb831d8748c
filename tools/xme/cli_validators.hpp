// Option checks whose messages say what is wanted: CLI11's PositiveNumber prints its range as
// "0.000000 to" the largest double written out in full (300 digits).
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <string>
#include <system_error>

namespace xme::cli {

// A whole number of at least `minimum` (frames, pairs, threads).
inline CLI::Validator whole_number_from(long long minimum) {
    return {[minimum](std::string& text) -> std::string {
                long long value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                if (error == std::errc() && stop == end && value >= minimum) return {};
                return "must be a whole number of at least " + std::to_string(minimum) + ", not '" + text +
                       "'";
            },
            "INT>=" + std::to_string(minimum)};
}

// A number above 0 (scales).
inline CLI::Validator number_above_zero() {
    return {[](std::string& text) -> std::string {
                double value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                if (error == std::errc() && stop == end && value > 0) return {};
                return "must be a number above 0, not '" + text + "'";
            },
            "NUMBER>0"};
}

}  // namespace xme::cli
