#include "xme/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "xme/compensation.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/rate.hpp"
#include "xme/reference.hpp"

namespace xme {

namespace {

// The squared differences of a run of samples, in 32 bits (at most 16384 * 255^2 < 2^32), in a loop
// the compiler vectorises: summed as doubles one by one, two 1080p planes took 4 ms per frame pair,
// the longest stage of a whole GPU job.
std::uint32_t squared_error_of_run(const std::uint8_t* a, const std::uint8_t* b, int count) {
    std::uint32_t sum = 0;
    for (int x = 0; x < count; ++x) {
        const int diff = int{a[x]} - int{b[x]};
        sum += static_cast<std::uint32_t>(diff * diff);
    }
    return sum;
}

}  // namespace

std::uint64_t squared_error(PlaneView a, PlaneView b) {
    constexpr int kRun = 16384;
    std::uint64_t squared = 0;
    for (int y = 0; y < a.height; ++y) {
        for (int x = 0; x < a.width; x += kRun) {
            squared += squared_error_of_run(a.row(y) + x, b.row(y) + x, std::min(kRun, a.width - x));
        }
    }
    return squared;
}

double luma_psnr(PlaneView a, PlaneView b) {
    // Exact, as the doubles were (every partial sum of integers below 2^53): the same PSNR.
    return psnr_of_squared_error(static_cast<double>(squared_error(a, b)), a.width, a.height);
}

double psnr_of_squared_error(double squared, int width, int height) {
    if (squared == 0) return psnr_identical_db;
    const double mse = squared / (static_cast<double>(width) * static_cast<double>(height));
    return 10.0 * std::log10(255.0 * 255.0 / mse);
}

namespace {

FrameMetrics with_psnr(FrameMetrics metrics, PlaneView reference, PlaneView current, const MotionField& field,
                       const CompensatedFrame* compensated) {
    if (compensated != nullptr) {  // the sums a device made with the prediction: no plane to read here
        metrics.mc_psnr_db = psnr_of_squared_error(static_cast<double>(compensated->prediction_squared_error),
                                                   current.width, current.height);
        metrics.zero_psnr_db = psnr_of_squared_error(
            static_cast<double>(compensated->zero_motion_squared_error), current.width, current.height);
        return metrics;
    }
    // The reference's prediction, computed by rows (the same samples: the compensation tests check it),
    // since the reference's own, sample by sample, took most of a quarter-pel job's time.
    metrics.mc_psnr_db = luma_psnr(predict_field_by_rows(reference, field).view(), current);
    metrics.zero_psnr_db = luma_psnr(reference, current);
    return metrics;
}

}  // namespace

FrameMetrics measure_frame(PlaneView reference, PlaneView current, const MotionField& field,
                           const SearchParams& params, const MotionField* previous,
                           const CompensatedFrame* compensated) {
    // One pass over the blocks (and macroblocks) for the rate, the cost, the candidates and the modes: a
    // whole job's delivery thread runs this for every pair, where a 1080p field arrives from another
    // thread's cache, and a pass per figure made the metrics most of the host-bound jobs' delivery
    // (docs/scheduler.md, "Delivery and metrics"). The spatial predictor, a median of final vectors, is
    // the reference's; the others are zero or the previous pair's vector, read in the pass.
    FrameMetrics metrics;
    metrics.cost_kind = field.cost_kind;
    const std::vector<MotionVector> spatial = params.predictor == Predictor::spatial
                                                  ? reference::field_predictors(params, previous, field)
                                                  : std::vector<MotionVector>{};
    const bool temporal = params.predictor == Predictor::temporal && previous != nullptr;
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        const BlockMotion& block = field.blocks[i];
        const MotionVector predictor = !spatial.empty() ? spatial[i]
                                       : temporal
                                           ? MotionVector{previous->blocks[i].mv_x, previous->blocks[i].mv_y}
                                           : MotionVector{};
        const auto bits = [&](const BlockMotion& motion) {
            return static_cast<std::uint64_t>(rate_bits({motion.mv_x, motion.mv_y}, predictor));
        };
        metrics.candidates += block.candidates;
        if (field.macroblocks.empty()) {
            metrics.rate_bits += bits(block);
            metrics.total_cost += block.cost;
            continue;
        }
        // SPEC §9: the vectors of the chosen mode's partitions, each against the macroblock's predictor.
        const MacroblockMotion& macroblock = field.macroblocks[i];
        metrics.total_cost += macroblock.decision.cost;
        ++metrics.modes[static_cast<std::size_t>(macroblock.decision.mode)];
        if (macroblock.decision.mode == MacroblockMode::p8x8) {
            for (const SubMode sub_mode : macroblock.decision.sub_modes)
                ++metrics.sub_modes[static_cast<std::size_t>(sub_mode)];
        }
        for (const int index : mode_partitions(macroblock.decision.mode, macroblock.decision.sub_modes))
            metrics.rate_bits += bits(macroblock.partitions[static_cast<std::size_t>(index)]);
    }
    return with_psnr(metrics, reference, current, field, compensated);
}

}  // namespace xme
