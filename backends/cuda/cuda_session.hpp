// A stream of frame pairs on one CUDA device (see cuda_session.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "xme/device.hpp"

namespace xme::cuda {

// The implementation strategies a CUDA device offers; the names are DeviceInfo::variants. p41_positions
// ("p41-positions") runs SPEC §9's partitions alone, one search position per thread (partition_search.cuh).
enum class Variant { fast, fast_texture, global, shared, candidate, p41_positions };

[[nodiscard]] Variant parse_variant(const std::string& name);

// SPEC §8's chains beyond §3's (a rate term, a predictor or a moved centre), §10's refinement and §11's
// searches: their kernels keep SPEC §8's key in full and return records, on variants fast and
// fast-texture only; the rest keep §3's packed keys.
[[nodiscard]] bool uses_records(const SearchParams& params);

struct SessionConfig {
    int ordinal = 0;          // CUDA device number
    std::string device_name;  // "cuda:0", for messages
    Variant variant = Variant::fast;
    SessionOptions options;
    std::size_t texture_alignment = 512;
};

[[nodiscard]] std::unique_ptr<MotionSession> open_cuda_session(const SessionConfig& config);

}  // namespace xme::cuda
