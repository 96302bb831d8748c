// `xme bench [INPUT]`: cross-device performance over a matrix of parameters.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_chart.hpp"
#include "bench_job.hpp"
#include "bench_transforms.hpp"
#include "chain_options.hpp"
#include "cli_validators.hpp"
#include "commands.hpp"
#include "job_options.hpp"
#include "output_files.hpp"
#include "output_paths.hpp"
#include "xme/error.hpp"
#include "xme/macroblock.hpp"
#include "xme/version.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

struct BenchOptions {
    BenchSettings settings;
    ChainOptions chain;
    std::vector<std::string> sizes{"1280x720", "1920x1080"};
    std::string border = "pad";
    std::string csv;
    std::string json;
    std::string chart;
    std::string backends;
    std::string variants;
    std::vector<std::string> transforms;  // --transforms: DCT variants to time
    std::string compensate;               // --compensate: the transform of the chained compensation
    std::vector<std::string> empty_values;
};

std::string peak_fraction(const BenchRow& row) {
    if (!row.sad_peak) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%",
                  100.0 * row.device_comparisons_per_second() / row.sad_peak->pixels_per_second);
    return text;
}

void print_table(const std::vector<BenchRow>& rows) {
    const bool rounds = std::ranges::any_of(rows, [](const BenchRow& row) { return row.rounds > 1; });
    std::printf("%-7s %-16s %-14s %-10s %5s %5s %11s %10s %10s %10s %9s %9s %8s %8s %8s%s\n", "policy",
                "device", "variant", "chain", "block", "range", "size", "dev fps", "wall fps", "Gpx/s",
                "of peak", "vs cpu", "MC-PSNR", "cand/blk", "bits/blk",
                rounds ? "  dev fps of the rounds" : "");
    for (const auto& row : rows) {
        const std::string size = std::to_string(row.width) + "x" + std::to_string(row.height);
        std::string speedup = "-";
        if (row.cpu_speedup) speedup = std::to_string(*row.cpu_speedup).substr(0, 6) + "x";
        const double blocks = static_cast<double>(blocks_across(row.width, row.params.block_size)) *
                              blocks_across(row.height, row.params.block_size) * std::max(1, row.pairs);
        char spread[64] = "";
        if (rounds)
            std::snprintf(spread, sizeof spread, "  %.1f-%.1f", row.slowest_round_fps(),
                          row.fastest_round_fps());
        std::printf("%-7s %-16s %-14s %-10s %5d %5d %11s %10.1f %10.1f %10.2f %9s %9s %8.2f %8.1f %8.2f%s\n",
                    row.policy.empty() ? "-" : row.policy.c_str(), row.device.c_str(), row.variant.c_str(),
                    chain_name(row.params).c_str(), row.params.block_size, row.params.range, size.c_str(),
                    row.device_fps(), row.wall_fps(), row.device_comparisons_per_second() / 1e9,
                    peak_fraction(row).c_str(), speedup.c_str(), row.mc_psnr_db, row.candidates_per_block,
                    static_cast<double>(row.rate_bits) / blocks, spread);
    }
    for (const auto& row : rows) {
        if (row.sad_peak && (&row == &rows.front() || row.device != (&row)[-1].device)) {
            std::printf("%s: measured SAD peak %.2f Gpx/s (%s)\n", row.device.c_str(),
                        row.sad_peak->pixels_per_second / 1e9, row.sad_peak->instruction.c_str());
        }
    }
    for (const auto& row : rows) {
        if (!row.policy.empty()) {
            std::printf("%s %s (%s), host time by stage: %s\n", row.policy.c_str(), row.device.c_str(),
                        row.variant.c_str(), row.stages.c_str());
        }
    }
    std::printf(
        "dev fps: frame pairs per second of device time; wall fps: including uploads, downloads and host "
        "work\n");
    if (rounds) {
        std::printf(
            "%d rounds: each row is its cell's median round (of dev fps), the slowest and fastest at the "
            "end\n",
            rows.front().rounds);
    }
    std::printf(
        "policy rows: whole jobs through the scheduler (variant column: pairs each device did); fps is wall "
        "time;\n"
        "  their quality columns are not measured (0); MC-PSNR (SPEC §12), candidates and rate bits (SPEC "
        "§8) per block\n"
        "  are the device rows' means over the timed pairs\n");
}

