// SPEC §9 on Vulkan beyond the conformance rows: the temporal predictor handed over from another session
// (FramePair::previous) with predictors anywhere when the window is centred on them, and refused past
// the key tables' window when it is not; windows of several passes and column bands over partial
// macroblocks; and the refusal of ranges and lambdas whose 32-bit keys do not fit. Skipped when
// XME_TEST_DEVICE names another backend or no Vulkan device is available.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <memory>
#include <string>

#include "test_support.hpp"
#include "vulkan_test_device.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/vulkan_backend.hpp"

namespace {

xme::SearchParams partition_params(int range, xme::BorderMode border, xme::Subpel subpel) {
    xme::SearchParams params{16, range, border, xme::SearchMethod::full, subpel};
    params.partitions = xme::Partitions::all;
    return params;
}

// A session's options for `params` on frames the size of `frames`.
xme::SessionOptions pair_options(const xme::SearchParams& params, const xme::test::PlanePair& frames) {
    xme::SessionOptions options;
    options.params = params;
    options.width = frames.current.width();
    options.height = frames.current.height();
    return options;
}

// One pair on a fresh session of `device`, with `previous` handed over when given.
xme::MotionField run_pair(xme::Device& device, const xme::SearchParams& params,
                          const xme::test::PlanePair& frames,
                          std::shared_ptr<const xme::MotionField> previous) {
    auto session = device.open_session(pair_options(params, frames));
    xme::FramePair pair{0, frames.reference.view(), 1, frames.current.view()};
    pair.segment_start = previous == nullptr;
    pair.previous = std::move(previous);
    session->submit(pair);
    return session->receive().field;
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: the partitions' temporal predictor from FramePair::previous") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan partitions handover");
        const auto frames = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        for (const auto subpel : {xme::Subpel::none, xme::Subpel::qpel}) {
            for (const auto centre : {xme::WindowCentre::zero, xme::WindowCentre::predictor}) {
                auto params = partition_params(5, xme::BorderMode::restrict, subpel);
                params.lambda = 65535;
                params.predictor = xme::Predictor::temporal;
                params.centre = centre;
                INFO(xme::chain_name(params), centre == xme::WindowCentre::zero ? ", centre zero" : "");
                // A previous pair's vectors, inside the tables' window (|p| <= 4R + 3) for centre zero; for
                // a centred window also the int16 extremes (windows far outside the frame, empty in
                // restrict: the zero vector alone).
                const std::int16_t inside[] = {23, -23, 3, 0, -7, 22};
                const std::int16_t anywhere[] = {-32768, 32767, -21, 21, 3, 0, -7};
                auto previous = std::make_shared<xme::MotionField>(45, 37, 16, xme::cost_kind_of(params));
                for (std::size_t i = 0; i < previous->blocks.size(); ++i) {
                    const bool centred = centre == xme::WindowCentre::predictor;
                    const std::size_t n = centred ? std::size(anywhere) : std::size(inside);
                    const std::int16_t* components = centred ? anywhere : inside;
                    previous->blocks[i].mv_x = components[i % n];
                    previous->blocks[i].mv_y = components[(i / 2 + 1) % n];
                }
                const auto expected = xme::reference::estimate(frames.reference.view(), frames.current.view(),
                                                               params, previous.get());
                const std::string difference =
                    xme::test::first_difference(expected, run_pair(*device, params, frames, previous));
                CHECK_MESSAGE(difference.empty(), difference);
                if (centre == xme::WindowCentre::zero) {
                    // One component past 4R + 3: the tables do not hold its keys.
                    auto outside = std::make_shared<xme::MotionField>(*previous);
                    outside->blocks.back().mv_y = 24;
                    CHECK_THROWS_WITH_AS(static_cast<void>(run_pair(*device, params, frames, outside)),
                                         doctest::Contains("the partition search's tables cover"),
                                         xme::Error);
                }
            }
        }
    }

    TEST_CASE("vulkan: partitions over windows of several passes and bands, partial macroblocks") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan partitions passes");
        const auto frames = xme::test::make_pair(xme::test::Content::noise, 70, 50, rng);
        for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
            for (const auto subpel : {xme::Subpel::none, xme::Subpel::qpel}) {
                // Range 20: 41 candidate columns, 6 strips of 8 with the last one partial; 33: 67, two
                // bands of columns (64 and 3).
                const int range = subpel == xme::Subpel::none ? 33 : 20;
                auto params = partition_params(range, border, subpel);
                params.lambda = 4;
                INFO(xme::chain_name(params), " ", to_string(border));
                const auto expected =
                    xme::reference::estimate(frames.reference.view(), frames.current.view(), params);
                const std::string difference =
                    xme::test::first_difference(expected, run_pair(*device, params, frames, nullptr));
                CHECK_MESSAGE(difference.empty(), difference);
            }
        }
    }

    TEST_CASE("vulkan: partitions with each strip width (SessionTuning::partition_strip)") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan partition strips");
        const auto frames = xme::test::make_pair(xme::test::Content::noise, 50, 40, rng);
        // Range 20: 41 candidate columns, so strips of 8 end partial (4's do too, in the test above).
        for (const int strip : {1, 8}) {
            auto params = partition_params(20, xme::BorderMode::pad, xme::Subpel::none);
            params.lambda = 4;
            INFO("strip ", strip);
            xme::vulkan::SessionTuning tuning;
            tuning.partition_strip = strip;
            auto session = xme::vulkan::open_tuned_session(*device, pair_options(params, frames), tuning);
            session->submit({0, frames.reference.view(), 1, frames.current.view()});
            const std::string difference = xme::test::first_difference(
                xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                session->receive().field);
            CHECK_MESSAGE(difference.empty(), difference);
        }
        const auto options =
            pair_options(partition_params(4, xme::BorderMode::pad, xme::Subpel::none), frames);
        xme::vulkan::SessionTuning tuning;
        tuning.partition_strip = 9;
        CHECK_THROWS_AS(static_cast<void>(xme::vulkan::open_tuned_session(*device, options, tuning)),
                        xme::Error);
    }

    TEST_CASE("vulkan: partition keys that do not fit 32 bits are refused, with the reason") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        xme::SessionOptions options;
        options.width = 64;
        options.height = 48;
        // Range 128: 257^2 ranks need 17 bits, and 16x16 SADs 16 more.
        options.params = partition_params(128, xme::BorderMode::pad, xme::Subpel::none);
        const xme::Support support = device->supports(options);
        CHECK_FALSE(support.supported);
        CHECK(support.reason.find("32-bit keys cannot hold range 128 with lambda 0") != std::string::npos);
        CHECK_THROWS_AS(static_cast<void>(device->open_session(options)), xme::Error);
        options.params.range = 100;  // 201^2 ranks: 16 bits
        CHECK(device->supports(options).supported);
    }
}
