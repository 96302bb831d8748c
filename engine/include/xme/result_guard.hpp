// Guard bytes after every result buffer a backend writes: a kernel that writes past its results
// (a wrong block count, an off-by-one grid) changes them, and the check after each pair names the
// buffer instead of letting the write corrupt whatever lies beyond. Filling and checking 64 bytes
// per pair costs nothing next to a search, so every build checks, the test builds included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xme {

inline constexpr std::size_t result_guard_bytes = 64;

// A pattern no kernel writes by accident (not zeros, not all ones, not a repeated byte).
[[nodiscard]] constexpr std::uint8_t result_guard_byte(std::size_t i) {
    return static_cast<std::uint8_t>(0xA5u ^ (i * 0x1Du));
}

// Writes the pattern into the result_guard_bytes at `guard`.
void fill_result_guard(void* guard);

// Throws Error(device) naming `buffer` and the first changed byte when the pattern at `guard` is not
// intact: an internal error of the backend that wrote the buffer.
void check_result_guard(const void* guard, const std::string& buffer);

}  // namespace xme
