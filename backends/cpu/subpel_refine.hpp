// The CPU's sub-pel refinements after an integer search: SPEC §4's bilinear half pel with cost4 and
// J = cost4 + 4 * lambda * R, and SPEC §10's H.264 half then quarter pel with SATD and J = SATD + lambda * R.
#pragma once

#include <cstdint>
#include <limits>

#include "half_pel_frame.hpp"
#include "integer_search.hpp"
#include "xme/motion_field.hpp"

namespace xme::cpu {

struct SubpelResult {
    MotionVector mv;  // quarter pel
    std::uint64_t cost = 0;
};

// What marks a block whose cost exceeds 32 bits or whose vector exceeds int16 (SPEC's limits keep both
// inside for every valid lambda and range; this guards the contract, as the reference does).
// ChainEstimator::estimate reports it after its parallel loops: nothing may throw inside them.
inline constexpr BlockMotion unfit_block{0, 0, std::numeric_limits<std::uint32_t>::max(),
                                         std::numeric_limits<std::uint32_t>::max()};

// A result as the field holds it, or unfit_block.
[[nodiscard]] inline BlockMotion fitted_block_motion(const SubpelResult& result, std::uint32_t candidates) {
    if (result.cost > std::numeric_limits<std::uint32_t>::max() || result.mv.x < -32768 ||
        result.mv.x > 32767 || result.mv.y < -32768 || result.mv.y > 32767) {
        return unfit_block;
    }
    return {static_cast<std::int16_t>(result.mv.x), static_cast<std::int16_t>(result.mv.y),
            static_cast<std::uint32_t>(result.cost), candidates};
}

// SPEC §4/§10: whether the blocks displaced by floor(mv / 4) and ceil(mv / 4) both lie in the padded
// frame (always in pad mode).
[[nodiscard]] bool fractional_vector_valid(const IntegerBlock& block, MotionVector quarter);

[[nodiscard]] SubpelResult refine_hpel(const IntegerBlock& block, MotionVector integer_pel);

// `planes` holds the reference frame's half-sample planes (half_pel_frame.hpp). The refined rectangle is
// width x height at (left, top) of the current frame: a §9 partition of `block`'s macroblock, whose
// validity test and rate term are the macroblock's (block's).
[[nodiscard]] SubpelResult refine_qpel(const IntegerBlock& block, int left, int top, int width, int height,
                                       MotionVector integer_pel, const HalfPelFrame& planes);
[[nodiscard]] inline SubpelResult refine_qpel(const IntegerBlock& block, MotionVector integer_pel,
                                              const HalfPelFrame& planes) {
    return refine_qpel(block, block.x, block.y, block.size, block.size, integer_pel, planes);
}

// The best of `centre` and its 8 neighbours centre + step * (s, t) that are valid, by SPEC §8's key with
// J = distortion(mv) + weight * R(mv - p); the centre is always costed.
template <class Distortion>
SubpelResult subpel_step(const IntegerBlock& block, MotionVector centre, int step, int weight,
                         Distortion distortion) {
    SubpelResult best;
    CandidateKey best_key;
    bool has_best = false;
    for (int t = -1; t <= 1; ++t) {
        for (int s = -1; s <= 1; ++s) {
            const MotionVector mv{centre.x + step * s, centre.y + step * t};
            if ((s != 0 || t != 0) && !fractional_vector_valid(block, mv)) continue;
            const std::uint64_t cost = rate_constrained_cost(distortion(mv), weight, mv, block.predictor);
            const CandidateKey key = make_candidate_key(cost, mv, block.predictor);
            if (has_best && !(key < best_key)) continue;
            has_best = true;
            best_key = key;
            best = {mv, cost};
        }
    }
    return best;
}

}  // namespace xme::cpu
