#include "estimate_job.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>
#include <mutex>

#include "estimate_report_json.hpp"
#include "interrupt.hpp"
#include "job_options.hpp"
#include "output_files.hpp"
#include "progress.hpp"
#include "stdout_field_writer.hpp"
#include "xme/accounting.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/mvs_io.hpp"
#include "xme/params.hpp"
#include "xme/staged_file.hpp"

namespace xme::cli {
namespace {

bool is_filtered(const ScheduledDevice& device) { return device.support.tolerance > 0; }

// Mirror: every device against every other (an exact device as the expected side), and each
// device's reported costs against the reference's. `previous` holds each device's field of the pair
// before (the temporal predictor's), replaced here by this pair's.
void check_mirror(const ScheduledPair& pair, const SearchParams& params, EstimateReport& report,
                  std::vector<MotionField>& previous) {
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
        agreement.tolerance =
            std::max(report.devices[expected].support.tolerance, report.devices[actual].support.tolerance);
        if (is_filtered(report.devices[expected])) std::swap(expected, actual);
        const MotionField& actual_field = pair.results[actual].result.field;
        const MotionField* before =
            pair.segment_start || previous.size() != count ? nullptr : &previous[actual];
        const Agreement result =
            expected == actual
                ? check_reported_costs(reference, current, params, actual_field, agreement.tolerance, before)
                : compare_fields(reference, current, params, pair.results[expected].result.field,
                                 actual_field, agreement.tolerance);
        agreement.blocks_compared += result.blocks_compared;
        agreement.blocks_different += result.blocks_different;
        for (const auto& mismatch : result.mismatches)
            agreement.mismatches.emplace_back(pair.frame, mismatch);
    }
    previous.clear();
    for (const auto& result : pair.results) previous.push_back(result.result.field);
}

// The signal that asked the job to stop (interrupt.hpp), or SIGINT where the caller set settings.stop.
int stop_signal(const EstimateSettings& settings) {
    if (const int signal = interrupt_signal(); signal != 0) return signal;
    return settings.stop != nullptr && settings.stop->load() ? SIGINT : 0;
}

// One rule wherever it is found (from the header's frame count, while skipping --start frames, or
// after reading): a run with no frame pair is an error, exit 3, naming the count and --start.
[[noreturn]] void throw_no_pair(const EstimateSettings& settings, std::int64_t frame_count) {
    std::string message = input_name(settings.input) + " has " + std::to_string(frame_count) + " frame(s)";
    if (settings.start > 0) {
        message += " and --start " + std::to_string(settings.start) + " leaves " +
                   std::to_string(std::max<std::int64_t>(0, frame_count - settings.start));
    }
    message += ": a frame pair needs two frames, so there is nothing to estimate";
    if (settings.start > 0 && frame_count >= 2)
        message += "; use --start " + std::to_string(frame_count - 2) + " or less";
    throw Error(ErrorKind::bad_input, message);
}

std::vector<std::string> resolve_devices(const EstimateSettings& settings, Registry& registry,
                                         std::string& reason) {
    std::vector<std::string> names = settings.devices;
    for (auto& name : names) {
        if (name == "auto") name = registry.best_device_name(&reason);
    }
    return names;
}

// The reader's notices come from the run's thread, the devices' from the scheduler's delivery thread.
std::mutex notices_mutex;

void add_notice(EstimateReport& report, const std::string& text) {
    const std::lock_guard lock(notices_mutex);
    report.notices.push_back(text);
    std::cerr << "xme: notice: " << text << "\n";
}

// The reader's notices join the run's; damage makes the run's result incomplete (exit 3 at its end).
void take_reader_notices(VideoReader& reader, EstimateReport& report, bool& frames_lost) {
    for (auto& notice : reader.take_notices()) {
        add_notice(report, notice.text);
        frames_lost = frames_lost || notice.frames_lost;
    }
}

std::unique_ptr<FieldWriter> open_writer(const std::string& output, FieldLayout layout, LumaSize frame) {
    if (output.empty()) return nullptr;
    return output == "-" ? open_stdout_csv_writer(layout) : open_field_writer(output, layout, frame);
}

// A .flo file holds one field: without a frame number in its name, the run must be one pair, by
// --frames 2 or by the input's exact frame count. Checked before any work.
void check_single_field_output(const EstimateSettings& settings, const VideoInfo& video) {
    if (lowercase_extension(settings.output) != ".flo" || names_one_file_per_frame(settings.output)) return;
    const bool exact = video.frame_count >= 0 && !video.format.starts_with("ffmpeg");
    if (settings.frames == 2 || (exact && video.frame_count - settings.start == 2)) return;
    throw Error(ErrorKind::invalid_argument,
                "-o " + settings.output +
                    ": a .flo file holds one frame pair's field and this run may estimate more; name one "
                    "file per pair with a frame number, as in -o flow_%04d.flo, or estimate one pair with "
                    "--frames 2");
}

void run_pairs(const EstimateSettings& settings, Scheduler& scheduler, VideoReader& reader,
               EstimateReport& report, bool& frames_lost) {
    // Every field file is written on a thread of its own, so that converting and writing a pair overlaps
    // the next pair's delivery (metrics, pictures) and the devices (docs/scheduler.md, "Outputs").
    std::vector<std::unique_ptr<SettlingFieldWriter>> field_writers;
    const FieldLayout layout = field_layout_of(settings.session.params);
    if (!settings.output.empty() && settings.output != "-")
        field_writers.push_back(write_in_background(
            open_writer(settings.output, layout, {report.video.width, report.video.height})));
    // Standard output stays on the delivering thread: its writes are the run's own, in order with its
    // messages.
    std::unique_ptr<FieldWriter> stdout_writer =
        settings.output == "-"
            ? open_writer(settings.output, layout, {report.video.width, report.video.height})
            : nullptr;
    if (!settings.export_mvs.empty())
        field_writers.push_back(write_in_background(open_mvs_writer(settings.export_mvs, layout)));
    const int block = settings.session.params.block_size;
    const int blocks_x = (report.video.width + block - 1) / block;
    const int blocks_y = (report.video.height + block - 1) / block;
    for (const auto& [path, array] : {std::pair{settings.vector_array, FieldArray::vectors},
                                      std::pair{settings.cost_array, FieldArray::costs},
                                      std::pair{settings.candidate_array, FieldArray::candidates}}) {
        if (path.empty()) continue;
        if (layout == FieldLayout::partitions) {
            throw Error(ErrorKind::unsupported,
                        "--vector-array, --cost-array and --candidate-array hold one vector per block; "
                        "with partitions (SPEC §9) use -o, one row per partition");
        }
        field_writers.push_back(
            write_in_background(open_field_array_writer(path, array, blocks_x, blocks_y)));
    }
    std::optional<CompensationOutputs> planes;
    if (settings.compensation.any())
        planes.emplace(settings.compensation, report.video.width, report.video.height);
    // Pairs to come: exact from a Y4M or raw file's size, an estimate from a container's header.
    std::int64_t total = report.video.frame_count >= 0 ? report.video.frame_count - settings.start - 1 : -1;
    if (settings.frames >= 0 && (total < 0 || settings.frames - 1 < total)) total = settings.frames - 1;
    const bool total_exact = report.video.frame_count >= 0 && report.video.frame_count_exact;
    Progress progress(total, total_exact, !settings.quiet);
    std::int64_t frames_read = 0;
    std::int64_t frames_got = 0;  // frames_read, less the call that found the end
    auto next_frame = [&]() -> std::optional<Frame> {
        if (settings.frames >= 0 && frames_read >= settings.frames) return std::nullopt;
        if (stop_signal(settings) != 0) return std::nullopt;  // stopped between pairs: no more input
        ++frames_read;
        std::optional<Frame> frame = reader.read_frame();
        take_reader_notices(reader, report, frames_lost);
        if (frame) ++frames_got;
        return frame;
    };
    const SearchParams& params = settings.session.params;
    std::optional<MotionField> temporal_predictors;  // the pair before's field, for its rate bits
    std::vector<MotionField> mirrored_before;        // under mirror: each device's field of the pair before
    auto deliver = [&](ScheduledPair&& pair) {
        // Stopped by a signal: the pairs still in flight are dropped, so that the run ends soon.
        if (stop_signal(settings) != 0) return;
        const MotionField& field = pair.results.front().result.field;
        if (stdout_writer) stdout_writer->write(pair.frame, field);
        for (const auto& writer : field_writers) writer->write(pair.frame, field);
        FrameRecord record;
        record.frame = pair.frame;
        const MotionField* previous =
            pair.segment_start || !temporal_predictors ? nullptr : &*temporal_predictors;
        // SPEC §12-§13 from this field, computed by the session (ScheduleOptions' request): the one
        // prediction the metrics, the residual and the files share.
        const std::optional<CompensatedFrame>& given = pair.results.front().result.compensation;
        if (!given) {
            throw Error(ErrorKind::device, "device " + report.devices[pair.results.front().device].info.name +
                                               " returned no compensation for frame " +
                                               std::to_string(pair.frame) + ": internal error");
        }
        const CompensatedFrame& compensated = *given;
        if (planes) planes->write(compensated);
        record.residual_abs_sum = compensated.residual_abs_sum;
        record.transform = compensated.transform;
        record.metrics = measure_frame(pair.reference->luma.view(), pair.current->luma.view(), field, params,
                                       previous, &compensated);
        if (params.predictor == Predictor::temporal) temporal_predictors = field;
        record.comparisons = pixel_comparisons(record.metrics.candidates, field.blocks.size(), params);
        for (const auto& result : pair.results) {
            record.devices.push_back(result.device);
            record.device_seconds.push_back(result.result.device_seconds);
        }
        // The pictures last: one that fails leaves no pair in them that the files above keep, and
        // the pair is not in the summary (a picture file cannot be cut back as the streams are).
        if (settings.on_pair) settings.on_pair(pair, report.video);
        report.frames.push_back(std::move(record));
        if (settings.policy == Policy::mirror)
            check_mirror(pair, settings.session.params, report, mirrored_before);
        progress.frame_done();
    };
    auto notice = [&](const std::string& text) { add_notice(report, text); };
    // Every file ends with the pairs all of them hold (those in the summary): a write that failed
    // mid-pair left the files written before it one pair ahead.
    auto finish_outputs = [&] {
        // A file written in the background may hold fewer pairs than were delivered (its write failed):
        // the others, and the summary, end with it.
        auto pairs = static_cast<std::int64_t>(report.frames.size());
        for (const auto& writer : field_writers) pairs = std::min(pairs, writer->settle());
        report.frames.resize(static_cast<std::size_t>(pairs));
        // The old summary describes files about to be replaced: it goes now, and the new one is written
        // after them (a run killed in between leaves no summary rather than a wrong one).
        if (!settings.json.empty() && settings.json != "-")
            static_cast<void>(remove_replaceable_file(settings.json));
        std::optional<Error> first;
        auto attempt = [&](auto&& finish) {
            try {
                finish();
            } catch (const Error& e) {
                if (!first) first = e;
            }
        };
        if (stdout_writer) attempt([&] { stdout_writer->finish(pairs); });
        for (const auto& writer : field_writers) attempt([&] { writer->finish(pairs); });
        if (planes) attempt([&] { planes->finish(pairs); });
        if (first) throw *first;
    };
    try {
        scheduler.run(next_frame, settings.start, deliver, notice);
    } catch (...) {
        try {
            finish_outputs();
        } catch (const Error&) {  // the error that ended the run is the one reported
        }
        throw;
    }
    finish_outputs();
    if (report.frames.empty() && frames_got < 2 && stop_signal(settings) == 0)
        throw_no_pair(settings, settings.start + frames_got);
}

// --read-only: every frame read and dropped at once (back to the devices' memory), timed from the first
// read, so that the figure is the input's own pace with the job's reader and nothing else.
void read_frames_only(const EstimateSettings& settings, VideoReader& reader, EstimateReport& report,
                      bool& frames_lost) {
    // Kept in the report as it grows: a damaged file ends the run with the whole frames read before it.
    ReadOnlyFigures& figures = report.read_only.emplace();
    const auto start = std::chrono::steady_clock::now();
    const auto count_time = [&] {
        figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while ((settings.frames < 0 || figures.frames < settings.frames) && stop_signal(settings) == 0) {
        std::optional<Frame> frame;
        try {
            frame = reader.read_frame();
        } catch (...) {
            count_time();
            throw;
        }
        take_reader_notices(reader, report, frames_lost);
        if (!frame) break;
        ++figures.frames;
        figures.luma_bytes +=
            static_cast<std::uint64_t>(frame->width()) * static_cast<std::uint64_t>(frame->height());
    }
    count_time();
}

}  // namespace

void check_read_only(const EstimateSettings& settings) {
    if (!settings.read_only) return;
    const std::pair<bool, const char*> outputs[] = {
        {!settings.output.empty(), "-o"},
        {!settings.export_mvs.empty(), "--export-mvs"},
        {!settings.vector_array.empty(), "--vector-array"},
        {!settings.cost_array.empty(), "--cost-array"},
        {!settings.candidate_array.empty(), "--candidate-array"},
        {!settings.compensation.prediction.empty(), "--prediction"},
        {!settings.compensation.residual.empty(), "--residual"},
        {!settings.compensation.coefficients.empty(), "--coefficients"},
        {static_cast<bool>(settings.on_pair), "--draw"},
        {settings.policy == Policy::mirror, "--policy mirror"}};
    for (const auto& [given, name] : outputs) {
        if (given) {
            throw Error(ErrorKind::invalid_argument, std::string("--read-only estimates nothing, so ") +
                                                         name +
                                                         " has nothing to show: leave one of them out");
        }
    }
}

bool EstimateReport::all_agree() const {
    return std::all_of(agreements.begin(), agreements.end(),
                       [](const DeviceAgreement& a) { return a.mismatches.empty(); });
}

EstimateReport run_estimate(const EstimateSettings& settings) {
    const StopBetweenPairs stop_between_pairs;  // SIGINT and SIGTERM end the run whole
    if (!settings.references.single_pair()) {   // `xme estimate` runs them apart (reference_job.hpp)
        throw Error(ErrorKind::unsupported,
                    "xme compare with --refs or --direction both (SPEC §14) is not implemented yet: "
                    "tests/test_references.cpp checks every device against the reference");
    }
    const auto start = std::chrono::steady_clock::now();
    EstimateReport report;
    set_ffmpeg_log(settings.verbose ? FfmpegLog::verbose
                   : settings.quiet ? FfmpegLog::errors
                                    : FfmpegLog::warnings);
    if (settings.input == "-" && settings.raw_options_given && settings.raw.width == 0) {
        throw Error(ErrorKind::invalid_argument,
                    "--pix-fmt with the input - (standard input): raw frames need --size WxH as well; a "
                    "YUV4MPEG2 stream's header gives both");
    }
    auto reader = open_video(settings.input, settings.raw);
    // Motion estimation and its outputs read luma only; --draw's pictures show the colour too.
    if (!settings.on_pair) reader->set_luma_only();
    if (settings.read_threads >= 0) reader->set_read_threads(settings.read_threads);
    report.video = reader->info();
    if (settings.raw_options_given && report.video.format != "raw") {
        report.notices.push_back(
            "--size and --pix-fmt apply to raw video only: " + input_name(settings.input) + " is " +
            report.video.format + ", whose header gives the size; they are ignored");
        std::cerr << "xme: notice: " << report.notices.back() << "\n";
    }
    const VideoInfo& video = report.video;
    check_frame_dimensions(input_name(settings.input), video);
    // An FFmpeg container's count is only a claim; Y4M and raw counts are exact where they are known.
    const bool count_exact = video.frame_count >= 0 && !video.format.starts_with("ffmpeg");
    if (count_exact && video.frame_count - settings.start < 2) throw_no_pair(settings, video.frame_count);
    check_single_field_output(settings, video);
    check_read_only(settings);
    if (settings.start > 0) {
        const std::int64_t skipped = reader->skip_frames(settings.start);
        if (skipped < settings.start) throw_no_pair(settings, skipped);
    }
    std::optional<Registry> own_registry;
    Registry& registry =
        settings.registry != nullptr ? *settings.registry : own_registry.emplace(make_builtin_registry());
    ScheduleOptions options{settings.policy, resolve_devices(settings, registry, report.choice_reason),
                            settings.session};
    options.open_device = settings.open_device;
    // The metrics need only the figures (the squared errors); the planes come back when a file takes them.
    options.session.compensation = CompensationRequest{
        settings.transform, !settings.compensation.prediction.empty(),
        !settings.compensation.residual.empty(), !settings.compensation.coefficients.empty()};
    options.session.width = report.video.width;
    options.session.height = report.video.height;
    if (settings.verbose && !report.choice_reason.empty())
        std::cerr << "xme: chose " << report.choice_reason << "\n";
    Scheduler scheduler(registry, options);
    report.devices = scheduler.devices();
    // Frames straight into the memory a GPU uploads from (no staging copy per frame).
    reader->set_plane_memory(scheduler.plane_memory());
    // The summary's path is checked now, not after the run; -o is opened in run_pairs, also before it.
    ClaimedOutput json_output = settings.json.empty() || settings.json == "-"
                                    ? ClaimedOutput()
                                    : ClaimedOutput(settings.json, "the JSON summary");
    auto finish = [&] {
        report.devices = scheduler.devices();
        report.host_times = scheduler.host_times();
        report.convert_seconds = reader->convert_seconds();
        std::uint64_t comparisons = 0;
        for (const FrameRecord& record : report.frames) comparisons += record.comparisons;
        report.comparisons_per_pair = comparisons / std::max<std::uint64_t>(1, report.frames.size());
        report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (const int signal = stop_signal(settings); signal != 0) report.interrupted = signal_name(signal);
        if (!settings.json.empty()) {
            try {
                write_report_json(report, settings);
            } catch (const Error&) {
                // An old summary there would contradict the files this run wrote.
                if (settings.json != "-") static_cast<void>(remove_replaceable_file(settings.json));
                throw;
            }
            json_output.keep();
        }
    };
    bool frames_lost = false;
    try {
        report.setup_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (settings.read_only) {
            read_frames_only(settings, *reader, report, frames_lost);
        } else {
            run_pairs(settings, scheduler, *reader, report, frames_lost);
        }
        if (frames_lost) {
            throw Error(ErrorKind::bad_input,
                        input_name(settings.input) +
                            " is damaged: frames were lost or decoded with errors (see the "
                            "notices); every pair that was decoded was estimated and written");
        }
    } catch (const Error& e) {
        take_reader_notices(*reader, report, frames_lost);
        report.error = e.what();
        finish();
        throw;
    }
    if (const int signal = stop_signal(settings); signal != 0) {
        const std::string done = report.read_only
                                     ? std::to_string(report.read_only->frames) + " frame(s) read"
                                     : std::to_string(report.frames.size()) + " pair(s)";
        report.error = "interrupted by " + signal_name(signal) + " after " + done;
        finish();
        throw Interrupted(signal,
                          *report.error + (report.read_only ? "" : "; every output holds those pairs"));
    }
    finish();
    return report;
}

}  // namespace xme::cli
