// The CPU backend's searches compiled around a SIMD set's own kernels (OperationKernels::refine_qpel16 and
// tz_search16) against the same searches through the plain kernels' pointers, block by block: every border
// mode, lambda, predictor and window centre, vectors up to the window's edge, on random and extreme frames
// (fresh per run, seed printed by test_support). The conformance table checks them against the reference
// through the Device interface; this reaches each block's result, its candidate count included.
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chain_estimate.hpp"
#include "half_pel_frame.hpp"
#include "integer_search.hpp"
#include "subpel_refine.hpp"
#include "test_support.hpp"

namespace {

using xme::MotionVector;
using xme::cpu::IntegerBlock;
using xme::cpu::OperationKernels;

struct Frames {
    xme::cpu::SearchPlane reference;
    xme::cpu::SearchPlane current;
    int width;
    int height;
};

IntegerBlock block_of(const Frames& frames, const OperationKernels& kernels, int bx, int by,
                      xme::BorderMode border, int range, int lambda, MotionVector predictor, bool centred) {
    IntegerBlock block;
    block.reference = &frames.reference;
    block.current = &frames.current;
    block.kernels = &kernels;
    block.size = 16;
    block.x = 16 * bx;
    block.y = 16 * by;
    block.range = range;
    block.border = border;
    block.padded_width = (frames.width + 15) / 16 * 16;
    block.padded_height = (frames.height + 15) / 16 * 16;
    block.lambda = lambda;
    block.predictor = predictor;
    block.centre = centred ? xme::round_quarter_to_pel(predictor) : MotionVector{};
    return block;
}

}  // namespace

