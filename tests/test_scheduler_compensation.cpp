// SessionOptions::compensation through the scheduler: every policy, on every device here (the CPU
// backend, lavapipe where built, the reference), gives each pair the CompensatedFrame that compensate()
// computes from the pair's field: the device's own or, where supports_compensation says no, the host's.
#include <doctest/doctest.h>

#include "compensation_checks.hpp"
#include "test_support.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/scheduler.hpp"

namespace {

constexpr int frame_count = 5;

std::vector<xme::Plane> frames_of(bool clip) {
    if (clip) {
        if (auto frames = xme::test::clip_luma("vtest.avi", frame_count, 280, 180, 100, 76))
            return std::move(*frames);
        MESSAGE("vtest.avi unavailable here: skipping its frames (random frames still run)");
        return {};
    }
    // 100 x 76: partial blocks and partial 8x8 tiles at the right and bottom.
    auto rng = xme::test::rng_for("scheduler compensation frames");
    std::vector<xme::Plane> frames;
    for (int i = 0; i < frame_count; ++i)
        frames.push_back(xme::test::make_pair(xme::test::Content::moving_texture, 100, 76, rng).current);
    return frames;
}

// The available devices that run this chain (lavapipe's Vulkan runs only some).
std::vector<std::string> devices_for(const xme::SearchParams& params, int width, int height) {
    xme::Registry registry = xme::make_builtin_registry();
    std::vector<std::string> names;
    for (const auto& info : registry.devices()) {
        if (!info.available) continue;
        xme::SessionOptions options;
        options.params = params;
        options.width = width;
        options.height = height;
        if (registry.open(info.name)->supports(options).supported) names.push_back(info.name);
    }
    return names;
}

std::vector<xme::ScheduledPair> schedule(xme::Policy policy, const std::vector<std::string>& devices,
                                         const std::vector<xme::Plane>& planes,
                                         const xme::SearchParams& params,
                                         const xme::CompensationRequest& request) {
    xme::Registry registry = xme::make_builtin_registry();
    xme::ScheduleOptions options{policy, devices, {}};
    options.session.params = params;
    options.session.width = planes.front().width();
    options.session.height = planes.front().height();
    options.session.compensation = request;
    xme::Scheduler scheduler(registry, options);
    std::vector<xme::ScheduledPair> pairs;
    std::size_t next = 0;
    scheduler.run(
        [&]() -> std::optional<xme::Frame> {
            if (next == planes.size()) return std::nullopt;
            xme::Frame frame;
            frame.luma = planes[next++];
            return frame;
        },
        0, [&](xme::ScheduledPair&& pair) { pairs.push_back(std::move(pair)); }, [](const std::string&) {});
    return pairs;
}

void check_pairs(const std::vector<xme::ScheduledPair>& pairs, const std::vector<std::string>& devices,
                 const xme::CompensationRequest& request) {
    REQUIRE(pairs.size() == frame_count - 1);
    for (const auto& pair : pairs) {
        for (const auto& result : pair.results) {
            REQUIRE(result.result.compensation.has_value());
            const xme::CompensatedFrame expected = xme::compensate(
                pair.reference->luma.view(), pair.current->luma.view(), result.result.field, request);
            const std::string difference =
                xme::test::compensation_difference(expected, *result.result.compensation);
            CHECK_MESSAGE(difference.empty(), devices[result.device], ", frame ", pair.frame, ": ",
                          difference);
        }
    }
}

}  // namespace

TEST_SUITE("scheduler") {
    TEST_CASE("every policy gives every pair its compensation, as compensate() computes it") {
        // §4's bilinear half-pel prediction and §10's H.264 samples (satd), each with a transform variant.
        xme::SearchParams hpel{8, 6, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::hpel};
        xme::SearchParams qpel{8, 6, xme::BorderMode::pad, xme::SearchMethod::ehds, xme::Subpel::qpel};
        qpel.lambda = 4;
        const xme::CompensationRequest loeffler{xme::TransformOptions{xme::TransformAlgorithm::loeffler, 12},
                                                true, true, true};
        const xme::CompensationRequest matrix{xme::TransformOptions{xme::TransformAlgorithm::matrix, 20},
                                              true, true, true};
        MESSAGE("seed ", xme::test::run_seed());
        for (const bool clip : {false, true}) {
            const auto planes = frames_of(clip);
            if (planes.empty()) continue;
            const auto hpel_devices = devices_for(hpel, planes.front().width(), planes.front().height());
            const auto qpel_devices = devices_for(qpel, planes.front().width(), planes.front().height());
            REQUIRE(hpel_devices.size() >= 2);  // the CPU backend and the reference at least
            for (const std::string& device : hpel_devices) {
                CAPTURE(device);
                check_pairs(schedule(xme::Policy::single, {device}, planes, hpel, loeffler), {device},
                            loeffler);
            }
            check_pairs(schedule(xme::Policy::mirror, qpel_devices, planes, qpel, matrix), qpel_devices,
                        matrix);
            check_pairs(schedule(xme::Policy::split, hpel_devices, planes, hpel, matrix), hpel_devices,
                        matrix);
        }
    }

    TEST_CASE("a compensation request gives back only the planes it asks for, and always the figures") {
        const auto planes = frames_of(false);
        const xme::SearchParams params{8, 4, xme::BorderMode::pad, xme::SearchMethod::full,
                                       xme::Subpel::hpel};
        const xme::CompensationRequest figures_only{
            xme::TransformOptions{xme::TransformAlgorithm::matrix, 16}, false, false, false};
        const auto pairs = schedule(xme::Policy::single, {"cpu"}, planes, params, figures_only);
        REQUIRE(!pairs.empty());
        for (const auto& pair : pairs) {
            const auto& got = pair.results.front().result.compensation;
            REQUIRE(got.has_value());
            CHECK(got->prediction.width() == 0);
            CHECK(got->residual.values.empty());
            CHECK(!got->coefficients.has_value());
            REQUIRE(got->transform.has_value());
            const auto full = xme::compensate(pair.reference->luma.view(), pair.current->luma.view(),
                                              pair.results.front().result.field, figures_only.transform);
            CHECK(got->residual_abs_sum == full.residual_abs_sum);
            CHECK(got->residual_abs_sum > 0);
            CHECK(got->transform->coefficient_energy == full.transform->coefficient_energy);
            CHECK(got->transform->reconstruction_psnr_db == full.transform->reconstruction_psnr_db);
        }
        // Without a request, no compensation.
        xme::Registry registry = xme::make_builtin_registry();
        auto device = registry.open("cpu");
        xme::SessionOptions options;
        options.params = params;
        options.width = planes.front().width();
        options.height = planes.front().height();
        auto session = xme::open_compensating_session(*device, options);
        session->submit({0, planes[0].view(), 1, planes[1].view()});
        CHECK(!session->receive().compensation.has_value());
    }

    TEST_CASE("a quantiser step out of range is refused when the session opens") {
        xme::Registry registry = xme::make_builtin_registry();
        auto device = registry.open("cpu");
        xme::SessionOptions options;
        options.width = 32;
        options.height = 32;
        options.compensation =
            xme::CompensationRequest{xme::TransformOptions{xme::TransformAlgorithm::matrix, 0}};
        CHECK_THROWS_AS(static_cast<void>(xme::open_compensating_session(*device, options)), xme::Error);
    }
}
