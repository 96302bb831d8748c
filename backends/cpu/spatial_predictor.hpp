#pragma once

#include "integer_search.hpp"
#include "xme/motion_field.hpp"
#include "xme/motion_vector.hpp"

namespace xme::cpu {

// SPEC §8: block (bx, by)'s median predictor from the final vectors already in `field` (every block left
// of it and above it, up to the top-right one, must be final: the wavefront guarantees it).
[[nodiscard]] MotionVector spatial_predictor(const MotionField& field, int bx, int by);

// SPEC §8's predictor set of block (bx, by): its A, B, C (or D) from `field` as above, the median when one
// of them is available, then the co-located block of `previous` (null at a segment's start).
[[nodiscard]] PredictorSet predictor_set(const MotionField& field, int bx, int by, const MotionField* previous);

}  // namespace xme::cpu
