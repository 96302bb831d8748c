#include "xme/metrics.hpp"

#include <cmath>
#include <cstdint>

#include "xme/motion_compensation.hpp"
#include "xme/rate.hpp"
#include "xme/reference.hpp"

namespace xme {

double luma_psnr(PlaneView a, PlaneView b) {
    double squared = 0;
    for (int y = 0; y < a.height; ++y) {
        for (int x = 0; x < a.width; ++x) {
            const double diff = static_cast<double>(a.at(x, y)) - static_cast<double>(b.at(x, y));
            squared += diff * diff;
        }
    }
    if (squared == 0) return psnr_identical_db;
    const double mse = squared / (static_cast<double>(a.width) * static_cast<double>(a.height));
    return 10.0 * std::log10(255.0 * 255.0 / mse);
}

FrameMetrics measure_frame(PlaneView reference, PlaneView current, const MotionField& field,
                           const SearchParams& params, const MotionField* previous) {
    FrameMetrics metrics;
    const std::vector<MotionVector> predictors = reference::field_predictors(params, previous, field);
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        const BlockMotion& block = field.blocks[i];
        metrics.rate_bits += static_cast<std::uint64_t>(rate_bits({block.mv_x, block.mv_y}, predictors[i]));
    }
    metrics.total_cost = field.total_cost();
    metrics.cost_kind = field.cost_kind;
    metrics.candidates = field.total_candidates();
    metrics.mc_psnr_db = luma_psnr(reference::predict_field(reference, field).view(), current);
    metrics.zero_psnr_db = luma_psnr(reference, current);
    return metrics;
}

}  // namespace xme
