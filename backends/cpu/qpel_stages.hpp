// SPEC §10's two stages (half then quarter pel, J = SATD + lambda * R(mv - p)) over any SATD: the generic
// refinement calls the kernels through their pointers; a SIMD set compiles the stages around its own SATD
// for 16x16 blocks (OperationKernels::refine_qpel16), so that no call, prologue or size test sits between
// a block's up to 17 candidates (docs/cpu.md, "Sub-pel refinement").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "subpel_refine.hpp"
#include "xme/h264_positions.hpp"
#include "xme/rate.hpp"

namespace xme::cpu {

// The four planes H.264's samples average (G, b, h, j) around the refined rectangle displaced by its
// integer vector: slot plane * 3 + dy + 1 holds each plane's sample at that integer position moved dy rows
// (dy = -1, 0, 1), with the plane's stride, so that a candidate's samples are a slot and a column offset
// (qpel_tap_slots) instead of a fraction's taps, rows and strides worked out between the SATDs.
struct QpelNeighbourhood {
    static constexpr int slots = 3 * h264_plane_count;
    const std::uint8_t* at[slots];
    std::ptrdiff_t stride[slots];
};

// A candidate's two samples (SPEC §10's table) as QpelNeighbourhood slots and column offsets (-1 .. 1),
// for each quarter offset (qx, qy) in -3 .. 3 from 4 * integer_pel (index (qy + 3) * 7 + qx + 3): every
// candidate of the two stages (the half stage's at +-2, the quarter stage's within 1 of a half position).
struct QpelTapSlots {
    std::int8_t p_slot, p_col, q_slot, q_col;
};
inline constexpr int qpel_reach = 3;
inline constexpr auto qpel_tap_slots = [] {
    std::array<QpelTapSlots, (2 * qpel_reach + 1) * (2 * qpel_reach + 1)> table{};
    for (int qy = -qpel_reach; qy <= qpel_reach; ++qy) {
        for (int qx = -qpel_reach; qx <= qpel_reach; ++qx) {
            // floor(q / 4) and q mod 4 without relying on the shift of a negative value
            const int ox = qx < 0 ? -1 : 0;
            const int oy = qy < 0 ? -1 : 0;
            const int fraction = (qy - 4 * oy) * 4 + (qx - 4 * ox);
            const H264Tap p = h264_position_taps[fraction][0];
            const H264Tap q = h264_position_taps[fraction][1];
            table[static_cast<std::size_t>((qy + qpel_reach) * (2 * qpel_reach + 1) + qx + qpel_reach)] = {
                static_cast<std::int8_t>(p.plane * 3 + oy + p.row + 1), static_cast<std::int8_t>(ox + p.col),
                static_cast<std::int8_t>(q.plane * 3 + oy + q.row + 1), static_cast<std::int8_t>(ox + q.col)};
        }
    }
    return table;
}();

[[nodiscard]] QpelNeighbourhood qpel_neighbourhood(const IntegerBlock& block, int left, int top, int width,
                                                   int height, MotionVector integer_pel,
                                                   const HalfPelFrame& planes);

// SPEC §10's validity (floor(mv / 4) and ceil(mv / 4) inside the padded frame) as one box of quarter
// vectors (floor(v / 4) >= low and ceil(v / 4) <= high exactly when 4 low <= v <= 4 high; the box is the
// block's, for a §9 partition its macroblock's), and J.
class QpelRules {
public:
    explicit QpelRules(const IntegerBlock& block) : block_(block) {
        if (block.border == BorderMode::restrict) {
            low_ = {-4 * block.x, -4 * block.y};
            high_ = {4 * (block.padded_width - block.size - block.x),
                     4 * (block.padded_height - block.size - block.y)};
        }
    }
    [[nodiscard]] bool valid(MotionVector mv) const {
        return mv.x >= low_.x && mv.x <= high_.x && mv.y >= low_.y && mv.y <= high_.y;
    }
    [[nodiscard]] std::uint64_t cost(std::uint32_t satd, MotionVector mv) const {
        return block_.lambda == 0 ? satd : rate_constrained_cost(satd, block_.lambda, mv, block_.predictor);
    }
    // Whether (cost, mv) has a smaller key than (best_cost, best) (SPEC §8; built only for a tie of J).
    [[nodiscard]] bool better(std::uint64_t cost, MotionVector mv, std::uint64_t best_cost,
                              MotionVector best) const {
        return cost < best_cost ||
               (cost == best_cost && make_candidate_key(cost, mv, block_.predictor) <
                                         make_candidate_key(best_cost, best, block_.predictor));
    }

private:
    const IntegerBlock& block_;
    MotionVector low_{std::numeric_limits<int>::min(), std::numeric_limits<int>::min()};
    MotionVector high_{std::numeric_limits<int>::max(), std::numeric_limits<int>::max()};
};

struct QpelBest {
    MotionVector mv;
    std::uint64_t cost = 0;
    std::uint32_t satd = 0;
};

// One prediction: the two samples' planes it averages (p == q: one plane), at their top-left.
struct QpelPrediction {
    const std::uint8_t* p;
    std::ptrdiff_t p_stride;
    const std::uint8_t* q;
    std::ptrdiff_t q_stride;
};

// The prediction of quarter vector mv, within qpel_reach of 4 * integer_pel.
[[gnu::always_inline]] inline QpelPrediction prediction_at(const QpelNeighbourhood& n,
                                                           MotionVector integer_pel, MotionVector mv) {
    const int qx = mv.x - 4 * integer_pel.x;
    const int qy = mv.y - 4 * integer_pel.y;
    const QpelTapSlots t =
        qpel_tap_slots[static_cast<std::size_t>((qy + qpel_reach) * (2 * qpel_reach + 1) + qx + qpel_reach)];
    return {n.at[t.p_slot] + t.p_col, n.stride[t.p_slot], n.at[t.q_slot] + t.q_col, n.stride[t.q_slot]};
}

// The refinement of `block` from integer_pel. satd_of(prediction, limit) has Satd's contract for the
// refined rectangle: the SATD against the rounded average of the prediction's two samples, exact up to
// `limit` (a kernel may compute it whole anyway). Each stage costs the centre (its SATD known from the
// stage before, when there was one) and its valid neighbours at `step`, and keeps the least key, which
// does not depend on the order: the centre, which usually wins, comes first, and a neighbour's SATD need
// only be exact while it can still reach the best J (on a static scene most could stop at half the rows).
// A stage's eight predictions and their validity are found first, without a branch: with each one's
// planes and offsets looked up between the SATDs, the refinement ran ~20% slower
// (docs/cpu.md, "Sub-pel refinement").
template <class SatdOf>
[[gnu::always_inline]] inline SubpelResult qpel_stages(const IntegerBlock& block, MotionVector integer_pel,
                                                       const QpelNeighbourhood& n, SatdOf satd_of) {
    const QpelRules rules(block);
    const auto stage = [&](const QpelBest& centre, int step) __attribute__((always_inline)) {
        QpelBest best = centre;
        QpelPrediction predictions[8];
        MotionVector vectors[8];
        unsigned valid = 0;
        int k = 0;
        for (int sy = -1; sy <= 1; ++sy) {
            for (int sx = -1; sx <= 1; ++sx) {
                if (sx == 0 && sy == 0) continue;
                const MotionVector mv{centre.mv.x + step * sx, centre.mv.y + step * sy};
                vectors[k] = mv;
                predictions[k] = prediction_at(n, integer_pel, mv);
                valid |= static_cast<unsigned>(rules.valid(mv)) << k;
                ++k;
            }
        }
        for (k = 0; k < 8; ++k) {
            if ((valid >> k & 1u) == 0) continue;
            const std::uint64_t rate = rules.cost(0, vectors[k]);
            if (rate > best.cost) continue;  // J above the best whatever the SATD
            const std::uint64_t headroom = best.cost - rate;
            const std::uint32_t satd = satd_of(
                predictions[k], headroom < satd_exact ? static_cast<std::uint32_t>(headroom) : satd_exact);
            if (satd > headroom) continue;
            const std::uint64_t cost = satd + rate;
            if (rules.better(cost, vectors[k], best.cost, best.mv)) best = {vectors[k], cost, satd};
        }
        return best;
    };
    const MotionVector start{4 * integer_pel.x, 4 * integer_pel.y};
    const std::uint32_t satd = satd_of(prediction_at(n, integer_pel, start), satd_exact);
    const QpelBest half = stage({start, rules.cost(satd, start), satd}, 2);
    // The quarter stage costs the half stage's winner again (SPEC §10 as the reference reads it).
    const QpelBest quarter = stage(half, 1);
    return {quarter.mv, quarter.cost};
}

}  // namespace xme::cpu
