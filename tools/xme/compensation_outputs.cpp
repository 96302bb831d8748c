#include "compensation_outputs.hpp"

#include <algorithm>
#include <optional>

#include "xme/error.hpp"

namespace xme::cli {
namespace {

Frame gray_frame(Plane plane) {
    Frame frame;
    frame.chroma = ChromaFormat::mono;
    frame.luma = std::move(plane);
    return frame;
}

}  // namespace

CompensationOutputs::CompensationOutputs(const CompensationPaths& paths, int width, int height) {
    if (!paths.prediction.empty()) {
        if (lowercase_extension(paths.prediction) != ".y4m") {
            throw Error(ErrorKind::invalid_argument,
                        "--prediction " + paths.prediction + ": the prediction is a video; use a .y4m file");
        }
        prediction_ = std::make_unique<Y4mWriter>(paths.prediction, width, height, ChromaFormat::mono);
    }
    if (!paths.residual.empty()) {
        if (lowercase_extension(paths.residual) == ".y4m") {
            residual_view_ = std::make_unique<Y4mWriter>(paths.residual, width, height, ChromaFormat::mono);
        } else if (lowercase_extension(paths.residual) == ".npy") {
            residual_ = open_int16_stack_writer(paths.residual, width, height);
        } else {
            throw Error(
                ErrorKind::invalid_argument,
                "--residual " + paths.residual +
                    ": use .npy (int16, exact) or .y4m (residual + 128, clipped to 0..255, to look at)");
        }
    }
    if (!paths.coefficients.empty()) {
        if (lowercase_extension(paths.coefficients) != ".npy") {
            throw Error(ErrorKind::invalid_argument,
                        "--coefficients " + paths.coefficients + ": coefficients are int16; use a .npy file");
        }
        coefficients_ = open_int16_stack_writer(paths.coefficients, width, height);
    }
}

void CompensationOutputs::write(const CompensatedFrame& frame) {
    if (prediction_) prediction_->write(gray_frame(frame.prediction));
    if (residual_) residual_->write(frame.residual);
    if (residual_view_) {
        Plane view(frame.residual.width, frame.residual.height);
        for (int y = 0; y < view.height(); ++y) {
            for (int x = 0; x < view.width(); ++x)
                view.at(x, y) = static_cast<std::uint8_t>(std::clamp(frame.residual.at(x, y) + 128, 0, 255));
        }
        residual_view_->write(gray_frame(std::move(view)));
    }
    if (coefficients_ && frame.coefficients) coefficients_->write(*frame.coefficients);
}

void CompensationOutputs::finish(std::int64_t frames) {
    std::optional<Error> first;
    auto attempt = [&](auto& writer) {
        if (!writer) return;
        try {
            writer->finish(frames);
        } catch (const Error& e) {
            if (!first) first = e;
        }
    };
    attempt(prediction_);
    attempt(residual_view_);
    attempt(residual_);
    attempt(coefficients_);
    if (first) throw *first;
}

}  // namespace xme::cli
