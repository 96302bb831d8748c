// SPEC §7: how much work a search is, so that throughput is comparable across devices and sizes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "xme/motion_field.hpp"
#include "xme/params.hpp"

namespace xme {

// Full search's work, known before it runs: the sum over blocks of the valid integer candidates
// times B*B, plus the sub-pel candidates (8 for hpel, 16 for qpel per block). In pad mode:
// blocks * (2R+1)^2 * B^2 for fs.
[[nodiscard]] std::uint64_t pixel_comparisons(int width, int height, const SearchParams& params);

// The work a finished search did: each block's integer candidates as it counted them, plus the
// sub-pel candidates as above. Equals the function above for full search.
[[nodiscard]] std::uint64_t pixel_comparisons(const MotionField& field, const SearchParams& params);
// The same from the field's candidates summed already (FrameMetrics::candidates) and its block count.
[[nodiscard]] std::uint64_t pixel_comparisons(std::uint64_t candidates, std::size_t blocks,
                                              const SearchParams& params);

// Sets every block's `candidates` to the number of valid integer candidates of full search with the
// window centred on zero (SPEC §2): for devices whose full search does not count them itself.
void set_full_search_candidates(MotionField& field, int width, int height, const SearchParams& params);

}  // namespace xme
