// The "fast" variant: full_search.comp (integer search in shared-memory tiles) then hpel_refine.comp
// (reduction over splits and exact integer half-pel refinement; skipped when there is one split and no
// half-pel stage: the search then writes the results itself); for fs+qpel, rate_search.comp's
// quarter-pel refinement of the reduced integer vector (SPEC §10) as a third pass. With SPEC §8's
// settings that strip_kernel_rate_key allows, every pass keys by §8 (RATE_KEY) and reads the temporal
// predictor from the device.
#include <algorithm>
#include <bit>
#include <string>

#include "full_search_half_pairs_spv.hpp"
#include "full_search_half_pairs_subgroup_spv.hpp"
#include "full_search_spv.hpp"
#include "full_search_subgroup_spv.hpp"
#include "hpel_refine_spv.hpp"
#include "rate_search_spv.hpp"
#include "search_plan.hpp"
#include "tile_shape.hpp"
#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

bool cpu_device(const Context& context) { return context.type() == VK_PHYSICAL_DEVICE_TYPE_CPU; }

// full_search.comp's GROUP: the tuning's, else (docs/vulkan.md, "Tile shapes and groups")
// 2x2 groups of blocks up to 16x16: larger groups, or 32x32 blocks in groups, need more registers
// than they save (H100); but on GPUs, up to range 16, 3x3 groups of 8x8 blocks in one tall tile
// (H100, range 16: 1.02x; range 32: 0.99x; docs/vulkan.md, "Tile shapes and groups").
int blocks_per_group(const SessionTuning& tuning, int block, int range, bool cpu) {
    if (tuning.blocks_per_group < 0 || tuning.blocks_per_group > 4) {
        throw Error(ErrorKind::invalid_argument, "blocks per group " +
                                                     std::to_string(tuning.blocks_per_group) +
                                                     ": expected 1 to 4 (0: by block size)");
    }
    if (tuning.blocks_per_group > 0) return tuning.blocks_per_group;
    if (block == 8 && range <= 16 && !cpu) return 3;
    return block <= 16 ? 2 : 1;
}

// The tile's candidate rows: the tuning's, else (docs/vulkan.md, "Tile shapes and groups") on GPUs at
// most 11 for blocks up to 8, whose 64 or 16 pixels per candidate are too few to
// carry an invocation's per-block costs over one tile's 3 candidates per block at range 16 (H100: 1.29x
// at block 4, 1.05x at 8, 0.89x at 16 with 17 rows), except block 8 in 3x3 groups, one tall tile.
// lavapipe runs block 8 faster in tall tiles. 0 leaves it to the cost model.
int max_tile_rows(const SessionTuning& tuning, int block, int group, bool cpu) {
    if (tuning.max_tile_rows < 0) {
        throw Error(ErrorKind::invalid_argument, "at most " + std::to_string(tuning.max_tile_rows) +
                                                     " candidate rows per tile: expected 0 (any) or more");
    }
    if (tuning.max_tile_rows > 0) return tuning.max_tile_rows;
    if (block == 8 && group == 3) return 0;  // one tall tile: 363 invocations, 55 registers (H100)
    return block <= 8 && !cpu ? 11 : 0;
}

