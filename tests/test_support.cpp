#include "test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "xme/builtin_backends.hpp"
#include "xme/video.hpp"

namespace xme::test {

std::uint64_t run_seed() {
    static const std::uint64_t seed = [] {
        std::uint64_t value = 0;
        if (const char* fixed = std::getenv("XME_TEST_SEED")) {
            value = std::strtoull(fixed, nullptr, 0);
        } else {
            std::random_device device;
            value = (static_cast<std::uint64_t>(device()) << 32) | device();
        }
        std::cout << "xme tests: random seed " << value << " (set XME_TEST_SEED=" << value << " to replay)\n";
        return value;
    }();
    return seed;
}

std::mt19937_64 rng_for(const std::string& test_name) {
    return std::mt19937_64(run_seed() ^ std::hash<std::string>{}(test_name));
}

const char* to_string(Content content) {
    switch (content) {
        case Content::noise:
            return "noise";
        case Content::few_levels:
            return "few-levels";
        case Content::moving_texture:
            return "moving-texture";
        case Content::extreme:
            return "extreme";
    }
    return "?";
}

PlanePair make_pair(Content content, int width, int height, std::mt19937_64& rng) {
    PlanePair pair{Plane(width, height), Plane(width, height)};
    if (content == Content::extreme) {
        // 0/255 checkerboards of random phase and period 1 or 2: the largest SADs and SATDs, and the
        // largest intermediates (and clipping) of the 6-tap filter.
        std::uniform_int_distribution<int> phase(0, 1);
        const int period_ref = 1 + phase(rng);
        const int period_cur = 1 + phase(rng);
        const int shift_ref = phase(rng);
        const int shift_cur = phase(rng);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) {
                pair.reference.at(x, y) = ((x / period_ref + y / period_ref + shift_ref) % 2) != 0 ? 255 : 0;
                pair.current.at(x, y) = ((x / period_cur + y + shift_cur) % 2) != 0 ? 255 : 0;
            }
        }
        return pair;
    }
    // few_levels makes many candidates tie on cost, which exercises the tie-break key.
    const int levels = content == Content::few_levels ? 3 : 256;
    std::uniform_int_distribution<int> pixel(0, levels - 1);
    const int margin = 12;
    Plane texture(width + 2 * margin, height + 2 * margin);
    for (int y = 0; y < texture.height(); ++y) {
        for (int x = 0; x < texture.width(); ++x) texture.at(x, y) = static_cast<std::uint8_t>(pixel(rng));
    }
    std::uniform_int_distribution<int> shift(-margin / 2, margin / 2);
    const int dx = shift(rng);
    const int dy = shift(rng);
    std::uniform_int_distribution<int> noise(-6, 6);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            pair.reference.at(x, y) = texture.at(x + margin, y + margin);
            int value = content == Content::moving_texture
                            ? texture.at(x + margin + dx, y + margin + dy) + noise(rng)
                            : pixel(rng);
            pair.current.at(x, y) = static_cast<std::uint8_t>(std::clamp(value, 0, 255));
        }
    }
    return pair;
}

std::string clip_path(const std::string& clip) {
    const char* dir = std::getenv("XME_TEST_CLIP_DIR");
    return std::string(dir != nullptr ? dir : XME_TEST_DATA_DIR) + "/" + clip;
}

std::optional<std::vector<Plane>> clip_luma(const std::string& clip, int count, int left, int top, int width,
                                            int height) {
    // Without FFmpeg (the portable build on the GPU machine) a .y4m copy of the clip's first frames,
    // made with tools/make_test_clips.sh, stands in for it.
    std::string path = clip_path(clip);
    if (!ffmpeg_available()) path = std::filesystem::path(path).replace_extension(".y4m").string();
    if (!std::filesystem::exists(path)) return std::nullopt;
    auto reader = open_video(path);
    std::vector<Plane> frames;
    while (static_cast<int>(frames.size()) < count) {
        auto frame = reader->read_frame();
        REQUIRE_MESSAGE(frame.has_value(), clip << " has fewer than " << count << " frames");
        Plane cropped(width, height);
        const PlaneView luma = frame->luma.view();
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) cropped.at(x, y) = luma.at_clamped(left + x, top + y);
        }
        frames.push_back(std::move(cropped));
    }
    return frames;
}

