// The scheduler's policies on the devices this machine has (the CPU backend, lavapipe where the
// Vulkan backend is built, and the reference as a second device where there is no other), on real
// clip frames: split equals single and mirror agrees. Faults on purpose: test_scheduler_faults.cpp.
#include <doctest/doctest.h>

#include <functional>
#include <set>

#include "test_support.hpp"
#include "xme/agreement.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/scheduler.hpp"

namespace {

constexpr int frame_count = 9;

std::vector<xme::Plane> clip_or_synthetic() {
    if (auto frames = xme::test::clip_luma("vtest.avi", frame_count, 280, 180, 112, 80)) return std::move(*frames);
    MESSAGE("vtest.avi unavailable here: using synthetic moving frames");
    auto rng = xme::test::rng_for("scheduler frames");
    std::vector<xme::Plane> frames;
    for (int i = 0; i < frame_count; ++i) frames.push_back(xme::test::make_pair(xme::test::Content::moving_texture, 112, 80, rng).current);
    return frames;
}

// Every available device but the reference; the reference joins when fewer than two remain.
std::vector<std::string> devices_here(xme::Registry& registry) {
    std::vector<std::string> names;
    for (const auto& info : registry.devices()) {
        if (info.available && info.backend != "reference") names.push_back(info.name);
    }
    if (names.size() < 2) names.push_back("reference");
    return names;
}

// Hands out the planes as frames, one per call, then nothing.
std::function<std::optional<xme::Frame>()> frame_source(const std::vector<xme::Plane>& planes) {
    return [&planes, next = std::size_t{0}]() mutable -> std::optional<xme::Frame> {
        if (next == planes.size()) return std::nullopt;
        xme::Frame frame;
        frame.luma = planes[next++];
        return frame;
    };
}

struct Run {
    std::vector<xme::ScheduledPair> pairs;
    std::vector<std::string> notices;
};

Run schedule(xme::Policy policy, const std::vector<std::string>& devices, const std::vector<xme::Plane>& planes) {
    xme::Registry registry = xme::make_builtin_registry();
    xme::ScheduleOptions options{policy, devices, {}};
    // A range large enough that the reference is much slower than the CPU backend: under split, the
    // CPU then always comes back for more pairs, which the failure test relies on.
    options.session.params = {8, 10, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::hpel};
    options.session.width = planes.front().width();
    options.session.height = planes.front().height();
    xme::Scheduler scheduler(registry, options);
    Run run;
    scheduler.run(frame_source(planes), 100, [&](xme::ScheduledPair&& pair) { run.pairs.push_back(std::move(pair)); },
                  [&](const std::string& text) { run.notices.push_back(text); });
    return run;
}

void check_in_order_and_equal(const Run& actual, const Run& expected) {
    REQUIRE(actual.pairs.size() == expected.pairs.size());
    for (std::size_t i = 0; i < actual.pairs.size(); ++i) {
        CHECK(actual.pairs[i].frame == 101 + static_cast<std::int64_t>(i));  // in order, none lost, none twice
        REQUIRE(actual.pairs[i].results.size() == 1);
        const std::string difference = xme::test::first_difference(expected.pairs[i].results.front().result.field,
                                                                    actual.pairs[i].results.front().result.field);
        CHECK_MESSAGE(difference.empty(), "frame ", actual.pairs[i].frame, ": ", difference);
    }
}

}  // namespace

TEST_SUITE("scheduler") {
    TEST_CASE("split gives single's results, frame by frame, in order") {
        xme::Registry registry = xme::make_builtin_registry();
        const auto devices = devices_here(registry);
        const auto planes = clip_or_synthetic();
        const Run single = schedule(xme::Policy::single, {devices.front()}, planes);
        CHECK(single.pairs.size() == frame_count - 1);
        const Run split = schedule(xme::Policy::split, devices, planes);
        check_in_order_and_equal(split, single);
        std::set<std::size_t> used;
        for (const auto& pair : split.pairs) used.insert(pair.results.front().device);
        MESSAGE("split over ", devices.size(), " devices; ", used.size(), " of them computed pairs");
    }

    TEST_CASE("split over two devices on the host's cores says that they compete for them") {
        const auto planes = clip_or_synthetic();
        const Run split = schedule(xme::Policy::split, {"cpu", "reference"}, planes);
        REQUIRE(split.notices.size() == 1);
        CHECK(split.notices.front().find("cpu and reference compute on the same CPU cores") !=
              std::string::npos);
        CHECK(schedule(xme::Policy::mirror, {"cpu", "reference"}, planes)
                  .notices.empty());  // mirror: on purpose
    }

    TEST_CASE("mirror runs every pair on every device, and they agree") {
        xme::Registry registry = xme::make_builtin_registry();
        const auto devices = devices_here(registry);
        const auto planes = clip_or_synthetic();
        const Run mirror = schedule(xme::Policy::mirror, devices, planes);
        REQUIRE(mirror.pairs.size() == frame_count - 1);
        const xme::SearchParams params{8, 10, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::hpel};
        // SPEC §6: the least precise device's own bound (texture-filtered half-pel), 0 when all are exact.
        std::uint32_t tolerance = 0;
        for (const auto& name : devices) {
            xme::SessionOptions options;
            options.params = params;
            options.width = planes.front().width();
            options.height = planes.front().height();
            tolerance = std::max(tolerance, registry.open(name)->supports(options).tolerance);
        }
        for (const auto& pair : mirror.pairs) {
            REQUIRE(pair.results.size() == devices.size());
            for (std::size_t d = 1; d < devices.size(); ++d) {
                const auto agreement = xme::compare_fields(pair.reference->luma.view(), pair.current->luma.view(), params,
                                                           pair.results[0].result.field, pair.results[d].result.field,
                                                           tolerance);
                CHECK_MESSAGE(agreement.agrees(), devices[d], " disagrees with ", devices[0], " at frame ", pair.frame);
            }
        }
    }

    TEST_CASE("policies refuse device lists that do not fit them") {
        xme::Registry registry = xme::make_builtin_registry();
        CHECK_THROWS_AS(xme::Scheduler(registry, {xme::Policy::single, {"cpu", "reference"}, {}}), xme::Error);
        CHECK_THROWS_AS(xme::Scheduler(registry, {xme::Policy::split, {}, {}}), xme::Error);
        CHECK_THROWS_WITH(static_cast<void>(xme::parse_policy("round-robin")), doctest::Contains("single, mirror or split"));
    }
}
