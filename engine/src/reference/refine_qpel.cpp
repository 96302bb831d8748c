// SPEC §10: quarter-pel refinement with H.264's interpolation and the Hadamard cost.
#include "subpel_stage.hpp"

namespace xme::reference {

BlockResult refine_qpel(const BlockSearch& search, MotionVector integer_mv) {
    search.validate();
    detail::require_integer_vector(integer_mv, "quarter-pel refinement");
    const auto satd_at = [&](MotionVector mv) {
        return satd(search.reference, search.current, search.x, search.y, search.width, search.height, mv);
    };
    std::uint32_t evaluated = 0;
    const BlockResult half = detail::subpel_stage(search, integer_mv, 2, evaluated, satd_at);
    // The quarter stage costs the half stage's winner again, as HM's xPatternSearchFracDIF does (its 9
    // quarter positions include the centre): 18 candidates at most. SPEC §10 says "compares w and its 8
    // neighbours"; §11 counts a candidate evaluated twice twice.
    BlockResult quarter = detail::subpel_stage(search, half.mv, 1, evaluated, satd_at);
    quarter.candidates = evaluated;
    return quarter;
}

}  // namespace xme::reference
