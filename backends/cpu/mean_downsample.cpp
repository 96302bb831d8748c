// SPEC §11 (ehds): one level of the mean pyramid, (a + b + c + d + 2) >> 2 over 2x2, edge-replicated.
#include "mean_downsample.hpp"

#include <algorithm>

namespace xme::cpu {

Plane mean_downsample(PlaneView plane) {
    const int width = (plane.width + 1) / 2;
    const int height = (plane.height + 1) / 2;
    Plane half(width, height);
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* top = plane.row(2 * y);
        const std::uint8_t* bottom = plane.row(std::min(2 * y + 1, plane.height - 1));
        // clang-analyzer assumes the plane's width x height may be 0 samples here; both are at least 1.
        std::uint8_t* out = half.row(y);
        // Whole 2x2 groups in a loop of its own, without the edge's clamp, so that g++ vectorises it.
        const int whole = plane.width / 2;
        for (int x = 0; x < whole; ++x) {
            out[x] = static_cast<std::uint8_t>(  // NOLINT(clang-analyzer-cplusplus.NewDelete)
                (top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + 2) >> 2);
        }
        if (whole < width) {  // an odd width: the last column replicated
            const int x = plane.width - 1;
            // NOLINTNEXTLINE(clang-analyzer-cplusplus.NewDelete)
            out[whole] = static_cast<std::uint8_t>((2 * top[x] + 2 * bottom[x] + 2) >> 2);
        }
    }
    return half;
}

}  // namespace xme::cpu
