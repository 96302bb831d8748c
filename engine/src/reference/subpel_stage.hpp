// One stage of a sub-pel refinement (engine-private), shared by SPEC §4 and §10: the centre and its 8
// neighbours centre + step*(sx, sy), each valid one costed with J = distortion + lambda * R(mv - p), the
// smallest key (§8) kept. The centre is always costed: it is the previous stage's (or the integer
// search's) winner, valid by construction.
#pragma once

#include <cstdint>
#include <string>

#include "xme/error.hpp"
#include "xme/rate.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference::detail {

template <class Distortion>
BlockResult subpel_stage(const BlockSearch& search, MotionVector centre, int step, std::uint32_t& evaluated,
                         Distortion distortion_at) {
    BlockResult best;
    CandidateKey best_key;
    bool has_best = false;
    for (int sy = -1; sy <= 1; ++sy) {
        for (int sx = -1; sx <= 1; ++sx) {
            const MotionVector mv{centre.x + step * sx, centre.y + step * sy};
            const bool is_centre = sx == 0 && sy == 0;
            if (!is_centre && !fractional_vector_valid(search, mv)) continue;
            ++evaluated;
            const std::uint32_t distortion = distortion_at(mv);
            const std::uint64_t cost = rate_constrained_cost(distortion, search.lambda, mv, search.predictor);
            const CandidateKey key = make_candidate_key(cost, mv, search.predictor);
            if (has_best && !(key < best_key)) continue;
            has_best = true;
            best_key = key;
            best = {mv, cost, distortion, 0};
        }
    }
    return best;
}

inline void require_integer_vector(MotionVector mv, const char* operation) {
    if (mv.x % 4 != 0 || mv.y % 4 != 0) {
        throw Error(ErrorKind::invalid_argument,
                    std::string(operation) + " starts from an integer vector, got (" + std::to_string(mv.x) +
                        "," + std::to_string(mv.y) + ") quarter pel");
    }
}

}  // namespace xme::reference::detail
