// SPEC §12-§13 chained after the search on the device: the launchers compensation_kernels.cu exports.
// Host-only types, as kernels.hpp: no xme headers (nvcc compiles this backend as C++17).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels.hpp"

namespace xme::cuda {

// The per-frame figures, summed on the device (each kernel adds its share; zero them before the first).
// CTAs add into kFigureSlots copies (CTA i into copy i % kFigureSlots) so that their atomics do not
// all queue on one address; the host sums the copies.
inline constexpr int kFigureSlots = 32;
struct CompensationFigures {
    unsigned long long residual_abs_sum;
    unsigned long long prediction_sse;   // residual^2: MC-PSNR's sum
    unsigned long long zero_motion_sse;  // (current - reference)^2 at the same position: zero-motion PSNR's
    unsigned long long coefficient_energy;  // inside W x H
    unsigned long long zero_coefficients;   // inside W x H, those that quantise to zero
    unsigned long long reconstruction_sse;  // clip(prediction + inverse) against the current frame
};

// One pair's compensation. The planes in tile-major order (compensation_pixel.cuh: 64 int16 per 8x8 tile,
// dct_kernels' blocks) hold tiles_x * tiles_y tiles; their elements outside W x H are zero in `residual`
// (the caller clears it once: no kernel writes there) and written zero in the dequantised tiles.
struct CompensationJob {
    SearchJob search;                       // frames, layout, block size and count
    const std::uint64_t* keys = nullptr;    // the search's results: the packed keys, or
    const MotionRecord* records = nullptr;  // the records (when not null)
    bool h264 = false;                      // SPEC §10's samples; else §4's bilinear ones
    std::uint8_t* prediction = nullptr;     // W x H, tightly packed
    std::int16_t* residual = nullptr;       // tile-major
    int tiles_x = 0;
    int tiles_y = 0;
    CompensationFigures* figures = nullptr;  // kFigureSlots of them
};

// SPEC §9 before §12: each 4x4 tile of W x H gets the vector of the chosen mode's partition that covers
// it (`partition_records`: p41::PartitionRecord, one per macroblock, `macroblocks_x` across), written to
// `tiles`, a block-4 grid of tiles_x x tiles_y records; compensation after the partitions is then the
// block-4 prediction (each sample depends on its vector only, SPEC §12).
cudaError_t launch_expand_partitions(const void* partition_records, int macroblocks_x, int tiles_x, int tiles_y,
                                     MotionRecord* tiles, cudaStream_t stream);
// The prediction and the residual (current - prediction) of every sample of W x H, the sums of |residual|
// and residual^2, and the zero-motion squared error.
cudaError_t launch_predict_residual(const CompensationJob& job, cudaStream_t stream);
// SPEC §13's quantiser on the forward transform's tiles: q * S into `dequantised` (zero outside W x H,
// so that the inverse reads zeros for the cropped coefficients), the energy and the zero count.
cudaError_t launch_quantise(const CompensationJob& job, const std::int16_t* coefficients,
                            std::int16_t* dequantised, int quantiser_step, cudaStream_t stream);
// clip(prediction + restored, 0, 255) against the current frame: the reconstruction's squared error.
cudaError_t launch_reconstruct(const CompensationJob& job, const std::int16_t* restored, cudaStream_t stream);

}  // namespace xme::cuda
