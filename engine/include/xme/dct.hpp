// SPEC §13: the 8x8 DCT-II and its inverse, variants `matrix` and `loeffler`, each defined down to its
// IEEE single-precision operations so that every backend computes it bit for bit; a double-precision
// evaluation of the formula as the accuracy oracle; and the transform of a residual plane in tiles.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "xme/motion_compensation.hpp"

namespace xme {

enum class TransformAlgorithm { matrix, loeffler };
[[nodiscard]] const char* to_string(TransformAlgorithm algorithm);
// Accepts what to_string prints; throws Error(invalid_argument) naming `option` and the allowed values.
[[nodiscard]] TransformAlgorithm parse_transform_algorithm(std::string_view name, std::string_view option);
enum class TransformDirection { forward, inverse };
[[nodiscard]] const char* to_string(TransformDirection direction);

// One 8x8 block, row-major: samples f(x, y) at [8 * y + x] (x the column); coefficients F(u, v) at
// [8 * v + u] (u the horizontal frequency).
using Block8x8 = std::array<std::int16_t, 64>;
using ExactBlock8x8 = std::array<double, 64>;

// Forward inputs must lie in -2048..2047 (a residual is -255..255), so that every coefficient fits
// int16 (|F| <= 8 * 2048).
inline constexpr int dct_input_min = -2048;
inline constexpr int dct_input_max = 2047;
// SPEC §13: the inverse's output is clipped to this range.
inline constexpr int idct_output_min = -256;
inline constexpr int idct_output_max = 255;

namespace reference {

// SPEC §13, coefficients rounded to nearest (halves away from zero). Throws Error(invalid_argument)
// for a sample outside dct_input_min..dct_input_max.
[[nodiscard]] Block8x8 forward_dct_matrix(const Block8x8& samples);
[[nodiscard]] Block8x8 forward_dct_loeffler(const Block8x8& samples);
// SPEC §13, samples rounded to nearest (halves away from zero), then clipped to -256..255.
[[nodiscard]] Block8x8 inverse_dct_matrix(const Block8x8& coefficients);
[[nodiscard]] Block8x8 inverse_dct_loeffler(const Block8x8& coefficients);

[[nodiscard]] Block8x8 forward_dct(TransformAlgorithm algorithm, const Block8x8& samples);
[[nodiscard]] Block8x8 inverse_dct(TransformAlgorithm algorithm, const Block8x8& coefficients);
[[nodiscard]] Block8x8 transform_block(TransformAlgorithm algorithm, TransformDirection direction,
                                       const Block8x8& block);

// The accuracy oracle: SPEC §13's formula summed literally in double precision, unrounded.
[[nodiscard]] ExactBlock8x8 forward_dct_exact(const ExactBlock8x8& samples);
[[nodiscard]] ExactBlock8x8 inverse_dct_exact(const ExactBlock8x8& coefficients);

// SPEC §13 on a plane: 8x8 tiles from (0, 0); a partial tile at the right or bottom reads zeros where
// it leaves the plane, and only its part inside the plane is written (so the coefficients of a partial
// tile are cropped, and the inverse reads zeros for the cropped ones).
[[nodiscard]] Int16Plane forward_transform_plane(const Int16Plane& residual, TransformAlgorithm algorithm);
[[nodiscard]] Int16Plane inverse_transform_plane(const Int16Plane& coefficients,
                                                 TransformAlgorithm algorithm);

}  // namespace reference
}  // namespace xme
