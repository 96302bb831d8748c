// The Vulkan backend beyond what conformance covers for every device: SPEC §5's P processing
// elements, a video through one asynchronous session (frames kept on the device), ranges large
// enough to need several tiles and workgroups per block, and the validation layer's loud failure.
// Part of the conformance suite, so it runs under conformance_vulkan_rows_* (validation on); skipped when
// XME_TEST_DEVICE names another backend or no Vulkan device is available.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "vulkan_test_device.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/vulkan_backend.hpp"

namespace {

xme::SessionOptions options_for(const xme::Plane& frame, const xme::SearchParams& params,
                                const std::string& variant) {
    xme::SessionOptions options;
    options.params = params;
    options.variant = variant;
    options.width = frame.width();
    options.height = frame.height();
    return options;
}

void check_equal(const xme::MotionField& expected, const xme::MotionField& actual) {
    const std::string difference = xme::test::first_difference(expected, actual);
    CHECK_MESSAGE(difference.empty(), difference);
}

// One pair through a fast session with `tuning`, against the reference; false (with a message) where the
// device refuses the tuning (16-bit floats may be missing).
bool check_tuned(xme::Device& device, const xme::test::PlanePair& frames, const xme::SearchParams& params,
                 const xme::vulkan::SessionTuning& tuning) {
    std::unique_ptr<xme::MotionSession> session;
    try {
        session =
            xme::vulkan::open_tuned_session(device, options_for(frames.current, params, "fast"), tuning);
    } catch (const xme::Error& e) {
        MESSAGE("not on this device: ", e.what());
        return false;
    }
    session->submit({0, frames.reference.view(), 1, frames.current.view()});
    check_equal(xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                session->receive().field);
    return true;
}

// Variants and refinements whose results are bit-exact here (the device says so: tolerance 0); the
// legacy half-pel may be filtered.
std::vector<std::pair<std::string, xme::Subpel>> exact_cases(const xme::Device& device) {
    std::vector<std::pair<std::string, xme::Subpel>> cases;
    for (const auto& variant : device.info().variants) {
        for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel}) {
            xme::SessionOptions options;
            options.params = {8, 4, xme::BorderMode::pad, xme::SearchMethod::full, subpel};
            options.variant = variant;
            if (device.supports(options).tolerance == 0) cases.emplace_back(variant, subpel);
        }
    }
    return cases;
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: legacy pass 1 with P processing elements per block") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan legacy P");
        const auto frames = xme::test::make_pair(xme::test::Content::moving_texture, 37, 29, rng);
        for (const int block : {4, 8, 16}) {
            for (const int pe_count : {1, 7, 64, block * block}) {
                const xme::SearchParams params{block, 5, xme::BorderMode::restrict, xme::SearchMethod::full};
                INFO("block ", block, " P ", pe_count);
                auto session = xme::vulkan::open_tuned_session(
                    *device, options_for(frames.current, params, "legacy"), {pe_count});
                session->submit({0, frames.reference.view(), 1, frames.current.view()});
                check_equal(xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                            session->receive().field);
            }
        }
        const xme::SearchParams params{8, 1, xme::BorderMode::pad, xme::SearchMethod::full};
        CHECK_THROWS_AS(static_cast<void>(xme::vulkan::open_tuned_session(
                            *device, options_for(frames.current, params, "legacy"), {-1})),
                        xme::Error);
    }

    TEST_CASE("vulkan: fast variant with each SAD arithmetic, strip width and group of blocks") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan arithmetic");
        using Arithmetic = xme::vulkan::SessionTuning::SadArithmetic;
        for (const auto arithmetic : {Arithmetic::float32, Arithmetic::float16_pairs}) {
            for (const int strip : {4, 12}) {
                const bool tree_reduction = strip == 12;  // the path of devices without subgroup arithmetic
                // The rate key's comparison (and large blocks' at large ranges) where one word would do.
                const bool two_word_keys = arithmetic == Arithmetic::float32 && !tree_reduction;
                for (const int block : {4, 8, 16, 32}) {
                    // extreme: the largest SADs, for the 16-bit lanes the half sums are gathered in.
                    const auto content = block == 32 || strip == 12 ? xme::test::Content::extreme
                                                                    : xme::test::Content::few_levels;
                    const auto frames = xme::test::make_pair(content, 41, 35, rng);
                    const auto border = block % 16 == 0 ? xme::BorderMode::restrict : xme::BorderMode::pad;
                    const int range = block == 8                   ? 3
                                      : block == 16 && strip == 12 ? 40
                                                                   : 16;  // 40: several tiles
                    const xme::SearchParams params{block, range, border, xme::SearchMethod::full,
                                                   xme::Subpel::hpel};
                    // 0: the default; 3 leaves groups that overhang the frame's last blocks (41x35).
                    const auto groups = block < 16    ? std::vector{0, 1, 3}
                                        : block == 16 ? std::vector{0, 2}
                                                      : std::vector{0};
                    for (const int group : groups) {
                        INFO("arithmetic ", static_cast<int>(arithmetic), " strip ", strip, " block ", block,
                             " group ", group, " tree reduction ", tree_reduction, " two-word keys ",
                             two_word_keys);
                        if (!check_tuned(*device, frames, params,
                                         {.sad_arithmetic = arithmetic,
                                          .max_strip = strip,
                                          .tree_reduction = tree_reduction,
                                          .blocks_per_group = group,
                                          .two_word_keys = two_word_keys})) {
                            break;
                        }
                    }
                }
            }
        }
        // A strip the cost model would not choose (5 of the 7 columns of range 3: a partial strip).
        const auto frames = xme::test::make_pair(xme::test::Content::moving_texture, 40, 24, rng);
        const xme::SearchParams params{8, 3, xme::BorderMode::restrict, xme::SearchMethod::full};
        const auto options = options_for(frames.current, params, "fast");
        // And tiles of at most 3 rows: three tiles down the window, each invocation keying several.
        for (const auto& tuning : {xme::vulkan::SessionTuning{.max_strip = 5, .min_strip = 5},
                                   xme::vulkan::SessionTuning{.max_tile_rows = 3}}) {
            INFO("strip ", tuning.min_strip, " tile rows ", tuning.max_tile_rows);
            auto session = xme::vulkan::open_tuned_session(*device, options, tuning);
            session->submit({0, frames.reference.view(), 1, frames.current.view()});
            check_equal(xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                        session->receive().field);
        }
        // The window kept as a ring of rows from tile to tile needs 16-bit pairs and one workgroup per
        // group of blocks walking down the tiles (no splits: 2,048 groups) and blocks of 8 or more:
        // blocks of 8 in 2x2 groups with tiles of 3 rows at range 3, and alone with 1-row tiles at range
        // 10 (the ring wraps three times); each against every tile's whole window staged.
        // XME_VULKAN_LOG shows RING_WINDOW.
        struct RingCase {
            int width, height, group, range, rows;
            xme::BorderMode border;
        };
        for (const auto& c : {RingCase{1024, 512, 2, 3, 3, xme::BorderMode::restrict},
                              RingCase{512, 256, 1, 10, 1, xme::BorderMode::pad}}) {
            const auto frames_c =
                xme::test::make_pair(xme::test::Content::moving_texture, c.width, c.height, rng);
            const xme::SearchParams params_c{8, c.range, c.border, xme::SearchMethod::full};
            for (const bool whole : {false, true}) {
                INFO(c.width, "x", c.height, " group ", c.group, " range ", c.range, " tile rows ", c.rows,
                     " whole window per tile ", whole);
                if (!check_tuned(*device, frames_c, params_c,
                                 {.sad_arithmetic = Arithmetic::float16_pairs,
                                  .blocks_per_group = c.group,
                                  .max_tile_rows = c.rows,
                                  .whole_window_per_tile = whole})) {
                    break;
                }
            }
        }
        for (const auto& refused : {xme::vulkan::SessionTuning{.blocks_per_group = 5},
                                    xme::vulkan::SessionTuning{.max_strip = 4, .min_strip = 5},
                                    xme::vulkan::SessionTuning{.max_tile_rows = -1}}) {
            CHECK_THROWS_AS(static_cast<void>(xme::vulkan::open_tuned_session(*device, options, refused)),
                            xme::Error);
        }
    }

    TEST_CASE("vulkan: one-word keys at the range where they still fit, two-word keys past it") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan key width");
        // Block 32: SADs up to 261,120 take 18 bits; the rank of range 44 (below 15,842) takes 14, of 45
        // 15: the largest keys of 44 fill the word, and 45 must fall back to two words. Only the corners
        // (45, 45) and (-45, 45) have ranks past 14 bits at 45, so the first block's match is put there.
        auto frames = xme::test::make_pair(xme::test::Content::extreme, 96, 80, rng);
        std::uniform_int_distribution<int> level(0, 255);
        for (int y = 0; y < frames.reference.height(); ++y) {
            for (int x = 0; x < frames.reference.width(); ++x)
                frames.reference.at(x, y) = static_cast<std::uint8_t>(level(rng));
        }
        for (int y = 0; y < 32; ++y) {
            for (int x = 0; x < 32; ++x) frames.current.at(x, y) = frames.reference.at(x + 45, y + 45);
        }
        for (const int range : {44, 45}) {
            for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
                INFO("range ", range, " border ", static_cast<int>(border));
                const xme::SearchParams params{32, range, border, xme::SearchMethod::full};
                auto session =
                    xme::vulkan::open_tuned_session(*device, options_for(frames.current, params, "fast"), {});
                session->submit({0, frames.reference.view(), 1, frames.current.view()});
                check_equal(xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                            session->receive().field);
            }
        }
    }

    TEST_CASE("vulkan: a video through one session, several pairs in flight") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan video");
        std::vector<xme::Plane> video;
        for (int i = 0; i < 4; ++i) {
            auto pair = xme::test::make_pair(xme::test::Content::moving_texture, 45, 38, rng);
            video.push_back(std::move(pair.reference));
            video.push_back(std::move(pair.current));
        }
        // Consecutive pairs (each frame uploaded once), a pair out of order and a frame against itself.
        const std::vector<std::pair<int, int>> pairs = {{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                                        {6, 5}, {5, 5}, {5, 7}, {0, 1}};
        for (const auto& [variant, subpel] : exact_cases(*device)) {
            const xme::SearchParams params{8, 4, xme::BorderMode::pad, xme::SearchMethod::full, subpel};
            INFO("variant ", variant, " ", chain_name(params));
            auto session = device->open_session(options_for(video[0], params, variant));
            std::size_t received = 0;
            const auto check_next = [&] {
                const auto [ref, cur] = pairs[received++];
                const xme::PairResult result = session->receive();
                CHECK(result.current_id == cur);
                CHECK(result.device_seconds > 0);
                check_equal(xme::reference::estimate(video[static_cast<std::size_t>(ref)].view(),
                                                     video[static_cast<std::size_t>(cur)].view(), params),
                            result.field);
            };
            for (const auto& [ref, cur] : pairs) {
                session->submit({ref, video[static_cast<std::size_t>(ref)].view(), cur,
                                 video[static_cast<std::size_t>(cur)].view()});
                if (session->pending() == 3) check_next();
            }
            while (received < pairs.size()) check_next();
            CHECK(session->pending() == 0);
        }
    }

    TEST_CASE("vulkan: ranges that need several tiles and workgroups per block") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        auto rng = xme::test::rng_for("vulkan large range");
        const auto frames = xme::test::make_pair(xme::test::Content::noise, 27, 19, rng);
        for (const auto& [variant, subpel] : exact_cases(*device)) {
            for (const int range : {40, 70}) {
                const xme::SearchParams params{8, range, xme::BorderMode::pad, xme::SearchMethod::full,
                                               subpel};
                INFO("variant ", variant, " ", chain_name(params), " range ", range);
                check_equal(xme::reference::estimate(frames.reference.view(), frames.current.view(), params),
                            xme::estimate_pair(*device, options_for(frames.current, params, variant),
                                               frames.reference.view(), frames.current.view()));
            }
        }
    }

    TEST_CASE("vulkan: validation asked for without the layer fails, naming the package") {
        if (xme::test::vulkan_device() == nullptr) return;
        // An empty layer path hides the installed layer from a fresh instance of the loader.
        const auto empty = std::filesystem::temp_directory_path() / "xme_test_no_layers";
        std::filesystem::create_directories(empty);
        const char* saved_path = std::getenv("VK_LAYER_PATH");
        const char* saved_validation = std::getenv("XME_VULKAN_VALIDATION");
        const std::string restore_path = saved_path != nullptr ? saved_path : "";
        const std::string restore_validation = saved_validation != nullptr ? saved_validation : "";
        setenv("VK_LAYER_PATH", empty.c_str(), 1);
        setenv("XME_VULKAN_VALIDATION", "1", 1);
        auto backend = xme::make_vulkan_backend();
        const auto listing = backend->devices();
        std::string error;
        try {
            static_cast<void>(backend->open(listing.front().name));
        } catch (const xme::Error& e) {
            error = e.what();
        }
        saved_path != nullptr ? setenv("VK_LAYER_PATH", restore_path.c_str(), 1) : unsetenv("VK_LAYER_PATH");
        saved_validation != nullptr ? setenv("XME_VULKAN_VALIDATION", restore_validation.c_str(), 1)
                                    : unsetenv("XME_VULKAN_VALIDATION");
        CHECK_MESSAGE(error.find("vulkan-validationlayers") != std::string::npos, error);
    }

    TEST_CASE("vulkan: the legacy variant's refusals name the variant and the one that runs the chain") {
        const auto device = xme::test::vulkan_device();
        if (!device) return;
        xme::SessionOptions options;
        options.width = 64;
        options.height = 48;
        options.params = {16, 8, xme::BorderMode::pad, xme::SearchMethod::test_zone, xme::Subpel::qpel};
        for (const auto partitions : {xme::Partitions::none, xme::Partitions::all}) {
            options.params.search =
                partitions == xme::Partitions::all ? xme::SearchMethod::full : xme::SearchMethod::test_zone;
            options.params.partitions = partitions;
            options.variant = "legacy";
            const xme::Support legacy = device->supports(options);
            CHECK_FALSE(legacy.supported);
            CHECK_MESSAGE(
                legacy.reason.find("'s legacy variant computes fs and fs+hpel only") != std::string::npos,
                legacy.reason);
            CHECK_MESSAGE(legacy.reason.find("--variant fast") != std::string::npos, legacy.reason);
            options.variant = "fast";
            CHECK(device->supports(options).supported);
        }
    }
}
