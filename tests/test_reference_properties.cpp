// The reference operations of SPEC §8, §10 and §11 on random frames (seed printed): each agrees with the
// older reference where they overlap, every fast search ends no worse than it started and no better
// than full search, and every result's cost is what its vector costs.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "test_support.hpp"
#include "xme/search_key.hpp"
#include "xme/reference.hpp"
#include "xme/reference_ops.hpp"

using xme::MotionVector;
using xme::Plane;
namespace ref = xme::reference;

namespace {

ref::BlockSearch block_search(const xme::test::PlanePair& pair, int x, int y, int block, int range,
                              xme::BorderMode border) {
    ref::BlockSearch search;
    search.reference = pair.reference.view();
    search.current = pair.current.view();
    search.x = x;
    search.y = y;
    search.width = search.height = search.restrict_block_size = block;
    search.range = range;
    search.border = border;
    return search;
}

std::uint64_t integer_cost(const ref::BlockSearch& search, MotionVector pel) {
    const std::uint32_t sad = ref::block_sad(search.reference, search.current, search.x, search.y,
                                             search.width, search.height, pel.x, pel.y);
    return xme::rate_constrained_cost(sad, search.lambda, {4 * pel.x, 4 * pel.y}, search.predictor);
}

// §11's start, computed independently: the cheapest evaluable of round(p/4) and zero, else zero.
std::uint64_t start_cost(const ref::BlockSearch& search) {
    std::uint64_t best = UINT64_MAX;
    for (const MotionVector pel : {xme::round_quarter_to_pel(search.predictor), MotionVector{}}) {
        if (ref::inside_window(search, pel) && ref::integer_displacement_valid(search, pel)) {
            best = std::min(best, integer_cost(search, pel));
        }
    }
    return best == UINT64_MAX ? integer_cost(search, {}) : best;
}

xme::test::PlanePair extreme_pair(int width, int height) {
    // Alternating 0/255: the largest SADs, SATDs and 6-tap intermediates.
    xme::test::PlanePair pair{Plane(width, height), Plane(width, height)};
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            pair.reference.at(x, y) = (x + y) % 2 == 0 ? 255 : 0;
            pair.current.at(x, y) = (x / 2 + y) % 2 == 0 ? 0 : 255;
        }
    }
    return pair;
}

