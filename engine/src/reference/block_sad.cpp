// SPEC §3 (and §9's partitions): the sum of absolute differences, every read edge-replicated.
#include <cstdlib>

#include "xme/reference_ops.hpp"

namespace xme::reference {

std::uint32_t block_sad(PlaneView reference, PlaneView current, int x, int y, int width, int height, int dx,
                        int dy) {
    std::uint32_t sum = 0;
    for (int j = 0; j < height; ++j) {
        for (int i = 0; i < width; ++i) {
            const int c = current.at_clamped(x + i, y + j);
            const int r = reference.at_clamped(x + i + dx, y + j + dy);
            sum += static_cast<std::uint32_t>(std::abs(c - r));
        }
    }
    return sum;
}

}  // namespace xme::reference
