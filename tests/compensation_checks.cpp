#include "compensation_checks.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

namespace xme::test {
namespace {

// The first sample where two planes (a PlaneView or an Int16Plane: width, height, at(x, y)) differ.
template <class Samples>
std::string samples_difference(const char* what, const Samples& expected, const Samples& actual) {
    if (expected.width != actual.width || expected.height != actual.height) {
        return std::string(what) + " is " + std::to_string(actual.width) + "x" +
               std::to_string(actual.height) + ", expected " + std::to_string(expected.width) + "x" +
               std::to_string(expected.height);
    }
    for (int y = 0; y < expected.height; ++y) {
        for (int x = 0; x < expected.width; ++x) {
            if (expected.at(x, y) != actual.at(x, y)) {
                return std::string(what) + " differs at (" + std::to_string(x) + "," + std::to_string(y) +
                       "): " + std::to_string(actual.at(x, y)) + ", expected " +
                       std::to_string(expected.at(x, y));
            }
        }
    }
    return {};
}

std::string plane_difference(const char* what, const Plane& expected, const Plane& actual) {
    return samples_difference(what, expected.view(), actual.view());
}

std::string plane_difference(const char* what, const Int16Plane& expected, const Int16Plane& actual) {
    return samples_difference(what, expected, actual);
}

}  // namespace

std::string compensation_difference(const CompensatedFrame& expected, const CompensatedFrame& actual) {
    if (auto d = plane_difference("the prediction", expected.prediction, actual.prediction); !d.empty())
        return d;
    if (auto d = plane_difference("the residual", expected.residual, actual.residual); !d.empty()) return d;
    const auto figure = [](const char* name, std::uint64_t expected_value, std::uint64_t actual_value) {
        if (expected_value == actual_value) return std::string();
        return std::string(name) + " " + std::to_string(actual_value) + ", expected " +
               std::to_string(expected_value);
    };
    if (auto d = figure("residual_abs_sum", expected.residual_abs_sum, actual.residual_abs_sum); !d.empty())
        return d;
    if (auto d = figure("prediction_squared_error", expected.prediction_squared_error,
                        actual.prediction_squared_error);
        !d.empty())
        return d;
    if (auto d = figure("zero_motion_squared_error", expected.zero_motion_squared_error,
                        actual.zero_motion_squared_error);
        !d.empty())
        return d;
    if (expected.coefficients.has_value() != actual.coefficients.has_value())
        return "coefficients present on one side only";
    if (expected.coefficients) {
        if (auto d = plane_difference("the coefficients", *expected.coefficients, *actual.coefficients);
            !d.empty())
            return d;
    }
    if (expected.transform.has_value() != actual.transform.has_value())
        return "transform figures on one side only";
    if (expected.transform) {
        const TransformFigures& e = *expected.transform;
        const TransformFigures& a = *actual.transform;
        if (e.coefficient_energy != a.coefficient_energy) {
            return "coefficient energy " + std::to_string(a.coefficient_energy) + ", expected " +
                   std::to_string(e.coefficient_energy);
        }
        // Bit for bit: both are the same formula of the same integers.
        if (std::memcmp(&e.zero_fraction, &a.zero_fraction, sizeof(double)) != 0) {
            return "zero fraction " + std::to_string(a.zero_fraction) + ", expected " +
                   std::to_string(e.zero_fraction);
        }
        if (std::memcmp(&e.reconstruction_psnr_db, &a.reconstruction_psnr_db, sizeof(double)) != 0) {
            return "reconstruction PSNR " + std::to_string(a.reconstruction_psnr_db) + ", expected " +
                   std::to_string(e.reconstruction_psnr_db);
        }
    }
    return {};
}

void check_streamed_compensation(Device& device, const SessionOptions& options,
                                 const std::vector<Plane>& frames, const std::string& name) {
    auto session = open_compensating_session(device, options);
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
        FramePair pair{static_cast<std::int64_t>(i), frames[i].view(), static_cast<std::int64_t>(i + 1),
                       frames[i + 1].view()};
        pair.segment_start = i == 0;
        session->submit(pair);
    }
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
        const PairResult result = session->receive();
        REQUIRE(result.compensation.has_value());
        const CompensatedFrame expected =
            compensate(frames[i].view(), frames[i + 1].view(), result.field, *options.compensation);
        const std::string difference = compensation_difference(expected, *result.compensation);
        CHECK_MESSAGE(difference.empty(), name, ", ", frames.front().width(), "x", frames.front().height(),
                      " pair ", i, ": ", difference);
    }
}

}  // namespace xme::test
