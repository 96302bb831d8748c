#include "estimate_job.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "estimate_report_json.hpp"
#include "output_files.hpp"
#include "progress.hpp"
#include "xme/accounting.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"

namespace xme::cli {
namespace {

bool is_filtered(const ScheduledDevice& device, const SearchParams& params) {
    const auto& filtered = device.info.filtered_variants;
    return params.algorithm == Algorithm::full_search_hpel &&
           std::find(filtered.begin(), filtered.end(), device.variant) != filtered.end();
}

// Mirror: every device against every other (an exact device as the expected side), and each
// device's reported costs against the reference's.
void check_mirror(const ScheduledPair& pair, const SearchParams& params, EstimateReport& report) {
    const PlaneView reference = pair.reference->luma.view();
    const PlaneView current = pair.current->luma.view();
    const std::size_t count = pair.results.size();
    if (report.agreements.empty()) {
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t j = i; j < count; ++j) {
                DeviceAgreement agreement;
                agreement.first = i;
                agreement.second = j;
                report.agreements.push_back(std::move(agreement));
            }
        }
    }
    for (auto& agreement : report.agreements) {
        std::size_t expected = agreement.first;
        std::size_t actual = agreement.second;
        const bool filtered = is_filtered(report.devices[expected], params) || is_filtered(report.devices[actual], params);
        agreement.tolerance = filtered ? filtered_halfpel_tolerance(params) : 0;
        if (is_filtered(report.devices[expected], params)) std::swap(expected, actual);
        const MotionField& actual_field = pair.results[actual].result.field;
        const Agreement result =
            expected == actual
                ? check_reported_costs(reference, current, params, actual_field, agreement.tolerance)
                : compare_fields(reference, current, params, pair.results[expected].result.field, actual_field,
                                 agreement.tolerance);
        agreement.blocks_compared += result.blocks_compared;
        agreement.blocks_different += result.blocks_different;
        for (const auto& mismatch : result.mismatches) agreement.mismatches.emplace_back(pair.frame, mismatch);
    }
}

std::vector<std::string> resolve_devices(const EstimateSettings& settings, Registry& registry, std::string& reason) {
    std::vector<std::string> names = settings.devices;
    for (auto& name : names) {
        if (name == "auto") name = registry.best_device_name(&reason);
    }
    return names;
}

void run_pairs(const EstimateSettings& settings, Scheduler& scheduler, VideoReader& reader, EstimateReport& report) {
    std::unique_ptr<FieldWriter> writer = settings.output.empty() ? nullptr : open_field_writer(settings.output);
    std::int64_t total = report.video.frame_count >= 0 ? report.video.frame_count - settings.start - 1 : -1;
    if (settings.frames >= 0) total = total >= 0 ? std::min(total, settings.frames - 1) : settings.frames - 1;
    Progress progress(total, !settings.quiet);
    std::int64_t frames_read = 0;
    auto next_frame = [&]() -> std::optional<Frame> {
        if (settings.frames >= 0 && frames_read >= settings.frames) return std::nullopt;
        ++frames_read;
        return reader.read_frame();
    };
    auto deliver = [&](ScheduledPair&& pair) {
        const MotionField& field = pair.results.front().result.field;
        if (writer) writer->write(pair.frame, field);
        FrameRecord record;
        record.frame = pair.frame;
        record.metrics = measure_frame(pair.reference->luma.view(), pair.current->luma.view(), field);
        for (const auto& result : pair.results) {
            record.devices.push_back(result.device);
            record.device_seconds.push_back(result.result.device_seconds);
        }
        report.frames.push_back(std::move(record));
        if (settings.policy == Policy::mirror) check_mirror(pair, settings.session.params, report);
        progress.frame_done();
    };
    auto notice = [&](const std::string& text) {
        report.notices.push_back(text);
        std::cerr << "xme: " << text << "\n";
    };
    scheduler.run(next_frame, settings.start, deliver, notice);
    if (report.frames.empty() && frames_read <= 1) {
        throw Error(ErrorKind::bad_input, settings.input + " has fewer than two frames from index " +
                                              std::to_string(settings.start) + ": nothing to estimate");
    }
}

}  // namespace

bool EstimateReport::all_agree() const {
    return std::all_of(agreements.begin(), agreements.end(), [](const DeviceAgreement& a) { return a.mismatches.empty(); });
}

EstimateReport run_estimate(const EstimateSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    EstimateReport report;
    auto reader = open_video(settings.input, settings.raw);
    report.video = reader->info();
    if (settings.raw_options_given && report.video.format != "raw") {
        report.notices.push_back("--size and --pix-fmt apply to raw video only: " + settings.input + " is " +
                                 report.video.format + ", whose header gives the size; they are ignored");
        std::cerr << "xme: notice: " << report.notices.back() << "\n";
    }
    if (settings.start > 0 && reader->skip_frames(settings.start) < settings.start) {
        throw Error(ErrorKind::invalid_argument, "--start " + std::to_string(settings.start) + " is past the end of " +
                                                     settings.input);
    }
    Registry registry = make_builtin_registry();
    ScheduleOptions options{settings.policy, resolve_devices(settings, registry, report.choice_reason), settings.session};
    options.session.width = report.video.width;
    options.session.height = report.video.height;
    if (settings.verbose && !report.choice_reason.empty()) std::cerr << "xme: chose " << report.choice_reason << "\n";
    Scheduler scheduler(registry, options);
    report.devices = scheduler.devices();
    // The summary's path is checked now, not after the run; -o is opened in run_pairs, also before it.
    ClaimedOutput json_output =
        settings.json.empty() ? ClaimedOutput() : ClaimedOutput(settings.json, "the JSON summary");
    report.comparisons_per_pair = pixel_comparisons(options.session.width, options.session.height, options.session.params);
    auto finish = [&] {
        report.devices = scheduler.devices();
        report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!settings.json.empty()) {
            write_report_json(report, settings);
            json_output.keep();
        }
    };
    try {
        run_pairs(settings, scheduler, *reader, report);
    } catch (const Error& e) {
        report.error = e.what();
        finish();
        throw;
    }
    finish();
    return report;
}

}  // namespace xme::cli
