#include "dct_runner.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "dct_kernels.hpp"

namespace xme::cuda {
namespace {

// The kernel works on 16-byte rows of the same bytes.
static_assert(sizeof(Block8x8) == 64 * sizeof(std::int16_t), "Block8x8 must be 64 packed int16");

DctVariant kernel_variant(TransformAlgorithm algorithm) {
    return algorithm == TransformAlgorithm::matrix ? DctVariant::matrix : DctVariant::loeffler;
}

DctDirection kernel_direction(TransformDirection direction) {
    return direction == TransformDirection::forward ? DctDirection::forward : DctDirection::inverse;
}

}  // namespace

void DctRunner::run(TransformAlgorithm algorithm, TransformDirection direction, std::span<Block8x8> blocks) {
    if (blocks.empty()) return;
    const std::lock_guard lock(mutex_);
    // frame_size names the job in an out-of-memory message.
    const CallSite site{device_name_, -1,
                        std::string("the ") + to_string(algorithm) + " " + to_string(direction) + " DCT of " +
                            std::to_string(blocks.size()) + " 8x8 blocks"};
    // The calling thread may have any device current: the buffers and the stream live on this one.
    XME_CUDA_CHECK(cudaSetDevice(ordinal_), site);
    if (stream_.get() == nullptr) stream_ = make_stream(site);
    reserve(blocks.size(), site);

    // Straight from and to the caller's (pageable) memory: the driver stages such copies itself, and a
    // pinned buffer of our own would add a host copy and keep pinned as much memory as the largest call.
    // A pageable upload has read the caller's blocks when it returns, and a pageable download has
    // written them when it returns, so a failure below never leaves a copy touching them.
    const std::size_t bytes = blocks.size_bytes();
    const cudaStream_t stream = stream_.get();
    auto* const input = static_cast<std::int16_t*>(input_.get());
    auto* const output = static_cast<std::int16_t*>(output_.get());
    XME_CUDA_CHECK(cudaMemcpyAsync(input, blocks.data(), bytes, cudaMemcpyHostToDevice, stream), site);
    const std::string launch =
        std::string("launch_dct (") + to_string(algorithm) + " " + to_string(direction) + ")";
    check(launch_dct(kernel_variant(algorithm), kernel_direction(direction), input, output, blocks.size(),
                     stream),
          launch.c_str(), site);
    XME_CUDA_CHECK(cudaMemcpyAsync(blocks.data(), output, bytes, cudaMemcpyDeviceToHost, stream), site);
    XME_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

void DctRunner::reserve(std::size_t blocks, const CallSite& site) {
    if (blocks <= capacity_) return;
    // Free the old pair first, so that the new one need not fit beside it.
    capacity_ = 0;
    input_.reset();
    output_.reset();
    input_ = allocate_device(blocks * sizeof(Block8x8), site);
    output_ = allocate_device(blocks * sizeof(Block8x8), site);
    capacity_ = blocks;
}

}  // namespace xme::cuda
