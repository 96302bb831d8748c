#include "dct_transform.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "dct_spv.hpp"
#include "xme/vulkan_backend.hpp"

namespace xme::vulkan {
namespace {

constexpr std::size_t blocks_per_group = 8;  // dct.comp: 64 invocations, 8 per block

std::string describe(TransformAlgorithm algorithm, TransformDirection direction, std::size_t count) {
    return std::string("the ") + to_string(algorithm) + " " + to_string(direction) + " DCT of " +
           std::to_string(count) + " 8x8 blocks";
}

}  // namespace

std::size_t DctTransform::chunk_limit() const {
    const VkPhysicalDeviceLimits& limits = context_->limits();
    const std::size_t by_groups = std::size_t{limits.maxComputeWorkGroupCount[0]} * blocks_per_group;
    const std::size_t by_range = limits.maxStorageBufferRange / sizeof(Block8x8);
    // 2^20 blocks (128 MiB) at most, so that a huge call does not pin as much host memory as it is large.
    return std::min({by_groups, by_range, std::size_t{1} << 20});
}

void DctTransform::reserve(std::size_t blocks) {
    if (blocks <= capacity_) return;
    sets_.clear();
    capacity_ = 0;
    blocks_ = Buffer();  // the old one first, so that the new one need not fit beside it
    blocks_ = Buffer(*context_, blocks * sizeof(Block8x8), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                     MemoryUse::readback, "the blocks of a DCT on " + context_->name());
    capacity_ = blocks;
}

void DctTransform::transform_chunk(TransformAlgorithm algorithm, TransformDirection direction,
                                   std::size_t count) {
    const int loeffler = algorithm == TransformAlgorithm::loeffler ? 1 : 0;
    const int inverse = direction == TransformDirection::inverse ? 1 : 0;
    const Pipeline& pipeline = context_->pipeline(
        shaders::dct, {{"LOEFFLER", loeffler}, {"INVERSE", inverse}}, push_constant_layout<DctParams>());
    auto& set = sets_[{loeffler, inverse}];
    if (!set) {
        set = std::make_unique<DescriptorSets>(*context_, pipeline, 1);
        set->write(0, {{"Blocks", {}, {}, blocks_.get()}});
    }
    const std::string what = describe(algorithm, direction, count) + " on " + context_->name();
    if (commands_.get() == VK_NULL_HANDLE) commands_ = CommandBuffer(*context_);
    const Api& api = context_->api();
    const VkCommandBuffer cb = commands_.get();
    commands_.begin(what);
    DctParams params;
    params.block_count = static_cast<std::uint32_t>(count);
    pipeline.bind_and_push(cb, (*set)[0], params);
    api.vkCmdDispatch(cb, static_cast<std::uint32_t>((count + blocks_per_group - 1) / blocks_per_group), 1,
                      1);
    memory_barrier(api, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    commands_.end(what);
    commands_.submit(what);
    commands_.wait(what);
    context_->check_validation("after " + what);
}

void DctTransform::run(TransformAlgorithm algorithm, TransformDirection direction,
                       std::span<Block8x8> blocks) {
    if (blocks.empty()) return;
    const std::lock_guard lock(mutex_);
    const std::size_t limit = chunk_limit();
    reserve(std::min(blocks.size(), limit));
    auto* const mapped = reinterpret_cast<Block8x8*>(blocks_.mapped());
    if (blocks.size() <= limit) {
        std::memcpy(mapped, blocks.data(), blocks.size_bytes());
        transform_chunk(algorithm, direction, blocks.size());
        std::memcpy(blocks.data(), mapped, blocks.size_bytes());
        return;
    }
    // Several submissions: the results wait here until every one has succeeded.
    std::vector<Block8x8> results(blocks.size());
    for (std::size_t first = 0; first < blocks.size(); first += limit) {
        const std::size_t count = std::min(limit, blocks.size() - first);
        std::memcpy(mapped, blocks.data() + first, count * sizeof(Block8x8));
        transform_chunk(algorithm, direction, count);
        std::memcpy(results.data() + first, mapped, count * sizeof(Block8x8));
    }
    std::copy(results.begin(), results.end(), blocks.begin());
}

std::span<const std::uint32_t> dct_shader_words() { return shaders::dct.words; }

}  // namespace xme::vulkan
