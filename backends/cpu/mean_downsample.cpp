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
        std::uint8_t* out = half.row(y);
        for (int x = 0; x < width; ++x) {
            const int right = std::min(2 * x + 1, plane.width - 1);
            out[x] =
                static_cast<std::uint8_t>((top[2 * x] + top[right] + bottom[2 * x] + bottom[right] + 2) >> 2);
        }
    }
    return half;
}

}  // namespace xme::cpu
