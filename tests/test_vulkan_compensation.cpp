// SPEC §12-§13 on the Vulkan device itself (device_compensation.cpp), beyond the rows of
// test_compensation_devices.cpp: the per-block search chains (rate_search.comp: dia, hex, §8's
// predictors), the legacy variant, and requests that leave planes out. Each pair's CompensatedFrame
// must be compensate() of the device's own field, byte for byte, and come from the device
// (supports_compensation says yes). Skipped when XME_TEST_DEVICE names another backend or no Vulkan
// device is available.
#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "compensation_checks.hpp"
#include "test_support.hpp"
#include "vulkan_test_device.hpp"
#include "xme/compensation.hpp"
#include "xme/vulkan_backend.hpp"

namespace {

struct Row {
    const char* name;
    std::string variant;
    xme::SearchParams params;
    xme::CompensationRequest request;
};

std::vector<Row> rows() {
    using xme::BorderMode;
    using xme::SearchMethod;
    using xme::Subpel;
    using xme::TransformAlgorithm;
    using xme::TransformOptions;
    std::vector<Row> list;
    xme::SearchParams dia{8, 4, BorderMode::pad, SearchMethod::diamond, Subpel::qpel};
    dia.lambda = 4;
    dia.predictor = xme::Predictor::spatial;
    list.push_back({"dia+qpel B8 lambda 4 spatial, loeffler 7, no coefficients",
                    "fast",
                    dia,
                    {TransformOptions{TransformAlgorithm::loeffler, 7}, true, true, false}});
    xme::SearchParams hex{16, 5, BorderMode::restrict, SearchMethod::hexagon, Subpel::hpel};
    hex.lambda = 3;
    hex.predictor = xme::Predictor::temporal;
    list.push_back({"hex+hpel B16 restrict temporal, no transform, prediction only",
                    "fast",
                    hex,
                    {std::nullopt, true, false, false}});
    list.push_back({"fs+qpel B4 restrict, matrix 2, figures only",
                    "fast",
                    {4, 3, BorderMode::restrict, SearchMethod::full, Subpel::qpel},
                    {TransformOptions{TransformAlgorithm::matrix, 2}, false, false, false}});
    list.push_back({"fs B32, loeffler 30",
                    "fast",
                    {32, 3, BorderMode::pad, SearchMethod::full, Subpel::none},
                    {TransformOptions{TransformAlgorithm::loeffler, 30}, true, true, true}});
    list.push_back({"legacy fs+hpel B8, matrix 16",
                    "legacy",
                    {8, 3, BorderMode::pad, SearchMethod::full, Subpel::hpel},
                    {TransformOptions{TransformAlgorithm::matrix, 16}, true, true, true}});
    return list;
}

void check_row(xme::Device& device, const Row& row, const std::vector<xme::Plane>& frames) {
    xme::SessionOptions options;
    options.params = row.params;
    options.variant = row.variant;
    options.width = frames.front().width();
    options.height = frames.front().height();
    options.compensation = row.request;
    const xme::Support own = device.supports_compensation(options);
    REQUIRE_MESSAGE(own.supported, std::string(row.name), ": ", own.reason);
    xme::test::check_streamed_compensation(device, options, frames, row.name);
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: compensation on the device equals compensate() of its field") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan compensation");
        MESSAGE("seed ", xme::test::run_seed());
        std::vector<std::vector<xme::Plane>> inputs;
        // 37 x 29: partial blocks of every size, partial tiles, a width that is no multiple of 4.
        for (const auto content : {xme::test::Content::moving_texture, xme::test::Content::extreme}) {
            const auto first = xme::test::make_pair(content, 37, 29, rng);
            inputs.push_back(
                {first.reference, first.current, xme::test::make_pair(content, 37, 29, rng).current});
        }
        if (auto clip = xme::test::clip_luma("vtest.avi", 3, 300, 200, 70, 45)) {
            inputs.push_back(std::move(*clip));
        } else {
            MESSAGE("vtest.avi unavailable here: its rows are skipped");
        }
        for (const Row& row : rows()) {
            for (const auto& frames : inputs) check_row(*device, row, frames);
        }
    }

    TEST_CASE("vulkan: supports_compensation refuses what the search refuses, with its reason") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        xme::SessionOptions options;
        options.params = {16, 4, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::qpel};
        options.params.partitions = xme::Partitions::all;
        // SPEC §9's keys (J << rank bits) of range 32 with this lambda and a predictor overflow 32 bits:
        // refused by the search.
        options.params.range = 32;
        options.params.lambda = 60000;
        options.params.predictor = xme::Predictor::temporal;
        options.width = 64;
        options.height = 48;
        options.compensation = xme::CompensationRequest{};
        const xme::Support own = device->supports_compensation(options);
        CHECK_FALSE(own.supported);
        CHECK(own.reason == device->supports(options).reason);
    }

    TEST_CASE("vulkan: the partitions' compensation runs on the device too (the conformance rows check it)") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        for (const xme::Subpel subpel : {xme::Subpel::none, xme::Subpel::qpel}) {
            xme::SessionOptions options;
            options.params = {16, 4, xme::BorderMode::pad, xme::SearchMethod::full, subpel};
            options.params.partitions = xme::Partitions::all;
            options.width = 64;
            options.height = 48;
            options.compensation = xme::CompensationRequest{};
            REQUIRE(device->supports(options).supported);
            const xme::Support own = device->supports_compensation(options);
            CHECK_MESSAGE(own.supported, own.reason);
        }
    }
}