namespace {

struct OpenedDevices {
    Registry registry = make_builtin_registry();
    std::vector<DeviceUnderTest> devices;
};

std::unique_ptr<OpenedDevices>& opened_devices() {
    static std::unique_ptr<OpenedDevices> opened;
    return opened;
}

}  // namespace

const std::vector<DeviceUnderTest>& devices_under_test() {
    auto& opened = opened_devices();
    if (opened) return opened->devices;
    opened = std::make_unique<OpenedDevices>();
    const char* only = std::getenv("XME_TEST_DEVICE");
    // XME_TEST_VARIANTS: a comma-separated list, to test some of a device's variants only.
    const char* variants = std::getenv("XME_TEST_VARIANTS");
    const std::string variant_list = variants == nullptr ? "" : "," + std::string(variants) + ",";
    const auto wanted = [&](const std::string& variant) {
        return variants == nullptr || variant_list.find("," + variant + ",") != std::string::npos;
    };
    for (const auto& info : opened->registry.devices()) {
        if (!info.available || info.backend == "reference") continue;
        if (only != nullptr && info.name != only && info.backend != only) continue;
        for (const auto& variant : info.variants) {
            if (wanted(variant)) opened->devices.push_back({opened->registry.open(info.name), variant});
        }
    }
    return opened->devices;
}

void release_devices_under_test() { opened_devices().reset(); }

bool take_conformance_row() {
    static const auto shard = [] {
        std::pair<long, long> index_and_count{0, 1};
        const char* text = std::getenv("XME_TEST_SHARD");
        if (text == nullptr) return index_and_count;
        char slash = 0;
        std::istringstream in(text);
        if (!(in >> index_and_count.first >> slash >> index_and_count.second) || slash != '/' ||
            index_and_count.second < 1 || index_and_count.first < 0 ||
            index_and_count.first >= index_and_count.second) {
            throw std::invalid_argument(std::string("XME_TEST_SHARD=") + text + ": expected k/n with 0 <= k < n");
        }
        return index_and_count;
    }();
    static long row = 0;
    return row++ % shard.second == shard.first;
}

std::string first_difference(const MotionField& expected, const MotionField& actual) {
    if (expected.blocks_x != actual.blocks_x || expected.blocks_y != actual.blocks_y ||
        expected.cost_kind != actual.cost_kind) {
        return "field shape differs: expected " + std::to_string(expected.blocks_x) + "x" +
               std::to_string(expected.blocks_y) + " " + to_string(expected.cost_kind) + ", got " +
               std::to_string(actual.blocks_x) + "x" + std::to_string(actual.blocks_y) + " " +
               to_string(actual.cost_kind);
    }
    if (expected.macroblocks.size() != actual.macroblocks.size()) {
        return "partitions: the reference has " + std::to_string(expected.macroblocks.size()) +
               " macroblocks of them, the device " + std::to_string(actual.macroblocks.size());
    }
    const auto motion_text = [](const BlockMotion& m) {
        return "mv (" + std::to_string(m.mv_x) + "," + std::to_string(m.mv_y) + ") cost " +
               std::to_string(m.cost) + " after " + std::to_string(m.candidates) + " candidates";
    };
    for (int by = 0; by < expected.blocks_y; ++by) {
        for (int bx = 0; bx < expected.blocks_x; ++bx) {
            const std::string where = "block (" + std::to_string(bx) + "," + std::to_string(by) + ")";
            const BlockMotion& e = expected.at(bx, by);
            const BlockMotion& a = actual.at(bx, by);
            if (e != a) return where + ": reference " + motion_text(e) + ", device " + motion_text(a);
            if (expected.macroblocks.empty()) continue;
            const auto i = static_cast<std::size_t>(by * expected.blocks_x + bx);
            const MacroblockMotion& em = expected.macroblocks[i];
            const MacroblockMotion& am = actual.macroblocks[i];
            for (std::size_t p = 0; p < em.partitions.size(); ++p) {
                if (em.partitions[p] == am.partitions[p]) continue;
                return where + " partition " + std::to_string(p) + ": reference " +
                       motion_text(em.partitions[p]) + ", device " + motion_text(am.partitions[p]);
            }
            if (em.decision != am.decision) {
                return where + ": reference mode " + to_string(em.decision.mode) + " J " +
                       std::to_string(em.decision.cost) + ", device mode " + to_string(am.decision.mode) +
                       " J " + std::to_string(am.decision.cost) + " (or their sub-modes differ)";
            }
        }
    }
    return {};
}

}  // namespace xme::test
