// SessionOptions::compensation in a CUDA session: per pipeline stage, the device planes of SPEC
// §12-§13 (prediction, residual, coefficients, dequantised and restored tiles), the figures, and the
// pinned buffers of what comes back: the figures always, the planes the request asks for.
#pragma once

#include <array>

#include "device_frames.hpp"
#include "xme/compensation.hpp"

namespace xme::cuda {

class DeviceCompensation {
public:
    static constexpr int kMaxStages = 3;
    // `partitions`: the session runs SPEC §9's partitions (enqueue_partitions, not enqueue).
    DeviceCompensation(const FrameLayout& layout, bool h264, bool partitions,
                       const CompensationRequest& request, int stages, const CallSite& site);

    // On `compute`, after the search wrote `job`'s keys (or records, when not null) for this stage.
    void enqueue(int stage, const SearchJob& job, const MotionRecord* records, cudaStream_t compute,
                 const CallSite& site);
    // The same after SPEC §9's partitions: `partition_records` (p41::PartitionRecord, one per macroblock)
    // become a block-4 grid of vectors (launch_expand_partitions), which the block-4 prediction takes.
    void enqueue_partitions(int stage, const SearchJob& search, const void* partition_records,
                            cudaStream_t compute, const CallSite& site);
    // On `download`, once it waits for the compute stream's work on this stage.
    void enqueue_download(int stage, cudaStream_t download, const CallSite& site);
    // Once the download is done: the pair's CompensatedFrame.
    [[nodiscard]] CompensatedFrame result(int stage) const;

private:
    // The block-4 grid after SPEC §9's partitions: ceil(W / 4) x ceil(H / 4).
    [[nodiscard]] int grid4_x() const { return (layout_.width + 3) / 4; }
    [[nodiscard]] int grid4_y() const { return (layout_.height + 3) / 4; }
    struct Stage {
        DeviceMemory device;
        PinnedMemory host;
        std::uint8_t* prediction = nullptr;  // device, W x H
        std::int16_t* residual = nullptr;    // device, tile-major (and coefficients, dequantised, restored)
        std::int16_t* coefficients = nullptr;
        std::int16_t* dequantised = nullptr;
        std::int16_t* restored = nullptr;
        void* figures = nullptr;                  // device CompensationFigures
        MotionRecord* partition_tiles = nullptr;  // device, the block-4 grid (sessions with partitions)
        void* figures_host = nullptr;
        std::uint8_t* prediction_host = nullptr;
        std::int16_t* residual_host = nullptr;
        std::int16_t* coefficients_host = nullptr;
    };

    FrameLayout layout_;
    bool h264_;
    CompensationRequest request_;
    int tiles_x_;
    int tiles_y_;
    std::array<Stage, kMaxStages> stages_;
};

}  // namespace xme::cuda