nlohmann::json row_json(const BenchRow& row) {
    nlohmann::json j = {
        {"policy", row.policy.empty() ? nlohmann::json() : nlohmann::json(row.policy)},
        {"stages", row.policy.empty() ? nlohmann::json() : nlohmann::json(row.stages)},
        {"device", row.device},
        {"device_description", row.device_description},
        {"variant", row.variant},
        {"algorithm", chain_name(row.params)},
        {"lambda", row.params.lambda},
        {"predictor", to_string(row.params.predictor)},
        {"mc_psnr_db", row.mc_psnr_db},
        {"total_cost", row.total_cost},
        {"rate_bits", row.rate_bits},
        {"candidates_per_block", row.candidates_per_block},
        {"block", row.params.block_size},
        {"range", row.params.range},
        {"border", to_string(row.params.border)},
        {"width", row.width},
        {"height", row.height},
        {"pairs", row.pairs},
        {"warm_up_seconds", row.warm_up_seconds},
        {"warm_up_pairs", row.warm_up_pairs},
        {"device_seconds", row.device_seconds},
        {"wall_seconds", row.wall_seconds},
        {"device_fps", row.device_fps()},
        {"wall_fps", row.wall_fps()},
        {"pixel_comparisons_per_pair", row.comparisons_per_pair},
        {"device_gpx_per_second", row.device_comparisons_per_second() / 1e9},
        {"sad_peak_gpx_per_second",
         row.sad_peak ? nlohmann::json(row.sad_peak->pixels_per_second / 1e9) : nlohmann::json()},
        {"sad_peak_instruction", row.sad_peak ? nlohmann::json(row.sad_peak->instruction) : nlohmann::json()},
        {"fraction_of_sad_peak",
         row.sad_peak ? nlohmann::json(row.device_comparisons_per_second() / row.sad_peak->pixels_per_second)
                      : nlohmann::json()},
        {"speedup_vs_cpu", row.cpu_speedup ? nlohmann::json(*row.cpu_speedup) : nlohmann::json()},
        {"rounds", row.rounds},
        {"device_fps_slowest_round", row.slowest_round_fps()},
        {"device_fps_fastest_round", row.fastest_round_fps()},
        {"device_fps_by_round", row.device_fps_by_round}};
    return j;
}

// A CSV field as RFC 4180 quotes it where it holds a comma, a quote or a line break (a device's
// description, a scheduler row's stages).
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

struct BenchOutputs {
    ClaimedOutput csv;
    ClaimedOutput json;
    ClaimedOutput chart;
};

// Claimed before the first measurement, so that an unwritable path fails at once.
BenchOutputs claim_outputs(const BenchOptions& options) {
    BenchOutputs outputs;
    if (!options.csv.empty()) outputs.csv = ClaimedOutput(options.csv, "the CSV table");
    if (!options.json.empty()) outputs.json = ClaimedOutput(options.json, "the JSON table");
    if (!options.chart.empty()) outputs.chart = ClaimedOutput(options.chart, "the chart");
    return outputs;
}

void write_outputs(const std::vector<BenchRow>& rows, const BenchOptions& options, BenchOutputs& outputs) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& row : rows) all.push_back(row_json(row));
    if (!options.json.empty()) {
        outputs.json.write(
            nlohmann::json{
                {"rows", all},
                {"device_time_includes",
                 "each device's own clock: kernels (GPU events or timestamps) or the search (CPU)"},
                // What measured the rows, for a table that quotes them (tools/perf_table.py).
                {"command", command_line_arguments()},
                {"input",
                 options.settings.input.empty() ? nlohmann::json() : nlohmann::json(options.settings.input)},
                {"xme_version", xme::version()}}
                .dump(2) +
            "\n");
    }
    if (!options.csv.empty()) {
        std::ostringstream out;
        const auto& first = all.front();
        std::string header;
        for (const auto& [key, value] : first.items()) header += (header.empty() ? "" : ",") + key;
        out << header << "\n";
        for (const auto& row : all) {
            std::string line;
            for (const auto& [key, value] : row.items()) {
                line += (line.empty() ? "" : ",") +
                        (value.is_string() ? csv_field(value.get<std::string>()) : value.dump());
            }
            out << line << "\n";
        }
        outputs.csv.write(out.str());
    }
}

}  // namespace

