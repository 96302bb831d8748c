// SPEC §4 after the fast full search (full_search.hpp), from its packed keys on its padded frames: the
// exact integer half-pel refinement around each integer vector, without the rate term (refine_hpel.cpp
// is the rate chains').
#pragma once

#include <cstdint>

#include "full_search.hpp"
#include "xme/motion_field.hpp"

namespace xme::cpu {

// The best of the integer vector (from its packed key) and its 8 half-pel neighbours, as
// BlockMotion with cost4. `integer_key` is the winner of the integer search for block (bx, by).
[[nodiscard]] BlockMotion refine_full_search_hpel(const SearchFrames& frames, int frame_width, int frame_height, int bx,
                                          int by, std::uint64_t integer_key);

}  // namespace xme::cpu
