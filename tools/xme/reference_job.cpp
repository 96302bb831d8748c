// `xme estimate --refs LIST` and `--direction both` (SPEC §14): the run's frames through ReferenceRun on
// one device, the rows (xme/decided_field_io.hpp), the summary and its table.
#include "reference_job.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <iostream>
#include <nlohmann/json.hpp>

#include "compensation_outputs.hpp"
#include "draw_field.hpp"
#include "interrupt.hpp"
#include "job_options.hpp"
#include "output_files.hpp"
#include "pair_drawer.hpp"
#include "picture.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/compensation.hpp"
#include "xme/decided_field_io.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/mvs_io.hpp"
#include "xme/reference_run.hpp"

namespace xme::cli {
namespace {

// What §14 does not do yet in this command: refused, named, before any work.
void refuse_unsupported_outputs(const EstimateSettings& settings) {
    const std::pair<bool, const char*> outputs[] = {
        {settings.policy != Policy::single, "--policy mirror or split"},
        {!settings.vector_array.empty(), "--vector-array"},
        {!settings.cost_array.empty(), "--cost-array"},
        {!settings.candidate_array.empty(), "--candidate-array"},
        {settings.read_only, "--read-only"}};
    for (const auto& [given, name] : outputs) {
        if (given) {
            throw Error(ErrorKind::unsupported,
                        std::string(name) +
                            " with --refs or --direction both (SPEC §14) is not implemented yet: "
                            "write -o (.csv, .npy or -) and --json, on one device (--backend)");
        }
    }
}

// §14's picture of a decided frame: as `xme draw` draws its -o rows (draw_decided).
void paint_decided(Picture& picture, const DecidedFrame& frame) {
    const DecidedField& field = frame.decided;
    std::vector<FieldRow> rows;
    rows.reserve(field.blocks.size());
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const std::size_t i = static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                  static_cast<std::size_t>(bx);
            const DecidedBlock& block = field.blocks[i];
            FieldRow row;
            row.x = std::int64_t{bx} * field.block_size;
            row.y = std::int64_t{by} * field.block_size;
            row.mv_x = block.mv.x;
            row.mv_y = block.mv.y;
            row.cost = block.cost;
            row.decided = true;
            row.ref = block.distance;
            row.mode = static_cast<int>(block.mode);
            row.mv2_x = block.second_mv.x;
            row.mv2_y = block.second_mv.y;
            row.ref2 = block.second_distance;
            if (frame.backward) {
                row.back_mv_x = frame.backward->blocks[i].mv_x;
                row.back_mv_y = frame.backward->blocks[i].mv_y;
            }
            if (!frame.consistency.empty()) {
                row.consistency = frame.consistency[i];
                row.flagged = frame.consistency[i] > consistency_flag_threshold;
            }
            rows.push_back(row);
        }
    }
    draw_decided(picture, rows, field.block_size);
}

// -o FLOW.flo with --direction both: the forward flow of frame f to the path (or its pattern's file for f)
// and the backward flow of frame f - 1 towards f beside it, ".backward" before ".flo" (xme/field_io.hpp's
// .flo, each a field of its own). A list of references has no one flow per frame: refused.
class FlowPairWriter {
public:
    FlowPairWriter(const EstimateSettings& settings, LumaSize size) {
        if (!settings.references.both_directions) {
            throw Error(ErrorKind::unsupported,
                        "-o " + settings.output +
                            ": a .flo file holds one flow to one reference, and --refs gives several: use "
                            "--direction both for forward and backward flow, or -o .csv or .npy");
        }
        const std::string& path = settings.output;
        forward_ = open_field_writer(path, FieldLayout::blocks, size);
        backward_ =
            open_field_writer(path.substr(0, path.size() - 4) + ".backward" + path.substr(path.size() - 4),
                              FieldLayout::blocks, size);
    }
    void write(const DecidedFrame& frame, int width, int height) {
        const DecidedField& decided = frame.decided;
        MotionField forward(width, height, decided.block_size, decided.cost_kind);
        for (std::size_t i = 0; i < decided.blocks.size(); ++i) {
            const DecidedBlock& block = decided.blocks[i];
            forward.blocks[i] = {static_cast<std::int16_t>(block.mv.x), static_cast<std::int16_t>(block.mv.y),
                                 block.cost, block.candidates};
        }
        forward_->write(frame.frame, forward);
        if (frame.backward) backward_->write(frame.frame - 1, *frame.backward);
    }
    void finish(std::int64_t frames) {
        forward_->finish(frames);
        backward_->finish(frames);
    }

private:
    std::unique_ptr<FieldWriter> forward_;
    std::unique_ptr<FieldWriter> backward_;
};

