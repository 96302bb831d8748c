// SPEC §12: the residual current - prediction as int16, and its per-frame sum of absolute values.
#include <string>

#include "xme/error.hpp"
#include "xme/motion_compensation.hpp"

namespace xme::reference {
namespace {

void require_same_size(PlaneView a, PlaneView b, const char* what) {
    if (a.width != b.width || a.height != b.height) {
        throw Error(ErrorKind::invalid_argument, std::string(what) + ": planes " + std::to_string(a.width) +
                                                     "x" + std::to_string(a.height) + " and " +
                                                     std::to_string(b.width) + "x" +
                                                     std::to_string(b.height) + " differ in size");
    }
}

}  // namespace

Int16Plane residual(PlaneView current, PlaneView prediction) {
    require_same_size(current, prediction, "residual");
    Int16Plane result(current.width, current.height);
    for (int y = 0; y < current.height; ++y) {
        for (int x = 0; x < current.width; ++x) {
            result.at(x, y) = static_cast<std::int16_t>(current.at(x, y) - prediction.at(x, y));
        }
    }
    return result;
}

std::uint64_t residual_abs_sum(const Int16Plane& residual) {
    std::uint64_t sum = 0;
    for (const std::int16_t value : residual.values)
        sum += static_cast<std::uint64_t>(value < 0 ? -value : value);
    return sum;
}

}  // namespace xme::reference
