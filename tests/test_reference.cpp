// The reference against hand-computed cases, one per rule of SPEC.md.
#include <doctest/doctest.h>

#include <string>

#include "xme/error.hpp"
#include "xme/operations.hpp"
#include "xme/reference.hpp"
#include "xme/search_key.hpp"

namespace {

using xme::Plane;
using xme::SearchParams;

Plane filled(int width, int height, int (*value)(int x, int y)) {
    Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) plane.at(x, y) = static_cast<std::uint8_t>(value(x, y));
    }
    return plane;
}

// The vector and cost of a block; the candidate counts are checked by the conformance and property
// tests.
xme::BlockMotion without_count(xme::BlockMotion motion) {
    motion.candidates = 0;
    return motion;
}

SearchParams params(int block, int range, xme::BorderMode border = xme::BorderMode::pad,
                    xme::Subpel subpel = xme::Subpel::none) {
    SearchParams p;
    p.block_size = block;
    p.range = range;
    p.border = border;
    p.subpel = subpel;
    return p;
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§1 edge replication: a 1x1 frame is one value everywhere") {
        const Plane cur = filled(1, 1, [](int, int) { return 10; });
        const Plane ref = filled(1, 1, [](int, int) { return 3; });
        CHECK(cur.view().at_clamped(-5, 7) == 10);
        // Every candidate reads the same clamped pixel: SAD = 7 * 16, and the tie goes to (0,0).
        const auto field = xme::reference::estimate(ref.view(), cur.view(), params(4, 3));
        REQUIRE(field.blocks.size() == 1);
        CHECK(without_count(field.at(0, 0)) == xme::BlockMotion{0, 0, 112});
    }

    TEST_CASE("§1 partial edge blocks are estimated with replicated samples") {
        // 5x1 frame, B=4: block 1 covers x=4..7, all clamped to x=4, rows clamped to y=0.
        const Plane cur = filled(5, 1, [](int x, int) { return x == 4 ? 9 : 1; });
        const Plane ref = filled(5, 1, [](int, int) { return 5; });
        const auto field = xme::reference::estimate(ref.view(), cur.view(), params(4, 2));
        REQUIRE(field.blocks_x == 2);
        REQUIRE(field.blocks_y == 1);
        CHECK(without_count(field.at(1, 0)) == xme::BlockMotion{0, 0, 16 * 4});
        CHECK(without_count(field.at(0, 0)) == xme::BlockMotion{0, 0, 16 * 4});
    }

    TEST_CASE("§2 border modes: pad reaches outside the frame, restrict does not") {
        // cur(x) = 40 + 10x; ref(x) = cur(x - 1): block 0's best is dx = +1 (SAD 0) in both modes;
        // block 1 at x = 4: dx = +1 reads past the right edge (SAD 40, pad only), dx = 0 costs 160.
        const Plane cur = filled(8, 4, [](int x, int) { return 40 + 10 * x; });
        const Plane ref = filled(8, 4, [](int x, int) { return x == 0 ? 30 : 30 + 10 * x; });
        const auto pad = xme::reference::estimate(ref.view(), cur.view(), params(4, 1));
        CHECK(without_count(pad.at(0, 0)) == xme::BlockMotion{4, 0, 0});
        CHECK(without_count(pad.at(1, 0)) == xme::BlockMotion{4, 0, 40});
        const auto restricted = xme::reference::estimate(ref.view(), cur.view(), params(4, 1, xme::BorderMode::restrict));
        CHECK(without_count(restricted.at(0, 0)) == xme::BlockMotion{4, 0, 0});
        CHECK(without_count(restricted.at(1, 0)) == xme::BlockMotion{0, 0, 160});
        // The window is the padded frame: for 6x4 with B=4, Wp = 8, so block 1 may move left by 4 but not right.
        const auto p = params(4, 4, xme::BorderMode::restrict);
        CHECK(xme::reference::integer_candidate_valid(4, 0, -4, 0, 6, 4, p));
        CHECK_FALSE(xme::reference::integer_candidate_valid(4, 0, 1, 0, 6, 4, p));
        CHECK_FALSE(xme::reference::integer_candidate_valid(0, 0, 0, -1, 6, 4, p));
        CHECK(xme::reference::integer_candidate_valid(0, 0, 0, 0, 6, 4, p));
    }

    TEST_CASE("§3 the tie key: cost, then |x|+|y|, then y, then x") {
        using xme::pack_search_key;
        CHECK(pack_search_key(5, 20, 20) < pack_search_key(6, 0, 0));
        CHECK(pack_search_key(5, 2, 0) < pack_search_key(5, 2, 2));
        CHECK(pack_search_key(5, 2, -2) < pack_search_key(5, -2, 2));  // same |x|+|y|: smaller y
        CHECK(pack_search_key(5, -2, 0) < pack_search_key(5, 2, 0));   // same y: smaller x
        CHECK(pack_search_key(5, 0, -2) < pack_search_key(5, -2, 0));
        const auto key = pack_search_key(1234, -8191, 8191);
        CHECK(xme::key_cost(key) == 1234);
        CHECK(xme::key_half_x(key) == -8191);
        CHECK(xme::key_half_y(key) == 8191);

        // Columns 4 and 7 differ from the block: dx = -1, +1, -2, +2 each cover one of them.
        // -1 and +1 tie on cost and |x|+|y| and y; the smaller x wins. Transposed, the smaller y wins.
        const Plane cur = filled(12, 12, [](int, int) { return 100; });
        const Plane columns = filled(12, 12, [](int x, int) { return x == 4 || x == 7 ? 0 : 100; });
        const auto field = xme::reference::estimate(columns.view(), cur.view(), params(4, 2));
        CHECK(without_count(field.at(1, 1)) == xme::BlockMotion{-4, 0, 400});
        const Plane rows = filled(12, 12, [](int, int y) { return y == 4 || y == 7 ? 0 : 100; });
        CHECK(without_count(xme::reference::estimate(rows.view(), cur.view(), params(4, 2)).at(1, 1)) == xme::BlockMotion{0, -4, 400});
    }

    TEST_CASE("§3 R = 0 searches only the zero vector") {
        const Plane cur = filled(8, 8, [](int x, int y) { return x * 7 + y; });
        const Plane ref = filled(8, 8, [](int x, int y) { return x * 7 + y + 2; });
        const auto field = xme::reference::estimate(ref.view(), cur.view(), params(8, 0));
        CHECK(without_count(field.at(0, 0)) == xme::BlockMotion{0, 0, 2 * 64});
    }

    TEST_CASE("§4 half-pel: exact bilinear average, cost4, and the refinement's choice") {
        // ref(x) = 10x, cur(x) = 10x + 5 on 4x4: the half step right matches all but the clamped
        // last column. Integer: dx = 0 and +1 tie at SAD 80; (0,0) wins on |x|+|y|.
        const Plane ref = filled(4, 4, [](int x, int) { return 10 * x; });
        const Plane cur = filled(4, 4, [](int x, int) { return 10 * x + 5; });
        CHECK(xme::reference::cost4(ref.view(), cur.view(), 0, 0, 4, 0, 0) == 320);
        CHECK(xme::reference::cost4(ref.view(), cur.view(), 0, 0, 4, 2, 0) == 80);
        CHECK(xme::reference::cost4(ref.view(), cur.view(), 0, 0, 4, -2, 0) == 560);
        const auto integer = xme::reference::estimate(ref.view(), cur.view(), params(4, 1));
        CHECK(integer.at(0, 0) == xme::BlockMotion{0, 0, 80, 9});  // 9 candidates: range 1
        CHECK(integer.cost_scale() == 1);
        const auto refined = xme::reference::estimate(
            ref.view(), cur.view(), params(4, 1, xme::BorderMode::pad, xme::Subpel::hpel));
        CHECK(refined.at(0, 0) == xme::BlockMotion{2, 0, 80, 9});
        CHECK(refined.cost_scale() == 4);

        // Diagonal: (0 + 1 + 1 + 1) / 4 is not rounded: |4*1 - 3| = 1 at the one pixel that sees the 0.
        const Plane corner = filled(2, 2, [](int x, int y) { return x == 0 && y == 0 ? 0 : 1; });
        const Plane ones = filled(2, 2, [](int, int) { return 1; });
        CHECK(xme::reference::cost4(corner.view(), ones.view(), 0, 0, 4, 2, 2) == 1);
    }

    TEST_CASE("§4 restrict: a half-pel candidate needs every interpolated sample inside the padded frame") {
        const auto restricted = params(4, 2, xme::BorderMode::restrict, xme::Subpel::hpel);
        CHECK_FALSE(xme::reference::halfpel_candidate_valid(0, 0, -2, 0, 8, 8, restricted));
        CHECK(xme::reference::halfpel_candidate_valid(0, 0, 2, 0, 8, 8, restricted));
        CHECK_FALSE(xme::reference::halfpel_candidate_valid(4, 4, 2, 0, 8, 8, restricted));
        CHECK(xme::reference::halfpel_candidate_valid(4, 4, -2, -2, 8, 8, restricted));
        const auto padded = params(4, 2, xme::BorderMode::pad, xme::Subpel::hpel);
        CHECK(xme::reference::halfpel_candidate_valid(0, 0, -2, 0, 8, 8, padded));
    }

    TEST_CASE("parameters outside SPEC are refused with the allowed values") {
        auto message_of = [](const SearchParams& p) {
            try {
                p.validate();
            } catch (const xme::Error& e) {
                CHECK(e.kind() == xme::ErrorKind::invalid_argument);
                return std::string(e.what());
            }
            return std::string("no error");
        };
        CHECK(message_of(params(5, 4)).find("4, 8, 16 or 32") != std::string::npos);
        CHECK(message_of(params(8, -1)).find("0..4095") != std::string::npos);
        CHECK(message_of(params(8, 4096)).find("0..4095") != std::string::npos);
        CHECK(message_of([] {
                  SearchParams p = params(8, 4);
                  p.lambda = xme::max_lambda + 1;
                  return p;
              }()).find("0..65535") != std::string::npos);
        SearchParams chain;
        // The allowed names are the table of operations' searches (fs first).
        const std::string allowed = "unknown search 'tss': use " + xme::stage_names(xme::StageKind::integer_search);
        CHECK(allowed.find("use fs, dia, hex, ehds, tz") != std::string::npos);
        CHECK_THROWS_WITH_AS(xme::apply_chain_name(chain, "tss"), allowed.c_str(), xme::Error);
        CHECK_THROWS_AS(xme::apply_chain_name(chain, "fs+none"), xme::Error);
        xme::apply_chain_name(chain, "tz+qpel");
        CHECK((chain.search == xme::SearchMethod::test_zone && chain.subpel == xme::Subpel::qpel));
        CHECK(xme::chain_name(chain) == "tz+qpel");
        CHECK_THROWS_AS(static_cast<void>(xme::parse_border_mode("wrap")), xme::Error);
    }
}