struct FrameFigures {
    std::int64_t frame = 0;
    std::array<std::int64_t, 3> modes{};  // past, future, both
    std::uint64_t total_cost = 0;
    std::uint64_t rate_bits = 0;
    double mc_psnr_db = 0;
    double consistency_mean = 0;
    double flagged_fraction = 0;
    double device_seconds = 0;
    int pairs = 0;
    int frames_taken_in = 0;
    std::optional<TransformFigures> transform;  // --transform: SPEC §13 on the decided residual
};

FrameFigures figures_of(const DecidedFrame& frame) {
    FrameFigures figures;
    figures.frame = frame.frame;
    for (const DecidedBlock& block : frame.decided.blocks) {
        ++figures.modes[static_cast<std::size_t>(block.mode)];
        figures.total_cost += block.cost;
        figures.rate_bits += block.bits;
    }
    figures.mc_psnr_db = frame.mc_psnr_db;
    if (!frame.consistency.empty()) {
        std::uint64_t sum = 0;
        std::int64_t flagged = 0;
        for (const std::uint32_t figure : frame.consistency) {
            sum += figure;
            flagged += figure > consistency_flag_threshold ? 1 : 0;
        }
        figures.consistency_mean = static_cast<double>(sum) / static_cast<double>(frame.consistency.size());
        figures.flagged_fraction =
            static_cast<double>(flagged) / static_cast<double>(frame.consistency.size());
    }
    figures.device_seconds = frame.device_seconds;
    figures.pairs = frame.pairs;
    figures.frames_taken_in = frame.frames_taken_in;
    return figures;
}

// The run's figures, summed once for the summary and the table.
struct RunTotals {
    std::array<std::int64_t, 3> modes{};  // past, future, both
    double mean_mc_psnr_db = 0;
    double mean_consistency = 0;
    double flagged_fraction = 0;
    double device_seconds = 0;
    std::int64_t pairs = 0;
    std::uint64_t total_cost = 0;
    std::uint64_t rate_bits = 0;
    std::int64_t frames_taken_in = 0;

    [[nodiscard]] double mode_share(std::size_t mode) const {
        const std::int64_t blocks = modes[0] + modes[1] + modes[2];
        return static_cast<double>(modes[mode]) / static_cast<double>(std::max<std::int64_t>(1, blocks));
    }
};

RunTotals totals_of(const std::vector<FrameFigures>& frames) {
    RunTotals totals;
    for (const FrameFigures& f : frames) {
        for (std::size_t m = 0; m < 3; ++m) totals.modes[m] += f.modes[m];
        totals.mean_mc_psnr_db += f.mc_psnr_db;
        totals.mean_consistency += f.consistency_mean;
        totals.flagged_fraction += f.flagged_fraction;
        totals.device_seconds += f.device_seconds;
        totals.pairs += f.pairs;
        totals.total_cost += f.total_cost;
        totals.rate_bits += f.rate_bits;
        totals.frames_taken_in += f.frames_taken_in;
    }
    const double count = frames.empty() ? 1.0 : static_cast<double>(frames.size());
    totals.mean_mc_psnr_db /= count;
    totals.mean_consistency /= count;
    totals.flagged_fraction /= count;
    return totals;
}