TEST_SUITE("cpu kernels") {
    TEST_CASE("each SIMD set's 16x16 refinement and tz search equal the plain kernels' block by block") {
        auto rng = xme::test::rng_for("cpu searches");
        const OperationKernels plain = xme::cpu::plain_operation_kernels();
        int compared = 0;
        for (const auto& set : xme::cpu::simd_operation_kernels()) {
            if (set.kernels.refine_qpel16 == nullptr && set.kernels.tz_search16 == nullptr) continue;
            CAPTURE(set.name);
            for (const auto content : {xme::test::Content::noise, xme::test::Content::moving_texture,
                                       xme::test::Content::extreme, xme::test::Content::few_levels}) {
                CAPTURE(xme::test::to_string(content));
                std::uniform_int_distribution<int> extent(40, 100);
                const int width = extent(rng);
                const int height = extent(rng);
                CAPTURE(width);
                CAPTURE(height);
                const auto pair = xme::test::make_pair(content, width, height, rng);
                const Frames frames{xme::cpu::SearchPlane(pair.reference.view()),
                                    xme::cpu::SearchPlane(pair.current.view()), width, height};
                for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
                    CAPTURE(xme::to_string(border));
                    const int padded_width = (width + 15) / 16 * 16;
                    const int padded_height = (height + 15) / 16 * 16;
                    xme::cpu::HalfPelFrame planes;
                    planes.assign(frames.reference, plain, 1,
                                  border == xme::BorderMode::restrict
                                      ? xme::cpu::restrict_margin(width, height, padded_width, padded_height)
                                      : xme::cpu::half_pel_margin);
                    for (const int lambda : {0, 4, 40}) {
                        for (const int range : {0, 3, 16}) {
                            std::uniform_int_distribution<int> quarter(-4 * (range + 8), 4 * (range + 8));
                            const bool centred = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
                            CAPTURE(lambda);
                            CAPTURE(range);
                            CAPTURE(centred);
                            for (int by = 0; by < padded_height / 16; ++by) {
                                for (int bx = 0; bx < padded_width / 16; ++bx) {
                                    const MotionVector predictor =
                                        lambda == 0 && !centred ? MotionVector{}
                                                                : MotionVector{quarter(rng), quarter(rng)};
                                    CAPTURE(bx);
                                    CAPTURE(by);
                                    CAPTURE(predictor.x);
                                    CAPTURE(predictor.y);
                                    const IntegerBlock expected_block = block_of(
                                        frames, plain, bx, by, border, range, lambda, predictor, centred);
                                    const IntegerBlock actual_block =
                                        block_of(frames, set.kernels, bx, by, border, range, lambda,
                                                 predictor, centred);
                                    const auto expected = xme::cpu::tz_search(expected_block);
                                    const auto actual = xme::cpu::tz_search(actual_block);
                                    CHECK(actual.pel.x == expected.pel.x);
                                    CHECK(actual.pel.y == expected.pel.y);
                                    CHECK(actual.cost == expected.cost);
                                    CHECK(actual.candidates == expected.candidates);
                                    // The refinement from the search's vector, and from one at the window's
                                    // edge (the validity box's corners in restrict mode).
                                    for (const MotionVector pel :
                                         {expected.pel, MotionVector{expected_block.centre.x + range,
                                                                     expected_block.centre.y - range}}) {
                                        if (border == xme::BorderMode::restrict &&
                                            (16 * bx + pel.x < 0 || 16 * by + pel.y < 0 ||
                                             16 * bx + pel.x > padded_width - 16 ||
                                             16 * by + pel.y > padded_height - 16)) {
                                            continue;  // not a vector a restrict search returns
                                        }
                                        const auto refined_expected =
                                            xme::cpu::refine_qpel(expected_block, pel, planes);
                                        const auto refined = xme::cpu::refine_qpel(actual_block, pel, planes);
                                        CHECK(refined.mv.x == refined_expected.mv.x);
                                        CHECK(refined.mv.y == refined_expected.mv.y);
                                        CHECK(refined.cost == refined_expected.cost);
                                        ++compared;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if (compared == 0)
            MESSAGE("skipped: this build or processor has no SIMD set with its own 16x16 searches");
        MESSAGE(compared, " refinements compared");
    }

    TEST_CASE("half-sample planes filtered band by band equal the planes filtered whole, every set") {
        auto rng = xme::test::rng_for("half-sample bands");
        std::vector<std::pair<std::string, OperationKernels>> sets{
            {"plain", xme::cpu::plain_operation_kernels()}};
        for (const auto& set : xme::cpu::simd_operation_kernels()) sets.emplace_back(set.name, set.kernels);
        for (const auto& [name, kernels] : sets) {
            CAPTURE(name);
            std::uniform_int_distribution<int> extent(17, 150);
            const int width = extent(rng);
            const int height = extent(rng);
            CAPTURE(width);
            CAPTURE(height);
            const auto pair = xme::test::make_pair(xme::test::Content::noise, width, height, rng);
            const xme::cpu::SearchPlane reference(pair.reference.view());
            for (const int margin : {1, 5, xme::cpu::half_pel_margin}) {
                CAPTURE(margin);
                xme::cpu::HalfPelFrame whole;
                whole.assign(reference, kernels, 1, margin);
                xme::cpu::HalfPelFrame bands;
                bands.begin(reference, kernels, margin);
                // Steps of any size, some asking for rows already filtered, on one or two threads.
                std::uniform_int_distribution<int> step(-8, 40);
                for (int y = -margin; y < height + margin; y += step(rng))
                    bands.filter_through(y, 1 + static_cast<int>(rng() % 2));
                bands.filter_all(2);
                REQUIRE(bands.bytes() == whole.bytes());
                int differing = 0;
                for (const auto plane : {xme::cpu::HalfPelFrame::horizontal, xme::cpu::HalfPelFrame::vertical,
                                         xme::cpu::HalfPelFrame::centre}) {
                    const std::uint8_t* a = whole.region(plane, -margin, -margin, 1, 1);
                    const std::uint8_t* b = bands.region(plane, -margin, -margin, 1, 1);
                    for (int y = 0; y < height + 2 * margin; ++y) {
                        for (int x = 0; x < width + 2 * margin; ++x)
                            differing += a[y * whole.stride() + x] != b[y * bands.stride() + x] ? 1 : 0;
                    }
                }
                CHECK(differing == 0);
            }
        }
    }

    TEST_CASE("the refinement after the fast full search gives the same field with its planes by bands") {
        auto rng = xme::test::rng_for("refinement bands");
        std::vector<std::string> variants{"portable"};
        for (const auto& set : xme::cpu::simd_operation_kernels()) variants.push_back(set.name);
        for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
            CAPTURE(xme::to_string(border));
            xme::SearchParams integer;
            integer.border = border;
            integer.range = 8;
            xme::SearchParams refined = integer;
            refined.subpel = xme::Subpel::qpel;
            for (const int threads : {1, 2}) {
                CAPTURE(threads);
                std::uniform_int_distribution<int> extent(33, 120);
                const int width = extent(rng);
                const int height = 16 * 9 + extent(rng);  // bands of 4 block rows: three or more
                CAPTURE(width);
                CAPTURE(height);
                const auto first =
                    xme::test::make_pair(xme::test::Content::moving_texture, width, height, rng);
                const auto second = xme::test::make_pair(xme::test::Content::noise, width, height, rng);
                for (const auto& variant : variants) {
                    CAPTURE(variant);
                    xme::cpu::ChainEstimator search(integer, variant, threads);
                    xme::cpu::ChainEstimator whole(refined, variant, threads);
                    xme::cpu::ChainEstimator bands(refined, variant, threads);
                    whole.set_band_planes_above(std::numeric_limits<std::size_t>::max());
                    bands.set_band_planes_above(0);
                    // Two pairs through the same estimators: the second's bands must not read the first's.
                    std::int64_t id = 0;
                    for (const auto* pair : {&first, &second}) {
                        const xme::FramePair frames(id, pair->reference.view(), id + 1, pair->current.view());
                        id += 2;
                        xme::MotionField expected = search.estimate(frames, nullptr);
                        xme::MotionField actual = expected;
                        whole.refine(frames, expected, {});
                        bands.refine(frames, actual, {});
                        int differing = 0;
                        for (std::size_t i = 0; i < expected.blocks.size(); ++i)
                            differing += expected.blocks[i] == actual.blocks[i] ? 0 : 1;
                        CHECK(differing == 0);
                    }
                }
            }
        }
    }
}
