// IEEE Std 1180-1990's accuracy test of 8x8 inverse DCTs, applied by SPEC §13 to the inverse and the
// forward transform alike; written from the standard's description, shared by every device's tests.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "xme/dct.hpp"

namespace xme::test {

// The standard's pseudo-random generator: the linear congruential generator
// randx = randx * 1103515245 + 12345 (32-bit, wrapping), seeded with randx = 1; a value in -L..H is
// floor((randx & 0x7ffffffe) / 0x7fffffff * (L + H + 1)) - L.
class Ieee1180Random {
public:
    [[nodiscard]] int next(int low, int high);

private:
    std::uint32_t state_ = 1;
};

struct Ieee1180Range {
    int low = 256;  // L: values -L..H
    int high = 255;
    bool sign_flipped = false;
};
// The standard's three ranges, each also sign-flipped: six runs of 10,000 blocks.
[[nodiscard]] std::vector<Ieee1180Range> ieee1180_ranges();
inline constexpr int ieee1180_blocks = 10000;

struct Ieee1180Figures {
    int peak_error = 0;              // max |e| over every position and block
    double worst_position_mse = 0;   // max over the 64 positions of mean(e^2)
    double overall_mse = 0;          // mean(e^2) over everything
    double worst_position_mean = 0;  // max over the 64 positions of |mean(e)|
    double overall_mean = 0;         // |mean(e)| over everything
    bool zero_in_zero_out = false;   // the transform of an all-zero block is all zero

    [[nodiscard]] bool within_limits() const;
    // One line: every figure next to its limit.
    [[nodiscard]] std::string describe() const;
};

using BlockTransform = std::function<Block8x8(const Block8x8&)>;

// The standard's procedure: random samples in the range (negated when sign_flipped); their coefficients
// by the double-precision formula, rounded to integers and clipped to -2048..2047; e = the transform
// under test minus the double-precision inverse of those coefficients, rounded and clipped to
// -256..255.
[[nodiscard]] Ieee1180Figures ieee1180_inverse(const BlockTransform& inverse, Ieee1180Range range);
// SPEC §13's forward reading: e = the transform under test of the random samples minus the
// double-precision forward of the same samples, rounded to integers (no clipping: both fit int16).
[[nodiscard]] Ieee1180Figures ieee1180_forward(const BlockTransform& forward, Ieee1180Range range);

// The same, with the transform applied in place to all 10,000 blocks of a run in one call (and to the
// all-zero block in another): a device pays its per-call cost twice instead of 10,001 times.
using BatchTransform = std::function<void(std::span<Block8x8>)>;
[[nodiscard]] Ieee1180Figures ieee1180_inverse_batch(const BatchTransform& inverse, Ieee1180Range range);
[[nodiscard]] Ieee1180Figures ieee1180_forward_batch(const BatchTransform& forward, Ieee1180Range range);

[[nodiscard]] std::string describe(Ieee1180Range range);

}  // namespace xme::test