nlohmann::json summary_json(const EstimateSettings& settings, const std::string& device,
                            const VideoInfo& video, const std::vector<FrameFigures>& frames,
                            const RunTotals& totals, double wall_seconds, double setup_seconds,
                            const std::optional<std::string>& error,
                            const std::optional<std::string>& interrupted) {
    const std::int64_t frame_bytes = static_cast<std::int64_t>(video.width) * video.height;
    nlohmann::json per_frame = nlohmann::json::array();
    for (const FrameFigures& f : frames) {
        per_frame.push_back(
            {{"frame", f.frame},
             {"modes", {{"past", f.modes[0]}, {"future", f.modes[1]}, {"both", f.modes[2]}}},
             {"total_cost", f.total_cost},
             {"rate_bits", f.rate_bits},
             {"mc_psnr_db", f.mc_psnr_db},
             {"consistency_mean", f.consistency_mean},
             {"flagged_fraction", f.flagged_fraction},
             {"device_ms", f.device_seconds * 1e3},
             {"pairs", f.pairs},
             {"transform",
              f.transform ? nlohmann::json{{"coefficient_energy", f.transform->coefficient_energy},
                                           {"zero_fraction", f.transform->zero_fraction},
                                           {"reconstruction_psnr_db", f.transform->reconstruction_psnr_db}}
                          : nlohmann::json()},
             {"bytes_uploaded", f.frames_taken_in * frame_bytes}});
    }
    return {{"input", settings.input},
            {"device", device},
            {"video", {{"width", video.width}, {"height", video.height}, {"format", video.format}}},
            {"parameters", reference_parameters_json(settings)},
            {"frames", per_frame},
            {"totals",
             {{"frames", frames.size()},
              {"pairs_computed", totals.pairs},
              {"total_cost", totals.total_cost},
              {"rate_bits", totals.rate_bits},
              {"mode_shares",
               {{"past", totals.mode_share(0)},
                {"future", totals.mode_share(1)},
                {"both", totals.mode_share(2)}}},
              {"mean_mc_psnr_db", totals.mean_mc_psnr_db},
              {"mean_consistency", totals.mean_consistency},
              {"flagged_fraction", totals.flagged_fraction}}},
            {"timing",
             {{"wall_seconds", wall_seconds},
              {"setup_seconds", setup_seconds},
              {"device_seconds", totals.device_seconds},
              {"frames_uploaded", totals.frames_taken_in},
              {"bytes_uploaded", totals.frames_taken_in * frame_bytes},
              {"bytes_uploaded_per_frame", frames.empty()
                                               ? 0.0
                                               : static_cast<double>(totals.frames_taken_in * frame_bytes) /
                                                     static_cast<double>(frames.size())},
              {"meaning",
               "device_seconds: the device's own time for every pair; bytes_uploaded: the frames its "
               "session took in (uploaded and prepared), each frame once while its references keep it "
               "resident"}}},
            {"error", error ? nlohmann::json(*error) : nlohmann::json()},
            {"interrupted", interrupted ? nlohmann::json(*interrupted) : nlohmann::json()}};
}

}  // namespace

