// The "legacy" variant (SPEC §5): legacy_pass1.comp writes P local minima per block to an image,
// legacy_pass2.comp reduces them and refines through the linear-filtering sampler.
#include <algorithm>

#include "legacy_pass1_spv.hpp"
#include "legacy_pass2_spv.hpp"
#include "search_plan.hpp"
#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

class LegacyPlan final : public SearchPlan {
public:
    LegacyPlan(const SessionResources& resources, int pe_per_block) : resources_(resources) {
        const auto& options = resources.options;
        const int b = options.params.block_size;
        if (pe_per_block < 0) {
            throw Error(ErrorKind::invalid_argument,
                        "the legacy variant needs at least one processing element per block");
        }
        // PEs beyond the (2R+1)^2 candidates find none and write no minimum, as in the paper's quad.
        const int pe_count = pe_per_block > 0 ? pe_per_block : b * b;
        const int pe_width = std::min(pe_count, b);
        const int pe_height = (pe_count + pe_width - 1) / pe_width;
        const Int2 blocks{blocks_across(options.width, b), blocks_across(options.height, b)};
        const Int2 padded_size{blocks.x * b, blocks.y * b};
        const int restrict_border = options.params.border == BorderMode::restrict ? 1 : 0;
        pass1_params_ = {padded_size, blocks,   options.params.range, restrict_border, pe_count,
                         pe_width,    pe_height};
        pass2_params_ = {padded_size, blocks,  restrict_border, options.params.subpel == Subpel::hpel ? 1 : 0,
                         pe_count,    pe_width};

        Context& context = resources.context;
        const int minima_w = blocks.x * pe_width;
        const int minima_h = blocks.y * pe_height;
        const auto max_side = static_cast<int>(context.limits().maxImageDimension2D);
        if (minima_w > max_side || minima_h > max_side) {
            throw Error(ErrorKind::unsupported, "the local-minima image of " + std::to_string(pe_count) +
                                                    " processing elements per block would be " +
                                                    std::to_string(minima_w) + "x" +
                                                    std::to_string(minima_h) + ", over " + context.name() +
                                                    "'s maxImageDimension2D of " + std::to_string(max_side));
        }
        local_minima_ = Image(context, minima_w, minima_h, VK_FORMAT_R32G32_UINT, VK_IMAGE_USAGE_STORAGE_BIT,
                              "the local minima of the legacy pass 1");
        pass1_groups_ = {groups_for(minima_w, 8), groups_for(minima_h, 8)};
        pass2_groups_ = {groups_for(blocks.x, 8), groups_for(blocks.y, 8)};

        pass1_ = &context.pipeline(shaders::legacy_pass1, {{"BLOCK", b}},
                                   push_constant_layout<LegacyPass1Params>());
        pass2_ = &context.pipeline(shaders::legacy_pass2, {{"BLOCK", b}},
                                   push_constant_layout<LegacyPass2Params>());
        pass1_sets_ = std::make_unique<DescriptorSets>(context, *pass1_, frame_slot_combinations(resources));
        pass2_sets_ = std::make_unique<DescriptorSets>(context, *pass2_, frame_slot_combinations(resources));
        for_each_frame_slot_combination(
            resources, [&](std::uint32_t set, VkImageView reference_view, VkImageView current_view) {
                pass1_sets_->write(set, {{"reference_nearest", reference_view, context.nearest_sampler(), {}},
                                         {"current_nearest", current_view, context.nearest_sampler(), {}},
                                         {"local_minima", local_minima_.view(), {}, {}}});
                pass2_sets_->write(set, {{"reference_linear", reference_view, context.linear_sampler(), {}},
                                         {"current_nearest", current_view, context.nearest_sampler(), {}},
                                         {"local_minima", local_minima_.view(), {}, {}},
                                         {"Results", {}, {}, resources.results.get()}});
            });
    }

    void record(VkCommandBuffer commands, FrameSlots slots, const std::function<void()>& pass_done) override {
        const Api& api = resources_.context.api();
        // The previous pair's pass 2 has read the old minima: discard them and make the image writable.
        transition(api, commands, local_minima_.get(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT);
        pass1_->bind_and_push(commands, (*pass1_sets_)[slots.combination()], pass1_params_);
        api.vkCmdDispatch(commands, pass1_groups_[0], pass1_groups_[1], 1);
        pass_done();
        memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        pass2_->bind_and_push(commands, (*pass2_sets_)[slots.combination()], pass2_params_);
        api.vkCmdDispatch(commands, pass2_groups_[0], pass2_groups_[1], 1);
        pass_done();
    }

    [[nodiscard]] std::vector<std::string> pass_names() const override { return {"pass 1", "pass 2"}; }

private:
    SessionResources resources_;
    LegacyPass1Params pass1_params_;
    LegacyPass2Params pass2_params_;
    Image local_minima_;
    std::array<std::uint32_t, 2> pass1_groups_{};
    std::array<std::uint32_t, 2> pass2_groups_{};
    const Pipeline* pass1_ = nullptr;
    const Pipeline* pass2_ = nullptr;
    std::unique_ptr<DescriptorSets> pass1_sets_;
    std::unique_ptr<DescriptorSets> pass2_sets_;
};

}  // namespace

std::unique_ptr<SearchPlan> make_legacy_plan(const SessionResources& resources, int pe_per_block) {
    return std::make_unique<LegacyPlan>(resources, pe_per_block);
}

}  // namespace xme::vulkan
