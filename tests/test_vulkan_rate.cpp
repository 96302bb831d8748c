// SPEC §8 on Vulkan beyond the conformance rows: the temporal predictor handed over from another
// session (FramePair::previous, as the scheduler's split policy does), and the refusal when a pair
// needs a previous result that nobody has; and ehds's mean pyramids (SPEC §11) over a stream whose
// frames the session caches. Skipped when XME_TEST_DEVICE names another backend or no
// Vulkan device is available.
#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "test_support.hpp"
#include "vulkan_test_device.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/vulkan_backend.hpp"

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: the temporal predictor from FramePair::previous, and without any") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan temporal handover");
        const auto first = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        const auto second = xme::test::make_pair(xme::test::Content::moving_texture, 45, 37, rng);
        for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel, xme::Subpel::qpel}) {
            xme::SearchParams params{8, 5, xme::BorderMode::restrict, xme::SearchMethod::full, subpel};
            params.lambda = 6;
            params.predictor = xme::Predictor::temporal;
            params.centre = xme::WindowCentre::predictor;
            INFO(xme::chain_name(params));
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
