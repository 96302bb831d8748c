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
    // The unrounded horizontal samples of source row r (r = -2 .. rows + 2) in ring slot (r + 2) % 6.
    const auto b1_row = [&](int r) { return scratch + (r + 2) % 6 * w; };
    const auto filter_row = [&](int r) {
        const std::uint8_t* s = source + r * stride;
        std::int32_t* out = b1_row(r);
        for (int x = 0; x < w; ++x) out[x] = six_tap(s[x - 2], s[x - 1], s[x], s[x + 1], s[x + 2], s[x + 3]);
    };
    for (int r = -2; r < 3; ++r) filter_row(r);
    for (int y = 0; y < rows; ++y) {
        filter_row(y + 3);
        const std::int32_t* b1 = b1_row(y);
        const std::int32_t* c[6];
        for (int k = 0; k < 6; ++k) c[k] = b1_row(y - 2 + k);
        for (int x = 0; x < w; ++x) {
            horizontal[y * w + x] = clip255((b1[x] + 16) >> 5);
            const std::uint8_t* s = source + y * stride + x;
            vertical[y * w + x] = clip255(
                (six_tap(s[-2 * stride], s[-stride], s[0], s[stride], s[2 * stride], s[3 * stride]) + 16) >>
                5);
            centre[y * w + x] =
                clip255((six_tap(c[0][x], c[1][x], c[2][x], c[3][x], c[4][x], c[5][x]) + 512) >> 10);
        }
    }
}

}  // namespace xme::cpu
