// Whether a device's linear-filtering sampler yields exact half-pel samples (SPEC §6).
#pragma once

#include "context.hpp"

namespace xme::vulkan {

// The largest error of the linear sampler's half-pel samples of an R8_UNORM image over a random
// probe image, as legacy_pass2.comp uses them, in cost4 units per pixel (4 per grey level): 0 where
// the filter keeps the exact average, 2 where it rounds the result to 8 bits (lavapipe).
[[nodiscard]] int measure_filter_error(Context& context);

}  // namespace xme::vulkan
