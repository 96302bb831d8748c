// Quality of a motion field: how well the reference, moved by the vectors, predicts the frame.
#pragma once

#include <array>
#include <cstdint>

#include "xme/frame.hpp"
#include "xme/motion_field.hpp"

namespace xme {

struct CompensatedFrame;

struct FrameMetrics {
    std::uint64_t total_cost = 0;
    CostKind cost_kind;
    std::uint64_t candidates = 0;  // integer candidates evaluated, all blocks
    std::uint64_t rate_bits = 0;   // SPEC §8's R(mv - p) summed over the blocks (with §9, over the
                                   // chosen modes' partitions): the bits of the vectors
    double mc_psnr_db = 0;         // motion-compensated prediction against the current frame
    double zero_psnr_db = 0;       // the reference itself (zero motion) against the current frame
    // With partitions (SPEC §9): macroblocks per chosen mode (16x16, 16x8, 8x16, 8x8), and the quadrants
    // of the 8x8 ones per sub-mode (8x8, 8x4, 4x8, 4x4). Zero without.
    std::array<std::uint64_t, 4> modes{};
    std::array<std::uint64_t, 4> sub_modes{};
};

// PSNR of identical planes, which is infinite, is reported as this value so that JSON stays valid.
inline constexpr double psnr_identical_db = 100.0;

[[nodiscard]] double luma_psnr(PlaneView a, PlaneView b);
// The sum of (a - b)^2 over the planes' samples (same size), exactly.
[[nodiscard]] std::uint64_t squared_error(PlaneView a, PlaneView b);
// luma_psnr from the sum of squared differences of width x height samples (summed exactly, so a device
// that sums them in integers reports the same value bit for bit).
[[nodiscard]] double psnr_of_squared_error(double squared, int width, int height);

// mc_psnr_db from the prediction of SPEC §12 (reference::predict_field, xme/motion_compensation.hpp);
// rate_bits against the predictors `params` names, `previous` being the pair before's field within
// the segment (null at a segment's start; read by the temporal predictor only).
// `compensated`, when given, is that prediction already made (xme/compensation.hpp's): its squared
// errors give both PSNRs, so that a device that sums them need not return the prediction.
[[nodiscard]] FrameMetrics measure_frame(PlaneView reference, PlaneView current, const MotionField& field,
                                         const SearchParams& params, const MotionField* previous = nullptr,
                                         const CompensatedFrame* compensated = nullptr);

}  // namespace xme
