// SPEC §10: the Hadamard-transformed difference (SATD) of 4x4 tiles.
#include <cstdlib>
#include <string>

#include "xme/error.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

constexpr int hadamard[4][4] = {{1, 1, 1, 1}, {1, 1, -1, -1}, {1, -1, -1, 1}, {1, -1, 1, -1}};

}  // namespace

std::uint32_t satd4(const int (&difference)[4][4]) {
    // H D, then (H D) H^T, written as the matrix products they are.
    int hd[4][4] = {};
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            for (int k = 0; k < 4; ++k) hd[r][c] += hadamard[r][k] * difference[k][c];
        }
    }
    std::uint32_t sum = 0;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            int coefficient = 0;
            for (int k = 0; k < 4; ++k) coefficient += hd[r][k] * hadamard[c][k];
            sum += static_cast<std::uint32_t>(std::abs(coefficient));
        }
    }
    return sum >> 1;
}

std::uint32_t satd(PlaneView reference, PlaneView current, int x, int y, int width, int height,
                   MotionVector mv) {
    if (width % 4 != 0 || height % 4 != 0 || width < 4 || height < 4) {
        throw Error(ErrorKind::invalid_argument, "SATD needs a block of whole 4x4 tiles, got " +
                                                     std::to_string(width) + "x" + std::to_string(height));
    }
    std::uint32_t sum = 0;
    for (int ty = 0; ty < height; ty += 4) {
        for (int tx = 0; tx < width; tx += 4) {
            int difference[4][4];
            for (int j = 0; j < 4; ++j) {
                for (int i = 0; i < 4; ++i) {
                    const int px = x + tx + i;
                    const int py = y + ty + j;
                    difference[j][i] =
                        current.at_clamped(px, py) - h264_sample(reference, 4 * px + mv.x, 4 * py + mv.y);
                }
            }
            sum += satd4(difference);
        }
    }
    return sum;
}

}  // namespace xme::reference
