#include "estimate_job.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "progress.hpp"
#include "xme/accounting.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"

namespace xme::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double total_device_seconds(const EstimateReport& report) {
    double total = 0;
    for (const auto& record : report.frames) total += record.device_seconds;
    return total;
}

nlohmann::json to_json(const EstimateReport& report, const EstimateSettings& settings) {
    const auto& p = settings.session.params;
    nlohmann::json frames = nlohmann::json::array();
    for (const auto& r : report.frames) {
        frames.push_back({{"frame", r.frame},
                          {"total_cost", r.metrics.total_cost},
                          {"cost_scale", r.metrics.cost_scale},
                          {"mc_psnr_db", r.metrics.mc_psnr_db},
                          {"zero_psnr_db", r.metrics.zero_psnr_db},
                          {"device_ms", r.device_seconds * 1e3},
                          {"wall_ms", r.wall_seconds * 1e3}});
    }
    const double device_seconds = total_device_seconds(report);
    const auto pairs = static_cast<double>(report.frames.size());
    const double comparisons = pairs * static_cast<double>(report.comparisons_per_pair);
    return {{"input", settings.input},
            {"video",
             {{"format", report.video.format},
              {"width", report.video.width},
              {"height", report.video.height},
              {"frame_count", report.video.frame_count}}},
            {"parameters",
             {{"block", p.block_size},
              {"range", p.range},
              {"border", to_string(p.border)},
              {"algorithm", to_string(p.algorithm)},
              {"start", settings.start},
              {"frames", settings.frames}}},
            {"device", {{"name", report.device.name}, {"description", report.device.description}, {"variant", report.variant}}},
            {"frames", frames},
            {"timing",
             {{"pairs", report.frames.size()},
              {"wall_seconds", report.wall_seconds},
              {"device_seconds", device_seconds},
              {"wall_frames_per_second", report.wall_seconds > 0 ? pairs / report.wall_seconds : 0},
              {"device_frames_per_second", device_seconds > 0 ? pairs / device_seconds : 0},
              {"pixel_comparisons", comparisons},
              {"device_gpx_per_second", device_seconds > 0 ? comparisons / device_seconds / 1e9 : 0},
              {"device_time_includes", "the device's own clock per pair (for the CPU: the search, padding included)"}}},
            {"error", report.error ? nlohmann::json(*report.error) : nlohmann::json(nullptr)}};
}

void write_json(const EstimateReport& report, const EstimateSettings& settings) {
    std::ofstream out(settings.json);
    out << to_json(report, settings).dump(2) << "\n";
    if (!out) throw Error(ErrorKind::io, "cannot write the JSON summary " + settings.json);
}

void run_pairs(const EstimateSettings& settings, VideoReader& reader, MotionSession& session, EstimateReport& report) {
    std::unique_ptr<FieldWriter> writer = settings.output.empty() ? nullptr : open_field_writer(settings.output);
    std::optional<Frame> previous = reader.read_frame();
    if (!previous) throw Error(ErrorKind::bad_input, settings.input + " has no frame at index " + std::to_string(settings.start));
    std::int64_t total = report.video.frame_count >= 0 ? report.video.frame_count - settings.start - 1 : -1;
    if (settings.frames >= 0) total = total >= 0 ? std::min(total, settings.frames - 1) : settings.frames - 1;
    Progress progress(total, !settings.quiet);
    for (std::int64_t index = settings.start + 1; settings.frames < 0 || index < settings.start + settings.frames; ++index) {
        const auto start = std::chrono::steady_clock::now();
        std::optional<Frame> current = reader.read_frame();
        if (!current) break;
        session.submit({index - 1, previous->luma.view(), index, current->luma.view()});
        PairResult result = session.receive();
        if (writer) writer->write(index, result.field);
        report.frames.push_back({index, measure_frame(previous->luma.view(), current->luma.view(), result.field),
                                 result.device_seconds, seconds_since(start)});
        progress.frame_done();
        previous = std::move(current);
    }
}

}  // namespace

EstimateReport run_estimate(const EstimateSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    EstimateReport report;
    auto reader = open_video(settings.input, settings.raw);
    report.video = reader->info();
    if (settings.start > 0 && reader->skip_frames(settings.start) < settings.start) {
        throw Error(ErrorKind::invalid_argument, "--start " + std::to_string(settings.start) + " is past the end of " +
                                                     settings.input);
    }
    Registry registry = make_builtin_registry();
    auto device = registry.open(settings.device);
    report.device = device->info();
    SessionOptions options = settings.session;
    options.width = report.video.width;
    options.height = report.video.height;
    auto session = device->open_session(options);
    report.variant = options.variant.empty() ? report.device.variants.front() : options.variant;
    report.comparisons_per_pair = pixel_comparisons(options.width, options.height, options.params);
    try {
        run_pairs(settings, *reader, *session, report);
    } catch (const Error& e) {
        report.error = e.what();
        report.wall_seconds = seconds_since(start);
        if (!settings.json.empty()) write_json(report, settings);
        throw;
    }
    report.wall_seconds = seconds_since(start);
    if (!settings.json.empty()) write_json(report, settings);
    return report;
}

void print_summary(const EstimateReport& report, const EstimateSettings& settings) {
    const auto& p = settings.session.params;
    std::printf("%s: %dx%d %s, device %s (%s), %s block %d range %d border %s\n", settings.input.c_str(),
                report.video.width, report.video.height, report.video.format.c_str(), report.device.name.c_str(),
                report.variant.c_str(), std::string(to_string(p.algorithm)).c_str(), p.block_size, p.range,
                std::string(to_string(p.border)).c_str());
    std::printf("%8s %14s %12s %12s %10s\n", "frame", "cost/block", "MC PSNR dB", "zero PSNR dB", "device ms");
    const std::size_t shown = std::min<std::size_t>(report.frames.size(), 10);
    const double blocks = static_cast<double>(blocks_across(report.video.width, p.block_size)) *
                          blocks_across(report.video.height, p.block_size);
    for (std::size_t i = 0; i < report.frames.size(); ++i) {
        if (i == shown && report.frames.size() > shown + 1) std::printf("%8s\n", "...");
        if (i >= shown && i + 1 != report.frames.size()) continue;
        const auto& r = report.frames[i];
        std::printf("%8lld %14.1f %12.2f %12.2f %10.2f\n", static_cast<long long>(r.frame),
                    static_cast<double>(r.metrics.total_cost) / r.metrics.cost_scale / blocks, r.metrics.mc_psnr_db,
                    r.metrics.zero_psnr_db, r.device_seconds * 1e3);
    }
    const double device_seconds = total_device_seconds(report);
    const auto pairs = static_cast<double>(report.frames.size());
    std::printf("%zu frame pairs in %.2f s wall (%.1f pairs/s); device time %.3f s (%.1f pairs/s, %.2f Gpx/s)\n",
                report.frames.size(), report.wall_seconds, pairs / report.wall_seconds, device_seconds,
                device_seconds > 0 ? pairs / device_seconds : 0,
                device_seconds > 0 ? pairs * static_cast<double>(report.comparisons_per_pair) / device_seconds / 1e9 : 0);
}

}  // namespace xme::cli
