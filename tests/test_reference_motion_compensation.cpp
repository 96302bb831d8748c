// SPEC §12 by hand: the rounded bilinear averages, H.264's samples for §10 vectors, whole blocks and the
// partitions of a chosen mode, cropping to W x H, and the residual.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <utility>

#include "test_support.hpp"
#include "xme/accounting.hpp"
#include "xme/compensation.hpp"
#include "xme/error.hpp"
#include "xme/metrics.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/rate.hpp"
#include "xme/reference.hpp"

using xme::Interpolation;
using xme::MotionVector;
using xme::Plane;
namespace ref = xme::reference;

namespace {

Plane random_plane(int width, int height, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> level(0, 255);
    Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) plane.at(x, y) = static_cast<std::uint8_t>(level(rng));
    }
    return plane;
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§12 the rounded bilinear averages of §4's half positions") {
        // A = 10, B = 21 (right), C = 40 (below), D = 255.
        Plane image(2, 2);
        image.at(0, 0) = 10;
        image.at(1, 0) = 21;
        image.at(0, 1) = 40;
        image.at(1, 1) = 255;
        const auto sample = [&](int x, int y, MotionVector mv) {
            return static_cast<int>(ref::predicted_sample(image.view(), x, y, mv, Interpolation::bilinear));
        };
        CHECK(sample(0, 0, {0, 0}) == 10);
        CHECK(sample(0, 0, {4, 4}) == 255);
        CHECK(sample(0, 0, {2, 0}) == 16);   // (10 + 21 + 1) >> 1: 15.5 rounds up
        CHECK(sample(0, 0, {0, 2}) == 25);   // (10 + 40 + 1) >> 1
        CHECK(sample(0, 0, {2, 2}) == 82);   // (10 + 21 + 40 + 255 + 2) >> 2: 81.5 rounds up
        CHECK(sample(1, 0, {-2, 0}) == 16);  // A at floor(1 - 1/2) = 0
        CHECK(sample(1, 1, {-2, -2}) == 82);
        CHECK(sample(1, 0, {2, 0}) == 21);   // B edge-replicated: (21 + 21 + 1) >> 1
        CHECK(sample(1, 1, {2, 2}) == 255);  // all four replicated
        CHECK(sample(0, 0, {-6, 2}) == 25);  // x at -2 and -1 replicate column 0: (10 + 40 + 1) >> 1
        CHECK_THROWS_WITH_AS(static_cast<void>(sample(0, 0, {1, 0})), doctest::Contains("half-pel vectors"),
                             xme::Error);
    }

    TEST_CASE("§12 §10 vectors take H.264's samples") {
        auto rng = xme::test::rng_for("mc h264");
        const Plane image = random_plane(9, 7, rng);
        std::uniform_int_distribution<int> quarter(-20, 20);
        for (int trial = 0; trial < 200; ++trial) {
            const int x = trial % 9;
            const int y = trial % 7;
            const MotionVector mv{quarter(rng), quarter(rng)};
            CHECK(ref::predicted_sample(image.view(), x, y, mv, Interpolation::h264) ==
                  ref::h264_sample(image.view(), 4 * x + mv.x, 4 * y + mv.y));
        }
    }

    TEST_CASE("§12 whole blocks, partial blocks cropped to W x H, and the metrics use the same prediction") {
        auto rng = xme::test::rng_for("mc blocks");
        const Plane reference =
            random_plane(20, 12, rng);  // 8x8 blocks: 3 x 2, the last column and row partial
        xme::MotionField field(20, 12, 8, {xme::Distortion::cost4, false});
        std::uniform_int_distribution<int> half(-6, 6);
        for (xme::BlockMotion& block : field.blocks) {
            block.mv_x = static_cast<std::int16_t>(2 * half(rng));
            block.mv_y = static_cast<std::int16_t>(2 * half(rng));
        }
        const Plane prediction = ref::predict_field(reference.view(), field);
        REQUIRE(prediction.width() == 20);
        REQUIRE(prediction.height() == 12);
        Plane copy = prediction;
        for (int y = 0; y < 12; ++y) {
            for (int x = 0; x < 20; ++x) {
                const xme::BlockMotion& block = field.at(x / 8, y / 8);
                CHECK(copy.at(x, y) == ref::predicted_sample(reference.view(), x, y, {block.mv_x, block.mv_y},
                                                             Interpolation::bilinear));
            }
        }
        const Plane current = random_plane(20, 12, rng);
        const xme::FrameMetrics measured =
            xme::measure_frame(reference.view(), current.view(), field, xme::SearchParams{});
        CHECK(measured.mc_psnr_db == xme::luma_psnr(prediction.view(), current.view()));
        CHECK(measured.zero_psnr_db == xme::luma_psnr(reference.view(), current.view()));
        // From the sums compensate() (or a device) makes: the same PSNRs, bit for bit, with no prediction.
        xme::CompensatedFrame compensated =
            xme::compensate(reference.view(), current.view(), field, xme::CompensationRequest{{}, false});
        CHECK(compensated.prediction.width() == 0);
        const xme::FrameMetrics from_sums = xme::measure_frame(reference.view(), current.view(), field,
                                                               xme::SearchParams{}, nullptr, &compensated);
        CHECK(from_sums.mc_psnr_db == measured.mc_psnr_db);
        CHECK(from_sums.zero_psnr_db == measured.zero_psnr_db);
        compensated.prediction_squared_error += 1;  // the sums are what it reads
        CHECK(xme::measure_frame(reference.view(), current.view(), field, xme::SearchParams{}, nullptr,
                                 &compensated)
                  .mc_psnr_db < measured.mc_psnr_db);
        CHECK_THROWS_WITH_AS(
            static_cast<void>(ref::predict_blocks(reference.view(), 8, {{0, 0}}, Interpolation::h264)),
            doctest::Contains("1 entries for a frame of 6"), xme::Error);
    }

    TEST_CASE("compensate()'s prediction by rows equals the reference's, at the edges and past them too") {
        auto rng = xme::test::rng_for("prediction by rows");
        std::uniform_int_distribution<int> extent(-80, 80);
        for (const auto& [width, height, block] :
             {std::tuple{37, 29, 8}, std::tuple{64, 48, 16}, std::tuple{5, 3, 4}, std::tuple{70, 33, 32},
              std::tuple{1, 1, 4}, std::tuple{33, 17, 16}}) {
            // Random samples, then a checkerboard of 2x2 squares of 0 and 255: H.264's filter at its
            // extremes (runs 0 0 255 255 0 0 give 10200 before rounding, 255 255 0 0 255 255 give -2040:
            // clipped above 255 and below 0).
            for (const bool extreme : {false, true}) {
                Plane reference = random_plane(width, height, rng);
                if (extreme) {
                    for (int y = 0; y < height; ++y) {
                        for (int x = 0; x < width; ++x)
                            reference.at(x, y) = ((x / 2 + y / 2) % 2 != 0) ? 255 : 0;
                    }
                }
                for (const xme::Distortion distortion : {xme::Distortion::sad, xme::Distortion::satd}) {
                    xme::MotionField field(width, height, block, xme::CostKind{distortion, false});
                    for (auto& motion : field.blocks) {
                        // Half-pel vectors (even quarter components) for bilinear; any for H.264's samples.
                        const int x = extent(rng);
                        const int y = extent(rng);
                        motion.mv_x =
                            static_cast<std::int16_t>(distortion == xme::Distortion::sad ? x & ~1 : x);
                        motion.mv_y =
                            static_cast<std::int16_t>(distortion == xme::Distortion::sad ? y & ~1 : y);
                    }
                    field.blocks.front() = {};  // one block at (0, 0), inside: the row path for sure
                    const Plane expected = ref::predict_field(reference.view(), field);
                    const Plane actual = xme::predict_field_by_rows(reference.view(), field);
                    CAPTURE(width);
                    CAPTURE(block);
                    CAPTURE(extreme);
                    CHECK(
                        std::equal(expected.data(), expected.data() + expected.size_bytes(), actual.data()));
                }
            }
        }
        xme::MotionField odd(16, 16, 8, xme::CostKind{});
        odd.blocks[1].mv_x = 1;  // quarter pel under bilinear: the reference's error
        CHECK_THROWS_AS(static_cast<void>(xme::predict_field_by_rows(random_plane(16, 16, rng).view(), odd)),
                        xme::Error);
    }

    TEST_CASE("compensate()'s prediction by rows from SPEC §9's partitions equals the reference's") {
        auto rng = xme::test::rng_for("partition prediction by rows");
        std::uniform_int_distribution<int> extent(-80, 80);
        std::uniform_int_distribution<int> pick(0, 3);
        for (const auto& [width, height] :
             {std::pair{37, 29}, std::pair{64, 48}, std::pair{70, 33}, std::pair{5, 3}}) {
            const Plane reference = random_plane(width, height, rng);
            for (const xme::Distortion distortion : {xme::Distortion::sad, xme::Distortion::satd}) {
                xme::MotionField field(width, height, 16, xme::CostKind{distortion, false});
                field.macroblocks.resize(field.blocks.size());
                for (auto& macroblock : field.macroblocks) {
                    macroblock.decision.mode = static_cast<xme::MacroblockMode>(pick(rng));
                    for (auto& sub_mode : macroblock.decision.sub_modes)
                        sub_mode = static_cast<xme::SubMode>(pick(rng));
                    for (auto& motion : macroblock.partitions) {
                        // Whole-sample vectors (rows for either filter), half-sample for bilinear, any
                        // quarter for H.264's samples (the reference's).
                        const int x = extent(rng);
                        const int y = extent(rng);
                        const bool whole = pick(rng) < 2;
                        const int mask = whole ? ~3 : distortion == xme::Distortion::sad ? ~1 : ~0;
                        motion.mv_x = static_cast<std::int16_t>(x & mask);
                        motion.mv_y = static_cast<std::int16_t>(y & mask);
                    }
                }
                field.macroblocks.front().partitions.fill({});  // inside at (0, 0): the row path for sure
                const Plane expected = ref::predict_field(reference.view(), field);
                const Plane actual = xme::predict_field_by_rows(reference.view(), field);
                CAPTURE(width);
                CAPTURE(static_cast<int>(distortion));
                CHECK(std::equal(expected.data(), expected.data() + expected.size_bytes(), actual.data()));
            }
        }
    }

    TEST_CASE("luma PSNR is 10 log10(255^2 / MSE) of the exact squared error, on rows of any width") {
        auto rng = xme::test::rng_for("luma psnr");
        // Rows wider than the 32-bit runs it sums (16384 samples), the largest differences (0 against
        // 255), and random content.
        for (const auto& [width, height] : {std::pair{20000, 3}, std::pair{33, 17}, std::pair{1, 1}}) {
            Plane a = random_plane(width, height, rng);
            Plane b = random_plane(width, height, rng);
            for (int x = 0; x < width; x += 3) {
                a.at(x, 0) = 0;
                b.at(x, 0) = 255;
            }
            double squared = 0;
            for (int y = 0; y < height; ++y) {
                for (int x = 0; x < width; ++x) {
                    const double diff = static_cast<double>(a.at(x, y)) - static_cast<double>(b.at(x, y));
                    squared += diff * diff;
                }
            }
            const double expected = 10.0 * std::log10(255.0 * 255.0 * width * height / squared);
            CHECK(xme::luma_psnr(a.view(), b.view()) == doctest::Approx(expected).epsilon(1e-12));
            CHECK(xme::luma_psnr(a.view(), b.view()) == xme::psnr_of_squared_error(squared, width, height));
        }
        const Plane same = random_plane(9, 9, rng);
        CHECK(xme::luma_psnr(same.view(), same.view()) == xme::psnr_identical_db);
    }

    TEST_CASE("the metrics' rate bits are SPEC §8's R(mv - p) with the chain's predictor") {
        auto rng = xme::test::rng_for("rate bits");
        const Plane reference = random_plane(16, 8, rng);
        const Plane current = random_plane(16, 8, rng);
        xme::MotionField field(16, 8, 8, {xme::Distortion::sad, true});  // two blocks side by side
        field.at(0, 0) = {4, -2, 0, 0};
        field.at(1, 0) = {4, 0, 0, 0};
        xme::MotionField previous(16, 8, 8, {xme::Distortion::sad, true});
        previous.at(0, 0) = {4, -2, 0, 0};
        const auto bits = [&](xme::Predictor predictor, const xme::MotionField* before) {
            xme::SearchParams params;
            params.predictor = predictor;
            return xme::measure_frame(reference.view(), current.view(), field, params, before).rate_bits;
        };
        // se(4) = 7 bits, se(-2) = 5, se(2) = 5, se(0) = 1.
        CHECK(bits(xme::Predictor::none, nullptr) == (7 + 5) + (7 + 1));
        CHECK(bits(xme::Predictor::temporal, &previous) == (1 + 1) + (7 + 1));
        CHECK(bits(xme::Predictor::temporal, nullptr) == (7 + 5) + (7 + 1));  // a segment's start
        // Block 1's only available neighbour is block 0, so it is the predictor: d = (0, 2).
        CHECK(bits(xme::Predictor::spatial, nullptr) == (7 + 5) + (1 + 5));
    }

    TEST_CASE("the metrics' rate, cost, candidates and modes on random fields, with and without partitions") {
        auto rng = xme::test::rng_for("metrics sums");
        std::uniform_int_distribution<int> quarter(-300, 300);
        std::uniform_int_distribution<std::uint32_t> value(0, 70000);
        std::uniform_int_distribution<int> choice(0, 3);
        const Plane reference = random_plane(67, 45, rng);  // partial blocks at the right and bottom
        const Plane current = random_plane(67, 45, rng);
        const auto random_motion = [&] {
            return xme::BlockMotion{static_cast<std::int16_t>(quarter(rng)),
                                    static_cast<std::int16_t>(quarter(rng)), value(rng), value(rng)};
        };
        // Quarter-pel vectors (a SATD field's), so that the PSNR's prediction takes any of them.
        const auto random_field = [&](bool partitions) {
            xme::MotionField field(67, 45, 16, {xme::Distortion::satd, true});
            for (auto& block : field.blocks) block = random_motion();
            if (!partitions) return field;
            field.macroblocks.resize(field.blocks.size());
            for (std::size_t i = 0; i < field.blocks.size(); ++i) {
                xme::MacroblockMotion& macroblock = field.macroblocks[i];
                for (auto& partition : macroblock.partitions) partition = random_motion();
                macroblock.partitions[0] = field.blocks[i];  // SPEC §8: the predictors read the 16x16 one
                macroblock.decision.mode = static_cast<xme::MacroblockMode>(choice(rng));
                for (auto& sub_mode : macroblock.decision.sub_modes)
                    sub_mode = static_cast<xme::SubMode>(choice(rng));
                macroblock.decision.cost = value(rng);
            }
            return field;
        };
        for (const bool partitions : {false, true}) {
            const xme::MotionField field = random_field(partitions);
            const xme::MotionField previous = random_field(partitions);
            for (const xme::Predictor predictor :
                 {xme::Predictor::none, xme::Predictor::temporal, xme::Predictor::spatial}) {
                for (const xme::MotionField* before :
                     {static_cast<const xme::MotionField*>(nullptr), &previous}) {
                    CAPTURE(partitions);
                    CAPTURE(static_cast<int>(predictor));
                    CAPTURE(before != nullptr);
                    xme::SearchParams params;
                    params.predictor = predictor;
                    if (partitions) params.partitions = xme::Partitions::all;
                    const std::vector<xme::MotionVector> predictors =
                        ref::field_predictors(params, before, field);
                    std::uint64_t bits = 0;
                    std::uint64_t cost = 0;
                    std::uint64_t candidates = 0;
                    std::array<std::uint64_t, 4> modes{};
                    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
                        const auto bits_of = [&](const xme::BlockMotion& motion) {
                            return static_cast<std::uint64_t>(
                                xme::rate_bits({motion.mv_x, motion.mv_y}, predictors[i]));
                        };
                        candidates += field.blocks[i].candidates;
                        if (!partitions) {
                            bits += bits_of(field.blocks[i]);
                            cost += field.blocks[i].cost;
                            continue;
                        }
                        const xme::MacroblockMotion& macroblock = field.macroblocks[i];
                        for (const int index :
                             xme::partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes))
                            bits += bits_of(macroblock.partitions[static_cast<std::size_t>(index)]);
                        cost += macroblock.decision.cost;
                        ++modes[static_cast<std::size_t>(macroblock.decision.mode)];
                    }
                    const xme::FrameMetrics metrics =
                        xme::measure_frame(reference.view(), current.view(), field, params, before);
                    CHECK(metrics.rate_bits == bits);
                    CHECK(metrics.total_cost == cost);
                    CHECK(metrics.candidates == candidates);
                    for (std::size_t m = 0; m < modes.size(); ++m) CHECK(metrics.modes[m] == modes[m]);
                    CHECK(xme::pixel_comparisons(metrics.candidates, field.blocks.size(), params) ==
                          xme::pixel_comparisons(field, params));
                }
            }
        }
    }

    TEST_CASE("§12 with §9: each pixel from the chosen mode's partition that covers it") {
        auto rng = xme::test::rng_for("mc partitions");
        const Plane reference = random_plane(24, 20, rng);  // 2 x 2 macroblocks, three of them partial
        std::uniform_int_distribution<int> quarter(-12, 12);
        std::vector<xme::MacroblockMotion> macroblocks(4);
        const xme::MacroblockMode modes[4] = {xme::MacroblockMode::p8x8, xme::MacroblockMode::p16x8,
                                              xme::MacroblockMode::p8x16, xme::MacroblockMode::p16x16};
        for (std::size_t m = 0; m < 4; ++m) {
            for (auto& partition : macroblocks[m].partitions) {
                partition.mv_x = static_cast<std::int16_t>(quarter(rng));
                partition.mv_y = static_cast<std::int16_t>(quarter(rng));
            }
            macroblocks[m].decision.mode = modes[m];
            macroblocks[m].decision.sub_modes = {xme::SubMode::p4x4, xme::SubMode::p8x4, xme::SubMode::p8x8,
                                                 xme::SubMode::p4x8};
        }
        const Plane prediction = ref::predict_macroblocks(reference.view(), macroblocks, Interpolation::h264);
        Plane copy = prediction;
        for (int y = 0; y < 20; ++y) {
            for (int x = 0; x < 24; ++x) {
                const xme::MacroblockMotion& mb =
                    macroblocks[static_cast<std::size_t>((y / 16) * 2 + x / 16)];
                int covering = -1;
                for (const int index : xme::partitions_of_mode(mb.decision.mode, mb.decision.sub_modes)) {
                    const xme::Partition& p = xme::macroblock_partitions[static_cast<std::size_t>(index)];
                    if (x % 16 >= p.x && x % 16 < p.x + p.width && y % 16 >= p.y && y % 16 < p.y + p.height)
                        covering = index;
                }
                REQUIRE(covering >= 0);
                const xme::BlockMotion& motion = mb.partitions[static_cast<std::size_t>(covering)];
                CHECK(copy.at(x, y) == ref::predicted_sample(reference.view(), x, y,
                                                             {motion.mv_x, motion.mv_y},
                                                             Interpolation::h264));
            }
        }
    }

    TEST_CASE("§12 the residual current - prediction as int16, and its sum of absolute values") {
        Plane current(3, 1);
        Plane prediction(3, 1);
        current.at(0, 0) = 10;
        prediction.at(0, 0) = 30;
        current.at(1, 0) = 255;
        prediction.at(1, 0) = 0;
        current.at(2, 0) = 0;
        prediction.at(2, 0) = 255;
        const xme::Int16Plane residual = ref::residual(current.view(), prediction.view());
        CHECK(residual.values == std::vector<std::int16_t>{-20, 255, -255});
        CHECK(ref::residual_abs_sum(residual) == 530);
        CHECK_THROWS_WITH_AS(static_cast<void>(ref::residual(current.view(), Plane(2, 1).view())),
                             doctest::Contains("differ in size"), xme::Error);
    }
}
