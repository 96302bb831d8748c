// SPEC §4 with §8's rate term: bilinear half-pel refinement, J = cost4 + 4 * lambda * R(mv - p).
#include <string>

#include "subpel_stage.hpp"
#include "xme/reference.hpp"

namespace xme::reference {

BlockResult refine_hpel(const BlockSearch& search, MotionVector integer_mv) {
    search.validate();
    detail::require_integer_vector(integer_mv, "half-pel refinement");
    if (search.width != search.height) {
        throw Error(ErrorKind::invalid_argument, "half-pel refinement (SPEC §4) runs on square blocks, got " +
                                                     std::to_string(search.width) + "x" +
                                                     std::to_string(search.height));
    }
    // SPEC §8: cost4 is in quarter grey levels (4 * SAD at integer positions), so the rate weighs
    // 4 * lambda per bit here, as much against the distortion as in the integer search.
    BlockSearch scaled = search;
    scaled.lambda = 4 * search.lambda;
    const auto cost4_at = [&](MotionVector mv) {
        return cost4(search.reference, search.current, search.x, search.y, search.width, mv.x, mv.y);
    };
    std::uint32_t evaluated = 0;
    BlockResult best = detail::subpel_stage(scaled, integer_mv, 2, evaluated, cost4_at);
    best.candidates = evaluated;
    return best;
}

}  // namespace xme::reference
