#pragma once

#include "xme/frame.hpp"

namespace xme::cpu {

// SPEC §11: ceil(W/2) x ceil(H/2) means of 2x2 samples.
[[nodiscard]] Plane mean_downsample(PlaneView plane);

}  // namespace xme::cpu
