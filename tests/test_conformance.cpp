// Every available device and variant against the reference, bit-exact: random frames of three kinds
// (noise, few grey levels for ties, moving texture) and real clip frames, every block size, both
// border modes, both algorithms, odd sizes and several ranges. XME_TEST_DEVICE picks one device.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/reference.hpp"

namespace {

struct DeviceUnderTest {
    std::unique_ptr<xme::Device> device;
    std::string variant;
};

// The devices to test: XME_TEST_DEVICE alone when set (main() has already checked it is available).
std::vector<DeviceUnderTest> devices_under_test() {
    static xme::Registry registry = xme::make_builtin_registry();
    const char* only = std::getenv("XME_TEST_DEVICE");
    std::vector<DeviceUnderTest> devices;
    for (const auto& info : registry.devices()) {
        if (!info.available || info.backend == "reference") continue;
        if (only != nullptr && info.name != only && info.backend != only) continue;
        for (const auto& variant : info.variants) devices.push_back({registry.open(info.name), variant});
    }
    return devices;
}

const std::vector<DeviceUnderTest>& all_devices() {
    static const std::vector<DeviceUnderTest> devices = devices_under_test();
    return devices;
}

void check_against_reference(const xme::Plane& reference, const xme::Plane& current, const xme::SearchParams& params,
                             const std::string& what) {
    const xme::MotionField expected = xme::reference::estimate(reference.view(), current.view(), params);
    for (const auto& dut : all_devices()) {
        xme::SessionOptions options;
        options.params = params;
        options.variant = dut.variant;
        options.width = current.width();
        options.height = current.height();
        const auto actual = xme::estimate_pair(*dut.device, options, reference.view(), current.view());
        const std::string difference = xme::test::first_difference(expected, actual);
        INFO(dut.device->info().name, " variant ", dut.variant, ", ", what, ", block ", params.block_size, " range ",
             params.range, " ", to_string(params.border), " ", to_string(params.algorithm));
        CHECK_MESSAGE(difference.empty(), difference);
    }
}

const xme::BorderMode borders[] = {xme::BorderMode::pad, xme::BorderMode::restrict};
const xme::Algorithm algorithms[] = {xme::Algorithm::full_search, xme::Algorithm::full_search_hpel};

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("devices under test") {
        REQUIRE_MESSAGE(!all_devices().empty(), "no available device to test");
        for (const auto& dut : all_devices()) MESSAGE("testing ", dut.device->info().name, " variant ", dut.variant);
    }

    TEST_CASE("random frames: every block size, border mode, algorithm, odd sizes and ranges") {
        auto rng = xme::test::rng_for("conformance random");
        struct Size {
            int width;
            int height;
        };
        std::uniform_int_distribution<int> random_extent(1, 90);
        const Size sizes[] = {{33, 17}, {1, 1}, {64, 48}, {97, 61}, {random_extent(rng), random_extent(rng)}};
        const int ranges[] = {0, 1, 3, 7, 16};
        const xme::test::Content contents[] = {xme::test::Content::noise, xme::test::Content::few_levels,
                                               xme::test::Content::moving_texture};
        int case_index = 0;
        for (const Size size : sizes) {
            for (const int block : {4, 8, 16, 32}) {
                for (const auto border : borders) {
                    for (const auto algorithm : algorithms) {
                        for (const int range : ranges) {
                            const auto content = contents[case_index++ % 3];
                            const auto frames = xme::test::make_pair(content, size.width, size.height, rng);
                            xme::SearchParams params{block, range, border, algorithm};
                            check_against_reference(frames.reference, frames.current, params,
                                                    std::string(to_string(content)) + " " + std::to_string(size.width) +
                                                        "x" + std::to_string(size.height));
                        }
                    }
                }
            }
        }
    }

    TEST_CASE("real frames from the clips") {
        struct Clip {
            const char* name;
            int left;
            int top;
        };
        for (const Clip clip : {Clip{"vtest.avi", 300, 200}, Clip{"tree.avi", 40, 60}}) {
            const auto frames = xme::test::clip_luma(clip.name, 3, clip.left, clip.top, 131, 77);
            if (!frames) {
                MESSAGE("skipped ", clip.name, ": ", xme::test::clip_path(clip.name),
                        " is missing or needs FFmpeg, which this build lacks");
                continue;
            }
            for (const int block : {4, 8, 16, 32}) {
                for (const auto border : borders) {
                    for (const auto algorithm : algorithms) {
                        xme::SearchParams params{block, block == 4 ? 6 : 12, border, algorithm};
                        check_against_reference((*frames)[0], (*frames)[2], params, clip.name);
                    }
                }
            }
        }
    }
}
