// SPEC §8's temporal predictor through the scheduler: every policy gives the reference's chain, pair
// for pair, also when split shares a segment's pairs out or a device fails mid-segment (issue 10:
// "split still gives single's results frame for frame").
#include <doctest/doctest.h>

#include <optional>

#include "fake_device.hpp"
#include "test_support.hpp"
#include "xme/reference.hpp"
#include "xme/scheduler.hpp"

namespace {

using xme::test::FakeDeviceSpec;

constexpr int pair_count = 14;

xme::SearchParams temporal_params(int refresh) {
    xme::SearchParams params{8, 4, xme::BorderMode::pad, xme::SearchMethod::full};
    params.lambda = 4;
    params.predictor = xme::Predictor::temporal;
    params.centre = xme::WindowCentre::predictor;
    params.refresh = refresh;
    return params;
}

std::vector<xme::Plane> random_planes(const std::string& name) {
    auto rng = xme::test::rng_for(name);
    std::vector<xme::Plane> planes;
    for (int i = 0; i <= pair_count; ++i) {
        planes.push_back(xme::test::make_pair(xme::test::Content::moving_texture, 48, 40, rng).current);
    }
    return planes;
}

// The reference's chain over the clip, segment by segment.
std::vector<xme::MotionField> expected_fields(const std::vector<xme::Plane>& planes, const xme::SearchParams& params) {
    std::vector<xme::MotionField> fields;
    for (int i = 1; i <= pair_count; ++i) {
        const bool start = params.refresh > 0 ? (i - 1) % params.refresh == 0 : i == 1;
        fields.push_back(xme::reference::estimate(planes[i - 1].view(), planes[i].view(), params,
                                                  start ? nullptr : &fields.back()));
    }
    return fields;
}

std::vector<xme::MotionField> schedule(const std::vector<xme::Plane>& planes, const xme::SearchParams& params,
                                       xme::Policy policy, const std::vector<FakeDeviceSpec>& devices) {
    xme::Registry registry;
    xme::test::add_fake_backend(registry, devices, std::make_shared<xme::test::FakeHangs>());
    xme::ScheduleOptions options{policy, {}, {params, "", 1, 48, 40}};
    for (const auto& device : devices) options.devices.push_back(device.name);
    xme::Scheduler scheduler(registry, options);
    std::size_t next = 0;
    std::vector<xme::MotionField> fields;
    scheduler.run(
        [&]() -> std::optional<xme::Frame> {
            if (next == planes.size()) return std::nullopt;
            xme::Frame frame;
            frame.luma = planes[next++];
            return frame;
        },
        0, [&](xme::ScheduledPair&& pair) { fields.push_back(pair.results.front().result.field); },
        [](const std::string&) {});
    return fields;
}

void check_same(const std::vector<xme::MotionField>& expected, const std::vector<xme::MotionField>& actual) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::string difference = xme::test::first_difference(expected[i], actual[i]);
        CHECK_MESSAGE(difference.empty(), "pair ", i + 1, ": ", difference);
    }
}

}  // namespace

TEST_SUITE("scheduler") {
    TEST_CASE("temporal predictor: single, mirror and split give the reference's chain, every refresh") {
        const auto planes = random_planes("scheduler temporal");
        for (const int refresh : {0, 1, 3}) {
            INFO("refresh ", refresh);
            const auto params = temporal_params(refresh);
            const auto expected = expected_fields(planes, params);
            // The chain must depend on the predictor, or this test proves nothing.
            const auto without = expected_fields(planes, temporal_params(1));
            if (refresh != 1) {
                bool differs = false;
                for (std::size_t i = 0; i < expected.size(); ++i) differs = differs || without[i].blocks != expected[i].blocks;
                CHECK(differs);
            }
            check_same(expected, schedule(planes, params, xme::Policy::single, {{"fake:0", {}}}));
            check_same(expected, schedule(planes, params, xme::Policy::mirror, {{"fake:0", {}}, {"fake:1", {}}}));
            // One device slower, so that both take pairs; segments stay with a device or move with
            // their previous result.
            FakeDeviceSpec slow{"fake:1", {}};
            slow.faults.milliseconds_per_pair = 3;
            check_same(expected, schedule(planes, params, xme::Policy::split, {{"fake:0", {}}, slow}));
        }
    }

    TEST_CASE("temporal predictor under split: a device failing mid-segment hands it on with its result") {
        const auto planes = random_planes("scheduler temporal failure");
        const auto params = temporal_params(0);
        for (const int fail_at : {1, 3, 6}) {
            INFO("fail at pair ", fail_at);
            FakeDeviceSpec failing{"fake:0", {}};
            failing.faults.fail_at = fail_at;
            FakeDeviceSpec slow{"fake:1", {}};
            slow.faults.milliseconds_per_pair = 2;
            check_same(expected_fields(planes, params), schedule(planes, params, xme::Policy::split, {failing, slow}));
        }
    }
}
