// A stream of frame pairs on one CUDA device (see cuda_session.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "xme/device.hpp"

namespace xme::cuda {

// The implementation strategies a CUDA device offers; the names are DeviceInfo::variants.
enum class Variant { fast, fast_texture, global, shared, candidate };

[[nodiscard]] Variant parse_variant(const std::string& name);

struct SessionConfig {
    int ordinal = 0;                // CUDA device number
    std::string device_name;        // "cuda:0", for messages
    Variant variant = Variant::fast;
    SessionOptions options;
    std::size_t texture_alignment = 512;
};

[[nodiscard]] std::unique_ptr<MotionSession> open_cuda_session(const SessionConfig& config);

}  // namespace xme::cuda
