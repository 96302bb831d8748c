// SPEC §4 on padded frames: the exact integer half-pel refinement around an integer vector.
#pragma once

#include <cstdint>

#include "full_search.hpp"
#include "xme/motion_field.hpp"

namespace xme::cpu {

// The best of the integer vector (from its packed key) and its 8 half-pel neighbours, as
// BlockMotion with cost4. `integer_key` is the winner of the integer search for block (bx, by).
[[nodiscard]] BlockMotion refine_half_pel(const SearchFrames& frames, int frame_width, int frame_height, int bx,
                                          int by, std::uint64_t integer_key);

}  // namespace xme::cpu
