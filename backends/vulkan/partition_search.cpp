// SPEC §9 on the fast variant: partition_search.comp, one workgroup per macroblock, for fs+p41 and
// fs+p41+qpel with any predictor (the spatial one as a wavefront of dispatches). The key tables
// (xme/partition_keys.hpp) are uploaded once per session; each pair writes its macroblocks' records (41
// partitions and the mode decision) and, as every search does, each macroblock's 16x16 partition into the
// results, where the session reads the blocks and the next pair's temporal predictor finds them.
#include <cstring>

#include "partition_search_spv.hpp"
#include "search_plan.hpp"
#include "xme/error.hpp"
#include "xme/partition_keys.hpp"
#include "xme/result_guard.hpp"

namespace xme::vulkan {
namespace {

constexpr int partitions = partition_count;
constexpr VkDeviceSize record_words = 128;  // partition_search.comp's RECORD_WORDS
constexpr VkDeviceSize record_bytes = 4 * record_words;

// A device buffer holding `table`, filled through a staging buffer by a command buffer of its own.
Buffer upload_table(Context& context, const std::vector<std::uint32_t>& table, const std::string& what) {
    const VkDeviceSize bytes = 4 * table.size();
    Buffer staging(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::upload, what + " (staging)");
    std::memcpy(staging.mapped(), table.data(), bytes);
    Buffer device(context, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  MemoryUse::device, what);
    CommandBuffer commands(context);
    commands.begin("uploading " + what);
    const VkBufferCopy copy{0, 0, bytes};
    context.api().vkCmdCopyBuffer(commands.get(), staging.get(), device.get(), 1, &copy);
    commands.end("uploading " + what);
    commands.submit("uploading " + what);
    commands.wait("uploading " + what);
    return device;
}

class PartitionPlan final : public SearchPlan {
public:
    PartitionPlan(const SessionResources& resources, std::size_t readbacks, int strip)
        : resources_(resources) {
        Context& context = resources.context;
        const SessionOptions& options = resources.options;
        const SearchParams& p = options.params;
        blocks_x_ = blocks_across(options.width, macroblock_size);
        blocks_y_ = blocks_across(options.height, macroblock_size);
        const auto& limits = context.limits();
        if (static_cast<std::uint32_t>(blocks_x_) > limits.maxComputeWorkGroupCount[0] ||
            static_cast<std::uint32_t>(blocks_y_) > limits.maxComputeWorkGroupCount[1]) {
            throw Error(ErrorKind::unsupported, std::to_string(blocks_x_) + "x" + std::to_string(blocks_y_) +
                                                    " macroblocks exceed " + context.name() +
                                                    "'s maxComputeWorkGroupCount");
        }
        macroblocks_ = static_cast<VkDeviceSize>(blocks_x_) * static_cast<VkDeviceSize>(blocks_y_);
        if (macroblocks_ * record_bytes + result_guard_bytes > limits.maxStorageBufferRange) {
            throw Error(ErrorKind::unsupported,
                        std::to_string(macroblocks_) + " macroblocks' partition records exceed " +
                            context.name() + "'s maxStorageBufferRange: use smaller frames");
        }
        const bool predictor = p.predictor != Predictor::none;
        const bool centred = predictor && p.centre == WindowCentre::predictor;
        const PartitionTables tables = make_partition_tables(p.range, p.lambda, predictor, centred);
        if (!tables.fits || p.search != SearchMethod::full || p.subpel == Subpel::hpel) {
            throw Error(ErrorKind::unsupported,
                        context.name() + ": partition search opened for options it does not run");
        }
        terms_ = upload_table(context, tables.terms, "the partition search's rate terms");
        offsets_ = upload_table(context, tables.offsets, "the partition search's offsets");
        records_ = Buffer(context, macroblocks_ * record_bytes + result_guard_bytes,
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          MemoryUse::device, "the partition records");
        for (std::size_t i = 0; i < readbacks; ++i) {
            readbacks_.emplace_back(context, records_.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    MemoryUse::readback, "the partition records' readback");
        }
        params_.frame_size = {options.width, options.height};
        params_.padded_size = {blocks_x_ * macroblock_size, blocks_y_ * macroblock_size};
        params_.blocks_x = blocks_x_;
        params_.range = p.range;
        params_.restrict_border = p.border == BorderMode::restrict ? 1 : 0;
        params_.lambda = p.lambda;
        params_.predictor = p.predictor == Predictor::temporal  ? 1
                            : p.predictor == Predictor::spatial ? 2
                                                                : 0;
        params_.centred = centred ? 1 : 0;
        params_.rank_bits = tables.rank_bits;
        params_.radius = tables.radius;
        params_.side = tables.side;
        quarter_pel_ = p.subpel == Subpel::qpel;
        pipeline_ =
            &context.pipeline(shaders::partition_search, {{"QPEL", quarter_pel_ ? 1 : 0}, {"STRIP", strip}},
                              push_constant_layout<PartitionSearchParams>());
        sets_ = std::make_unique<DescriptorSets>(context, *pipeline_, frame_slot_combinations(resources));
        // Previous is read with the temporal predictor only; any buffer fills it otherwise.
        const VkBuffer previous = resources.previous != nullptr ? resources.previous->get() : terms_.get();
        for_each_frame_slot_combination(
            resources, [&](std::uint32_t set, VkImageView reference, VkImageView current) {
                sets_->write(set, {{"reference_frame", reference, context.nearest_sampler(), {}},
                                   {"current_frame", current, context.nearest_sampler(), {}},
                                   {"Results", {}, {}, resources.results.get()},
                                   {"Candidates", {}, {}, resources.candidates->get()},
                                   {"Previous", {}, {}, previous},
                                   {"Terms", {}, {}, terms_.get()},
                                   {"Offsets", {}, {}, offsets_.get()},
                                   {"Records", {}, {}, records_.get()}});
            });
    }

