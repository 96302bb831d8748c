// What an estimate or compare run reports: the JSON summary and the tables on stdout.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "estimate_report_json.hpp"
#include "output_files.hpp"
#include "xme/error.hpp"

namespace xme::cli {
namespace {

double device_seconds_of(const EstimateReport& report, std::size_t device) {
    double total = 0;
    for (const auto& frame : report.frames) {
        for (std::size_t i = 0; i < frame.devices.size(); ++i) {
            if (frame.devices[i] == device) total += frame.device_seconds[i];
        }
    }
    return total;
}

std::string pair_name(const EstimateReport& report, const DeviceAgreement& a) {
    const std::string first = report.devices[a.first].info.name;
    if (a.first == a.second) return first + " vs reference costs";
    return first + " vs " + report.devices[a.second].info.name;
}

nlohmann::json motion_json(const BlockMotion& m) {
    return {{"mv_x", m.mv_x}, {"mv_y", m.mv_y}, {"cost", m.cost}};
}

// SPEC §9's mode counts, by the modes' names; null without partitions.
nlohmann::json mode_counts_json(const std::array<std::uint64_t, 4>& modes,
                                const std::array<std::uint64_t, 4>& sub_modes, const SearchParams& p) {
    if (p.partitions != Partitions::all) return nullptr;
    nlohmann::json mode_json = nlohmann::json::object();
    nlohmann::json sub_mode_json = nlohmann::json::object();
    for (std::size_t i = 0; i < modes.size(); ++i) {
        mode_json[to_string(static_cast<MacroblockMode>(i))] = modes[i];
        sub_mode_json[to_string(static_cast<SubMode>(i))] = sub_modes[i];
    }
    return {{"macroblocks", mode_json}, {"quadrants_of_8x8", sub_mode_json}};
}

// SPEC §13's figures of one frame; null without --transform.
nlohmann::json transform_json(const std::optional<TransformFigures>& figures) {
    if (!figures) return nullptr;
    return {{"coefficient_energy", figures->coefficient_energy},
            {"zero_fraction", figures->zero_fraction},
            {"reconstruction_psnr_db", figures->reconstruction_psnr_db}};
}

// The run as one row, comparable with another algorithm's on the same clip (and with xme bench's).
nlohmann::json totals_json(const EstimateReport& report, const SearchParams& p) {
    double psnr = 0;
    std::uint64_t cost = 0;
    std::uint64_t bits = 0;
    std::uint64_t candidates = 0;
    std::array<std::uint64_t, 4> modes{};
    std::array<std::uint64_t, 4> sub_modes{};
    for (const auto& r : report.frames) {
        for (std::size_t i = 0; i < modes.size(); ++i) {
            modes[i] += r.metrics.modes[i];
            sub_modes[i] += r.metrics.sub_modes[i];
        }
        psnr += r.metrics.mc_psnr_db;
        cost += r.metrics.total_cost;
        bits += r.metrics.rate_bits;
        candidates += r.metrics.candidates;
    }
    const auto pairs = static_cast<double>(std::max<std::size_t>(1, report.frames.size()));
    const double blocks = static_cast<double>(blocks_across(report.video.width, p.block_size)) *
                          blocks_across(report.video.height, p.block_size) * pairs;
    return {{"pairs", report.frames.size()},
            {"mean_mc_psnr_db", psnr / pairs},
            {"total_cost", cost},
            {"cost_kind", to_string(cost_kind_of(p))},
            {"rate_bits", bits},
            {"candidates_per_block", static_cast<double>(candidates) / blocks},
            {"modes", mode_counts_json(modes, sub_modes, p)}};
}

// --read-only's figures, or null for a run that estimated.
nlohmann::json read_only_json(const EstimateReport& report) {
    if (!report.read_only) return nullptr;
    const ReadOnlyFigures& r = *report.read_only;
    const double per_second = r.seconds > 0 ? 1 / r.seconds : 0;
    return {{"frames", r.frames},
            {"seconds", r.seconds},
            {"frames_per_second", static_cast<double>(r.frames) * per_second},
            {"luma_bytes", r.luma_bytes},
            {"luma_gigabytes_per_second", static_cast<double>(r.luma_bytes) * per_second / 1e9},
            {"meaning",
             "frames read by the job's own reader into the devices' memory and dropped, nothing estimated: "
             "the input's pace alone, from the first read to the last"}};
}

// Where the job's time went, per thread: the reader (decoding, converting), the outputs, and each
// device's worker (submitting, receiving; the device's own time is device_seconds), so that a user
// can see which stage limits the job.
nlohmann::json stages_json(const EstimateReport& report) {
    const HostStageTimes& host = report.host_times;
    nlohmann::json devices = nlohmann::json::array();
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const auto& d = report.devices[i];
        devices.push_back({{"name", d.info.name},
                           {"submit_seconds", d.submit_seconds},
                           {"receive_seconds", d.receive_seconds},
                           {"device_seconds", device_seconds_of(report, i)}});
    }
    return {{"setup_seconds", report.setup_seconds},
            {"read_seconds", host.read_seconds},
            {"decode_seconds", std::max(0.0, host.read_seconds - report.convert_seconds)},
            {"convert_seconds", report.convert_seconds},
            {"deliver_seconds", host.deliver_seconds},
            {"devices", devices},
            {"meaning",
             "seconds each stage took on its thread: setup (opening the input and the devices, before "
             "the first frame is read), read (decode, convert) and deliver (outputs, "
             "metrics) on the run's thread; per device, its worker's submit (an asynchronous device: "
             "copying new frames for it and queueing; the CPU computes there) and receive (waiting for "
             "and converting results), and the device's own compute time"}};
}

}  // namespace

