// `xme bench`: the same frames through a matrix of devices x variants x algorithms x block sizes x
// ranges x frame sizes, timed on each device's own clock and on the wall clock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xme/device.hpp"
#include "xme/video.hpp"

namespace xme::cli {

struct BenchSettings {
    std::string input;  // frames from this video, cropped or tiled to each size; empty: synthetic
    // The input's first frames' luma, read once before the run: standard input ("-") cannot be reread.
    std::vector<Plane> clip;
    std::vector<std::string> devices;   // empty: every available device but the reference
    std::vector<std::string> variants;  // empty: every variant of each device
    // The chains (search, refinement, rate term, predictor); block size, range and border per cell.
    std::vector<SearchParams> chains{SearchParams{}};
    // Defaults: about a minute on a laptop's CPU; the options widen the matrix.
    std::vector<int> blocks{8, 16};
    std::vector<int> ranges{16};
    std::vector<std::pair<int, int>> sizes{{1280, 720}, {1920, 1080}};
    BorderMode border = BorderMode::pad;
    int pairs = 8;  // timed pairs per cell, after the warm-up
    // Times the whole matrix is measured, each round every cell once in the same order; a row is the
    // round of median device frames/s (of an even count, the faster middle one), with the slowest and
    // fastest beside it. On shared machines one cell's runs spread by 30% or more between minutes (the
    // dev machine's tz: 360-1,820 frames/s in three runs of one minute; docs/cpu.md, "Measuring"), so ratios
    // between cells of one round-robin are worth more than any single run.
    int rounds = 1;
    // Seconds each cell's device works before its pairs are timed: a GPU raises its clocks only after
    // about a second of work (an idle H100 runs at 345 MHz and took 0.3-1.5 s to reach its 1980 MHz;
    // docs/vulkan.md, "Measuring"). At least one pair either way: allocation, first upload.
    double warm_up_seconds = 1.0;
    int threads = 0;
    bool sad_peak = true;
    // Also time whole jobs through the scheduler: each device alone (policy single), then all of
    // them under split, on the same frames; wall time, transfers and host work included.
    bool split = false;
    // --compensate: SPEC §12-§13 chained after each search, figures only (no plane comes back), so
    // that a device that computes it itself is timed end to end; others compute it on the host.
    std::optional<CompensationRequest> compensation;
};

struct BenchRow {
    std::string device;
    std::string device_description;  // DeviceInfo::description: the machine, as `xme devices` says it
    std::string variant;
    SearchParams params;
    int width = 0;
    int height = 0;
    int pairs = 0;
    double warm_up_seconds = 0;  // the device's work before the timed pairs (device rows)
    int warm_up_pairs = 0;
    double device_seconds = 0;
    double wall_seconds = 0;
    std::uint64_t comparisons_per_pair = 0;  // mean over the timed pairs (SPEC §7)
    double mc_psnr_db = 0;                   // mean motion-compensated PSNR of the timed pairs (SPEC §12)
    std::uint64_t total_cost = 0;            // over the timed pairs, of the chain's cost kind
    std::uint64_t rate_bits = 0;             // SPEC §8's R(mv - p) over the timed pairs' blocks
    double candidates_per_block = 0;         // mean integer candidates evaluated per block
    std::optional<SadPeak> sad_peak;
    std::optional<double> cpu_speedup;  // device frames/s over the CPU default variant's, same cell
    std::string policy;                 // empty for a device row; "single" or "split" for a scheduler row
    std::string stages;  // a scheduler row's time by stage and thread (reading, each device's calls)
    int rounds = 1;      // rounds measured; the row is the median one's
    std::vector<double> device_fps_by_round;  // every round's device frames/s, in the order measured

    [[nodiscard]] double device_fps() const { return pairs / device_seconds; }
    [[nodiscard]] double wall_fps() const { return pairs / wall_seconds; }
    // The slowest and fastest rounds' device frames/s (the row's own with one round).
    [[nodiscard]] double slowest_round_fps() const {
        return device_fps_by_round.empty() ? device_fps() : *std::ranges::min_element(device_fps_by_round);
    }
    [[nodiscard]] double fastest_round_fps() const {
        return device_fps_by_round.empty() ? device_fps() : *std::ranges::max_element(device_fps_by_round);
    }
    [[nodiscard]] double device_comparisons_per_second() const {
        return static_cast<double>(comparisons_per_pair) * pairs / device_seconds;
    }
};

// Refuses, before any frame is read or made, a grid whose frames would not fit in the memory this machine
// has available (bench holds every frame it times); clip_width x clip_height is the input's size, 0 x 0
// without one.
void check_bench_memory(const BenchSettings& settings, int clip_width, int clip_height);
std::vector<BenchRow> run_bench(const BenchSettings& settings);

// The luma of the next `count` frames of `reader`; throws Error(bad_input) naming `name` when it has fewer.
[[nodiscard]] std::vector<Plane> read_clip(VideoReader& reader, const std::string& name, int count);

}  // namespace xme::cli
