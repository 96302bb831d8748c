// ehds's mean pyramid (SPEC §11, engine/src/reference/mean_downsample.cpp), one level-2 pixel at a time:
// level 1 holds the 2x2 means (a + b + c + d + 2) >> 2 of the frame, level 2 those of level 1, each
// ceil(side / 2) of the level below with edge replication at odd sizes. __host__ __device__ so that
// walk_emulation_test.cpp checks it against the reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "qpel_arith.cuh"

namespace xme::cuda {

// Width (or height) of pyramid level 1 or 2 of a frame `side` pixels wide (or high).
XME_QPEL_HD int pyramid_side(int side, int level) { return level == 1 ? (side + 1) / 2 : (side + 3) / 4; }

// Level-1 pixel (x1, y1) from the raw frame (tightly packed, width x height), reads clamped into it.
XME_QPEL_HD int level1_pixel(const std::uint8_t* raw, int width, int height, int x1, int y1) {
    const int x0 = 2 * x1;
    const int y0 = 2 * y1;
    const int right = qpel::min_int(x0 + 1, width - 1);
    const std::uint8_t* top = raw + static_cast<std::size_t>(y0) * static_cast<std::size_t>(width);
    const std::uint8_t* bottom =
        raw + static_cast<std::size_t>(qpel::min_int(y0 + 1, height - 1)) * static_cast<std::size_t>(width);
    return (top[x0] + top[right] + bottom[x0] + bottom[right] + 2) >> 2;
}

// Level-2 pixel (x2, y2) and the level-1 pixels under it that lie inside level 1 (each level-1 pixel
// lies under exactly one level-2 pixel, so every one is written once).
XME_QPEL_HD void pyramid_pixel(const std::uint8_t* raw, int width, int height, int x2, int y2,
                               std::uint8_t* level1, std::uint8_t* level2) {
    const int w1 = pyramid_side(width, 1);
    const int h1 = pyramid_side(height, 1);
    int sum = 0;
    for (int j = 0; j < 2; ++j) {
        for (int i = 0; i < 2; ++i) {
            // Past level 1's last column or row, level 2 reads that last one again (edge replication).
            const int x1 = qpel::min_int(2 * x2 + i, w1 - 1);
            const int y1 = qpel::min_int(2 * y2 + j, h1 - 1);
            const int v = level1_pixel(raw, width, height, x1, y1);
            if (x1 == 2 * x2 + i && y1 == 2 * y2 + j)
                level1[static_cast<std::size_t>(y1) * static_cast<std::size_t>(w1) +
                       static_cast<std::size_t>(x1)] = static_cast<std::uint8_t>(v);
            sum += v;
        }
    }
    const auto w2 = static_cast<std::size_t>(pyramid_side(width, 2));
    level2[static_cast<std::size_t>(y2) * w2 + static_cast<std::size_t>(x2)] =
        static_cast<std::uint8_t>((sum + 2) >> 2);
}

}  // namespace xme::cuda