void write_report_json(const EstimateReport& report, const EstimateSettings& settings) {
    const auto& p = settings.session.params;
    nlohmann::json devices = nlohmann::json::array();
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const auto& d = report.devices[i];
        const double seconds = device_seconds_of(report, i);
        devices.push_back(
            {{"name", d.info.name},
             {"description", d.info.description},
             {"variant", d.variant},
             {"pairs", d.pairs_done},
             {"pairs_discarded", d.pairs_discarded},
             {"device_seconds", seconds},
             {"device_frames_per_second", seconds > 0 ? static_cast<double>(d.pairs_done) / seconds : 0},
             {"submit_seconds", d.submit_seconds},
             {"receive_seconds", d.receive_seconds},
             // Judged only when pairs are shared out (--policy split): null, not 0, otherwise.
             {"measured_pairs_per_second", d.measured_pairs_per_second > 0
                                               ? nlohmann::json(d.measured_pairs_per_second)
                                               : nlohmann::json()},
             {"failure", d.failure ? nlohmann::json(*d.failure) : nlohmann::json()}});
    }
    nlohmann::json frames = nlohmann::json::array();
    for (const auto& r : report.frames) {
        nlohmann::json per_device = nlohmann::json::array();
        for (std::size_t i = 0; i < r.devices.size(); ++i) {
            per_device.push_back({{"device", report.devices[r.devices[i]].info.name},
                                  {"device_ms", r.device_seconds[i] * 1e3}});
        }
        frames.push_back({{"frame", r.frame},
                          {"total_cost", r.metrics.total_cost},
                          {"cost_scale", cost_scale_of(r.metrics.cost_kind)},
                          {"cost_kind", to_string(r.metrics.cost_kind)},
                          {"candidates", r.metrics.candidates},
                          {"rate_bits", r.metrics.rate_bits},
                          {"mc_psnr_db", r.metrics.mc_psnr_db},
                          {"zero_psnr_db", r.metrics.zero_psnr_db},
                          {"prediction_psnr_db", r.metrics.mc_psnr_db},
                          {"residual_abs_sum", r.residual_abs_sum},
                          {"transform", transform_json(r.transform)},
                          {"modes", mode_counts_json(r.metrics.modes, r.metrics.sub_modes, p)},
                          {"devices", per_device}});
    }
    nlohmann::json agreements = nlohmann::json::array();
    for (const auto& a : report.agreements) {
        nlohmann::json mismatches = nlohmann::json::array();
        for (const auto& [frame, m] : a.mismatches) {
            mismatches.push_back({{"frame", frame},
                                  {"block_x", m.block_x},
                                  {"block_y", m.block_y},
                                  {"x", m.block_x * p.block_size},
                                  {"y", m.block_y * p.block_size},
                                  {"expected", motion_json(m.expected)},
                                  {"actual", motion_json(m.actual)},
                                  {"expected_reference_cost", m.expected_reference_cost},
                                  {"actual_reference_cost", m.actual_reference_cost}});
        }
        agreements.push_back(
            {{"pair", pair_name(report, a)},
             {"expected", report.devices[a.first].info.name},
             {"actual", a.first == a.second ? "reference costs" : report.devices[a.second].info.name},
             {"tolerance", a.tolerance},
             {"blocks_compared", a.blocks_compared},
             {"blocks_different", a.blocks_different},
             {"mismatch_count", a.mismatches.size()},
             {"mismatches", mismatches}});
    }
    double device_seconds = 0;
    for (std::size_t i = 0; i < report.devices.size(); ++i) device_seconds += device_seconds_of(report, i);
    const auto pairs = static_cast<double>(report.frames.size());
    const nlohmann::json summary = {
        {"input", settings.input},
        {"video",
         {{"format", report.video.format},
          {"width", report.video.width},
          {"height", report.video.height},
          {"frame_count", report.video.frame_count},
          {"bit_depth", report.video.bit_depth}}},
        {"parameters",
         {{"block", p.block_size},
          {"range", p.range},
          {"border", to_string(p.border)},
          {"algorithm", chain_name(p)},
          {"search", to_string(p.search)},
          {"subpel", to_string(p.subpel)},
          {"partitions", to_string(p.partitions)},
          {"transform",
           settings.transform ? nlohmann::json(to_string(settings.transform->algorithm)) : nullptr},
          {"qstep", settings.transform ? nlohmann::json(settings.transform->quantiser_step) : nullptr},
          {"lambda", p.lambda},
          {"predictor", to_string(p.predictor)},
          {"center", to_string(p.centre)},
          {"refresh", p.refresh},
          {"start", settings.start},
          {"frames", settings.frames},
          {"policy", to_string(settings.policy)}}},
        {"device", devices.front()},
        {"devices", devices},
        {"device_choice", report.choice_reason},
        {"frames", frames},
        {"totals", totals_json(report, p)},
        {"agreement", agreements},
        {"notices", report.notices},
        {"timing",
         {{"pairs", report.frames.size()},
          {"wall_seconds", report.wall_seconds},
          {"device_seconds", device_seconds},
          {"wall_frames_per_second", report.wall_seconds > 0 ? pairs / report.wall_seconds : 0},
          {"pixel_comparisons_per_pair", report.comparisons_per_pair},
          {"stages", stages_json(report)},
          {"read_only", read_only_json(report)},
          {"device_time_includes",
           "each device's own clock per pair: GPU events or timestamps around "
           "its kernels; for the CPU, the search"}}},
        {"error", report.error ? nlohmann::json(*report.error) : nlohmann::json()},
        {"interrupted", report.interrupted ? nlohmann::json(*report.interrupted) : nlohmann::json()}};
    if (settings.json == "-") {
        std::cout << summary.dump(2) << std::endl;
        if (!std::cout) throw Error(ErrorKind::io, "cannot write the JSON summary to standard output");
        return;
    }
    write_output_file(settings.json, summary.dump(2) + "\n", "the JSON summary");
}

