// SPEC §13 on a Vulkan device: the 8x8 transforms of a span of blocks (shaders/dct.comp), bit-identical
// with the reference.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <utility>

#include "context.hpp"
#include "resources.hpp"
#include "xme/dct.hpp"

namespace xme::vulkan {

class DctTransform {
public:
    explicit DctTransform(std::shared_ptr<Context> context) : context_(std::move(context)) {}

    // `blocks` transformed in place; forward inputs must have been checked (check_forward_inputs).
    // On an error the caller's blocks are unchanged. Safe to call from several threads.
    void run(TransformAlgorithm algorithm, TransformDirection direction, std::span<Block8x8> blocks);

private:
    // Blocks one submission transforms: the workgroup count and the storage-buffer range allow.
    [[nodiscard]] std::size_t chunk_limit() const;
    void reserve(std::size_t blocks);
    void transform_chunk(TransformAlgorithm algorithm, TransformDirection direction, std::size_t count);

    std::shared_ptr<Context> context_;
    std::mutex mutex_;
    // Host-visible and coherent, bound as the shader's storage buffer: the blocks go in and come out
    // here, with no staging copy (one block per call is the IEEE 1180 test's pattern).
    Buffer blocks_;
    std::size_t capacity_ = 0;
    CommandBuffer commands_;
    // One descriptor set per (variant, direction) pipeline, written for the current buffer.
    std::map<std::pair<int, int>, std::unique_ptr<DescriptorSets>> sets_;
};

}  // namespace xme::vulkan
