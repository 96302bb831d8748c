#pragma once

#include "xme/motion_field.hpp"
#include "xme/motion_vector.hpp"

namespace xme::cpu {

// SPEC §8: block (bx, by)'s median predictor from the final vectors already in `field` (every block left
// of it and above it, up to the top-right one, must be final: the wavefront guarantees it).
[[nodiscard]] MotionVector spatial_predictor(const MotionField& field, int bx, int by);

}  // namespace xme::cpu
