#include "job_options.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "xme/error.hpp"

namespace xme::cli {

std::pair<int, int> parse_frame_size(const std::string& text, const std::string& option) {
    int width = 0;
    int height = 0;
    char trailing = 0;
    if (std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &trailing) != 2 || width < 1 || height < 1) {
        throw Error(ErrorKind::invalid_argument, option + " '" + text + "' is not WIDTHxHEIGHT, e.g. 352x288");
    }
    return {width, height};
}

std::function<void(const std::string&)> note_empty(std::vector<std::string>& empty_values,
                                                   const std::string& option) {
    return [&empty_values, option](const std::string& value) {
        if (value.empty()) empty_values.push_back(option);
    };
}

void refuse_empty_values(const std::vector<std::string>& empty_values) {
    if (empty_values.empty()) return;
    const std::string& option = empty_values.front();
    throw Error(ErrorKind::invalid_argument, option + " is given an empty value");
}

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
    std::vector<std::string> entries;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        entries.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (entries.back().empty()) {
            throw Error(ErrorKind::invalid_argument,
                        option + " '" + text +
                            "' has an empty entry: separate names by single commas, "
                            "as in cpu,vulkan:0");
        }
        if (comma == std::string::npos) return entries;
        start = comma + 1;
    }
}

namespace {

// Whether two paths name the same file, whether or not it exists yet.
bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    const auto first = std::filesystem::weakly_canonical(a, error);
    const auto second = std::filesystem::weakly_canonical(b, error);
    return error ? a == b : first == second;
}

}  // namespace

void add_job_options(CLI::App& cmd, JobOptions& o) {
    auto& s = o.settings;
    cmd.add_option("input", s.input, "Video: .y4m, raw .yuv (with --size), or any format FFmpeg reads")->required();
    cmd.add_option("--backend", o.backend,
                   "One device: auto (default), cpu, cuda:0, vulkan:0 ... (see 'xme devices')")
        ->each(note_empty(o.empty_values, "--backend"));
    cmd.add_option("--backends", o.backends, "Several devices, comma-separated, for --policy mirror or split")
        ->each(note_empty(o.empty_values, "--backends"));
    cmd.add_option("--policy", o.policy, "single (one device), mirror (every device, compared) or split (shared out)")
        ->capture_default_str();
    cmd.add_option("--variant", s.session.variant, "Implementation variant (default: each device's fastest)")
        ->each(note_empty(o.empty_values, "--variant"));
    cmd.add_option("--algo", o.algorithm, "fs (integer full search) or fs+hpel (plus half-pel refinement)")
        ->capture_default_str();
    cmd.add_option("--block", s.session.params.block_size, "Block size: 4, 8, 16 or 32")->capture_default_str();
    cmd.add_option("--range", s.session.params.range, "Search range R: vectors -R..R")->capture_default_str();
    cmd.add_option("--border", o.border, "pad (unrestricted vectors) or restrict (inside the padded frame)")
        ->capture_default_str();
    cmd.add_option("--frames", s.frames, "Frames to read (N frames give N-1 pairs); default: all")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--start", s.start, "Frames to skip first")->check(CLI::NonNegativeNumber);
    cmd.add_option("--threads", s.session.threads, "Host threads (CPU backend); default: all")
        ->check(CLI::NonNegativeNumber);
    cmd.add_option("-o,--output", s.output, "Motion vectors: .csv or .npy (under mirror: the first device's)")
        ->each(note_empty(o.empty_values, "-o"));
    cmd.add_option("--json", s.json,
                   "Summary: input, parameters, devices, per-frame metrics, timings, agreement")
        ->each(note_empty(o.empty_values, "--json"));
    cmd.add_option("--size", o.size, "Frame size of raw input, WIDTHxHEIGHT");
    cmd.add_option("--pix-fmt", o.pixel_format, "Pixel format of raw input: yuv420p, yuv422p, yuv444p, gray")
        ->capture_default_str()
        ->each([&o](const std::string&) { o.pixel_format_given = true; });
    cmd.add_flag("-q,--quiet", s.quiet, "No summary table and no progress");
    cmd.add_flag("-v,--verbose", s.verbose, "Say which device 'auto' chose and why");
}

EstimateSettings settings_from(const JobOptions& o) {
    refuse_empty_values(o.empty_values);
    EstimateSettings settings = o.settings;
    settings.policy = parse_policy(o.policy);
    settings.session.params.algorithm = parse_algorithm(o.algorithm);
    settings.session.params.border = parse_border_mode(o.border);
    settings.session.params.validate();
    if (!o.size.empty()) std::tie(settings.raw.width, settings.raw.height) = parse_frame_size(o.size, "--size");
    settings.raw.chroma = parse_pixel_format(o.pixel_format);
    settings.raw_options_given = !o.size.empty() || o.pixel_format_given;
    if (!settings.output.empty() && !settings.json.empty() && same_file(settings.output, settings.json)) {
        throw Error(ErrorKind::invalid_argument,
                    "-o and --json both name " + settings.output +
                        ": the summary would overwrite the vectors; give two files");
    }
    if (!o.backend.empty() && !o.backends.empty()) {
        throw Error(ErrorKind::invalid_argument, "give --backend (one device) or --backends (several), not both");
    }
    if (!o.backends.empty()) settings.devices = split_list(o.backends, "--backends");
    if (!o.backend.empty()) settings.devices = {o.backend};
    if (settings.policy == Policy::single && settings.devices.size() != 1) {
        throw Error(ErrorKind::invalid_argument,
                    "--policy single runs on one device; use --policy mirror or split with several --backends");
    }
    if (settings.policy != Policy::single && settings.devices.size() < 2) {
        throw Error(ErrorKind::invalid_argument, "--policy " + o.policy + " needs at least two devices in --backends");
    }
    return settings;
}

}  // namespace xme::cli
