// What a variant contributes to a session: the passes it records for one frame pair. The session
// owns the frames (kept on the device across pairs), uploads, timing and readback.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "context.hpp"
#include "xme/device.hpp"
#include "xme/operations.hpp"
#include "xme/vulkan_backend.hpp"

namespace xme::vulkan {

// The session keeps SessionOptions::resident_frames frames on the device by id; a pair reads two of
// these slots (or one twice).
struct FrameSlots {
    int reference = 0;
    int current = 0;
    // Whether this pair uploads the frame into the slot (what is derived from it must be rebuilt: ehds's
    // mean pyramid); never both for one slot.
    bool reference_uploaded = false;
    bool current_uploaded = false;
    int slot_count = 2;  // the session's frame slots
    // Plans write one descriptor set per combination of slots.
    [[nodiscard]] std::uint32_t combination() const {
        return static_cast<std::uint32_t>(reference * slot_count + current);
    }
};

// What a plan works with; the session outlives its plan.
struct SessionResources {
    Context& context;
    const SessionOptions& options;
    const std::vector<Image>& frames;  // the frame slots: R8_UNORM, in SHADER_READ_ONLY_OPTIMAL when read
    const Buffer& results;             // one uvec2 (packed vector, cost) per block
    // The chains of rate_search.comp only: the integer candidates each block evaluated.
    const Buffer* candidates = nullptr;
    // Chains that read the previous field (needs_previous_field: SPEC §8's temporal predictor, the
    // predictor set's T) only: the previous pair's vectors (results' layout).
    const Buffer* previous = nullptr;
};

[[nodiscard]] inline int frame_slot_count(const SessionResources& resources) {
    return static_cast<int>(resources.frames.size());
}
// The descriptor sets a plan writes per pipeline: one per (reference, current) combination of slots.
[[nodiscard]] inline std::uint32_t frame_slot_combinations(const SessionResources& resources) {
    return static_cast<std::uint32_t>(frame_slot_count(resources) * frame_slot_count(resources));
}

// Calls write(set, reference_view, current_view) for every combination of frame slots: a plan writes
// each descriptor set once, and a pair binds the one of its slots.
template <class Write>
void for_each_frame_slot_combination(const SessionResources& resources, Write&& write) {
    const int count = frame_slot_count(resources);
    for (int reference = 0; reference < count; ++reference) {
        for (int current = 0; current < count; ++current) {
            write(FrameSlots{reference, current, false, false, count}.combination(),
                  resources.frames[static_cast<std::size_t>(reference)].view(),
                  resources.frames[static_cast<std::size_t>(current)].view());
        }
    }
}

class SearchPlan {
public:
    virtual ~SearchPlan() = default;
    // Records the passes for one pair into `commands`, reading the frames in `slots` and leaving every
    // block's result in the results buffer; calls `pass_done` after each pass (for its timestamp).
    virtual void record(VkCommandBuffer commands, FrameSlots slots,
                        const std::function<void()>& pass_done) = 0;
    [[nodiscard]] virtual std::vector<std::string> pass_names() const = 0;
    // SPEC §8's previous field: whether the next recorded pair starts a segment (the temporal p = 0,
    // the predictor set without T).
    virtual void set_segment_start(bool /*segment_start*/) {}
    // What comes back besides the block results (SPEC §9's macroblocks): copied into the plan's readback
    // `index` after the session's compute-to-transfer barrier, and put into `field` once that
    // submission is done.
    virtual void record_readback(VkCommandBuffer /*commands*/, std::size_t /*index*/) const {}
    virtual void fill(std::size_t /*index*/, MotionField& /*field*/) const {}
    // SPEC §9's plan: its records buffer (partition_search.comp's), which compensation reads on the
    // device; null for every other plan.
    [[nodiscard]] virtual const Buffer* partition_records() const { return nullptr; }
};

// The "fast" variant (full_search.cpp) and the "legacy" one (legacy_search.cpp). `pe_per_block` is
// SPEC §5's P; 0 means B*B.
[[nodiscard]] std::unique_ptr<SearchPlan> make_full_search_plan(const SessionResources& resources,
                                                                const SessionTuning& tuning);
[[nodiscard]] std::unique_ptr<SearchPlan> make_legacy_plan(const SessionResources& resources,
                                                           int pe_per_block);
// The per-block chains (rate_search.cpp): SPEC §8's settings (lambda > 0, a predictor or a centred
// window), §11's dia, hex, ehds, tz and umh, each alone, +hpel or +qpel (§10).
[[nodiscard]] std::unique_ptr<SearchPlan> make_rate_search_plan(const SessionResources& resources);
// SPEC §9's 41 partitions (partition_search.cpp): fs+p41 and fs+p41+qpel with any predictor;
// `readbacks` host buffers, one per submission in flight; `strip` candidates per invocation (1..8).
[[nodiscard]] std::unique_ptr<SearchPlan> make_partition_plan(const SessionResources& resources,
                                                              std::size_t readbacks, int strip);
// rate_search.comp's SEARCH constant for `search`: its code in xme/search_methods.def, when the backend's
// table of search kernels (search_kernels.cpp) has its shader (shaders/searches/); throws
// Error(unsupported) otherwise (VulkanDevice::supports refuses it first).
[[nodiscard]] int search_constant(SearchMethod search);
[[nodiscard]] bool has_search_kernel(SearchMethod search);
// rate_search.comp's SEARCH_GIVEN: the fast kernel found the integer vector; the shader refines it.
inline constexpr int search_given = -1;

// Whether these options use one of SPEC §8's settings.
[[nodiscard]] inline bool uses_rate_search(const SearchParams& params) {
    return params.lambda > 0 || params.predictor != Predictor::none || params.centre != WindowCentre::zero;
}
// Whether the fast kernel (full_search.comp's RATE_KEY) computes SPEC §8's key for an fs chain with
// these settings: the window centred on zero (one centred on the predictor moves per block and may hold
// no valid candidate), no wavefront (the spatial predictor's blocks depend on each other), and a range
// whose offsets fit the key's 9-bit fields (strip_rate_key). The rest of §8 takes rate_search.comp.
inline constexpr int strip_rate_key_max_range = 255;
[[nodiscard]] inline bool strip_kernel_rate_key(const SearchParams& params) {
    return params.search == SearchMethod::full && params.centre == WindowCentre::zero &&
           !needs_wavefront(params) && params.range <= strip_rate_key_max_range;
}
// Whether these options need make_rate_search_plan: the fast kernel runs fs, fs+hpel and fs+qpel
// without §8's settings and with those of strip_kernel_rate_key (its integer winner then refined by
// hpel_refine.comp, or by rate_search.comp for +qpel).
// SPEC §9's partitions count their candidates per macroblock too (partition_search.comp).
[[nodiscard]] inline bool uses_block_search(const SearchParams& params) {
    return params.search != SearchMethod::full || params.partitions == Partitions::all ||
           (uses_rate_search(params) && !strip_kernel_rate_key(params));
}

// SPEC §8's wavefront (the spatial predictor, the predictor set) over a grid of blocks_x x blocks_y
// blocks: step by step (the blocks with bx + 2 by = step, whose left, top, top-right and top-left
// neighbours are in earlier steps), `dispatch(step, first_row, rows)` records the step's dispatch of one
// workgroup per row first_row .. first_row + rows - 1 (block bx = step - 2 by), then a barrier shows its
// results to the next.
inline void record_wavefront(const Api& api, VkCommandBuffer commands, int blocks_x, int blocks_y,
                             const std::function<void(int step, int first_row, int rows)>& dispatch) {
    const int steps = (blocks_x - 1) + 2 * (blocks_y - 1) + 1;
    for (int step = 0; step < steps; ++step) {
        // Rows by with 0 <= step - 2 by < blocks_x.
        const int first_row = std::max(0, (step - (blocks_x - 1) + 1) / 2);
        const int last_row = std::min(blocks_y - 1, step / 2);
        dispatch(step, first_row, last_row - first_row + 1);
        memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
}

// Workgroups needed to cover `items` with groups of `group` items.
[[nodiscard]] inline std::uint32_t groups_for(int items, int group) {
    return static_cast<std::uint32_t>((items + group - 1) / group);
}

}  // namespace xme::vulkan
