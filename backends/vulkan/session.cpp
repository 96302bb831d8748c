#include "session.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "xme/accounting.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"
#include "xme/result_guard.hpp"

namespace xme::vulkan {
namespace {

// Pairs in flight at once: one being computed while the next is uploaded and recorded.
constexpr std::size_t ring_size = 2;

constexpr VkBufferUsageFlags staging_usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

// partition_search.comp's STRIP: 4 unless the tuning asks for 1..8. At 8 its sixteen 4x4 SADs per
// candidate spill to local memory (H100: 512 bytes); 4 keeps them in registers, 3.4x faster there
// (docs/vulkan.md, "Partitions").
int partition_strip(const SessionTuning& tuning) {
    if (tuning.partition_strip < 0 || tuning.partition_strip > 8) {
        throw Error(ErrorKind::invalid_argument,
                    "partition strip " + std::to_string(tuning.partition_strip) + ": expected 1 to 8 (0: 4)");
    }
    return tuning.partition_strip == 0 ? 4 : tuning.partition_strip;
}

}  // namespace

VulkanSession::VulkanSession(std::shared_ptr<Context> context_holder, const SessionOptions& options,
                             const std::string& variant, const SessionTuning& tuning)
    : context_holder_(std::move(context_holder)),
      context_(*context_holder_),
      options_(options),
      variant_(variant),
      frame_ids_(resident_frame_count(options)),
      in_flight_(ring_size) {
    Context& context = context_;
    const auto& limits = context.limits();
    const auto max_side = static_cast<int>(limits.maxImageDimension2D);
    if (options.width > max_side || options.height > max_side) {
        throw Error(ErrorKind::unsupported, "frame size " + std::to_string(options.width) + "x" +
                                                std::to_string(options.height) + " exceeds " +
                                                context.name() + "'s maxImageDimension2D of " +
                                                std::to_string(max_side));
    }
    const int b = options.params.block_size;
    blocks_x_ = blocks_across(options.width, b);
    blocks_y_ = blocks_across(options.height, b);
    frame_bytes_ = static_cast<std::size_t>(options.width) * static_cast<std::size_t>(options.height);
    const auto blocks = static_cast<VkDeviceSize>(blocks_x_) * static_cast<VkDeviceSize>(blocks_y_);
    // The results, then guard bytes the passes must leave alone (xme/result_guard.hpp).
    result_bytes_ = blocks * 8;
    const VkDeviceSize guarded_bytes = result_bytes_ + result_guard_bytes;
    if (guarded_bytes > limits.maxStorageBufferRange) {
        throw Error(ErrorKind::unsupported,
                    std::to_string(blocks) + " blocks need a " + std::to_string(blocks * 8) +
                        "-byte result buffer, over " + context.name() + "'s maxStorageBufferRange of " +
                        std::to_string(limits.maxStorageBufferRange) + ": use a larger block size");
    }
    for (std::size_t slot = 0; slot < resident_frame_count(options); ++slot) {
        frames_.emplace_back(context, options.width, options.height, VK_FORMAT_R8_UNORM,
                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, "a cached frame");
    }
    results_ = Buffer(context, guarded_bytes,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      MemoryUse::device, "the block results");
    SessionResources resources{context, options_, frames_, results_};
    block_search_ = variant != "legacy" && uses_block_search(options.params);
    temporal_ = variant != "legacy" && needs_previous_field(options.params);
    if (block_search_) {
        candidates_ =
            Buffer(context, blocks * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                   MemoryUse::device, "the candidate counts");
        resources.candidates = &candidates_;
    }
    if (temporal_) {
        previous_ = Buffer(context, result_bytes_,
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           MemoryUse::device, "the temporal predictor's previous vectors");
        resources.previous = &previous_;
    }
    const bool partitions = variant != "legacy" && options.params.partitions == Partitions::all;
    plan_ = variant == "legacy" ? make_legacy_plan(resources, tuning.legacy_pe_per_block)
            : partitions        ? make_partition_plan(resources, ring_size, partition_strip(tuning))
            : block_search_     ? make_rate_search_plan(resources)
                                : make_full_search_plan(resources, tuning);
    if (options.compensation)
        compensation_ = std::make_unique<DeviceCompensation>(resources, *options.compensation, ring_size,
                                                             plan_->partition_records());

    queries_per_submission_ = static_cast<std::uint32_t>(pass_names().size()) + 2;
    pass_seconds_.assign(queries_per_submission_ - 1, 0.0);
    if (context.timestamp_period_ns() > 0) {
        auto query_info = vulkan_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
        query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query_info.queryCount = queries_per_submission_ * static_cast<std::uint32_t>(ring_size);
        VkQueryPool pool = VK_NULL_HANDLE;
        check(context.api().vkCreateQueryPool(context.device(), &query_info, nullptr, &pool),
              "vkCreateQueryPool for the pass timestamps");
        queries_ = {&context.api(), context.device(), pool};
    }
    for (std::size_t i = 0; i < ring_size; ++i) {
        submissions_.push_back(
            {CommandBuffer(context),
             // The frames, then (temporal predictor) the previous pair's vectors when the host gives them.
             Buffer(context, 2 * frame_bytes_ + (temporal_ ? result_bytes_ : 0), staging_usage,
                    MemoryUse::upload, "the frame staging buffer"),
             // The results and guard, then (rate_search.comp's chains) the candidate counts.
             Buffer(context, guarded_bytes + (block_search_ ? blocks * 4 : 0),
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::readback, "the result readback buffer"),
             {},
             0});
    }
    context.check_validation("while opening a " + variant + " session on " + context.name());
}

VulkanSession::~VulkanSession() {
    for (auto& submission : submissions_) {
        try {
            submission.commands.wait("a pair still in flight");
        } catch (const Error&) {
            // The device is lost; the destructors below free what is left.
        }
    }
    if (context_.logging()) log_pass_times();
}

void VulkanSession::submit(const FramePair& pair) {
    check_pair_size(options_, pair);
    if (temporal_ && !pair.segment_start) check_previous(pair);
    const std::size_t index = in_flight_.next_slot(finisher());
    const ResidentFrameSlots::PairSlots placed = frame_ids_.place(pair.reference_id, pair.current_id);
    FrameSlots slots;
    slots.reference = placed.reference;
    slots.current = placed.current;
    slots.reference_uploaded = placed.reference_claimed;
    slots.current_uploaded = placed.current_claimed;
    slots.slot_count = static_cast<int>(frames_.size());
    try {
        plan_->set_segment_start(pair.segment_start);
        record(index, pair, slots);
        submissions_[index].commands.submit("frame pair " + std::to_string(pair.current_id));
    } catch (...) {
        frame_ids_.forget();  // uploads recorded for a submission that never ran
        throw;
    }
    computed_any_ = true;
    submissions_[index].submitted_at = std::chrono::steady_clock::now();
    submissions_[index].frames_taken_in = frames_taken_in(placed);
    in_flight_.submitted(pair.current_id);
}

void VulkanSession::record(std::size_t index, const FramePair& pair, FrameSlots slots) {
    const Api& api = context_.api();
    Submission& submission = submissions_[index];
    const VkCommandBuffer commands = submission.commands.get();
    const std::string what = "frame pair " + std::to_string(pair.current_id);
    submission.commands.begin(what);
    const VkQueryPool queries = queries_.get();
    const std::uint32_t first_query = static_cast<std::uint32_t>(index) * queries_per_submission_;
    std::uint32_t query = first_query;
    const auto timestamp = [&] {
        if (queries != VK_NULL_HANDLE) {
            api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, query++);
        }
    };
    if (queries != VK_NULL_HANDLE)
        api.vkCmdResetQueryPool(commands, queries, first_query, queries_per_submission_);
    timestamp();
    // The previous pair's passes and readback are done with the buffers this pair's passes (and the
    // guard's update) rewrite.
    memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);

    VkDeviceSize staged = 0;
    const auto upload = [&](PlaneView plane, int slot) {
        std::uint8_t* destination = submission.staging.mapped() + staged;
        for (int y = 0; y < plane.height; ++y) {
            std::memcpy(destination + static_cast<std::size_t>(y) * static_cast<std::size_t>(plane.width),
                        plane.row(y), static_cast<std::size_t>(plane.width));
        }
        const Image& image = frames_[static_cast<std::size_t>(slot)];
        // Earlier pairs may still read this slot's previous frame: wait for their shaders, discard it.
        transition(api, commands, image.get(), VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        VkBufferImageCopy region{};
        region.bufferOffset = staged;
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {static_cast<std::uint32_t>(plane.width),
                              static_cast<std::uint32_t>(plane.height), 1};
        api.vkCmdCopyBufferToImage(commands, submission.staging.get(), image.get(),
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        transition(api, commands, image.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT);
        staged += frame_bytes_;
    };
    if (temporal_ && !pair.segment_start) record_previous_vectors(commands, submission, pair);
    // The guard after the results, rewritten every pair so that each pair's check stands alone.
    std::uint8_t guard[result_guard_bytes];
    fill_result_guard(guard);
    api.vkCmdUpdateBuffer(commands, results_.get(), result_bytes_, result_guard_bytes, guard);
    if (compensation_) compensation_->record_clear(commands);
    // The passes bind the whole buffer: they come after the update (and the compensation's clearing).
    memory_barrier(api, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (slots.reference_uploaded) upload(pair.reference, slots.reference);
    if (slots.current_uploaded) upload(pair.current, slots.current);
    timestamp();

    plan_->record(commands, slots, timestamp);
    if (compensation_) compensation_->record(commands, slots, timestamp);

    memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy copy{0, 0, results_.size()};
    api.vkCmdCopyBuffer(commands, results_.get(), submission.readback.get(), 1, &copy);
    if (block_search_) {
        const VkBufferCopy counts{0, results_.size(), candidates_.size()};
        api.vkCmdCopyBuffer(commands, candidates_.get(), submission.readback.get(), 1, &counts);
    }
    plan_->record_readback(commands, index);
    if (compensation_) compensation_->record_readback(commands, index);
    memory_barrier(api, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    submission.commands.end(what);
}

PairResult VulkanSession::finish(std::size_t index, std::int64_t current_id) {
    Submission& submission = submissions_[index];
    const std::string what = "frame pair " + std::to_string(current_id);
    submission.commands.wait(what);

    PairResult result;
    result.frames_taken_in = submission.frames_taken_in;
    if (queries_.get() != VK_NULL_HANDLE) {
        std::vector<std::uint64_t> ticks(queries_per_submission_);
        check(context_.api().vkGetQueryPoolResults(
                  context_.device(), queries_.get(),
                  static_cast<std::uint32_t>(index) * queries_per_submission_, queries_per_submission_,
                  ticks.size() * sizeof(std::uint64_t), ticks.data(), sizeof(std::uint64_t),
                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults for " + what);
        const auto seconds = [&](std::size_t from, std::size_t to) {
            return static_cast<double>((ticks[to] - ticks[from]) & context_.timestamp_mask()) *
                   context_.timestamp_period_ns() * 1e-9;
        };
        for (std::size_t pass = 0; pass + 1 < ticks.size(); ++pass)
            pass_seconds_[pass] += seconds(pass, pass + 1);
        // The passes, from the timestamp after the new frames' upload to the last: copies are not the
        // device's compute, and CUDA's events leave them out too (PairResult::device_seconds). At 1080p
        // the upload was ~30% of a block-32 pair on the H100 (docs/vulkan.md, "Sessions and device time").
        result.device_seconds = seconds(1, ticks.size() - 1);
    } else {  // a queue without timestamps: the host's clock, copies and waiting included (an upper bound)
        result.device_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - submission.submitted_at).count();
    }
    ++pairs_done_;

    result.field = MotionField(options_.width, options_.height, options_.params.block_size,
                               cost_kind_of(options_.params));
    const std::uint8_t* words = submission.readback.mapped();
    for (std::size_t i = 0; i < result.field.blocks.size(); ++i) {
        std::uint32_t vector = 0;
        std::uint32_t cost = 0;
        std::memcpy(&vector, words + 8 * i, 4);
        std::memcpy(&cost, words + 8 * i + 4, 4);
        result.field.blocks[i] = {static_cast<std::int16_t>(vector & 0xFFFF),
                                  static_cast<std::int16_t>(vector >> 16), cost};
    }
    check_result_guard(words + result_bytes_, context_.name() + "'s block results (" + variant_ + " passes)");
    if (block_search_) {
        // rate_search.comp counts them: its window moves with the predictor.
        const std::uint8_t* counts = words + results_.size();
        for (std::size_t i = 0; i < result.field.blocks.size(); ++i)
            std::memcpy(&result.field.blocks[i].candidates, counts + 4 * i, 4);
    } else {
        set_full_search_candidates(result.field, options_.width, options_.height, options_.params);
    }
    plan_->fill(index, result.field);
    if (compensation_) result.compensation = compensation_->result(index);
    context_.check_validation("while computing " + what);
    return result;
}

PairResult VulkanSession::receive() { return in_flight_.receive(finisher()); }

std::vector<std::string> VulkanSession::pass_names() const {
    std::vector<std::string> names = plan_->pass_names();
    if (compensation_) {
        for (std::string& name : compensation_->pass_names()) names.push_back(std::move(name));
    }
    return names;
}

void VulkanSession::log_pass_times() const {
    if (pairs_done_ == 0 || queries_.get() == VK_NULL_HANDLE) return;
    std::string text =
        "upload " + std::to_string(pass_seconds_[0] * 1e3 / static_cast<double>(pairs_done_)) + " ms";
    const auto names = pass_names();
    for (std::size_t pass = 0; pass < names.size(); ++pass) {
        text += ", " + names[pass] + " " +
                std::to_string(pass_seconds_[pass + 1] * 1e3 / static_cast<double>(pairs_done_)) + " ms";
    }
    std::fprintf(stderr, "xme vulkan: %s %s, %zu pairs, mean device time per pair: %s\n",
                 context_.name().c_str(), variant_.c_str(), pairs_done_, text.c_str());
}

}  // namespace xme::vulkan