void print_summary(const EstimateReport& report, const EstimateSettings& settings, std::FILE* out) {
    if (report.read_only) {
        const ReadOnlyFigures& r = *report.read_only;
        std::fprintf(
            out,
            "%s: %dx%d %s; read only (%s reading threads): %lld frames in %.3f s, %.1f frames/s, %.2f "
            "GB/s of luma; setup %.3f s\n",
            escape_text(input_name(settings.input)).c_str(), report.video.width, report.video.height,
            report.video.format.c_str(),
            settings.read_threads < 0 ? "default" : std::to_string(settings.read_threads).c_str(),
            static_cast<long long>(r.frames), r.seconds,
            r.seconds > 0 ? static_cast<double>(r.frames) / r.seconds : 0,
            r.seconds > 0 ? static_cast<double>(r.luma_bytes) / r.seconds / 1e9 : 0, report.setup_seconds);
        return;
    }
    const auto& p = settings.session.params;
    std::fprintf(out, "%s: %dx%d %s; %s block %d range %d border %s; policy %s\n",
                 escape_text(input_name(settings.input)).c_str(), report.video.width, report.video.height,
                 report.video.format.c_str(), chain_name(p).c_str(), p.block_size, p.range,
                 std::string(to_string(p.border)).c_str(), std::string(to_string(settings.policy)).c_str());
    std::fprintf(out, "%8s %14s %12s %12s %10s  %s\n", "frame", "cost/block", "MC PSNR dB", "zero PSNR dB",
                 "device ms", "device");
    const std::size_t shown = std::min<std::size_t>(report.frames.size(), 10);
    const double blocks = static_cast<double>(blocks_across(report.video.width, p.block_size)) *
                          blocks_across(report.video.height, p.block_size);
    for (std::size_t i = 0; i < report.frames.size(); ++i) {
        if (i == shown && report.frames.size() > shown + 1) std::fprintf(out, "%8s\n", "...");
        if (i >= shown && i + 1 != report.frames.size()) continue;
        const auto& r = report.frames[i];
        std::fprintf(out, "%8lld %14.1f %12.2f %12.2f %10.2f  %s\n", static_cast<long long>(r.frame),
                     static_cast<double>(r.metrics.total_cost) / cost_scale_of(r.metrics.cost_kind) / blocks,
                     r.metrics.mc_psnr_db, r.metrics.zero_psnr_db, r.device_seconds.front() * 1e3,
                     report.devices[r.devices.front()].info.name.c_str());
    }
    std::fprintf(out, "%zu frame pairs in %.2f s wall (%.1f pairs/s)\n", report.frames.size(),
                 report.wall_seconds, static_cast<double>(report.frames.size()) / report.wall_seconds);
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const auto& d = report.devices[i];
        const double seconds = device_seconds_of(report, i);
        const std::string discarded = d.pairs_discarded > 0 ? " (and " + std::to_string(d.pairs_discarded) +
                                                                  " finished after another device had them)"
                                                            : "";
        std::fprintf(out, "  %s (%s): %lld pairs%s, device time %.3f s (%.1f pairs/s, %.2f Gpx/s)%s\n",
                     d.info.name.c_str(), d.variant.c_str(), static_cast<long long>(d.pairs_done),
                     discarded.c_str(), seconds,
                     seconds > 0 ? static_cast<double>(d.pairs_done) / seconds : 0,
                     seconds > 0 ? static_cast<double>(d.pairs_done) *
                                       static_cast<double>(report.comparisons_per_pair) / seconds / 1e9
                                 : 0,
                     d.failure ? (" FAILED: " + *d.failure).c_str() : "");
    }
    const HostStageTimes& host = report.host_times;
    std::fprintf(
        out,
        "  time by stage: setup %.3f s, read %.3f s (decode %.3f, convert %.3f), outputs and metrics "
        "%.3f s",
        report.setup_seconds, host.read_seconds, std::max(0.0, host.read_seconds - report.convert_seconds),
        report.convert_seconds, host.deliver_seconds);
    for (const auto& d : report.devices) {
        std::fprintf(out, "; %s submit %.3f s, receive %.3f s", d.info.name.c_str(), d.submit_seconds,
                     d.receive_seconds);
    }
    std::fprintf(out, "\n");
    if (!report.agreements.empty()) print_agreement(report, out);
}

void print_agreement(const EstimateReport& report, std::FILE* out) {
    std::fprintf(out, "%-40s %10s %16s %12s %10s\n", "comparison", "tolerance", "blocks compared",
                 "different", "mismatches");
    for (const auto& a : report.agreements) {
        std::fprintf(out, "%-40s %10u %16lld %12lld %10zu\n", pair_name(report, a).c_str(), a.tolerance,
                     static_cast<long long>(a.blocks_compared), static_cast<long long>(a.blocks_different),
                     a.mismatches.size());
    }
}

}  // namespace xme::cli
