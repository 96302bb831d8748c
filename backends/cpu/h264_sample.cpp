// SPEC §10's half-pel planes of a block's neighbourhood in plain C++: the horizontal 6-tap filter once
// per row (kept unrounded for the centre samples), the vertical one once per column.
#include <algorithm>

#include "cpu_kernels.hpp"

namespace xme::cpu {
namespace {

int six_tap(int e, int f, int g, int h, int i, int j) { return e - 5 * f + 20 * g + 20 * h - 5 * i + j; }
std::uint8_t clip255(int value) { return static_cast<std::uint8_t>(std::clamp(value, 0, 255)); }

}  // namespace

void plain_half_pel_planes(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                           std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                           std::int32_t* scratch) {
    const int w = width;
    // scratch row r holds the unrounded horizontal samples of source row r - 2.
    for (int r = 0; r < rows + 5; ++r) {
        const std::uint8_t* s = source + (r - 2) * stride;
        std::int32_t* out = scratch + r * w;
        for (int x = 0; x < w; ++x) out[x] = six_tap(s[x - 2], s[x - 1], s[x], s[x + 1], s[x + 2], s[x + 3]);
    }
    for (int y = 0; y < rows; ++y) {
        const std::int32_t* b1 = scratch + (y + 2) * w;
        for (int x = 0; x < w; ++x) {
            horizontal[y * w + x] = clip255((b1[x] + 16) >> 5);
            const std::uint8_t* s = source + y * stride + x;
            vertical[y * w + x] = clip255(
                (six_tap(s[-2 * stride], s[-stride], s[0], s[stride], s[2 * stride], s[3 * stride]) + 16) >>
                5);
            const std::int32_t* c = scratch + y * w + x;
            centre[y * w + x] =
                clip255((six_tap(c[0], c[w], c[2 * w], c[3 * w], c[4 * w], c[5 * w]) + 512) >> 10);
        }
    }
}

}  // namespace xme::cpu
