// SessionOptions::compensation in a Vulkan session (SPEC §12-§13), recorded into the pair's command
// buffer after the search's last pass, reading the vectors from the results buffer: prediction and
// residual (predict_residual.comp), and with a transform the forward DCT (dct.comp), the quantiser
// (quantise.comp), the inverse DCT and the reconstruction's error (reconstruct.comp). What comes back
// per pair: the figures always, the planes the request asks for.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search_plan.hpp"
#include "xme/compensation.hpp"

namespace xme::vulkan {

// Whether a session of `options` on `context` can compute its compensation itself: the tile planes
// (2 bytes per sample of the frame rounded up to 8x8 tiles) must fit one storage-buffer binding.
[[nodiscard]] Support compensation_support(const Context& context, const SessionOptions& options);

class DeviceCompensation {
public:
    // `readbacks`: one host buffer per submission in flight. `partition_records`: after SPEC §9's
    // partitions, the plan's records (expand_partitions.comp turns them into a block-4 grid of vectors
    // first), else null. Throws Error(unsupported) where compensation_support says no.
    DeviceCompensation(const SessionResources& resources, const CompensationRequest& request,
                       std::size_t readbacks, const Buffer* partition_records);
    ~DeviceCompensation();
    DeviceCompensation(const DeviceCompensation&) = delete;
    DeviceCompensation& operator=(const DeviceCompensation&) = delete;

    // Transfer commands before the session's transfer-to-compute barrier: zero the figures and the
    // residual's tiles (their samples outside W x H are never written, and the DCT reads them).
    void record_clear(VkCommandBuffer commands) const;
    // After the search's last pass; calls pass_done after each of pass_names().
    void record(VkCommandBuffer commands, FrameSlots slots, const std::function<void()>& pass_done) const;
    [[nodiscard]] std::vector<std::string> pass_names() const;
    // After the session's compute-to-transfer barrier: copies what comes back into readback `index`.
    void record_readback(VkCommandBuffer commands, std::size_t index) const;
    // Once that submission is done: the pair's CompensatedFrame.
    [[nodiscard]] CompensatedFrame result(std::size_t index) const;

private:
    struct Planes;
    void record_dct(VkCommandBuffer commands, const Pipeline& pipeline, const DescriptorSets& set) const;

    Context& context_;
    CompensationRequest request_;
    int width_;
    int height_;
    std::unique_ptr<Planes> planes_;
};

}  // namespace xme::vulkan
