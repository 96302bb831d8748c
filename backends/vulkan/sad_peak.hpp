// The peak rate of the "fast" variant's SAD arithmetic on a device (shaders/sad_peak.comp).
#pragma once

#include "context.hpp"
#include "xme/device.hpp"

namespace xme::vulkan {

// Pixel differences per second when every invocation runs nothing but the fast kernel's
// subtract-and-add-absolute chains, in 16-bit float pairs where the kernel uses them.
[[nodiscard]] SadPeak measure_sad_peak(Context& context, bool half_pairs);

}  // namespace xme::vulkan
