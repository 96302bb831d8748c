#include "job_options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>

#include "cli_validators.hpp"
#include "xme/compensation.hpp"
#include "xme/error.hpp"
#include "xme/params.hpp"
#include "xme/references.hpp"

namespace xme::cli {

namespace {

// One side of WIDTHxHEIGHT: digits only (no sign, no spaces), checked for overflow, not wrapped.
int parse_side(std::string_view digits, const char* side, const std::string& text,
               const std::string& option) {
    const auto malformed = [&] {
        return Error(ErrorKind::invalid_argument,
                     option + " '" + text + "' is not WIDTHxHEIGHT, e.g. 352x288");
    };
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) throw malformed();
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc{} && error != std::errc::result_out_of_range) throw malformed();
    if (error == std::errc::result_out_of_range || value < 1 || value > max_frame_dimension) {
        throw Error(ErrorKind::invalid_argument,
                    option + " '" + text + "': the " + side + " " + std::string(digits) + " is outside 1.." +
                        std::to_string(max_frame_dimension) + ", the frame sizes xme handles");
    }
    return value;
}

}  // namespace

std::pair<int, int> parse_frame_size(const std::string& text, const std::string& option) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos) {
        throw Error(ErrorKind::invalid_argument,
                    option + " '" + text + "' is not WIDTHxHEIGHT, e.g. 352x288");
    }
    const std::string_view view(text);
    return {parse_side(view.substr(0, x), "width", text, option),
            parse_side(view.substr(x + 1), "height", text, option)};
}

void check_frame_dimensions(const std::string& path, const VideoInfo& video) {
    if (video.width > max_frame_dimension || video.height > max_frame_dimension) {
        throw Error(ErrorKind::unsupported, path + " is " + std::to_string(video.width) + "x" +
                                                std::to_string(video.height) + ": xme handles frames up to " +
                                                std::to_string(max_frame_dimension) + " in width and height");
    }
}

