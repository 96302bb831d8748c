// SPEC §11 (ehds): one level of the mean pyramid.
#include "xme/reference_ops.hpp"

namespace xme::reference {

Plane mean_downsample(PlaneView plane) {
    Plane half((plane.width + 1) / 2, (plane.height + 1) / 2);
    for (int y = 0; y < half.height(); ++y) {
        for (int x = 0; x < half.width(); ++x) {
            // At odd sizes the last column or row reads itself twice (edge replication).
            const int sum = plane.at_clamped(2 * x, 2 * y) + plane.at_clamped(2 * x + 1, 2 * y) +
                            plane.at_clamped(2 * x, 2 * y + 1) + plane.at_clamped(2 * x + 1, 2 * y + 1);
            half.at(x, y) = static_cast<std::uint8_t>((sum + 2) >> 2);
        }
    }
    return half;
}

}  // namespace xme::reference
