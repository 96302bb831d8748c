// The options `xme estimate` and `xme compare` share: input, parameters, devices, outputs.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "chain_options.hpp"
#include "estimate_job.hpp"
#include "output_paths.hpp"

// Only the command files that register options need CLI11 itself: its header costs every file that
// includes it seconds of compile time (its validators are objects built in each one).
namespace CLI {
class App;
}

namespace xme::cli {

struct JobOptions {
    EstimateSettings settings;
    std::string backend;   // --backend: one device
    std::string backends;  // --backends: several, comma-separated
    std::string policy = "single";
    // The refusal of fewer than two devices under mirror or split, in the command's own words where
    // the command sets the policy itself (compare); empty: the --policy option's.
    std::string too_few_devices;
    ChainOptions chain;
    std::string border = "pad";
    std::string size;
    std::string pixel_format = "yuv420p";
    bool pixel_format_given = false;
    std::string refs = "-1";          // --refs: SPEC §14's reference distances
    std::string direction = "forward";  // --direction forward|both
    std::string transform;  // --transform matrix|loeffler; empty: none
    int quantiser_step = 16;
    bool quantiser_step_given = false;
    std::vector<std::string> empty_values;  // options given an empty value, refused by settings_from
};

// Parses WIDTHxHEIGHT, each 1..max_frame_dimension, digits only; throws Error(invalid_argument)
// naming `option` and the text.
[[nodiscard]] std::pair<int, int> parse_frame_size(const std::string& text, const std::string& option);

// Throws Error(unsupported) naming `path` when the video's frames exceed max_frame_dimension.
void check_frame_dimensions(const std::string& path, const VideoInfo& video);

// More host threads than this is a mistake, not a machine: libgomp crashes on 100000.
inline constexpr int max_host_threads = 1024;

// Throws Error(invalid_argument) unless 0 <= threads <= max_host_threads.
void check_thread_count(int threads, const std::string& option);
// Notes in `empty_values` each empty value given to the option (an empty --backends entry, as in
// `--backends ,`, included), so that it is refused rather than read as "not given".
[[nodiscard]] std::function<void(const std::string&)> note_empty(std::vector<std::string>& empty_values,
                                                                 const std::string& option);
// Throws Error(invalid_argument) for the first of them.
void refuse_empty_values(const std::vector<std::string>& empty_values);
// Splits a comma-separated list; an empty entry (as in "," or "cpu,,cuda:0") is an error naming
// `option`. The list is one command-line word, so that a stray comma never makes the option take
// the next word (another option, or the input) as an entry.
[[nodiscard]] std::vector<std::string> split_list(const std::string& text, const std::string& option);

// Adds the shared options to a subcommand.
void add_job_options(CLI::App& command, JobOptions& options);

// Checks the options and turns them into settings; throws Error(invalid_argument) naming the option.
// `command_output` is the command's own output (estimate's --draw, compare's --disagreement), checked
// with the job's against the input and each other (output_paths.hpp).
[[nodiscard]] EstimateSettings settings_from(const JobOptions& options, const NamedPath& command_output = {});

}  // namespace xme::cli
