// SPEC §6: whether two devices' motion fields for the same frame pair agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/params.hpp"

namespace xme {

struct BlockMismatch {
    int block_x = 0;  // block column and row
    int block_y = 0;
    BlockMotion expected;
    BlockMotion actual;
    std::uint32_t expected_reference_cost = 0;  // the reference's cost of each vector (SPEC §3/§4 scale)
    std::uint32_t actual_reference_cost = 0;
};

struct Agreement {
    std::int64_t blocks_compared = 0;
    std::int64_t blocks_different = 0;      // any difference, accepted under the tolerance or not
    std::vector<BlockMismatch> mismatches;  // differences the tolerance does not accept
    [[nodiscard]] bool agrees() const { return mismatches.empty(); }
};

// Compares `actual` with `expected` block by block. With tolerance 0 they must be identical. With a
// tolerance, a block's vector m is accepted when the reference cost of m is within it of the
// reference cost of the expected vector (SPEC §6); its reported cost is not compared.
[[nodiscard]] Agreement compare_fields(PlaneView reference, PlaneView current, const SearchParams& params,
                                       const MotionField& expected, const MotionField& actual,
                                       std::uint32_t tolerance);

[[nodiscard]] std::string describe(const BlockMismatch& mismatch, int block_size);

}  // namespace xme

namespace xme {

// Each block's reported cost against the reference's cost of the same vector: a device must report
// the true cost of what it found (within the tolerance for filtered half-pel), its rate term included
// (SPEC §8, against the chain's predictors: `previous` is the previous pair's field of the same
// segment for the temporal one, null at a segment's start). Mismatches carry the reference's cost as
// `expected`.
[[nodiscard]] Agreement check_reported_costs(PlaneView reference, PlaneView current,
                                             const SearchParams& params, const MotionField& field,
                                             std::uint32_t tolerance, const MotionField* previous = nullptr);

}  // namespace xme
