// Option checks whose messages say what is wanted: CLI11's PositiveNumber prints its range as
// "0.000000 to" the largest double written out in full (300 digits).
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <optional>
#include <string>
#include <system_error>

namespace xme::cli {

// A whole number of at least `minimum` (frames, pairs, threads), and at most `maximum` where given.
inline CLI::Validator whole_number_from(long long minimum, std::optional<long long> maximum = std::nullopt) {
    const std::string wanted = maximum ? "from " + std::to_string(minimum) + " to " + std::to_string(*maximum)
                                       : "of at least " + std::to_string(minimum);
    return {
        [minimum, maximum, wanted](std::string& text) -> std::string {
            long long value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (error == std::errc() && stop == end && value >= minimum && (!maximum || value <= *maximum))
                return {};
            return "must be a whole number " + wanted + ", not '" + text + "'";
        },
        maximum ? "INT in " + std::to_string(minimum) + ".." + std::to_string(*maximum)
                : "INT>=" + std::to_string(minimum)};
}

// Seconds from 0 to `maximum` (not NaN, which CLI::Range lets through).
inline CLI::Validator seconds_up_to(double maximum) {
    const std::string wanted = "from 0 to " + std::to_string(static_cast<int>(maximum));
    return {[maximum, wanted](std::string& text) -> std::string {
                double value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                if (error == std::errc() && stop == end && value >= 0 && value <= maximum) return {};
                return "must be a number of seconds " + wanted + ", not '" + text + "'";
            },
            "SECONDS in 0.." + std::to_string(static_cast<int>(maximum))};
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