void check_thread_count(int threads, const std::string& option) {
    if (threads < 0 || threads > max_host_threads) {
        throw Error(ErrorKind::invalid_argument,
                    option + " " + std::to_string(threads) + " is outside 0.." +
                        std::to_string(max_host_threads) + " (0: one per processor; this machine has " +
                        std::to_string(std::max(1U, std::thread::hardware_concurrency())) + ")");
    }
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

void add_job_options(CLI::App& cmd, JobOptions& o) {
    auto& s = o.settings;
    cmd.add_option("input", s.input,
                   "Video: .y4m, raw .yuv (with --size), any format FFmpeg reads, or - for a Y4M stream "
                   "(or raw, with --size) on standard input")
        ->required();
    cmd.add_option("--backend", o.backend,
                   "One device: auto (default), cpu, cuda:0, vulkan:0 ... (see 'xme devices')")
        ->each(note_empty(o.empty_values, "--backend"));
    cmd.add_option("--backends", o.backends, "Several devices, comma-separated, for --policy mirror or split")
        ->each(note_empty(o.empty_values, "--backends"));
    cmd.add_option("--policy", o.policy,
                   "single (one device), mirror (every device, compared) or split (shared out)")
        ->capture_default_str();
    cmd.add_option("--variant", s.session.variant, "Implementation variant (default: each device's fastest)")
        ->each(note_empty(o.empty_values, "--variant"));
    add_chain_options(cmd, o.chain, false);
    // Checked as typed: CLI11's own conversion reads '' as 0 and 0x10 as 16.
    cmd.add_option("--block", s.session.params.block_size, "Block size: 4, 8, 16 or 32")
        ->check(whole_number_among({4, 8, 16, 32}))
        ->capture_default_str();
    cmd.add_option("--range", s.session.params.range, "Search range R: vectors -R..R")
        ->check(whole_number_from(0, max_search_range))
        ->capture_default_str();
    cmd.add_option(
           "--refs", o.refs,
           "Reference frames as signed distances, comma-separated (SPEC §14): -1 (default), -1,-2,-3,-4 "
           "(four past frames), -1,+1 (past and future, with bi-prediction)")
        ->each(note_empty(o.empty_values, "--refs"));
    cmd.add_option("--direction", o.direction,
                   "forward (default), or both: each pair also estimated backwards, with each block's "
                   "forward-backward consistency (SPEC §14)")
        ->each(note_empty(o.empty_values, "--direction"));
    cmd.add_option("--border", o.border, "pad (unrestricted vectors) or restrict (inside the padded frame)")
        ->capture_default_str();
    cmd.add_option("--frames", s.frames, "Frames to read (N frames give N-1 pairs); default: all")
        ->check(whole_number_from(1));
    cmd.add_option("--start", s.start, "Frames to skip first")->check(whole_number_from(0));
    cmd.add_option("--threads", s.session.threads, "Host threads (CPU backend); default: all")
        ->check(host_threads(max_host_threads));
    cmd.add_option("--read-threads", s.read_threads,
                   "Threads reading a Y4M or raw file ahead, in parallel (0: the scheduler's reader alone); "
                   "default: by cores (none below 8, else half of them up to 8); at most 64")
        ->check(whole_number_from(0, 64));
    cmd.add_option(
           "-o,--output", s.output,
           "Motion vectors: .csv or .npy, or - for CSV on stdout (under mirror: the first device's); or "
           ".flo (Middlebury flow, one file per pair: flow_%04d.flo)")
        ->each(note_empty(o.empty_values, "-o"));
    cmd.add_option("--json", s.json,
                   "Summary: input, parameters, devices, per-frame metrics, timings, agreement; - for stdout")
        ->each(note_empty(o.empty_values, "--json"));
    cmd.add_option("--export-mvs", s.export_mvs,
                   "Motion vectors as FFmpeg's AVMotionVector records (codecview's convention): a NumPy "
                   "structured array, NAME.mvs.npy")
        ->each(note_empty(o.empty_values, "--export-mvs"));
    cmd.add_option(
           "--vector-array", s.vector_array,
           "The vectors as one array: .npy, int16, shape (pairs, blocks_y, blocks_x, 2), (mv_x, mv_y) "
           "in quarter pel; numpy.load reads it")
        ->each(note_empty(o.empty_values, "--vector-array"));
    cmd.add_option("--cost-array", s.cost_array,
                   "Each block's cost as one array: .npy, uint32, shape (pairs, blocks_y, blocks_x)")
        ->each(note_empty(o.empty_values, "--cost-array"));
    cmd.add_option(
           "--candidate-array", s.candidate_array,
           "The candidates each block's search evaluated: .npy, uint32, shape (pairs, blocks_y, blocks_x)")
        ->each(note_empty(o.empty_values, "--candidate-array"));
    cmd.add_option("--prediction", s.compensation.prediction,
                   "Each pair's motion-compensated prediction (SPEC §12) as a gray .y4m")
        ->each(note_empty(o.empty_values, "--prediction"));
    cmd.add_option("--residual", s.compensation.residual,
                   "Each pair's residual current - prediction: .npy (int16, shape (pairs, H, W)) or .y4m "
                   "(residual + 128, clipped to 0..255, to look at)")
        ->each(note_empty(o.empty_values, "--residual"));
    cmd.add_option("--transform", o.transform,
                   "8x8 DCT of the residual (SPEC §13): matrix or loeffler; adds coefficient energy, zero "
                   "fraction at --qstep and reconstruction PSNR per frame")
        ->each(note_empty(o.empty_values, "--transform"));
    cmd.add_option("--qstep", o.quantiser_step, "Uniform quantiser step S for --transform's figures, 1..4096")
        ->check(whole_number_from(1, max_quantiser_step))
        ->capture_default_str()
        ->each([&o](const std::string&) { o.quantiser_step_given = true; });
    cmd.add_option(
           "--coefficients", s.compensation.coefficients,
           "The residual's DCT coefficients (needs --transform): .npy, int16, shape (pairs, H, W), each "
           "8x8 tile's in its place, partial tiles cropped")
        ->each(note_empty(o.empty_values, "--coefficients"));
    cmd.add_option("--size", o.size, "Frame size of raw input, WIDTHxHEIGHT");
    cmd.add_option("--pix-fmt", o.pixel_format, "Pixel format of raw input: yuv420p, yuv422p, yuv444p, gray")
        ->capture_default_str()
        ->each([&o](const std::string&) { o.pixel_format_given = true; });
    cmd.add_flag("-q,--quiet", s.quiet, "No summary table, no progress, and only FFmpeg's errors");
    cmd.add_flag("-v,--verbose", s.verbose, "Say which device 'auto' chose and why; all of FFmpeg's log");
}

EstimateSettings settings_from(const JobOptions& o, const NamedPath& command_output) {
    refuse_empty_values(o.empty_values);
    EstimateSettings settings = o.settings;
    settings.policy = parse_policy(o.policy);
    settings.session.params.border = parse_border_mode(o.border);
    settings.session.params = chains_from(o.chain, settings.session.params).front();
    settings.references.distances = parse_reference_list(o.refs, "--refs");
    settings.references.both_directions = parse_direction(o.direction);
    settings.references.validate(settings.session.params);
    check_thread_count(settings.session.threads, "--threads");
    if (settings.frames == 1) {
        throw Error(
            ErrorKind::invalid_argument,
            "--frames 1 gives no frame pair to estimate (N frames give N-1 pairs): use --frames 2 or more");
    }
    if (!o.transform.empty()) {
        const TransformAlgorithm algorithm = parse_transform_algorithm(o.transform, "--transform");
        if (o.quantiser_step < 1 || o.quantiser_step > max_quantiser_step) {
            throw Error(ErrorKind::invalid_argument, "--qstep " + std::to_string(o.quantiser_step) +
                                                         " is out of bounds: use 1.." +
                                                         std::to_string(max_quantiser_step));
        }
        settings.transform = TransformOptions{algorithm, o.quantiser_step};
    } else if (o.quantiser_step_given || !settings.compensation.coefficients.empty()) {
        throw Error(ErrorKind::invalid_argument,
                    std::string(o.quantiser_step_given ? "--qstep" : "--coefficients") +
                        " applies to the DCT of the residual: add --transform matrix or "
                        "--transform loeffler");
    }
    if (!o.size.empty())
        std::tie(settings.raw.width, settings.raw.height) = parse_frame_size(o.size, "--size");
    settings.raw.chroma = parse_pixel_format(o.pixel_format);
    settings.raw_options_given = !o.size.empty() || o.pixel_format_given;
    check_output_paths({{"the input video", settings.input, true}},
                       {{"-o", settings.output, true},
                        {"--json", settings.json, true},
                        {"--export-mvs", settings.export_mvs},
                        {"--vector-array", settings.vector_array},
                        {"--cost-array", settings.cost_array},
                        {"--candidate-array", settings.candidate_array},
                        {"--prediction", settings.compensation.prediction},
                        {"--residual", settings.compensation.residual},
                        {"--coefficients", settings.compensation.coefficients},
                        command_output});
    if (!o.backend.empty() && !o.backends.empty()) {
        throw Error(ErrorKind::invalid_argument,
                    "give --backend (one device) or --backends (several), not both");
    }
    if (!o.backends.empty()) settings.devices = split_list(o.backends, "--backends");
    if (!o.backend.empty()) settings.devices = {o.backend};
    if (settings.policy == Policy::single && settings.devices.size() != 1) {
        throw Error(
            ErrorKind::invalid_argument,
            "--policy single runs on one device; use --policy mirror or split with several --backends");
    }
    if (settings.policy != Policy::single && settings.devices.size() < 2) {
        throw Error(ErrorKind::invalid_argument,
                    o.too_few_devices.empty()
                        ? "--policy " + o.policy + " needs at least two devices in --backends"
                        : o.too_few_devices);
    }
    return settings;
}

}  // namespace xme::cli
