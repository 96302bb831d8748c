// Every available device and variant against the reference, bit-exact, as one table of operations x
// parameters x devices x variants (conformance_table.hpp): random frames of four kinds (noise, few grey
// levels for ties, moving texture, 0/255 extremes) and real clip frames, every block size, both border
// modes, every chain with and without the rate term and predictors, odd sizes and several ranges.
// XME_TEST_DEVICE picks one device, XME_TEST_OPERATION the operations. Variants whose half-pel samples
// come from texture filtering are checked under the tolerance the device gives (SPEC §6).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "conformance_table.hpp"
#include "ieee1180.hpp"
#include "test_support.hpp"
#include "xme/agreement.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"

namespace {

using xme::test::DeviceUnderTest;

const std::vector<DeviceUnderTest>& all_devices() { return xme::test::devices_under_test(); }

// SPEC §6 under the tolerance the device gives for the row (fs+hpel of a texture-filtering variant).
// The least precise filter met so far, lavapipe's 8-bit fixed-point path for R8_UNORM, rounds after
// each of its two linear steps, so a sample is off by up to 1/2 grey level at horizontal and vertical
// half positions and 1 at diagonal ones (its filter probe measures exactly that: 2 and 4 cost4
// units); the device's tolerance is that error times B*B. The integer search stays exact, so the
// vector must be the integer winner or one of its 8 half-pel neighbours.
struct FilteredTally {
    long blocks = 0;
    long differing = 0;
};
FilteredTally filtered_tally;

bool check_within_filter_tolerance(const xme::Plane& reference, const xme::Plane& current,
                                   const xme::SearchParams& params, const xme::MotionField& expected,
                                   const xme::MotionField& actual, std::uint32_t tolerance) {
    const int b = params.block_size;
    REQUIRE(actual.blocks.size() == expected.blocks.size());
    REQUIRE(actual.cost_scale() == 4);
    xme::SearchParams integer_params = params;
    integer_params.subpel = xme::Subpel::none;
    bool within = true;
    const xme::MotionField integer =
        xme::reference::estimate(reference.view(), current.view(), integer_params);
    for (int by = 0; by < expected.blocks_y; ++by) {
        for (int bx = 0; bx < expected.blocks_x; ++bx) {
            const xme::BlockMotion& e = expected.at(bx, by);
            const xme::BlockMotion& a = actual.at(bx, by);
            ++filtered_tally.blocks;
            if (a == e) continue;
            ++filtered_tally.differing;
            const xme::BlockMotion& start = integer.at(bx, by);
            const std::uint32_t cost =
                xme::reference::cost4(reference.view(), current.view(), bx * b, by * b, b, a.mv_x, a.mv_y);
            INFO("block (", bx, ",", by, "): reference mv (", e.mv_x, ",", e.mv_y, ") cost4 ", e.cost,
                 ", device mv (", a.mv_x, ",", a.mv_y, ") cost4 ", a.cost, " whose exact cost4 is ", cost,
                 ", tolerance ", tolerance);
            const bool near_integer_winner = a.mv_x % 2 == 0 && a.mv_y % 2 == 0 &&
                                             std::abs(a.mv_x - start.mv_x) <= 2 &&
                                             std::abs(a.mv_y - start.mv_y) <= 2;
            const bool valid = xme::reference::halfpel_candidate_valid(
                bx * b, by * b, a.mv_x, a.mv_y, current.width(), current.height(), params);
            const bool block_ok = near_integer_winner && valid && cost <= e.cost + tolerance &&
                                  a.cost <= cost + tolerance && cost <= a.cost + tolerance &&
                                  a.candidates == e.candidates;
            CHECK(block_ok);
            within = within && block_ok;
        }
    }
    return within;
}

void report_filtered_tally() {
    if (filtered_tally.blocks == 0) return;
    MESSAGE("filtered half-pel variants (SPEC §6): ", filtered_tally.differing, " of ", filtered_tally.blocks,
            " blocks differ from the reference");
    filtered_tally = {};
}

xme::test::ConformanceTable table;

// The pairs a row runs: one; three for the temporal predictor (pairs 2 and 3 are (cur, ref) and
// (ref, cur) again), so that predictors flow from pair to pair and across a refresh.
std::vector<std::pair<const xme::Plane*, const xme::Plane*>> pairs_for(const xme::SearchParams& params,
                                                                       const xme::Plane& reference,
                                                                       const xme::Plane& current) {
    if (params.predictor != xme::Predictor::temporal) return {{&reference, &current}};
    return {{&reference, &current}, {&current, &reference}, {&reference, &current}};
}

bool segment_starts(const xme::SearchParams& params, std::size_t pair_index) {
    return params.refresh > 0 ? pair_index % static_cast<std::size_t>(params.refresh) == 0 : pair_index == 0;
}

// Runs one row (operation and frames) on every device under test and checks each against the
// reference, recording the row's status in the table.
void check_against_reference(const xme::Plane& reference, const xme::Plane& current,
                             const xme::SearchParams& params, const std::string& what,
                             const std::string& operation) {
    if (!xme::test::take_conformance_row()) return;
    const auto pairs = pairs_for(params, reference, current);
    std::vector<xme::MotionField> expected;  // computed once a device supports the row
    const auto compute_expected = [&] {
        for (std::size_t i = expected.size(); i < pairs.size(); ++i) {
            const xme::MotionField* previous = segment_starts(params, i) ? nullptr : &expected.back();
            expected.push_back(
                xme::reference::estimate(pairs[i].first->view(), pairs[i].second->view(), params, previous));
        }
    };
    for (const auto& dut : all_devices()) {
        xme::SessionOptions options;
        options.params = params;
        options.variant = dut.variant;
        options.width = current.width();
        options.height = current.height();
        const xme::Support support = dut.device->supports(options);
        if (!support.supported) {
            table.not_supported(operation, dut, support.reason);
            CHECK_THROWS_AS(static_cast<void>(dut.device->open_session(options)), xme::Error);
            continue;
        }
        INFO(dut.device->info().name, " variant ", dut.variant, ", ", what, ", block ", params.block_size,
             " range ", params.range, " ", to_string(params.border), " ", operation);
        compute_expected();
        auto session = dut.device->open_session(options);
        bool row_passed = true;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            xme::FramePair pair{static_cast<std::int64_t>(2 * i), pairs[i].first->view(),
                                static_cast<std::int64_t>(2 * i + 1), pairs[i].second->view()};
            pair.segment_start = segment_starts(params, i);
            session->submit(pair);
            const xme::MotionField actual = session->receive().field;
            if (support.tolerance > 0) {
                row_passed = check_within_filter_tolerance(*pairs[i].first, *pairs[i].second, params,
                                                           expected[i], actual, support.tolerance) &&
                             row_passed;
                continue;
            }
            const std::string difference = xme::test::first_difference(expected[i], actual);
            CHECK_MESSAGE(difference.empty(), "pair ", i, ": ", difference);
            row_passed = row_passed && difference.empty();
        }
        if (row_passed) {
            table.passed(operation, dut);
        } else {
            table.failed(operation, dut);
        }
    }
}