// On GPUs, 16-bit pairs halve the SAD loop's arithmetic; lavapipe emulates 16-bit floats, 3 times
// slower than 32-bit ones there (docs/vulkan.md, "The SAD formulation"). Strips of up to 12 candidates
// for one block per workgroup: wider ones save shared-memory loads, and lavapipe too runs them fastest.
TileShapeInputs shape_inputs(const Context& context, const SessionOptions& options,
                             const SessionTuning& tuning) {
    using Arithmetic = SessionTuning::SadArithmetic;
    if (tuning.sad_arithmetic == Arithmetic::float16_pairs && !context.float16()) {
        throw Error(ErrorKind::unsupported,
                    context.name() + " has no 16-bit float arithmetic (shaderFloat16)");
    }
    const int b = options.params.block_size;
    const bool cpu = cpu_device(context);
    TileShapeInputs in;
    in.range = options.params.range;
    in.block = b;
    in.block_count = blocks_across(options.width, b) * blocks_across(options.height, b);
    in.group = blocks_per_group(tuning, b, in.range, cpu);
    // On GPUs an invocation holds GROUP x STRIP partial sums per row of blocks in registers, which the
    // cost model does not count: at most 12 of them (H100, block 8 in 2x2 groups at range 32: strip 11,
    // 102 registers, 1.09 ms per 1080p pair; strip 6, 64 registers, 0.70 ms). lavapipe runs 2x2 groups
    // of block 16 1.8x faster with strips of 11 than of 6 (docs/vulkan.md, "Tile shapes and groups").
    const int default_max_strip = cpu ? 12 : 12 / in.group;
    in.max_strip = tuning.max_strip > 0 ? tuning.max_strip : default_max_strip;
    in.min_strip = std::max(1, tuning.min_strip);
    in.max_tile_rows = max_tile_rows(tuning, b, in.group, cpu);
    in.ring_window = !tuning.whole_window_per_tile;
    in.subgroup_reduce = context.subgroup_reductions() && !tuning.tree_reduction;
    // Rows padded against bank conflicts cost shared memory, which at blocks 4 and 8 in 2x2 groups cost
    // more than the conflicts (H100: 1.04x unpadded); block 8 in one tall 3x3 tile runs 1.01x faster
    // padded (H200, pitch 65 for 56; docs/vulkan.md, "Tile shapes and groups").
    using Rows = SessionTuning::WindowRows;
    const bool pad_by_default = b >= 16 || (b == 8 && in.group == 3 && in.max_tile_rows == 0);
    in.pad_window_rows =
        tuning.window_rows == Rows::padded || (tuning.window_rows == Rows::automatic && pad_by_default);
    if (in.min_strip > in.max_strip) {
        throw Error(ErrorKind::invalid_argument, "strip of at least " + std::to_string(in.min_strip) +
                                                     " candidates but at most " +
                                                     std::to_string(in.max_strip));
    }
    in.half_pairs = tuning.sad_arithmetic == Arithmetic::float16_pairs ||
                    (tuning.sad_arithmetic == Arithmetic::automatic && context.float16() && !cpu);
    in.subgroup = context.subgroup_size();
    in.shared_banks = !cpu;
    return in;
}

// full_search.comp's ONE_WORD_RANK_BITS: the rank's bits when a block's largest SAD and a candidate's
// rank (strip_key.glsl's candidate_rank, below 8R(R + 1) + 2) fit in one 32-bit word, else 0 (two-word
// keys, as the rate key always has).
int one_word_rank_bits(const SearchParams& params, bool rate_key, const SessionTuning& tuning) {
    if (rate_key || tuning.two_word_keys) return 0;
    const auto block = static_cast<std::uint64_t>(params.block_size);
    const auto range = static_cast<std::uint64_t>(params.range);
    const int sad_bits = std::bit_width(block * block * 255);
    const int rank_bits = std::bit_width(8 * range * (range + 1) + 1);
    return sad_bits + rank_bits <= 32 ? 32 - sad_bits : 0;
}

const ShaderBinary& search_shader(bool half_pairs, bool subgroup_reduce) {
    if (half_pairs)
        return subgroup_reduce ? shaders::full_search_half_pairs_subgroup : shaders::full_search_half_pairs;
    return subgroup_reduce ? shaders::full_search_subgroup : shaders::full_search;
}

