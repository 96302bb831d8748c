// SPEC §13's rounding, shared by the DCT variants (engine-private): a float result to the nearest
// integer, halves away from zero. std::round is exact on every float (it adds nothing that could round
// first, unlike floor(v + 0.5f), which turns 0.49999997f into 1); GPU backends use roundf / round().
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "xme/dct.hpp"
#include "xme/error.hpp"

namespace xme::reference::detail {

// A coefficient; |v| <= 8 * 2048 + float error, inside int16.
inline std::int16_t round_coefficient(float v) { return static_cast<std::int16_t>(std::round(v)); }

// A reconstructed sample: rounded, then clipped to -256..255.
inline std::int16_t round_and_clip_sample(float v) {
    const float rounded =
        std::clamp(std::round(v), static_cast<float>(idct_output_min), static_cast<float>(idct_output_max));
    return static_cast<std::int16_t>(rounded);
}

inline void require_dct_input(const Block8x8& samples) {
    for (const std::int16_t sample : samples) {
        if (sample < dct_input_min || sample > dct_input_max) {
            throw Error(ErrorKind::invalid_argument,
                        "forward DCT input " + std::to_string(sample) + " is out of bounds: use -2048..2047");
        }
    }
}

}  // namespace xme::reference::detail
