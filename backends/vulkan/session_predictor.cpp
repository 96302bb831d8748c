// SPEC §8's temporal predictor in a Vulkan session: where the previous pair's vectors come from.
#include <cstdlib>
#include <cstring>
#include <string>

#include "session.hpp"
#include "xme/error.hpp"
#include "xme/partition_keys.hpp"

namespace xme::vulkan {

void VulkanSession::check_previous(const FramePair& pair) const {
    const std::size_t blocks = static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_);
    if (pair.previous) {
        if (pair.previous->blocks.size() != blocks) {
            throw Error(ErrorKind::invalid_argument, context_.name() + ": the previous pair's result has " +
                                                         std::to_string(pair.previous->blocks.size()) +
                                                         " blocks, this session's frames " +
                                                         std::to_string(blocks));
        }
        check_partition_predictors(*pair.previous);
        return;
    }
    if (!computed_any_) {
        throw Error(ErrorKind::invalid_argument,
                    context_.name() + ", frame " + std::to_string(pair.current_id) +
                        ": the temporal predictor needs the previous pair's result, and this session has "
                        "computed none: give FramePair::previous, or mark the pair as a segment start");
    }
}

void VulkanSession::check_partition_predictors(const MotionField& previous) const {
    const SearchParams& p = options_.params;
    // The partition search's tables take the vectors of a window of this range centred on 0, as its
    // own results are (a centred window's tables take any p).
    if (variant_ == "legacy" || p.partitions != Partitions::all || p.centre == WindowCentre::predictor)
        return;
    const int bound = partition_predictor_bound(p.range);
    for (std::size_t i = 0; i < previous.blocks.size(); ++i) {
        const BlockMotion& m = previous.blocks[i];
        if (std::abs(m.mv_x) > bound || std::abs(m.mv_y) > bound) {
            throw Error(ErrorKind::unsupported,
                        context_.name() + ": the temporal predictor of macroblock " + std::to_string(i) +
                            ", (" + std::to_string(m.mv_x) + "," + std::to_string(m.mv_y) +
                            ") quarter pel, lies outside the window of range " + std::to_string(p.range) +
                            " that the partition search's tables cover: run this chain with --backend cpu");
        }
    }
}

void VulkanSession::record_previous_vectors(VkCommandBuffer commands, Submission& submission,
                                            const FramePair& pair) {
    const Api& api = context_.api();
    const std::size_t blocks = static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_);
    // Earlier pairs' passes and readbacks are done with results_ and previous_.
    memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    if (pair.previous) {
        const MotionField& previous = *pair.previous;
        std::uint8_t* destination = submission.staging.mapped() + 2 * frame_bytes_;
        for (std::size_t i = 0; i < blocks; ++i) {
            const BlockMotion& b = previous.blocks[i];
            const std::uint32_t words[2] = {
                (static_cast<std::uint32_t>(static_cast<std::uint16_t>(b.mv_x))) |
                    (static_cast<std::uint32_t>(static_cast<std::uint16_t>(b.mv_y)) << 16),
                b.cost};
            std::memcpy(destination + 8 * i, words, 8);
        }
        const VkBufferCopy copy{2 * frame_bytes_, 0, result_bytes_};
        api.vkCmdCopyBuffer(commands, submission.staging.get(), previous_.get(), 1, &copy);
        return;
    }
    // The pair submitted last left its vectors in results_: queue order puts its passes before these.
    const VkBufferCopy copy{0, 0, result_bytes_};
    api.vkCmdCopyBuffer(commands, results_.get(), previous_.get(), 1, &copy);
}

}  // namespace xme::vulkan
