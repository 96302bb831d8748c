#include "xme/compensation.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "xme/error.hpp"
#include "xme/metrics.hpp"

namespace xme {
namespace reference {

int quantise_dequantise(int coefficient, int step) {
    if (step < 1 || step > max_quantiser_step) {
        throw Error(ErrorKind::invalid_argument, "quantiser step " + std::to_string(step) +
                                                     " is out of bounds: use 1.." +
                                                     std::to_string(max_quantiser_step));
    }
    // round(|F| / S) = floor((2 |F| + S) / (2 S)): halves away from zero, no floating point.
    const int magnitude = (2 * std::abs(coefficient) + step) / (2 * step) * step;
    return coefficient < 0 ? -magnitude : magnitude;
}

}  // namespace reference

CompensatedFrame compensate(PlaneView reference, PlaneView current, const MotionField& field,
                            const std::optional<TransformOptions>& transform) {
    CompensatedFrame frame =
        compensate_prediction(predict_field_by_rows(reference, field), current, transform);
    frame.zero_motion_squared_error = squared_error(reference, current);
    return frame;
}

CompensatedFrame compensate_prediction(Plane prediction, PlaneView current,
                                       const std::optional<TransformOptions>& transform) {
    if (transform) static_cast<void>(reference::quantise_dequantise(0, transform->quantiser_step));
    CompensatedFrame frame;
    frame.prediction = std::move(prediction);
    frame.residual = reference::residual(current, frame.prediction.view());
    frame.residual_abs_sum = reference::residual_abs_sum(frame.residual);
    frame.prediction_squared_error = squared_error(frame.prediction.view(), current);
    if (!transform) return frame;

    Int16Plane coefficients = reference::forward_transform_plane(frame.residual, transform->algorithm);
    TransformFigures figures;
    Int16Plane dequantised = coefficients;
    std::uint64_t zeros = 0;
    for (std::int16_t& value : dequantised.values) {
        figures.coefficient_energy += static_cast<std::uint64_t>(std::int64_t{value} * value);
        const int restored = reference::quantise_dequantise(value, transform->quantiser_step);
        zeros += restored == 0 ? 1 : 0;
        // |q S| <= |F| + S / 2 <= 2040 + 2048 for a residual: inside int16.
        value = static_cast<std::int16_t>(restored);
    }
    figures.zero_fraction = dequantised.values.empty()
                                ? 0
                                : static_cast<double>(zeros) / static_cast<double>(dequantised.values.size());
    const Int16Plane restored_residual =
        reference::inverse_transform_plane(dequantised, transform->algorithm);
    Plane reconstruction(current.width, current.height);
    for (int y = 0; y < current.height; ++y) {
        for (int x = 0; x < current.width; ++x) {
            reconstruction.at(x, y) = static_cast<std::uint8_t>(
                std::clamp(frame.prediction.at(x, y) + restored_residual.at(x, y), 0, 255));
        }
    }
    figures.reconstruction_psnr_db = luma_psnr(reconstruction.view(), current);
    frame.coefficients = std::move(coefficients);
    frame.transform = figures;
    return frame;
}

CompensatedFrame compensate(PlaneView reference, PlaneView current, const MotionField& field,
                            const CompensationRequest& request) {
    CompensatedFrame frame = compensate(reference, current, field, request.transform);
    if (!request.prediction) frame.prediction = Plane();
    if (!request.residual) frame.residual = Int16Plane();
    if (!request.coefficients) frame.coefficients.reset();
    return frame;
}

}  // namespace xme
