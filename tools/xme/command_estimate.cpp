// `xme estimate INPUT`: motion estimation over consecutive frame pairs of a video.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "estimate_job.hpp"
#include "xme/error.hpp"

namespace xme::cli {
namespace {

struct EstimateOptions {
    EstimateSettings settings;
    std::string algorithm = "fs";
    std::string border = "pad";
    std::string size;
    std::string pixel_format = "yuv420p";
};

void parse_size(const std::string& text, RawVideoOptions& raw) {
    int width = 0;
    int height = 0;
    char trailing = 0;
    if (std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &trailing) != 2 || width < 1 || height < 1) {
        throw Error(ErrorKind::invalid_argument, "--size '" + text + "' is not WIDTHxHEIGHT, e.g. 352x288");
    }
    raw.width = width;
    raw.height = height;
}

}  // namespace

Command add_estimate_command(CLI::App& app) {
    auto options = std::make_shared<EstimateOptions>();
    auto& s = options->settings;
    auto* cmd = app.add_subcommand("estimate", "Estimate motion between consecutive frames (frame i against frame i-1)");
    cmd->add_option("input", s.input, "Video: .y4m, raw .yuv (with --size), or any format FFmpeg reads")->required();
    cmd->add_option("--backend", s.device, "Device to run on: auto, cpu, cuda:0, vulkan:0 ... (see 'xme devices')");
    cmd->add_option("--variant", s.session.variant, "Implementation variant of the device (default: its fastest)");
    cmd->add_option("--algo", options->algorithm, "fs (integer full search) or fs+hpel (plus half-pel refinement)");
    cmd->add_option("--block", s.session.params.block_size, "Block size: 4, 8, 16 or 32")->capture_default_str();
    cmd->add_option("--range", s.session.params.range, "Search range R: vectors -R..R")->capture_default_str();
    cmd->add_option("--border", options->border, "pad (unrestricted vectors) or restrict (inside the padded frame)");
    cmd->add_option("--frames", s.frames, "Frames to read (N frames give N-1 pairs); default: all")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--start", s.start, "Frames to skip first")->check(CLI::NonNegativeNumber);
    cmd->add_option("--threads", s.session.threads, "Host threads (CPU backend); default: all")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("-o,--output", s.output, "Motion vectors: .csv or .npy");
    cmd->add_option("--json", s.json, "Summary: input, parameters, device, per-frame metrics, timings");
    cmd->add_option("--size", options->size, "Frame size of raw input, WIDTHxHEIGHT");
    cmd->add_option("--pix-fmt", options->pixel_format, "Pixel format of raw input: yuv420p, yuv422p, yuv444p, gray");
    cmd->add_flag("-q,--quiet", s.quiet, "No summary table and no progress");
    return {cmd, [options] {
                auto& settings = options->settings;
                settings.session.params.algorithm = parse_algorithm(options->algorithm);
                settings.session.params.border = parse_border_mode(options->border);
                settings.session.params.validate();
                if (!options->size.empty()) parse_size(options->size, settings.raw);
                settings.raw.chroma = parse_pixel_format(options->pixel_format);
                const EstimateReport report = run_estimate(settings);
                if (!settings.quiet && settings.output.empty()) print_summary(report, settings);
                return 0;
            }};
}

}  // namespace xme::cli