class FullSearchPlan final : public SearchPlan {
public:
    FullSearchPlan(const SessionResources& resources, const SessionTuning& tuning) : resources_(resources) {
        Context& context = resources.context;
        const auto& options = resources.options;
        const auto& limits = context.limits();
        const int b = options.params.block_size;
        const int blocks_x = blocks_across(options.width, b);
        const int blocks_y = blocks_across(options.height, b);
        const TileShapeInputs inputs = shape_inputs(context, options, tuning);
        shape_ = choose_tile_shape(inputs, limits);
        search_groups_x_ = static_cast<std::uint32_t>((blocks_x + shape_.group - 1) / shape_.group);
        search_groups_y_ = static_cast<std::uint32_t>((blocks_y + shape_.group - 1) / shape_.group);
        if (static_cast<std::uint32_t>(blocks_x) > limits.maxComputeWorkGroupCount[0] ||
            static_cast<std::uint32_t>(blocks_y) > limits.maxComputeWorkGroupCount[1]) {
            throw Error(ErrorKind::unsupported, std::to_string(blocks_x) + "x" + std::to_string(blocks_y) +
                                                    " blocks exceed the device's maxComputeWorkGroupCount: "
                                                    "use a larger block size");
        }
        const Int2 frame_size{options.width, options.height};
        const Int2 padded_size{blocks_x * b, blocks_y * b};
        const int block_count = blocks_x * blocks_y;
        const int restrict_border = options.params.border == BorderMode::restrict ? 1 : 0;
        const int refine = options.params.subpel == Subpel::hpel ? 1 : 0;
        rate_key_ = uses_rate_search(options.params);
        temporal_ = options.params.predictor == Predictor::temporal;
        const int lambda = options.params.lambda;
        // One split and no half-pel stage: the search writes the results, and no reduction pass runs.
        write_results_ = shape_.splits == 1 && options.params.subpel != Subpel::hpel;
        search_params_ = {frame_size,           padded_size,     blocks_x,       block_count,
                          options.params.range, restrict_border, shape_.tiles_x, shape_.tiles_y,
                          shape_.splits,        lambda};
        refine_params_ = {frame_size,    padded_size,     blocks_x, block_count,
                          shape_.splits, restrict_border, refine,   lambda};
        groups_x_ = static_cast<std::uint32_t>(blocks_x);
        groups_y_ = static_cast<std::uint32_t>(blocks_y);

        search_ =
            &context.pipeline(search_shader(inputs.half_pairs, inputs.subgroup_reduce),
                              {{"local_size_x", shape_.invocations()},
                               {"BLOCK", b},
                               {"STRIP", shape_.strip},
                               {"STRIPS_X", shape_.strips_x},
                               {"TILE_H", shape_.tile_h},
                               {"WINDOW_PITCH", shape_.window_pitch},
                               {"RATE_KEY", rate_key_ ? 1 : 0},
                               {"GROUP", shape_.group},
                               {"REDUCTION_SLOTS", shape_.reduction_slots},
                               {"WRITE_RESULTS", write_results_ ? 1 : 0},
                               {"ONE_WORD_RANK_BITS", one_word_rank_bits(options.params, rate_key_, tuning)},
                               {"RING_WINDOW", shape_.ring_window ? 1 : 0}},
                              push_constant_layout<FullSearchParams>());
        refine_ = &context.pipeline(shaders::hpel_refine, {{"BLOCK", b}, {"RATE_KEY", rate_key_ ? 1 : 0}},
                                    push_constant_layout<HpelRefineParams>());
        keys_ = Buffer(
            context, static_cast<VkDeviceSize>(shape_.splits) * static_cast<VkDeviceSize>(block_count) * 8,
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::device, "the best keys of the integer search");
        if (options.params.subpel == Subpel::qpel) set_up_qpel(resources, padded_size);
        search_sets_ =
            std::make_unique<DescriptorSets>(context, *search_, frame_slot_combinations(resources));
        refine_sets_ =
            std::make_unique<DescriptorSets>(context, *refine_, frame_slot_combinations(resources));
        const VkSampler sampler = context.nearest_sampler();
        const VkSampler gather = context.gather_sampler();  // full_search.comp's quad_at
        const VkBuffer previous = previous_vectors();
        for_each_frame_slot_combination(
            resources, [&](std::uint32_t set, VkImageView reference_view, VkImageView current_view) {
                search_sets_->write(set, {{"reference_frame", reference_view, gather, {}},
                                          {"current_frame", current_view, gather, {}},
                                          {"BestKeys", {}, {}, keys_.get()},
                                          {"Previous", {}, {}, previous},
                                          {"Results", {}, {}, resources.results.get()}});
                refine_sets_->write(set, {{"reference_frame", reference_view, sampler, {}},
                                          {"current_frame", current_view, sampler, {}},
                                          {"BestKeys", {}, {}, keys_.get()},
                                          {"Results", {}, {}, resources.results.get()},
                                          {"Previous", {}, {}, previous}});
            });
    }

    void set_segment_start(bool segment_start) override {
        // A segment's first pair has no temporal predictor: p = 0, as with none.
        const int temporal = temporal_ && !segment_start ? 1 : 0;
        search_params_.temporal = temporal;
        refine_params_.temporal = temporal;
        qpel_params_.predictor = temporal;
    }

    void record(VkCommandBuffer commands, FrameSlots slots, const std::function<void()>& pass_done) override {
        const Api& api = resources_.context.api();
        search_->bind_and_push(commands, (*search_sets_)[slots.combination()], search_params_);
        api.vkCmdDispatch(commands, search_groups_x_, search_groups_y_,
                          static_cast<std::uint32_t>(shape_.splits));
        pass_done();
        if (!write_results_) {
            memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
            refine_->bind_and_push(commands, (*refine_sets_)[slots.combination()], refine_params_);
            api.vkCmdDispatch(commands, groups_x_, groups_y_, 1);
            pass_done();
        }
        if (qpel_ == nullptr) return;
        memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        qpel_->bind_and_push(commands, (*qpel_sets_)[slots.combination()], qpel_params_);
        api.vkCmdDispatch(commands, groups_x_, groups_y_, 1);
        pass_done();
    }

