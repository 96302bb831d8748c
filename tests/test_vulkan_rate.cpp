// SPEC §8 on Vulkan beyond the conformance rows: which chains the strip kernel keys by §8 (the
// conformance rows check its results, this that they reach it); the temporal predictor handed over
// from another session (FramePair::previous, as the scheduler's split policy does) to either kernel,
// and the refusal when a pair needs a previous result that nobody has; and ehds's mean pyramids
// (SPEC §11) over a stream whose frames the session caches. Skipped when XME_TEST_DEVICE names another
// backend or no Vulkan device is available.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>

#include "test_support.hpp"
#include "vulkan_test_device.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/vulkan_backend.hpp"

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: fs chains with SPEC §8's key run in the strip kernel where it fits") {
        for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel, xme::Subpel::qpel}) {
            xme::SearchParams params{16, 16, xme::BorderMode::pad, xme::SearchMethod::full, subpel};
            INFO(xme::chain_name(params));
            CHECK(xme::vulkan::fast_variant_uses_strip_kernel(params));
            params.lambda = 65535;  // SPEC §8's largest
            params.predictor = xme::Predictor::temporal;
            CHECK(xme::vulkan::fast_variant_uses_strip_kernel(params));
            params.predictor = xme::Predictor::none;
            params.range = 255;
            CHECK(xme::vulkan::fast_variant_uses_strip_kernel(params));
            // Offsets past the key's 9-bit fields, blocks that depend on each other, a moving window.
            params.range = 256;
            CHECK_FALSE(xme::vulkan::fast_variant_uses_strip_kernel(params));
            params.range = 16;
            params.predictor = xme::Predictor::spatial;
            CHECK_FALSE(xme::vulkan::fast_variant_uses_strip_kernel(params));
            params.predictor = xme::Predictor::temporal;
            params.centre = xme::WindowCentre::predictor;
            CHECK_FALSE(xme::vulkan::fast_variant_uses_strip_kernel(params));
        }
        xme::SearchParams walk{16, 16, xme::BorderMode::pad, xme::SearchMethod::diamond, xme::Subpel::none};
        CHECK_FALSE(xme::vulkan::fast_variant_uses_strip_kernel(walk));
    }

    TEST_CASE("vulkan: the temporal predictor from FramePair::previous, and without any") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan temporal handover");
        const auto first = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        const auto second = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        // Centred on the predictor: rate_search.comp; on zero: the strip kernel.
        for (const auto centre : {xme::WindowCentre::predictor, xme::WindowCentre::zero})
            for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel, xme::Subpel::qpel}) {
                xme::SearchParams params{8, 5, xme::BorderMode::restrict, xme::SearchMethod::full, subpel};
                params.lambda = 6;
                params.predictor = xme::Predictor::temporal;
                params.centre = centre;
                INFO(xme::chain_name(params), centre == xme::WindowCentre::zero ? ", centre zero" : "");
                const auto expected_first =
                    xme::reference::estimate(first.reference.view(), first.current.view(), params);
                const auto expected_second = xme::reference::estimate(
                    second.reference.view(), second.current.view(), params, &expected_first);
                xme::SessionOptions options;
                options.params = params;
                options.width = 45;
                options.height = 37;
                // A fresh session gets the second pair with the first pair's result handed over.
                auto session = device->open_session(options);
                xme::FramePair pair{10, second.reference.view(), 11, second.current.view()};
                pair.segment_start = false;
                pair.previous = std::make_shared<const xme::MotionField>(expected_first);
                session->submit(pair);
                const std::string difference =
                    xme::test::first_difference(expected_second, session->receive().field);
                CHECK_MESSAGE(difference.empty(), difference);
                // A fresh session with neither a previous result of its own nor one handed over refuses.
                auto lonely = device->open_session(options);
                pair.previous = nullptr;
                CHECK_THROWS_AS(lonely->submit(pair), xme::Error);
                CHECK(lonely->pending() == 0);
            }
    }

    TEST_CASE("vulkan: the strip kernel's rate key with predictors far outside the window, lambda 65535") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan strip rate key extremes");
        const auto pair = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel}) {
            xme::SearchParams params{8, 5, xme::BorderMode::pad, xme::SearchMethod::full, subpel};
            params.lambda = 65535;
            params.predictor = xme::Predictor::temporal;
            INFO(xme::chain_name(params));
            REQUIRE(xme::vulkan::fast_variant_uses_strip_kernel(params));
            // The int16 extremes, just past the window's edge (4R + 1) and inside it, on both axes.
            const std::int16_t components[] = {-32768, 32767, -21, 21, 3, 0, -7};
            auto previous = std::make_shared<xme::MotionField>(45, 37, 8, xme::cost_kind_of(params));
            for (std::size_t i = 0; i < previous->blocks.size(); ++i) {
                previous->blocks[i].mv_x = components[i % std::size(components)];
                previous->blocks[i].mv_y = components[(i / 3) % std::size(components)];
            }
            const auto expected =
                xme::reference::estimate(pair.reference.view(), pair.current.view(), params, previous.get());
            xme::SessionOptions options;
            options.params = params;
            options.width = 45;
            options.height = 37;
            auto session = device->open_session(options);
            xme::FramePair frames{0, pair.reference.view(), 1, pair.current.view()};
            frames.segment_start = false;
            frames.previous = previous;
            session->submit(frames);
            const std::string difference = xme::test::first_difference(expected, session->receive().field);
            CHECK_MESSAGE(difference.empty(), difference);
        }
    }

    TEST_CASE("vulkan: ehds's pyramids follow the cached frames of a stream, two pairs in flight") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan ehds stream");
        // Frames 0..3 as a video gives them (each uploaded once, its pyramid built once and read by two
        // pairs), then frame 1 again against frame 3 (a slot evicted while a pair may still read it).
        const auto a = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        const auto b = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        const xme::Plane* frames[] = {&a.reference, &a.current, &b.reference, &b.current};
        const std::pair<int, int> pairs[] = {{0, 1}, {1, 2}, {2, 3}, {3, 1}};
        xme::SearchParams params{8, 6, xme::BorderMode::pad, xme::SearchMethod::ehds, xme::Subpel::none};
        params.lambda = 4;
        xme::SessionOptions options;
        options.params = params;
        options.width = 45;
        options.height = 37;
        auto session = device->open_session(options);
        for (const auto& [reference, current] : pairs) {
            session->submit({reference, frames[reference]->view(), current, frames[current]->view()});
        }
        for (const auto& [reference, current] : pairs) {
            INFO("pair (", reference, ", ", current, ")");
            const auto expected =
                xme::reference::estimate(frames[reference]->view(), frames[current]->view(), params);
            const std::string difference = xme::test::first_difference(expected, session->receive().field);
            CHECK_MESSAGE(difference.empty(), difference);
        }
    }
}
