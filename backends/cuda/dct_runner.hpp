// Device::transform_blocks on a CUDA device: the blocks go up, through one launch of dct_kernels.cu,
// and back down. The device buffers stay allocated between calls and only grow, because callers make
// many small calls (the IEEE 1180 check in the conformance test makes 10^4 calls of one block per range
// and direction), where a cudaMalloc and cudaFree per call would cost more than the transform.
#pragma once

#include <cstddef>
#include <mutex>
#include <span>
#include <string>
#include <utility>

#include "device_frames.hpp"
#include "xme/dct.hpp"

namespace xme::cuda {

class DctRunner {
public:
    DctRunner(int ordinal, std::string device_name)
        : ordinal_(ordinal), device_name_(std::move(device_name)) {}

    // In place. Forward inputs must already be checked (xme::check_forward_inputs), since a bad sample
    // must be refused before any block changes. Safe to call from several threads (one at a time runs).
    void run(TransformAlgorithm algorithm, TransformDirection direction, std::span<Block8x8> blocks);

private:
    // Caller holds mutex_.
    void reserve(std::size_t blocks, const CallSite& site);

    int ordinal_;
    std::string device_name_;
    std::mutex mutex_;
    Stream stream_;             // created on first use, on this device
    std::size_t capacity_ = 0;  // blocks that input_ and output_ each hold
    DeviceMemory input_;
    DeviceMemory output_;
};

}  // namespace xme::cuda
