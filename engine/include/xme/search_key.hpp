// SPEC §3/§4: the unique best candidate is the one with the smallest key (cost, |x|+|y|, y, x).
// Packing the key into one 64-bit integer lets any backend pick the winner with a plain `min`, in
// any evaluation order. Vectors are packed in half-pel units, which orders integer candidates
// (x = 2*dx) and half-pel candidates alike; scaling by 2 keeps the order.
#pragma once

#include <cstdint>

#include "xme/params.hpp"

namespace xme {

// |half-pel coordinate| <= 2*max_search_range + 1 = 8191: 14 bits once offset, 14 bits for |x|+|y|.
inline constexpr int key_coordinate_offset = 2 * max_search_range + 1;
inline constexpr int key_cost_shift = 42;  // leaves 22 bits: cost4 of a 32x32 block is < 2^20

[[nodiscard]] constexpr std::uint64_t pack_search_key(std::uint32_t cost, int half_x, int half_y) {
    const auto manhattan =
        static_cast<std::uint64_t>((half_x < 0 ? -half_x : half_x) + (half_y < 0 ? -half_y : half_y));
    return (static_cast<std::uint64_t>(cost) << key_cost_shift) | (manhattan << 28) |
           (static_cast<std::uint64_t>(half_y + key_coordinate_offset) << 14) |
           static_cast<std::uint64_t>(half_x + key_coordinate_offset);
}

[[nodiscard]] constexpr std::uint32_t key_cost(std::uint64_t key) {
    return static_cast<std::uint32_t>(key >> key_cost_shift);
}
[[nodiscard]] constexpr int key_half_x(std::uint64_t key) {
    return static_cast<int>(key & 0x3FFF) - key_coordinate_offset;
}
[[nodiscard]] constexpr int key_half_y(std::uint64_t key) {
    return static_cast<int>((key >> 14) & 0x3FFF) - key_coordinate_offset;
}

// A key's vector (quarter pel) and cost as a BlockMotion (or a backend's record of the same first three
// members), so that every backend reads its keys the same way.
template <class Motion>
[[nodiscard]] constexpr Motion motion_of_search_key(std::uint64_t key) {
    return {static_cast<std::int16_t>(2 * key_half_x(key)), static_cast<std::int16_t>(2 * key_half_y(key)),
            key_cost(key)};
}

}  // namespace xme
