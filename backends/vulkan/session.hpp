// A stream of frame pairs on one Vulkan device. Frames stay on the device: the last two are cached by
// FramePair id, so frame i's current frame serves as frame i+1's reference without a second upload.
// Asynchronous: submit() copies the planes into a staging buffer, records and submits a command
// buffer with a fence; receive() waits for the oldest. GPU timestamps give device_seconds. With
// SessionOptions::compensation, SPEC §12-§13 follow the search in the same command buffer.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "device_compensation.hpp"
#include "search_plan.hpp"
#include "xme/session_support.hpp"

namespace xme::vulkan {

class VulkanSession final : public MotionSession {
public:
    VulkanSession(std::shared_ptr<Context> context, const SessionOptions& options, const std::string& variant,
                  const SessionTuning& tuning);
    ~VulkanSession() override;

    void submit(const FramePair& pair) override;
    [[nodiscard]] PairResult receive() override;
    [[nodiscard]] std::size_t pending() const override { return in_flight_.pending(); }

private:
    // One pair's worth of host-side state; a few are used in turn (in_flight_'s slots), so that uploads
    // overlap the device.
    struct Submission {
        CommandBuffer commands;
        Buffer staging;   // the frames this pair uploads
        Buffer readback;  // its results
        std::chrono::steady_clock::time_point submitted_at;
        int frames_taken_in = 0;  // PairResult::frames_taken_in
    };
    void record(std::size_t index, const FramePair& pair, FrameSlots slots);
    // SPEC §8's temporal predictor: the previous pair's vectors into previous_, from the host's
    // FramePair::previous or from the results of the pair this session submitted last.
    // check_previous first throws Error(invalid_argument), before anything is recorded, when neither exists.
    void check_previous(const FramePair& pair) const;
    // SPEC §9: the partition search's tables cover the predictors of its own results' window only.
    void check_partition_predictors(const MotionField& previous) const;
    void record_previous_vectors(VkCommandBuffer commands, Submission& submission, const FramePair& pair);
    // Waits for the pair in submissions_[index] and reads its result.
    [[nodiscard]] PairResult finish(std::size_t index, std::int64_t current_id);
    [[nodiscard]] auto finisher() {
        return [this](std::size_t index, std::int64_t current_id) { return finish(index, current_id); };
    }
    void log_pass_times() const;
    [[nodiscard]] std::vector<std::string> pass_names() const;

    std::shared_ptr<Context> context_holder_;  // the device may be closed before its sessions
    Context& context_;
    SessionOptions options_;
    std::string variant_;
    int blocks_x_ = 0;
    int blocks_y_ = 0;
    std::size_t frame_bytes_ = 0;
    std::vector<Image> frames_;     // SessionOptions::resident_frames slots
    ResidentFrameSlots frame_ids_;  // which frame each of frames_ holds
    Buffer results_;
    VkDeviceSize result_bytes_ = 0;  // 8 per block; the guard bytes follow
    bool block_search_ = false;      // rate_search.comp's chains: it counts the candidates itself
    bool temporal_ = false;          // SPEC §8's temporal predictor, on either plan
    bool computed_any_ = false;
    Buffer candidates_;  // block_search_: 4 bytes per block
    Buffer previous_;    // temporal_: the previous pair's results, 8 bytes per block
    std::unique_ptr<SearchPlan> plan_;
    std::unique_ptr<DeviceCompensation> compensation_;      // SessionOptions::compensation, when asked
    Owned<VkQueryPool, &Api::vkDestroyQueryPool> queries_;  // before submissions_: outlives their commands
    std::uint32_t queries_per_submission_ = 0;
    std::vector<Submission> submissions_;
    InFlightPairs in_flight_;
    std::vector<double> pass_seconds_;  // totals per pass (upload first), for XME_VULKAN_LOG
    std::size_t pairs_done_ = 0;
};

}  // namespace xme::vulkan
