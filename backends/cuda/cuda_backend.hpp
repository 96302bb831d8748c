// The CUDA backend's entry point (registered by backends/CMakeLists.txt as make_cuda_backend()).
#pragma once

#include <memory>

#include "xme/backend.hpp"

namespace xme {

[[nodiscard]] std::unique_ptr<Backend> make_cuda_backend();

}  // namespace xme