void run_reference_estimate(const EstimateSettings& settings, const std::string& draw) {
    const auto started = std::chrono::steady_clock::now();
    const auto since_start = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    refuse_unsupported_outputs(settings);
    const std::unique_ptr<VideoReader> reader = open_reference_input(settings, !draw.empty());
    const VideoInfo video = reader->info();
    std::optional<Registry> own_registry;
    Registry& registry = reference_registry(settings, own_registry);
    std::string name = settings.devices.front();
    if (name == "auto") name = registry.best_device_name();
    const std::shared_ptr<Device> device =
        settings.open_device ? settings.open_device(name) : std::shared_ptr<Device>(registry.open(name));
    SessionOptions options = settings.session;
    options.width = video.width;
    options.height = video.height;
    ReferenceRun run(*device, options, settings.references);
    run.set_first_index(settings.start);
    ClaimedOutput json_output = settings.json.empty() || settings.json == "-"
                                    ? ClaimedOutput()
                                    : ClaimedOutput(settings.json, "the JSON summary");
    const bool flow = lowercase_extension(settings.output) == ".flo";
    std::optional<FlowPairWriter> flow_writer;
    if (flow) flow_writer.emplace(settings, LumaSize{video.width, video.height});
    std::unique_ptr<DecidedFieldWriter> writer = settings.output.empty() || settings.output == "-" || flow
                                                     ? nullptr
                                                     : open_decided_field_writer(settings.output);
    std::unique_ptr<DecidedFieldWriter> mvs_writer =
        settings.export_mvs.empty() ? nullptr : open_decided_mvs_writer(settings.export_mvs);
    if (settings.output == "-") std::cout << decided_csv_header();
    // SPEC §12-§13 of the decided prediction (xme/compensation.hpp's compensate_prediction).
    std::optional<CompensationOutputs> planes;
    if (settings.compensation.any()) planes.emplace(settings.compensation, video.width, video.height);
    std::optional<PairDrawer> drawer;
    if (!draw.empty()) {
        // Frame `start` is estimated too where a future reference exists (SPEC §14).
        const bool first_estimated = settings.references.furthest_future() > 0;
        const std::int64_t drawn =
            settings.frames < 0 ? -1 : (first_estimated ? settings.frames : settings.frames - 1);
        drawer.emplace(draw, false, settings.start + (first_estimated ? 0 : 1), drawn);
    }
    const double setup_seconds = since_start();
    std::vector<FrameFigures> frames;
    std::optional<Error> error;
    auto take = [&](std::vector<DecidedFrame>&& decided) {
        for (const DecidedFrame& frame : decided) {
            if (writer) writer->write(frame);
            if (mvs_writer) mvs_writer->write(frame);
            if (flow_writer) flow_writer->write(frame, video.width, video.height);
            std::optional<TransformFigures> transform;
            if (planes || settings.transform) {
                CompensatedFrame compensated = compensate_prediction(
                    Plane(*frame.prediction), frame.current->luma.view(), settings.transform);
                transform = compensated.transform;
                if (planes) planes->write(compensated);
            }
            if (drawer)
                drawer->draw_over(frame.frame, *frame.current, video,
                                  [&](Picture& picture) { paint_decided(picture, frame); });
            if (settings.output == "-") std::cout << decided_csv_rows(frame);
            frames.push_back(figures_of(frame));
            frames.back().transform = transform;
        }
    };
    auto stopped = [&] {
        return interrupt_signal() != 0 || (settings.stop != nullptr && settings.stop->load());
    };
    try {
        std::int64_t read = 0;
        while ((settings.frames < 0 || read < settings.frames) && !stopped()) {
            std::optional<Frame> frame = reader->read_frame();
            if (!frame) break;
            ++read;
            take(run.feed(std::make_shared<const Frame>(std::move(*frame))));
        }
        if (!stopped()) take(run.finish());
        if (frames.empty() && !stopped()) {
            throw Error(ErrorKind::bad_input,
                        (settings.input == "-" ? std::string("standard input") : settings.input) + " has " +
                            std::to_string(read) +
                            " frame(s) from --start: none of them has a reference of --refs "
                            "in the run, so there is nothing to estimate");
        }
    } catch (const Error& e) {
        error = e;  // the frames decided before it are written, and the summary says why the run ended
    }
    if (writer) writer->finish(static_cast<std::int64_t>(frames.size()));
    if (mvs_writer) mvs_writer->finish(static_cast<std::int64_t>(frames.size()));
    if (flow_writer) flow_writer->finish(static_cast<std::int64_t>(frames.size()));
    if (planes) planes->finish(static_cast<std::int64_t>(frames.size()));
    if (drawer) drawer->finish();
    const RunTotals totals = totals_of(frames);
    const int stop_signal = stopped() ? (interrupt_signal() != 0 ? interrupt_signal() : SIGINT) : 0;
    if (!settings.json.empty()) {
        const std::string text =
            summary_json(
                settings, device->info().name, video, frames, totals, since_start(), setup_seconds,
                error ? std::optional<std::string>(error->what()) : std::nullopt,
                stop_signal != 0 ? std::optional<std::string>(signal_name(stop_signal)) : std::nullopt)
                .dump(2) +
            "\n";
        if (settings.json == "-") {
            std::cout << text;
        } else {
            json_output.write(text);
        }
    }
    if (error) throw *error;
    if (stop_signal != 0) {
        throw Interrupted(stop_signal, "interrupted by " + signal_name(stop_signal) + " after " +
                                           std::to_string(frames.size()) +
                                           " frame(s); every output holds those frames");
    }
    if (!settings.quiet && settings.output.empty()) {
        std::FILE* out = settings.stdout_carries_data() ? stderr : stdout;
        std::fprintf(
            out,
            "%zu frame(s) on %s: past %.1f%%, future %.1f%%, both %.1f%% of the blocks; mean MC-PSNR %.2f dB",
            frames.size(), device->info().name.c_str(), 100.0 * totals.mode_share(0),
            100.0 * totals.mode_share(1), 100.0 * totals.mode_share(2), totals.mean_mc_psnr_db);
        if (settings.references.both_directions)
            std::fprintf(out, "; flagged %.1f%%", 100.0 * totals.flagged_fraction);
        std::fprintf(out, "\n");
    }
}

// The helpers reference_compare.cpp shares (reference_job.hpp).
// The run's input, checked and positioned at --start; luma only unless pictures need the colour.
std::unique_ptr<VideoReader> open_reference_input(const EstimateSettings& settings, bool keep_colour) {
    auto reader = open_video(settings.input, settings.raw);
    if (!keep_colour) reader->set_luma_only();
    if (settings.read_threads >= 0) reader->set_read_threads(settings.read_threads);
    check_frame_dimensions(settings.input == "-" ? "standard input" : settings.input, reader->info());
    if (settings.start > 0) static_cast<void>(reader->skip_frames(settings.start));
    return reader;
}

// The caller's registry (xme.run_estimate keeps one), else one of this run's own.
Registry& reference_registry(const EstimateSettings& settings, std::optional<Registry>& own) {
    return settings.registry != nullptr ? *settings.registry : own.emplace(make_builtin_registry());
}

// The run's chain and §14 settings, as both JSON reports give them.
nlohmann::json reference_parameters_json(const EstimateSettings& settings) {
    const auto& p = settings.session.params;
    return {{"algorithm", chain_name(p)},
            {"block", p.block_size},
            {"range", p.range},
            {"lambda", p.lambda},
            {"predictor", std::string(to_string(p.predictor))},
            {"refresh", p.refresh},
            {"refs", settings.references.distances},
            {"direction", settings.references.both_directions ? "both" : "forward"}};
}

}  // namespace xme::cli
