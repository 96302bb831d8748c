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
    const auto& p = settings.session.params;
    return {{"input", settings.input},
            {"device", device},
            {"video", {{"width", video.width}, {"height", video.height}, {"format", video.format}}},
            {"parameters",
             {{"algorithm", chain_name(p)},
              {"block", p.block_size},
              {"range", p.range},
              {"lambda", p.lambda},
              {"predictor", std::string(to_string(p.predictor))},
              {"refresh", p.refresh},
              {"refs", settings.references.distances},
              {"direction", settings.references.both_directions ? "both" : "forward"}}},
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
    auto reader = open_video(settings.input, settings.raw);
    if (draw.empty()) reader->set_luma_only();  // the pictures show the colour too
    if (settings.read_threads >= 0) reader->set_read_threads(settings.read_threads);
    const VideoInfo video = reader->info();
    check_frame_dimensions(settings.input == "-" ? "standard input" : settings.input, video);
    if (settings.start > 0) static_cast<void>(reader->skip_frames(settings.start));
    std::optional<Registry> own_registry;
    Registry& registry =
        settings.registry != nullptr ? *settings.registry : own_registry.emplace(make_builtin_registry());
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

namespace {

// One device's decided frames against the first device's.
struct ReferenceAgreement {
    std::string device;
    std::int64_t frames = 0;
    std::int64_t blocks = 0;
    std::int64_t mismatching_blocks = 0;       // decision (mode, vectors, references, J, bits, candidates)
    std::int64_t mismatching_consistency = 0;  // blocks whose §14 consistency differs
    std::int64_t mismatching_backward = 0;     // blocks of the backward field that differ
    std::string first_mismatch;
};

void compare_frame(const DecidedFrame& expected, const DecidedFrame& actual, ReferenceAgreement& agreement) {
    ++agreement.frames;
    const auto& e = expected.decided.blocks;
    const auto& a = actual.decided.blocks;
    const auto note = [&](const std::string& what) {
        if (agreement.first_mismatch.empty())
            agreement.first_mismatch = "frame " + std::to_string(expected.frame) + ": " + what;
    };
    if (expected.frame != actual.frame || e.size() != a.size()) {
        agreement.mismatching_blocks += static_cast<std::int64_t>(e.size());
        note("frame " + std::to_string(actual.frame) + " of " + std::to_string(a.size()) + " blocks decided");
        return;
    }
    agreement.blocks += static_cast<std::int64_t>(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (e[i] == a[i]) continue;
        ++agreement.mismatching_blocks;
        note("block " + std::to_string(i) + ": (" + std::to_string(e[i].mv.x) + "," +
             std::to_string(e[i].mv.y) + ")@" + std::to_string(e[i].distance) + " J " +
             std::to_string(e[i].cost) + " against (" + std::to_string(a[i].mv.x) + "," +
             std::to_string(a[i].mv.y) + ")@" + std::to_string(a[i].distance) + " J " +
             std::to_string(a[i].cost));
    }
    for (std::size_t i = 0; i < std::max(expected.consistency.size(), actual.consistency.size()); ++i) {
        if (i < expected.consistency.size() && i < actual.consistency.size() &&
            expected.consistency[i] == actual.consistency[i])
            continue;
        ++agreement.mismatching_consistency;
        note("block " + std::to_string(i) + "'s consistency");
    }
    if (expected.backward && actual.backward) {
        const auto& eb = expected.backward->blocks;
        const auto& ab = actual.backward->blocks;
        for (std::size_t i = 0; i < std::min(eb.size(), ab.size()); ++i) {
            if (eb[i].mv_x == ab[i].mv_x && eb[i].mv_y == ab[i].mv_y && eb[i].cost == ab[i].cost &&
                eb[i].candidates == ab[i].candidates)
                continue;
            ++agreement.mismatching_backward;
            note("backward block " + std::to_string(i));
        }
    } else if (static_cast<bool>(expected.backward) != static_cast<bool>(actual.backward)) {
        ++agreement.mismatching_backward;
        note("backward field missing");
    }
}

[[nodiscard]] bool agrees(const ReferenceAgreement& a) {
    return a.mismatching_blocks == 0 && a.mismatching_consistency == 0 && a.mismatching_backward == 0;
}

}  // namespace

void run_reference_compare(const EstimateSettings& settings) {
    auto reader = open_video(settings.input, settings.raw);
    reader->set_luma_only();
    if (settings.read_threads >= 0) reader->set_read_threads(settings.read_threads);
    const VideoInfo video = reader->info();
    check_frame_dimensions(settings.input == "-" ? "standard input" : settings.input, video);
    if (settings.start > 0) static_cast<void>(reader->skip_frames(settings.start));
    std::optional<Registry> own_registry;
    Registry& registry =
        settings.registry != nullptr ? *settings.registry : own_registry.emplace(make_builtin_registry());
    SessionOptions options = settings.session;
    options.width = video.width;
    options.height = video.height;
    std::vector<std::shared_ptr<Device>> devices;
    std::vector<std::unique_ptr<ReferenceRun>> runs;
    for (const std::string& name : settings.devices) {
        const std::shared_ptr<Device> device =
            settings.open_device ? settings.open_device(name) : std::shared_ptr<Device>(registry.open(name));
        const Support support = device->supports(options);
        if (support.supported && support.tolerance > 0) {
            throw Error(
                ErrorKind::unsupported,
                name +
                    "'s pairs agree within a tolerance (SPEC §6), and SPEC §14's decisions are compared "
                    "bit for bit: choose a bit-exact variant with --variant");
        }
        runs.push_back(std::make_unique<ReferenceRun>(*device, options, settings.references));
        runs.back()->set_first_index(settings.start);
        devices.push_back(device);
    }
    ClaimedOutput json_output = settings.json.empty() || settings.json == "-"
                                    ? ClaimedOutput()
                                    : ClaimedOutput(settings.json, "the JSON report");
    std::vector<ReferenceAgreement> agreements;
    for (std::size_t d = 1; d < devices.size(); ++d) {
        agreements.emplace_back();
        agreements.back().device = devices[d]->info().name;
    }
    const auto compare = [&](std::vector<std::vector<DecidedFrame>>&& decided) {
        for (std::size_t d = 1; d < decided.size(); ++d) {
            for (std::size_t f = 0; f < decided[0].size(); ++f) {
                if (f < decided[d].size()) {
                    compare_frame(decided[0][f], decided[d][f], agreements[d - 1]);
                } else {
                    agreements[d - 1].mismatching_blocks += 1;
                    if (agreements[d - 1].first_mismatch.empty())
                        agreements[d - 1].first_mismatch =
                            "frame " + std::to_string(decided[0][f].frame) + " missing";
                }
            }
        }
    };
    const auto stopped = [&] {
        return interrupt_signal() != 0 || (settings.stop != nullptr && settings.stop->load());
    };
    std::int64_t read = 0;
    while ((settings.frames < 0 || read < settings.frames) && !stopped()) {
        std::optional<Frame> frame = reader->read_frame();
        if (!frame) break;
        ++read;
        const auto shared = std::make_shared<const Frame>(std::move(*frame));
        std::vector<std::vector<DecidedFrame>> decided;
        for (auto& run : runs) decided.push_back(run->feed(shared));
        compare(std::move(decided));
    }
    if (!stopped()) {
        std::vector<std::vector<DecidedFrame>> decided;
        for (auto& run : runs) decided.push_back(run->finish());
        compare(std::move(decided));
    }
    nlohmann::json comparisons = nlohmann::json::array();
    std::FILE* out = settings.json == "-" ? stderr : stdout;
    std::string refs;
    for (const int d : settings.references.distances)
        refs += (refs.empty() ? "" : ",") + std::string(d > 0 ? "+" : "") + std::to_string(d);
    std::fprintf(out, "SPEC §14, --refs %s%s, against %s:\n", refs.c_str(),
                 settings.references.both_directions ? " --direction both" : "",
                 devices.front()->info().name.c_str());
    for (const ReferenceAgreement& a : agreements) {
        std::fprintf(
            out,
            "  %-12s %lld frame(s), %lld block(s): %lld decisions, %lld consistencies, %lld backward "
            "blocks differ%s%s\n",
            a.device.c_str(), static_cast<long long>(a.frames), static_cast<long long>(a.blocks),
            static_cast<long long>(a.mismatching_blocks), static_cast<long long>(a.mismatching_consistency),
            static_cast<long long>(a.mismatching_backward),
            a.first_mismatch.empty() ? "" : "; first: ", a.first_mismatch.c_str());
        comparisons.push_back(
            {{"device", a.device},
             {"against", devices.front()->info().name},
             {"frames", a.frames},
             {"blocks", a.blocks},
             {"mismatching_blocks", a.mismatching_blocks},
             {"mismatching_consistency", a.mismatching_consistency},
             {"mismatching_backward", a.mismatching_backward},
             {"first_mismatch",
              a.first_mismatch.empty() ? nlohmann::json() : nlohmann::json(a.first_mismatch)}});
    }
    const auto& p = settings.session.params;
    const nlohmann::json report = {
        {"input", settings.input},
        {"parameters",
         {{"algorithm", chain_name(p)},
          {"block", p.block_size},
          {"range", p.range},
          {"lambda", p.lambda},
          {"predictor", std::string(to_string(p.predictor))},
          {"refs", settings.references.distances},
          {"direction", settings.references.both_directions ? "both" : "forward"}}},
        {"frames_read", read},
        {"comparisons", comparisons}};
    if (!settings.json.empty()) {
        const std::string text = report.dump(2) + "\n";
        if (settings.json == "-") {
            std::cout << text;
        } else {
            json_output.write(text);
        }
    }
    if (stopped()) {
        const int signal = interrupt_signal() != 0 ? interrupt_signal() : SIGINT;
        throw Interrupted(signal, "interrupted by " + signal_name(signal) + " after " + std::to_string(read) +
                                      " frame(s); the report holds the frames compared");
    }
    const std::string json = settings.json == "-" ? "the JSON on standard output" : settings.json;
    std::fprintf(out, "report: %s\n", json.c_str());
    if (!std::all_of(agreements.begin(), agreements.end(), agrees))
        throw Error(ErrorKind::mismatch, "the devices disagree: see " + json);
    std::fprintf(out, "all devices agree\n");
}

}  // namespace xme::cli
