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
    DeviceCompensation(const FrameLayout& layout, bool h264, const CompensationRequest& request, int stages,
                       const CallSite& site);

    // On `compute`, after the search wrote `job`'s keys (or records, when not null) for this stage.
    void enqueue(int stage, const SearchJob& job, const MotionRecord* records, cudaStream_t compute,
                 const CallSite& site);
    // On `download`, once it waits for the compute stream's work on this stage.
    void enqueue_download(int stage, cudaStream_t download, const CallSite& site);
    // Once the download is done: the pair's CompensatedFrame.
    [[nodiscard]] CompensatedFrame result(int stage) const;

private:
    struct Stage {
        DeviceMemory device;
        PinnedMemory host;
        std::uint8_t* prediction = nullptr;  // device, W x H
        std::int16_t* residual = nullptr;    // device, tile-major (and coefficients, dequantised, restored)
        std::int16_t* coefficients = nullptr;
        std::int16_t* dequantised = nullptr;
        std::int16_t* restored = nullptr;
        void* figures = nullptr;  // device CompensationFigures
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