const xme::BorderMode borders[] = {xme::BorderMode::pad, xme::BorderMode::restrict};

// The top-left width x height of a plane.
xme::Plane crop(const xme::Plane& plane, int width, int height) {
    xme::Plane part(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) part.at(x, y) = plane.view().at(x, y);
    }
    return part;
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("devices under test") {
        REQUIRE_MESSAGE(!all_devices().empty(), "no available device to test");
        for (const auto& dut : all_devices())
            MESSAGE("testing ", dut.device->info().name, " variant ", dut.variant);
    }

    TEST_CASE("operations: every chain, rate term and predictor on random and extreme frames") {
        auto rng = xme::test::rng_for("conformance operations");
        struct Size {
            int width;
            int height;
        };
        std::uniform_int_distribution<int> random_extent(1, 70);
        const Size sizes[] = {{33, 17}, {1, 1}, {48, 40}, {random_extent(rng), random_extent(rng)}};
        const int ranges[] = {0, 3, 7, 16};
        const xme::test::Content contents[] = {xme::test::Content::noise, xme::test::Content::few_levels,
                                               xme::test::Content::moving_texture,
                                               xme::test::Content::extreme};
        int case_index = 0;
        for (const int block : {4, 8, 16, 32}) {
            for (const auto border : borders) {
                for (auto& row : xme::test::operation_rows(block, border)) {
                    const Size size = sizes[case_index % 4];
                    const auto content = contents[(case_index / 4) % 4];
                    row.params.range = ranges[(case_index / 2) % 4];
                    ++case_index;
                    const auto frames = xme::test::make_pair(content, size.width, size.height, rng);
                    check_against_reference(frames.reference, frames.current, row.params,
                                            std::string(to_string(content)) + " " +
                                                std::to_string(size.width) + "x" +
                                                std::to_string(size.height),
                                            row.label);
                }
            }
        }
        table.report("conformance table, operations");
        report_filtered_tally();
    }

    TEST_CASE("random frames: full search, every block size, border mode, refinement, odd sizes and ranges") {
        auto rng = xme::test::rng_for("conformance random");
        struct Size {
            int width;
            int height;
        };
        std::uniform_int_distribution<int> random_extent(1, 90);
        const Size sizes[] = {{33, 17}, {1, 1}, {64, 48}, {97, 61}, {random_extent(rng), random_extent(rng)}};
        const int ranges[] = {0, 1, 3, 7, 16};
        const xme::test::Content contents[] = {xme::test::Content::noise, xme::test::Content::few_levels,
                                               xme::test::Content::moving_texture,
                                               xme::test::Content::extreme};
        int case_index = 0;
        for (const Size size : sizes) {
            for (const int block : {4, 8, 16, 32}) {
                for (const auto border : borders) {
                    for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel}) {
                        for (const int range : ranges) {
                            const auto content = contents[case_index++ % 4];
                            const auto frames = xme::test::make_pair(content, size.width, size.height, rng);
                            xme::SearchParams params{block, range, border, xme::SearchMethod::full, subpel};
                            check_against_reference(frames.reference, frames.current, params,
                                                    std::string(to_string(content)) + " " +
                                                        std::to_string(size.width) + "x" +
                                                        std::to_string(size.height),
                                                    xme::test::describe_operation(params));
                        }
                    }
                }
            }
        }
        table.report("conformance table, full search");
        report_filtered_tally();
    }

    TEST_CASE("real frames from the clips: every operation") {
        struct Clip {
            const char* name;
            int left;
            int top;
        };
        for (const Clip clip : {Clip{"vtest.avi", 300, 200}, Clip{"tree.avi", 40, 60}}) {
            const auto frames = xme::test::clip_luma(clip.name, 3, clip.left, clip.top, 67, 45);
            if (!frames) {
                MESSAGE("skipped ", std::string(clip.name), ": ", xme::test::clip_path(clip.name),
                        " is missing or needs FFmpeg, which this build lacks");
                continue;
            }
            for (const int block : {4, 8, 16, 32}) {
                for (const auto border : borders) {
                    for (auto& row : xme::test::operation_rows(block, border)) {
                        row.params.range = block == 4 ? 6 : 12;
                        if (row.params.partitions == xme::Partitions::all) {
                            // The reference refines 41 partitions per macroblock: a 3x2-macroblock corner
                            // (partial ones included) keeps the sanitizer builds inside CI's time.
                            check_against_reference(crop((*frames)[0], 40, 25), crop((*frames)[2], 40, 25),
                                                    row.params, clip.name, row.label);
                            continue;
                        }
                        check_against_reference((*frames)[0], (*frames)[2], row.params, clip.name, row.label);
                    }
                }
            }
        }
        table.report("conformance table, real frames");
        report_filtered_tally();
    }

    TEST_CASE("transforms: every variant on every device, bit-identical with the reference, and IEEE 1180") {
        auto rng = xme::test::rng_for("conformance transforms");
        std::uniform_int_distribution<int> residual(-255, 255);
        std::uniform_int_distribution<int> wide(xme::dct_input_min, xme::dct_input_max);
        // Inputs: random residuals and the whole input range, the extreme checkerboards, a constant, an
        // impulse; 1000 of them in one call, so that a device's parallel path runs.
        std::vector<xme::Block8x8> inputs;
        for (int b = 0; b < 1000; ++b) {
            xme::Block8x8 block{};
            for (std::size_t i = 0; i < 64; ++i) {
                const int x = static_cast<int>(i % 8);
                const int y = static_cast<int>(i / 8);
                switch (b % 5) {
                    case 0:
                        block[i] = static_cast<std::int16_t>(residual(rng));
                        break;
                    case 1:
                        block[i] = static_cast<std::int16_t>(wide(rng));
                        break;
                    case 2:
                        block[i] = static_cast<std::int16_t>((x + y) % 2 == 0 ? 255 : -255);
                        break;
                    case 3:
                        block[i] = static_cast<std::int16_t>(b % 511 - 255);
                        break;
                    default:
                        block[i] =
                            static_cast<std::int16_t>(i == static_cast<std::size_t>(b % 64) ? 2047 : 0);
                        break;
                }
            }
            inputs.push_back(block);
        }
        // And the residual of two real frames, tile by tile.
        if (const auto frames = xme::test::clip_luma("vtest.avi", 2, 300, 200, 64, 48)) {
            for (int ty = 0; ty < 48; ty += 8) {
                for (int tx = 0; tx < 64; tx += 8) {
                    xme::Block8x8 block{};
                    for (std::size_t i = 0; i < 64; ++i) {
                        const int x = tx + static_cast<int>(i % 8);
                        const int y = ty + static_cast<int>(i / 8);
                        block[i] = static_cast<std::int16_t>((*frames)[1].view().at(x, y) -
                                                             (*frames)[0].view().at(x, y));
                    }
                    inputs.push_back(block);
                }
            }
        } else {
            MESSAGE("real residual blocks skipped: ", xme::test::clip_path("vtest.avi"),
                    " is missing or needs FFmpeg");
        }
        // A device's transforms do not depend on its search variants: each device is tested once, with
        // its default variant; each transform variant is a row (of one shard, see XME_TEST_SHARD).
        for (const auto& dut : all_devices()) {
            const std::string name = dut.device->info().name;
            if (dut.variant != dut.device->info().variants.front()) continue;
            for (const auto variant : {xme::TransformAlgorithm::matrix, xme::TransformAlgorithm::loeffler}) {
                if (!xme::test::take_conformance_row()) continue;
                const std::string operation = std::string("dct ") + to_string(variant);
                const xme::Support support = dut.device->supports_transform(variant);
                if (!support.supported) {
                    table.not_supported(operation, dut, support.reason);
                    std::vector<xme::Block8x8> one(1);
                    CHECK_THROWS_AS(
                        dut.device->transform_blocks(variant, xme::TransformDirection::forward, one),
                        xme::Error);
                    continue;
                }
                INFO(name, " ", operation);
                bool passed = true;
                std::vector<xme::Block8x8> coefficients = inputs;
                dut.device->transform_blocks(variant, xme::TransformDirection::forward, coefficients);
                std::vector<xme::Block8x8> samples = coefficients;
                dut.device->transform_blocks(variant, xme::TransformDirection::inverse, samples);
                for (std::size_t b = 0; b < inputs.size(); ++b) {
                    const xme::Block8x8 forward = xme::reference::forward_dct(variant, inputs[b]);
                    const bool same = coefficients[b] == forward &&
                                      samples[b] == xme::reference::inverse_dct(variant, forward);
                    CHECK_MESSAGE(same, "block ", b, " differs from the reference");
                    passed = passed && same;
                }
                // A sample outside the forward range is refused before any block changes.
                std::vector<xme::Block8x8> bad = {inputs[0], inputs[1]};
                bad[1][5] = 2048;
                const auto before = bad;
                CHECK_THROWS_AS(dut.device->transform_blocks(variant, xme::TransformDirection::forward, bad),
                                xme::Error);
                CHECK(bad == before);
                // IEEE 1180 through the device, a run's 10,000 blocks in one call (the single-block
                // path runs too: the all-zero block, and the refused pair above). One block per call
                // cost lavapipe 40 s for 240,000 submissions.
                const auto through = [&](xme::TransformDirection direction) {
                    return [&, direction](std::span<xme::Block8x8> blocks) {
                        dut.device->transform_blocks(variant, direction, blocks);
                    };
                };
                for (const xme::test::Ieee1180Range range : xme::test::ieee1180_ranges()) {
                    for (const bool inverse : {true, false}) {
                        const auto figures = inverse ? xme::test::ieee1180_inverse_batch(
                                                           through(xme::TransformDirection::inverse), range)
                                                     : xme::test::ieee1180_forward_batch(
                                                           through(xme::TransformDirection::forward), range);
                        const std::string line = "IEEE 1180 on " + name + ": " + operation +
                                                 (inverse ? " inverse " : " forward ") +
                                                 xme::test::describe(range) + ": " + figures.describe();
                        MESSAGE(line);
                        CHECK_MESSAGE(figures.within_limits(), line);
                        passed = passed && figures.within_limits();
                    }
                }
                if (passed) {
                    table.passed(operation, dut);
                } else {
                    table.failed(operation, dut);
                }
            }
        }
        table.report("conformance table, transforms");
    }
}
