// SPEC §7: how much work a search is, so that throughput is comparable across devices and sizes.
#pragma once

#include <cstdint>

#include "xme/params.hpp"

namespace xme {

// Sum over blocks of the candidates evaluated times B*B: the valid integer candidates, plus the 8
// half-pel neighbours for fs+hpel. For full search in pad mode: blocks * (2R+1)^2 * B^2.
[[nodiscard]] std::uint64_t pixel_comparisons(int width, int height, const SearchParams& params);

}  // namespace xme
