// Option checks whose messages say what is wanted: CLI11's PositiveNumber prints its range as
// "0.000000 to" the largest double written out in full (300 digits).
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

namespace xme::cli {

// A whole number of at least `minimum` (frames, pairs, threads), and at most `maximum` where given;
// `note` (what 0 means, say) follows the range in the message.
inline CLI::Validator whole_number_from(long long minimum, std::optional<long long> maximum = std::nullopt,
                                        const std::string& note = "") {
    const std::string wanted =
        (maximum ? "from " + std::to_string(minimum) + " to " + std::to_string(*maximum)
                 : "of at least " + std::to_string(minimum)) +
        (note.empty() ? "" : " (" + note + ")");
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

// Host threads, 0..maximum, 0 meaning one per processor (--threads).
inline CLI::Validator host_threads(int maximum) {
    return whole_number_from(0, maximum,
                             "0: one per processor; this machine has " +
                                 std::to_string(std::max(1U, std::thread::hardware_concurrency())));
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

// A finite number above 0 (scales): "inf" would make every cost or vector the scale's zero.
inline CLI::Validator number_above_zero() {
    return {[](std::string& text) -> std::string {
                double value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                if (error == std::errc() && stop == end && value > 0 && std::isfinite(value)) return {};
                return "must be a finite number above 0, not '" + text + "'";
            },
            "NUMBER>0"};
}

// One of `allowed` (block sizes), written out: CLI11's own conversion would take '' as 0 and 0x10 as 16.
inline CLI::Validator whole_number_among(std::vector<long long> allowed) {
    std::string wanted;
    for (std::size_t i = 0; i < allowed.size(); ++i)
        wanted += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
    return {[allowed, wanted](std::string& text) -> std::string {
                long long value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                if (error == std::errc() && stop == end &&
                    std::find(allowed.begin(), allowed.end(), value) != allowed.end())
                    return {};
                return "must be " + wanted + ", not '" + text + "'";
            },
            "INT in {" + wanted + "}"};
}

// A comma-separated list option (`--ranges 4,16`), each entry checked by `entry`. CLI11's delimiter drops
// empty entries ("4,,8" would run 4 and 8, "''" the defaults), so the list is split here and an empty
// entry refused. Entries are converted by from_chars for numbers; strings are kept as typed.
template <typename T>
CLI::Option* add_list_option(CLI::App& command, const std::string& name, std::vector<T>& values,
                             const std::string& help, CLI::Validator entry = CLI::Validator()) {
    return command
        .add_option_function<std::vector<std::string>>(
            name,
            [&values, name, entry](const std::vector<std::string>& given) {
                values.clear();
                for (const std::string& text : given) {
                    for (std::size_t start = 0;;) {
                        const std::size_t comma = text.find(',', start);
                        std::string item =
                            text.substr(start, comma == std::string::npos ? comma : comma - start);
                        if (item.empty()) {
                            throw CLI::ValidationError(name,
                                                       "'" + text +
                                                           "' has an empty entry: separate the entries by "
                                                           "single commas");
                        }
                        std::string message = CLI::Validator(entry)(item);
                        if (!message.empty()) throw CLI::ValidationError(name, message);
                        if constexpr (std::is_same_v<T, std::string>) {
                            values.push_back(item);
                        } else {
                            T value{};
                            const auto [stop, error] =
                                std::from_chars(item.data(), item.data() + item.size(), value);
                            if (error != std::errc() || stop != item.data() + item.size())
                                throw CLI::ValidationError(name, "'" + item + "' is not a whole number");
                            values.push_back(value);
                        }
                        if (comma == std::string::npos) break;
                        start = comma + 1;
                    }
                }
            },
            help)
        ->type_name("LIST");
}

}  // namespace xme::cli
