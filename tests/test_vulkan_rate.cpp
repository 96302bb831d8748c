// SPEC §8 on Vulkan beyond the conformance rows: the temporal predictor handed over from another
// session (FramePair::previous, as the scheduler's split policy does), and the refusal when a pair
// needs a previous result that nobody has. Skipped when XME_TEST_DEVICE names another backend or no
// Vulkan device is available.
#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/vulkan_backend.hpp"

namespace {

std::unique_ptr<xme::Device> first_vulkan_device() {
    const char* only = std::getenv("XME_TEST_DEVICE");
    if (only != nullptr && std::string(only).rfind("vulkan", 0) != 0) return nullptr;
    static auto backend = xme::make_vulkan_backend();
    for (const auto& info : backend->devices()) {
        if (info.available) return backend->open(info.name);
    }
    MESSAGE("skipped: no Vulkan device available here");
    return nullptr;
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: the temporal predictor from FramePair::previous, and without any") {
        const auto device = first_vulkan_device();
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
}