Command add_bench_command(CLI::App& app) {
    auto options = std::make_shared<BenchOptions>();
    auto& s = options->settings;
    auto* cmd = app.add_subcommand(
        "bench", "Compare devices and variants on the same frames: frames/s, Gpx/s, fraction of SAD peak");
    cmd->add_option(
        "input", s.input,
        "Video to take frames from, - for Y4M on standard input (default: a synthetic panning scene)");
    cmd->add_option("--backends", options->backends,
                    "Devices, comma-separated (default: every available one)")
        ->each(note_empty(options->empty_values, "--backends"));
    cmd->add_option("--variants", options->variants,
                    "Variants, comma-separated: each device runs those it has, or its default (default: all)")
        ->each(note_empty(options->empty_values, "--variants"));
    add_chain_options(*cmd, options->chain, true);
    auto* blocks = add_list_option(*cmd, "--blocks", s.blocks,
                                   "Block sizes (comma-separated; 16 alone for the partitions of SPEC §9)",
                                   whole_number_among({4, 8, 16, 32}))
                       ->default_str("8,16");
    add_list_option(*cmd, "--ranges", s.ranges, "Search ranges (comma-separated)",
                    whole_number_from(0, max_search_range))
        ->default_str("16");
    auto* sizes = add_list_option(*cmd, "--sizes", options->sizes,
                                  "Frame sizes WIDTHxHEIGHT (comma-separated; with INPUT, default its own "
                                  "size; other sizes extend its frames by edge replication or crop them)")
                      ->default_str("1280x720,1920x1080");
    cmd->add_option("--border", options->border, "pad or restrict")->capture_default_str();
    // Bounded: each cell's frames are made at once (pairs + 2 of them), and near INT_MAX that count
    // overflowed (a segmentation fault).
    cmd->add_option("--pairs", s.pairs, "Timed frame pairs per cell")
        ->check(whole_number_from(1, 10000))
        ->capture_default_str();
    cmd->add_option("--rounds", s.rounds,
                    "Measure the whole matrix this many times, round-robin; each row is a cell's median "
                    "round, with the slowest and fastest beside it (for shared or noisy machines)")
        ->check(whole_number_from(1, 1000))
        ->capture_default_str();
    cmd->add_option("--warm-up", s.warm_up_seconds,
                    "Seconds each cell's device works before it is timed, so that GPUs reach their clocks")
        ->check(seconds_up_to(60))
        ->capture_default_str();
    cmd->add_option("--threads", s.threads, "Host threads for the CPU backend (default: all)")
        ->check(host_threads(max_host_threads));
    cmd->add_flag("!--no-sad-peak", s.sad_peak, "Skip the SAD-instruction peak microbenchmarks");
    cmd->add_flag(
        "--split", s.split,
        "Also time whole jobs: each device alone, then (with two or more) all of them under --policy "
        "split");
    cmd->add_option(
           "--transforms", options->transforms,
           "Also time the 8x8 DCT variants (matrix, loeffler; comma-separated) at each size, against "
           "memcpy's bandwidth")
        ->delimiter(',');
    cmd->add_option("--compensate", options->compensate,
                    "Chain SPEC §12-§13 after each search (prediction, residual, and with matrix or "
                    "loeffler the DCT, quantiser step 16, inverse and reconstruction; figures only): "
                    "none, matrix or loeffler. dev fps includes it where the device computes it itself")
        ->each(note_empty(options->empty_values, "--compensate"));
    cmd->add_option("--csv", options->csv, "Write the rows as CSV")
        ->each(note_empty(options->empty_values, "--csv"));
    cmd->add_option("--json", options->json, "Write the rows as JSON")
        ->each(note_empty(options->empty_values, "--json"));
    cmd->add_option("--chart", options->chart, "Write a bar chart of the rows as an SVG file")
        ->each(note_empty(options->empty_values, "--chart"));
    return {
        cmd, [options, sizes, blocks] {
            refuse_empty_values(options->empty_values);
            check_output_paths({{"the input video", options->settings.input, true}},
                               {{"--csv", options->csv},
                                {"--json", options->json},
                                {"--chart", options->chart}});
            auto& settings = options->settings;
            check_thread_count(settings.threads, "--threads");
            if (!options->backends.empty()) settings.devices = split_list(options->backends, "--backends");
            if (!options->variants.empty()) settings.variants = split_list(options->variants, "--variants");
            settings.sizes.clear();
            std::unique_ptr<VideoReader> reader;
            if (!settings.input.empty()) reader = open_video(settings.input);
            if (reader && sizes->count() == 0) {
                // A clip is measured as it is, not extended to the synthetic scene's sizes.
                const VideoInfo& info = reader->info();
                check_frame_dimensions(input_name(settings.input), info);
                settings.sizes.emplace_back(info.width, info.height);
            } else {
                for (const auto& size : options->sizes)
                    settings.sizes.push_back(parse_frame_size(size, "--sizes entry"));
            }
            settings.border = parse_border_mode(options->border);
            for (const int block : settings.blocks) SearchParams{block, 0, settings.border}.validate();
            for (const int range : settings.ranges) SearchParams{16, range, settings.border}.validate();
            SearchParams base;
            base.border = settings.border;
            // Without --blocks the chains are checked at 16, and SPEC §9's partitions (a macroblock's) are
            // measured at 16 alone rather than refused for the default list's 8, which the user never named.
            const bool blocks_given = blocks->count() > 0 && !settings.blocks.empty();
            base.block_size = blocks_given ? settings.blocks.front() : macroblock_size;
            settings.chains = chains_from(options->chain, base);
            if (!blocks_given && std::ranges::any_of(settings.chains, [](const SearchParams& c) {
                    return c.partitions == Partitions::all;
                }))
                settings.blocks = {macroblock_size};
            std::vector<TransformAlgorithm> transforms;
            for (const auto& name : options->transforms)
                transforms.push_back(parse_transform_algorithm(name, "--transforms entry"));
            if (!options->compensate.empty()) {
                CompensationRequest request{std::nullopt, false, false, false};
                if (options->compensate != "none" && options->compensate != "matrix" &&
                    options->compensate != "loeffler") {
                    throw Error(ErrorKind::invalid_argument, "unknown --compensate '" + options->compensate +
                                                                 "': use none, matrix or loeffler");
                }
                if (options->compensate != "none")
                    request.transform =
                        TransformOptions{parse_transform_algorithm(options->compensate, "--compensate"), 16};
                settings.compensation = request;
            }
            BenchOutputs outputs = claim_outputs(*options);
            // Every cell's frames: a warm-up pair and --pairs timed ones (split uses one fewer).
            check_bench_memory(settings, reader ? reader->info().width : 0,
                               reader ? reader->info().height : 0);
            if (reader) settings.clip = read_clip(*reader, input_name(settings.input), settings.pairs + 2);
            reader.reset();
            const auto rows = run_bench(settings);
            print_table(rows);
            if (settings.compensation) {
                std::printf(
                    "compensation chained after each search: %s (quantiser step 16), figures only; dev "
                    "fps "
                    "includes it where the device computes it itself, wall fps everywhere\n",
                    options->compensate.c_str());
            }
            write_outputs(rows, *options, outputs);
            if (!transforms.empty()) run_transform_bench(settings.sizes, transforms, settings.pairs);
            if (!options->chart.empty()) {
                write_bench_chart(rows, options->chart);
                outputs.chart.keep();
            }
            return 0;
        }};
}

}  // namespace xme::cli