    void set_segment_start(bool segment_start) override { segment_start_ = segment_start; }
    [[nodiscard]] const Buffer* partition_records() const override { return &records_; }

    void record(VkCommandBuffer commands, FrameSlots slots, const std::function<void()>& pass_done) override {
        const Api& api = resources_.context.api();
        // The guard after the records, rewritten every pair (the session's first barrier orders this
        // after the previous pair's passes and readback).
        std::uint8_t guard[result_guard_bytes];
        fill_result_guard(guard);
        api.vkCmdUpdateBuffer(commands, records_.get(), macroblocks_ * record_bytes, result_guard_bytes,
                              guard);
        memory_barrier(api, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
        PartitionSearchParams params = params_;
        if (params.predictor == 1 && segment_start_) params.predictor = 0;  // a segment's first pair: p = 0
        const VkDescriptorSet set = (*sets_)[slots.combination()];
        if (params.predictor == 2) {
            record_wavefront(api, commands, blocks_x_, blocks_y_, [&](int step, int first_row, int rows) {
                params.step = step;
                params.first_row = first_row;
                pipeline_->bind_and_push(commands, set, params);
                api.vkCmdDispatch(commands, static_cast<std::uint32_t>(rows), 1, 1);
            });
        } else {
            pipeline_->bind_and_push(commands, set, params);
            api.vkCmdDispatch(commands, static_cast<std::uint32_t>(blocks_x_),
                              static_cast<std::uint32_t>(blocks_y_), 1);
        }
        pass_done();
    }

    [[nodiscard]] std::vector<std::string> pass_names() const override {
        return {quarter_pel_ ? "partition search and quarter-pel refinement" : "partition search"};
    }

    void record_readback(VkCommandBuffer commands, std::size_t index) const override {
        const VkBufferCopy copy{0, 0, records_.size()};
        resources_.context.api().vkCmdCopyBuffer(commands, records_.get(), readbacks_[index].get(), 1, &copy);
    }

    void fill(std::size_t index, MotionField& field) const override {
        const std::uint8_t* bytes = readbacks_[index].mapped();
        const std::string& device = resources_.context.name();
        field.macroblocks.resize(static_cast<std::size_t>(macroblocks_));
        for (std::size_t mb = 0; mb < field.macroblocks.size(); ++mb) {
            std::uint32_t words[record_words];
            std::memcpy(words, bytes + mb * record_bytes, sizeof words);
            MacroblockMotion& m = field.macroblocks[mb];
            for (std::size_t i = 0; i < partitions; ++i) {
                const std::uint32_t vector = words[3 * i];
                m.partitions[i] = {static_cast<std::int16_t>(vector & 0xFFFFu),
                                   static_cast<std::int16_t>(vector >> 16), words[3 * i + 1],
                                   words[3 * i + 2]};
            }
            const std::uint32_t modes = words[3 * partitions];
            if (m.partitions[0].candidates == 0 || (modes & ~0xFF03u) != 0) {
                throw Error(ErrorKind::device, device + ": internal error: macroblock " + std::to_string(mb) +
                                                   " got no partition result (16x16 candidates " +
                                                   std::to_string(m.partitions[0].candidates) + ", modes " +
                                                   std::to_string(modes) + ")");
            }
            m.decision.mode = static_cast<MacroblockMode>(modes & 3u);
            for (std::size_t q = 0; q < 4; ++q)
                m.decision.sub_modes[q] = static_cast<SubMode>((modes >> (8 + 2 * q)) & 3u);
            m.decision.cost = words[3 * partitions + 1];
            field.blocks[mb] = m.partitions[0];  // SPEC §8: the predictors read the 16x16 partition
        }
        check_result_guard(bytes + macroblocks_ * record_bytes, device + "'s partition records");
    }

private:
    SessionResources resources_;
    PartitionSearchParams params_;
    int blocks_x_ = 0;
    int blocks_y_ = 0;
    VkDeviceSize macroblocks_ = 0;
    bool quarter_pel_ = false;
    bool segment_start_ = true;
    Buffer terms_;
    Buffer offsets_;
    Buffer records_;
    std::vector<Buffer> readbacks_;
    const Pipeline* pipeline_ = nullptr;
    std::unique_ptr<DescriptorSets> sets_;
};

}  // namespace

std::unique_ptr<SearchPlan> make_partition_plan(const SessionResources& resources, std::size_t readbacks,
                                                int strip) {
    return std::make_unique<PartitionPlan>(resources, readbacks, strip);
}

}  // namespace xme::vulkan
