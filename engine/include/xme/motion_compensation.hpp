// SPEC §12: the prediction of a frame from its final vectors and the residual current - prediction.
// The reference here is the single source of the prediction: the metrics (MC-PSNR) call it too.
#pragma once

#include <cstdint>
#include <vector>

#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/motion_vector.hpp"
#include "xme/partitions.hpp"

namespace xme {

// How a fractional vector's samples are made: §4's half-pel positions as the rounded bilinear averages,
// or §10's H.264 quarter-pel samples. Integer vectors give the integer samples either way.
enum class Interpolation { bilinear, h264 };

// The interpolation a field's vectors came from: §10's (cost kind satd) or §4's (every other kind).
[[nodiscard]] constexpr Interpolation interpolation_of(CostKind kind) {
    return kind.distortion == Distortion::satd ? Interpolation::h264 : Interpolation::bilinear;
}

// A signed 16-bit plane, row-major and tightly packed: the residual, or DCT coefficients (§13).
struct Int16Plane {
    int width = 0;
    int height = 0;
    std::vector<std::int16_t> values;

    Int16Plane() = default;
    Int16Plane(int w, int h)
        : width(w), height(h), values(static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) {}
    [[nodiscard]] std::int16_t& at(int x, int y) {
        return values[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                      static_cast<std::size_t>(x)];
    }
    [[nodiscard]] std::int16_t at(int x, int y) const {
        return values[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                      static_cast<std::size_t>(x)];
    }
};

namespace reference {

// The predicted sample for current-frame pixel (x, y) at vector mv (quarter pel), reads edge-replicated
// (§1). Bilinear needs half-pel vectors (even quarter components); throws Error(invalid_argument) else.
[[nodiscard]] std::uint8_t predicted_sample(PlaneView reference, int x, int y, MotionVector mv,
                                            Interpolation interpolation);

// Writes the prediction of the width x height rectangle at (x, y) into `prediction`; pixels outside
// it are skipped (§12: the prediction is cropped to W x H).
void predict_rectangle(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                       Interpolation interpolation, Plane& prediction);

// §12 for whole blocks: block_size x block_size blocks from (0, 0), vectors row-major with
// ceil(W / block_size) per row (a MotionField's order). The plane is W x H of `reference`.
[[nodiscard]] Plane predict_blocks(PlaneView reference, int block_size,
                                   const std::vector<MotionVector>& vectors, Interpolation interpolation);
// The same for a MotionField, with interpolation_of(field.cost_kind); a field with partitions is
// predicted by predict_macroblocks.
[[nodiscard]] Plane predict_field(PlaneView reference, const MotionField& field);

// §12 with §9: every macroblock (row-major, ceil(W / 16) per row) predicted by the partitions of its
// chosen mode, each at its own vector.
[[nodiscard]] Plane predict_macroblocks(PlaneView reference, const std::vector<MacroblockMotion>& macroblocks,
                                        Interpolation interpolation);

// current - prediction, -255..255; the planes must have the same size.
[[nodiscard]] Int16Plane residual(PlaneView current, PlaneView prediction);
// §12's per-frame residual figure: the sum of |residual|.
[[nodiscard]] std::uint64_t residual_abs_sum(const Int16Plane& residual);

}  // namespace reference
}  // namespace xme
