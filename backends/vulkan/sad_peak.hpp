// The peak rate of the "fast" variant's SAD arithmetic on a device (shaders/sad_forms.comp).
#pragma once

#include <string>

#include "context.hpp"
#include "xme/device.hpp"

namespace xme::vulkan {

// Pixel differences per second when every invocation runs nothing but the fast kernel's
// subtract-and-add-absolute chains, in 16-bit float pairs where the kernel uses them.
[[nodiscard]] SadPeak measure_sad_peak(Context& context, bool half_pairs);

// The same for any shader with sad_forms.comp's interface: 8 chains per invocation, each step of a
// chain `pixels_per_step` pixel differences.
[[nodiscard]] SadPeak measure_arithmetic_peak(Context& context, const ShaderBinary& shader,
                                              double pixels_per_step, const std::string& name);

}  // namespace xme::vulkan
