// SPEC §8 on the "fast" variant: rate_search.comp, one workgroup per block, for every chain of fs and
// fs+hpel with a rate term, a predictor or a window centred on the predictor, every +qpel chain (§10)
// and every search of shaders/searches/ (§11), alone or refined; a search that needs the mean pyramid
// (ehds) first builds it for each frame uploaded (mean_pyramid.cpp). A chain that reads its
// neighbours' final vectors (the spatial predictor, §8's predictor set) runs as a wavefront, one
// dispatch per step of blocks with bx + 2 by = step, so that a block's left, top, top-right and
// top-left neighbours (steps - 1, - 2, - 1, - 3) are final when it starts.
#include <algorithm>
#include <optional>

#include "mean_pyramid.hpp"
#include "rate_search_spv.hpp"
#include "search_plan.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme::vulkan {
namespace {

class RateSearchPlan final : public SearchPlan {
public:
    explicit RateSearchPlan(const SessionResources& resources) : resources_(resources) {
        Context& context = resources.context;
        const auto& options = resources.options;
        const auto& limits = context.limits();
        const int b = options.params.block_size;
        blocks_x_ = blocks_across(options.width, b);
        blocks_y_ = blocks_across(options.height, b);
        if (static_cast<std::uint32_t>(blocks_x_) > limits.maxComputeWorkGroupCount[0] ||
            static_cast<std::uint32_t>(blocks_y_) > limits.maxComputeWorkGroupCount[1]) {
            throw Error(ErrorKind::unsupported, std::to_string(blocks_x_) + "x" + std::to_string(blocks_y_) +
                                                    " blocks exceed " + context.name() +
                                                    "'s maxComputeWorkGroupCount: use a larger block size");
        }
        const SearchParams& p = options.params;
        params_.frame_size = {options.width, options.height};
        params_.padded_size = {blocks_x_ * b, blocks_y_ * b};
        params_.blocks_x = blocks_x_;
        params_.blocks_y = blocks_y_;
        params_.range = p.range;
        params_.restrict_border = p.border == BorderMode::restrict ? 1 : 0;
        params_.refine = p.subpel == Subpel::hpel ? 1 : p.subpel == Subpel::qpel ? 2 : 0;
        params_.lambda = p.lambda;
        params_.predictor = p.predictor == Predictor::temporal  ? 1
                            : p.predictor == Predictor::spatial ? 2
                                                                : 0;
        params_.centre_on_predictor = p.centre == WindowCentre::predictor ? 1 : 0;
        params_.wavefront = needs_wavefront(p) ? 1 : 0;
        params_.predictor_set = has(chain_needs(p), Need::predictor_set) ? 1 : 0;
        if (has(chain_needs(p), Need::mean_pyramid)) pyramids_.emplace(resources);
        pipeline_ =
            &context.pipeline(shaders::rate_search, {{"BLOCK", b}, {"SEARCH", search_constant(p.search)}},
                              push_constant_layout<RateSearchParams>());
        sets_ = std::make_unique<DescriptorSets>(context, *pipeline_, frame_slot_combinations(resources));
        const VkSampler sampler = context.nearest_sampler();
        // The shader reads Previous only where needs_previous_field (the session gives it then), and the
        // pyramids only for ehds; any buffer fills those bindings otherwise.
        const VkBuffer unused = resources.candidates->get();
        const VkBuffer previous = resources.previous != nullptr ? resources.previous->get() : unused;
        const auto pyramid = [&](int slot) { return pyramids_ ? pyramids_->of(slot).get() : unused; };
        const auto frame = [&](int slot) { return resources.frames[static_cast<std::size_t>(slot)].view(); };
        // for_each_frame_slot_combination without its views: the pyramids go by slot too.
        const int count = frame_slot_count(resources);
        for (int reference = 0; reference < count; ++reference) {
            for (int current = 0; current < count; ++current) {
                sets_->write(FrameSlots{reference, current, false, false, count}.combination(),
                             {{"reference_frame", frame(reference), sampler, {}},
                              {"current_frame", frame(current), sampler, {}},
                              {"Results", {}, {}, resources.results.get()},
                              {"Candidates", {}, {}, resources.candidates->get()},
                              {"Previous", {}, {}, previous},
                              {"ReferencePyramid", {}, {}, pyramid(reference)},
                              {"CurrentPyramid", {}, {}, pyramid(current)}});
            }
        }
    }

    void set_segment_start(bool segment_start) override { segment_start_ = segment_start; }

    void record(VkCommandBuffer commands, FrameSlots slots, const std::function<void()>& pass_done) override {
        const Api& api = resources_.context.api();
        RateSearchParams params = params_;
        // A segment's first pair has no previous pair: the temporal p = 0, as with none, and the
        // predictor set has no T (SPEC §8).
        if (params.predictor == 1 && segment_start_) params.predictor = 0;
        params.has_previous = resources_.previous != nullptr && !segment_start_ ? 1 : 0;
        const VkDescriptorSet set = (*sets_)[slots.combination()];
        if (pyramids_) {
            pyramids_->record(commands, slots);
            pass_done();
        }
        if (params.wavefront == 0) {
            pipeline_->bind_and_push(commands, set, params);
            api.vkCmdDispatch(commands, static_cast<std::uint32_t>(blocks_x_),
                              static_cast<std::uint32_t>(blocks_y_), 1);
            pass_done();
            return;
        }
        record_wavefront(api, commands, blocks_x_, blocks_y_, [&](int step, int first_row, int rows) {
            params.step = step;
            params.first_row = first_row;
            pipeline_->bind_and_push(commands, set, params);
            api.vkCmdDispatch(commands, static_cast<std::uint32_t>(rows), 1, 1);
        });
        pass_done();
    }

    [[nodiscard]] std::vector<std::string> pass_names() const override {
        static constexpr const char* names[] = {"per-block search",
                                                "per-block search and half-pel refinement",
                                                "per-block search and quarter-pel refinement"};
        if (pyramids_) return {"mean pyramid", names[params_.refine]};
        return {names[params_.refine]};
    }

private:
    SessionResources resources_;
    RateSearchParams params_;
    int blocks_x_ = 0;
    int blocks_y_ = 0;
    bool segment_start_ = true;
    std::optional<MeanPyramids> pyramids_;  // ehds only
    const Pipeline* pipeline_ = nullptr;
    std::unique_ptr<DescriptorSets> sets_;
};

}  // namespace

std::unique_ptr<SearchPlan> make_rate_search_plan(const SessionResources& resources) {
    return std::make_unique<RateSearchPlan>(resources);
}

}  // namespace xme::vulkan