// SPEC §3-§4 for one block as xme's first reference wrote them: every candidate's packed key
// (search_key.hpp) and a plain minimum. An independent oracle for the operations with lambda 0, p = 0.
xme::BlockMotion literal_block(const xme::test::PlanePair& pair, int x, int y, int block, int range,
                               const xme::SearchParams& params, bool refine) {
    std::uint64_t best = ~std::uint64_t{0};
    for (int dy = -range; dy <= range; ++dy) {
        for (int dx = -range; dx <= range; ++dx) {
            if (!ref::integer_candidate_valid(x, y, dx, dy, pair.current.width(), pair.current.height(), params)) continue;
            best = std::min(best, xme::pack_search_key(ref::sad(pair.reference.view(), pair.current.view(), x, y, block, dx, dy),
                                                       2 * dx, 2 * dy));
        }
    }
    if (refine) {
        const int vx = 2 * xme::key_half_x(best);
        const int vy = 2 * xme::key_half_y(best);
        best = ~std::uint64_t{0};
        for (int sy = -1; sy <= 1; ++sy) {
            for (int sx = -1; sx <= 1; ++sx) {
                const int cx = vx + 2 * sx;
                const int cy = vy + 2 * sy;
                if (!ref::halfpel_candidate_valid(x, y, cx, cy, pair.current.width(), pair.current.height(), params)) continue;
                best = std::min(best, xme::pack_search_key(ref::cost4(pair.reference.view(), pair.current.view(), x, y, block, cx, cy),
                                                           cx / 2, cy / 2));
            }
        }
    }
    return {static_cast<std::int16_t>(2 * xme::key_half_x(best)), static_cast<std::int16_t>(2 * xme::key_half_y(best)),
            xme::key_cost(best), 0};
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("full search with lambda 0, p = 0, c = 0 and §4's refinement agree with the literal loop of §3-§4") {
        auto rng = xme::test::rng_for("reference ops: full search vs estimate");
        for (const auto content : {xme::test::Content::noise, xme::test::Content::few_levels,
                                   xme::test::Content::moving_texture}) {
            for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
                for (const int block : {4, 8, 16}) {
                    const auto pair = xme::test::make_pair(content, 33, 17, rng);
                    xme::SearchParams params;
                    params.block_size = block;
                    params.range = 3;
                    params.border = border;
                    params.subpel = xme::Subpel::hpel;
                    const auto hpel_field = ref::estimate(pair.reference.view(), pair.current.view(), params);
                    const xme::MotionField reference_grid(33, 17, block, {});
                    for (int by = 0; by < reference_grid.blocks_y; ++by) {
                        for (int bx = 0; bx < reference_grid.blocks_x; ++bx) {
                            const xme::BlockMotion integer = literal_block(pair, bx * block, by * block, block, 3, params, false);
                            const xme::BlockMotion hpel = literal_block(pair, bx * block, by * block, block, 3, params, true);
                            CAPTURE(xme::test::to_string(content));
                            CAPTURE(xme::to_string(border));
                            CAPTURE(block);
                            CAPTURE(bx);
                            CAPTURE(by);
                            const auto search = block_search(pair, bx * block, by * block, block, 3, border);
                            const ref::BlockResult full = ref::full_search(search);
                            CHECK(full.mv == MotionVector{integer.mv_x, integer.mv_y});
                            CHECK(full.cost == integer.cost);
                            if (border == xme::BorderMode::pad) CHECK(full.candidates == 49);
                            const ref::BlockResult half = ref::refine_hpel(search, full.mv);
                            CHECK(half.mv == MotionVector{hpel.mv_x, hpel.mv_y});
                            CHECK(half.cost == hpel.cost);
                            // The chain driver gives the same, with full search's candidate count.
                            CHECK(hpel_field.at(bx, by) == xme::BlockMotion{hpel.mv_x, hpel.mv_y, hpel.cost, full.candidates});
                        }
                    }
                }
            }
        }
    }

    TEST_CASE("fast searches: no worse than their start, no better than full search, costs consistent") {
        auto rng = xme::test::rng_for("reference ops: fast search properties");
        std::uniform_int_distribution<int> predictor_component(-40, 40);
        int checked = 0;
        for (int round = 0; round < 4; ++round) {
            const bool extreme = round == 3;
            const auto content = static_cast<xme::test::Content>(round % 3);
            const auto pair = extreme ? extreme_pair(33, 17) : xme::test::make_pair(content, 33, 17, rng);
            const Plane level1_ref = ref::mean_downsample(pair.reference.view());
            const Plane level1_cur = ref::mean_downsample(pair.current.view());
            const Plane level2_ref = ref::mean_downsample(level1_ref.view());
            const Plane level2_cur = ref::mean_downsample(level1_cur.view());
            for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
                for (const int block : {4, 8, 16}) {
                    for (const int lambda : {0, 4, 40}) {
                        for (int by = 0; by * block < 17; ++by) {
                            for (int bx = 0; bx * block < 33; ++bx) {
                                auto search = block_search(pair, bx * block, by * block, block, 4, border);
                                search.lambda = lambda;
                                search.predictor = {predictor_component(rng), predictor_component(rng)};
                                if ((bx + by) % 2 == 1)
                                    search.centre = xme::round_quarter_to_pel(search.predictor);
                                CAPTURE(extreme);
                                CAPTURE(xme::to_string(border));
                                CAPTURE(block);
                                CAPTURE(lambda);
                                CAPTURE(bx);
                                CAPTURE(by);
                                CAPTURE(search.predictor.x);
                                CAPTURE(search.predictor.y);
                                const ref::BlockResult full = ref::full_search(search);
                                const std::uint64_t start = start_cost(search);
                                const ref::BlockResult results[] = {
                                    ref::diamond_search(search), ref::hexagon_search(search),
                                    ref::tz_search(search),
                                    ref::ehds_search(search, level1_ref.view(), level1_cur.view(),
                                                     level2_ref.view(), level2_cur.view())};
                                for (int which = 0; which < 4; ++which) {
                                    CAPTURE(which);  // dia, hex, tz, ehds
                                    const ref::BlockResult& result = results[which];
                                    REQUIRE(result.mv.x % 4 == 0);
                                    REQUIRE(result.mv.y % 4 == 0);
                                    const MotionVector pel{result.mv.x / 4, result.mv.y / 4};
                                    const bool in_window = ref::inside_window(search, pel);
                                    CHECK((in_window || pel == MotionVector{}));
                                    CHECK(ref::integer_displacement_valid(search, pel));
                                    CHECK(result.cost == integer_cost(search, pel));
                                    CHECK(result.distortion ==
                                          ref::block_sad(search.reference, search.current, search.x, search.y,
                                                         block, block, pel.x, pel.y));
                                    if (which != 3) CHECK(result.cost <= start);  // ehds starts elsewhere
                                    if (in_window) CHECK(result.cost >= full.cost);
                                    CHECK(result.candidates >= 1);
                                }
                                CHECK(results[0].candidates <= 2u + 4u * 4u);
                                CHECK(results[1].candidates <= 2u + 6u * 4u + 8u);
                                // §10 from full search's vector: never worse than that vector's own J.
                                const ref::BlockResult quarter = ref::refine_qpel(search, full.mv);
                                const auto satd_cost = [&](MotionVector mv) {
                                    return xme::rate_constrained_cost(
                                        ref::satd(search.reference, search.current, search.x, search.y, block,
                                                  block, mv),
                                        search.lambda, mv, search.predictor);
                                };
                                CHECK(quarter.cost <= satd_cost(full.mv));
                                CHECK(quarter.cost == satd_cost(quarter.mv));
                                CHECK(ref::fractional_vector_valid(search, quarter.mv));
                                CHECK(std::abs(quarter.mv.x - full.mv.x) <= 3);
                                CHECK(std::abs(quarter.mv.y - full.mv.y) <= 3);
                                CHECK(quarter.candidates <= 18u);
                                ++checked;
                            }
                        }
                    }
                }
            }
        }
        CHECK(checked > 0);
        MESSAGE("fast search properties checked on " << checked << " blocks");
    }

    TEST_CASE("H.264 samples stay in 0..255 on extreme content, and equal G at integer positions") {
        const auto pair = extreme_pair(9, 7);
        auto rng = xme::test::rng_for("reference ops: h264 sample range");
        std::uniform_int_distribution<int> position(-16, 48);
        for (int i = 0; i < 2000; ++i) {
            const int qx = position(rng);
            const int qy = position(rng);
            const int value = ref::h264_sample(pair.reference.view(), qx, qy);
            CHECK(value >= 0);
            CHECK(value <= 255);
            if ((qx & 3) == 0 && (qy & 3) == 0)
                CHECK(value == pair.reference.view().at_clamped(qx >> 2, qy >> 2));
        }
    }
}
