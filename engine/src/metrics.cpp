#include "xme/metrics.hpp"

#include <cmath>
#include <cstdint>

#include "xme/reference_ops.hpp"

namespace xme {
namespace {

int floor_div(int value, int divisor) { return value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor); }

// Reference sample at a quarter-pel position on the half-pel grid, rounded to nearest.
std::uint8_t half_pel_sample(PlaneView reference, int x, int y, int mvx, int mvy) {
    const int ix = x + floor_div(mvx, 4);
    const int iy = y + floor_div(mvy, 4);
    const bool half_x = (mvx & 3) != 0;
    const bool half_y = (mvy & 3) != 0;
    const int a = reference.at_clamped(ix, iy);
    const int b = half_x ? reference.at_clamped(ix + 1, iy) : a;
    const int c = half_y ? reference.at_clamped(ix, iy + 1) : a;
    const int d = half_x && half_y ? reference.at_clamped(ix + 1, iy + 1) : (half_x ? b : c);
    return static_cast<std::uint8_t>((a + b + c + d + 2) / 4);
}

}  // namespace

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

Plane predict_frame(PlaneView reference, const MotionField& field) {
    Plane predicted(reference.width, reference.height);
    for (int y = 0; y < reference.height; ++y) {
        for (int x = 0; x < reference.width; ++x) {
            const BlockMotion& m = field.at(x / field.block_size, y / field.block_size);
            // SPEC §12: §10's vectors take H.264's samples; §4's the rounded bilinear averages.
            predicted.at(x, y) = field.cost_kind.distortion == Distortion::satd
                                     ? static_cast<std::uint8_t>(reference::h264_sample(reference, 4 * x + m.mv_x, 4 * y + m.mv_y))
                                     : half_pel_sample(reference, x, y, m.mv_x, m.mv_y);
        }
    }
    return predicted;
}

FrameMetrics measure_frame(PlaneView reference, PlaneView current, const MotionField& field) {
    FrameMetrics metrics;
    metrics.total_cost = field.total_cost();
    metrics.cost_kind = field.cost_kind;
    metrics.candidates = field.total_candidates();
    metrics.mc_psnr_db = luma_psnr(predict_frame(reference, field).view(), current);
    metrics.zero_psnr_db = luma_psnr(reference, current);
    return metrics;
}

}  // namespace xme
