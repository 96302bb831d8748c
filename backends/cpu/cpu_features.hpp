// Which SAD kernels this processor can run, widest first.
#pragma once

#include <string>
#include <vector>

namespace xme::cpu {

// Kernel names double as the CPU device's variant names.
[[nodiscard]] std::vector<std::string> supported_kernels();

}  // namespace xme::cpu
