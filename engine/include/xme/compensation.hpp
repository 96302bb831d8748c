// The encoder's steps after motion estimation, for one frame (SPEC §12, §13): the prediction from a
// field's vectors, the residual, and optionally its 8x8 DCT, a uniform quantiser as a rate proxy and the
// reconstruction prediction + IDCT(dequantised coefficients). Each step is also a call of its own
// (xme/motion_compensation.hpp, xme/dct.hpp); this puts them together with the figures a run reports.
#pragma once

#include <cstdint>
#include <optional>

#include "xme/dct.hpp"
#include "xme/frame.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/motion_field.hpp"

namespace xme {

// A quantiser step larger than any residual coefficient's magnitude (8 * 255) twice over: every
// coefficient is then zero.
inline constexpr int max_quantiser_step = 4096;

struct TransformOptions {
    TransformAlgorithm algorithm = TransformAlgorithm::matrix;
    int quantiser_step = 16;  // S of SPEC §13's uniform quantiser, 1..max_quantiser_step
};

struct TransformFigures {
    std::uint64_t coefficient_energy = 0;  // sum of F(u, v)^2 over the frame's coefficients
    double zero_fraction = 0;              // of the coefficients, those that quantise to zero
    double reconstruction_psnr_db = 0;     // prediction + IDCT(q * S) against the current frame
};

// What a session computes after each pair's search (SessionOptions::compensation): SPEC §12, §13 with
// `transform`, and which planes come back. The figures (residual_abs_sum, transform) always come back;
// a plane not asked for is left empty (0 x 0), so that a device need not download it: the metrics
// need only the squared errors (measure_frame).
struct CompensationRequest {
    std::optional<TransformOptions> transform;
    bool prediction = true;
    bool residual = true;
    bool coefficients = true;  // only with a transform
};

struct CompensatedFrame {
    Plane prediction;     // empty when the request did not ask for it
    Int16Plane residual;  // likewise
    std::uint64_t residual_abs_sum = 0;
    std::uint64_t prediction_squared_error = 0;   // sum of residual^2 over W x H: MC-PSNR's
    std::uint64_t zero_motion_squared_error = 0;  // sum of (current - reference)^2: zero-motion PSNR's
    std::optional<Int16Plane> coefficients;       // the unquantised DCT of the residual, with a transform
    std::optional<TransformFigures> transform;
};

namespace reference {

// SPEC §13's quantiser: q = round(F / S), halves away from zero, in integers; returns q * S. Throws
// Error(invalid_argument) for S outside 1..max_quantiser_step.
[[nodiscard]] int quantise_dequantise(int coefficient, int step);

}  // namespace reference

// SPEC §12's prediction as compensate() makes it: reference::predict_field's samples, computed by
// rows where a block's bilinear reads stay inside the plane (most blocks), by the reference elsewhere
// (edges, §9's partitions, §10's H.264 samples).
[[nodiscard]] Plane predict_field_by_rows(PlaneView reference, const MotionField& field);
// reference::predict_rectangle's samples (clipped to the plane) by rows where it can: the rectangle's
// part of predict_field_by_rows.
void predict_rectangle_by_rows(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                               Interpolation interpolation, Plane& prediction);

// SPEC §12 (and §13 with `transform`) for one frame pair's field. Throws Error(invalid_argument) for a
// quantiser step out of range.
[[nodiscard]] CompensatedFrame compensate(PlaneView reference, PlaneView current, const MotionField& field,
                                          const std::optional<TransformOptions>& transform);
// SPEC §12-§13 from a prediction already made (SPEC §14's decided one): the residual, its figures and, with
// `transform`, the coefficients; zero_motion_squared_error is left 0 (several references have no one
// zero-motion reference).
[[nodiscard]] CompensatedFrame compensate_prediction(Plane prediction, PlaneView current,
                                                     const std::optional<TransformOptions>& transform);
// The same for a session's request: compensate(), less the planes the request does not ask for.
[[nodiscard]] CompensatedFrame compensate(PlaneView reference, PlaneView current, const MotionField& field,
                                          const CompensationRequest& request);

}  // namespace xme