    [[nodiscard]] std::vector<std::string> pass_names() const override {
        // XME_VULKAN_LOG prints these: they say which chains key by SPEC §8 here.
        const std::string search = rate_key_ ? "integer search with the rate key" : "integer search";
        std::vector<std::string> names{search};
        if (!write_results_)
            names.emplace_back(refine_params_.refine != 0 ? "half-pel refinement" : "reduction");
        if (qpel_ != nullptr) names.emplace_back("quarter-pel refinement");
        return names;
    }

private:
    // The temporal predictor's buffer where the session has one; else the keys buffer fills the binding,
    // which the shaders then never read.
    [[nodiscard]] VkBuffer previous_vectors() const {
        return resources_.previous != nullptr ? resources_.previous->get() : keys_.get();
    }

    // rate_search.comp with WALK 3 reads the reduction's integer vectors from the results and refines
    // them, with SPEC §8's lambda and predictor (none or temporal). It writes no candidate counts, so
    // the keys buffer fills that binding.
    void set_up_qpel(const SessionResources& resources, Int2 padded_size) {
        Context& context = resources.context;
        const auto& options = resources.options;
        qpel_params_.frame_size = {options.width, options.height};
        qpel_params_.padded_size = padded_size;
        qpel_params_.blocks_x = static_cast<std::int32_t>(groups_x_);
        qpel_params_.blocks_y = static_cast<std::int32_t>(groups_y_);
        qpel_params_.range = options.params.range;
        qpel_params_.restrict_border = options.params.border == BorderMode::restrict ? 1 : 0;
        qpel_params_.refine = 2;
        qpel_params_.lambda = options.params.lambda;
        qpel_ = &context.pipeline(shaders::rate_search,
                                  {{"BLOCK", options.params.block_size}, {"SEARCH", search_given}},
                                  push_constant_layout<RateSearchParams>());
        qpel_sets_ = std::make_unique<DescriptorSets>(context, *qpel_, frame_slot_combinations(resources));
        const VkSampler sampler = context.nearest_sampler();
        for_each_frame_slot_combination(
            resources, [&](std::uint32_t set, VkImageView reference_view, VkImageView current_view) {
                qpel_sets_->write(set, {{"reference_frame", reference_view, sampler, {}},
                                        {"current_frame", current_view, sampler, {}},
                                        {"Results", {}, {}, resources.results.get()},
                                        {"Candidates", {}, {}, keys_.get()},
                                        {"Previous", {}, {}, previous_vectors()},
                                        // Unread by WALK 3: any buffer fills them.
                                        {"ReferencePyramid", {}, {}, keys_.get()},
                                        {"CurrentPyramid", {}, {}, keys_.get()}});
            });
    }

    SessionResources resources_;
    bool rate_key_ = false;  // SPEC §8's key in every pass (strip_kernel_rate_key's chains)
    bool temporal_ = false;
    bool write_results_ = false;  // full_search.comp's WRITE_RESULTS: no reduction pass
    TileShape shape_;
    FullSearchParams search_params_;
    HpelRefineParams refine_params_;
    std::uint32_t groups_x_ = 0;  // blocks across and down: the passes after the search
    std::uint32_t groups_y_ = 0;
    std::uint32_t search_groups_x_ = 0;  // groups of blocks across and down
    std::uint32_t search_groups_y_ = 0;
    const Pipeline* search_ = nullptr;
    const Pipeline* refine_ = nullptr;
    Buffer keys_;
    std::unique_ptr<DescriptorSets> search_sets_;
    std::unique_ptr<DescriptorSets> refine_sets_;
    const Pipeline* qpel_ = nullptr;
    RateSearchParams qpel_params_;
    std::unique_ptr<DescriptorSets> qpel_sets_;
};

}  // namespace

std::unique_ptr<SearchPlan> make_full_search_plan(const SessionResources& resources,
                                                  const SessionTuning& tuning) {
    return std::make_unique<FullSearchPlan>(resources, tuning);
}

}  // namespace xme::vulkan
