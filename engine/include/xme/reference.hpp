// The scalar reference: SPEC written out literally, slow and obvious. Every backend is tested
// against it; nothing here is optimised.
#pragma once

#include <cstdint>
#include <vector>

#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/motion_vector.hpp"
#include "xme/params.hpp"

namespace xme::reference {

// SPEC §2: whether integer candidate (dx, dy) is valid for the block at pixel (bx, by).
[[nodiscard]] bool integer_candidate_valid(int bx, int by, int dx, int dy, int frame_width, int frame_height,
                                           const SearchParams& params);
// SPEC §4: whether quarter-pel candidate (mvx, mvy), on the half-pel grid, is valid.
[[nodiscard]] bool halfpel_candidate_valid(int bx, int by, int mvx, int mvy, int frame_width,
                                           int frame_height, const SearchParams& params);

// SPEC §3: SAD of the block at (bx, by) against the reference displaced by integer (dx, dy).
[[nodiscard]] std::uint32_t sad(PlaneView reference, PlaneView current, int bx, int by, int block_size,
                                int dx, int dy);
// SPEC §4: cost4 = sum |4*cur - 4*interp| for a quarter-pel vector on the half-pel grid.
[[nodiscard]] std::uint32_t cost4(PlaneView reference, PlaneView current, int bx, int by, int block_size,
                                  int mvx, int mvy);

// The whole chain of SPEC §2-§11 for one frame pair. `previous` is the previous pair's result of the
// same segment for the temporal predictor (SPEC §8), null at a segment's start.
[[nodiscard]] MotionField estimate(PlaneView reference, PlaneView current, const SearchParams& params,
                                   const MotionField* previous = nullptr);

// SPEC §8: the predictor p (quarter pel) of every block of `field` (row-major), as the chain that made
// the field used it: zero, the co-located vector of `previous` (zero without one), or the median of
// the field's blocks before it in raster order.
[[nodiscard]] std::vector<MotionVector> field_predictors(const SearchParams& params,
                                                         const MotionField* previous,
                                                         const MotionField& field);

}  // namespace xme::reference
