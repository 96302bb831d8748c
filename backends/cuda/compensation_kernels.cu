// SPEC §12-§13 after the search, with the frames and the vectors still on the device. Every kernel
// but the H.264 prediction runs one thread per element of the tile-major planes, so that the residual,
// the coefficients and the dequantised tiles are read and written in whole 16-byte runs of a tile's
// rows (the DCT between them is dct_kernels.cu's, unchanged); the figures are summed per CTA and added
// with one atomic per CTA. The H.264 prediction runs one warp per block on the quarter-pel
// refinement's staged planes (compensation_pixel.cuh).
#include "compensation_kernels.hpp"
#include "compensation_pixel.cuh"
#include "partition_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = qpel::kMaxWarpsPerBlock;  // warps per CTA of the H.264 prediction

// Adds `value` of every thread of the CTA to *target: a warp sum, a CTA sum, one atomic. Every thread
// of the CTA calls it (none has left).
__device__ __forceinline__ void cta_add(unsigned long long value, unsigned long long* target) {
    __shared__ unsigned long long warp_sums[32];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_xor_sync(0xFFFFFFFFu, value, offset);
    const unsigned thread = threadIdx.x;
    const unsigned warps = (blockDim.x + 31) / 32;
    __syncthreads();  // an earlier call's reads of warp_sums are done
    if (thread % 32 == 0) warp_sums[thread / 32] = value;
    __syncthreads();
    if (thread == 0) {
        unsigned long long sum = 0;
        for (unsigned w = 0; w < warps; ++w) sum += warp_sums[w];
        if (sum != 0) atomicAdd(target, sum);
    }
}

__device__ __forceinline__ int element_count(const CompensationJob& job) {
    return job.tiles_x * job.tiles_y * 64;
}

__device__ __forceinline__ CompensationFigures& figures_of_cta(const CompensationJob& job) {
    return job.figures[blockIdx.x % kFigureSlots];
}

// A thread's share of the prediction's figures (CompensationFigures): a thread sums at most B * B / 32
// samples (32 at B = 32), each below 2^16, so 32 bits hold each until add_sums.
struct PredictionSums {
    unsigned magnitude = 0;
    unsigned squared = 0;
    unsigned zero_motion = 0;
};
__device__ __forceinline__ void add_sample(PredictionSums& sums, int current, int predicted, int reference) {
    const int difference = current - predicted;
    const int still = current - reference;
    sums.magnitude += static_cast<unsigned>(abs(difference));
    sums.squared += static_cast<unsigned>(difference * difference);
    sums.zero_motion += static_cast<unsigned>(still * still);
}
__device__ __forceinline__ void add_sums(const PredictionSums& sums, const CompensationJob& job) {
    CompensationFigures& figures = figures_of_cta(job);
    cta_add(sums.magnitude, &figures.residual_abs_sum);
    cta_add(sums.squared, &figures.prediction_sse);
    cta_add(sums.zero_motion, &figures.zero_motion_sse);
}

__global__ void __launch_bounds__(kThreads) predict_bilinear_kernel(CompensationJob job) {
    const int element = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    const FrameLayout& f = job.search.layout;
    const compensation::TilePosition p = compensation::tile_position(element, job.tiles_x);
    PredictionSums sums;
    if (element < element_count(job) && p.x < f.width && p.y < f.height) {
        const int b = job.search.block_size;
        const compensation::Vector4 mv =
            compensation::block_vector(job.keys, job.records, (p.y / b) * job.search.blocks_x + p.x / b);
        const int predicted = compensation::bilinear_sample(f, job.search.reference, p.x, p.y, mv);
        const int current = job.search.current[static_cast<std::ptrdiff_t>(p.y) * f.pitch + p.x];
        job.prediction[static_cast<std::ptrdiff_t>(p.y) * f.width + p.x] =
            static_cast<std::uint8_t>(predicted);
        job.residual[element] = static_cast<std::int16_t>(current - predicted);
        add_sample(sums, current, predicted,
                   job.search.reference[static_cast<std::ptrdiff_t>(p.y) * f.pitch + p.x]);
    }
    add_sums(sums, job);
}

template <int B>
__global__ void __launch_bounds__(32 * kWarps) predict_h264_kernel(CompensationJob job) {
    __shared__ qpel::Scratch<B> scratch[kWarps];
    const int block = static_cast<int>(blockIdx.x) * kWarps + static_cast<int>(threadIdx.x) / 32;
    const SearchJob& s = job.search;
    const FrameLayout& f = s.layout;
    PredictionSums sums;
    if (block < s.blocks_x * s.blocks_y) {  // whole warps: each stays converged
        const int x = (block % s.blocks_x) * B;
        const int y = (block / s.blocks_x) * B;
        qpel::DeviceWarp warp;
        compensation::predict_block_h264<B>(
            warp, scratch[threadIdx.x / 32], s, x, y,
            compensation::block_vector(job.keys, job.records, block),
            [&](int px, int py, std::uint32_t samples) {
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    if (px + k >= f.width || py >= f.height) continue;  // cropped to W x H
                    const int predicted = static_cast<int>((samples >> (8 * k)) & 0xFFu);
                    const int current = s.current[static_cast<std::ptrdiff_t>(py) * f.pitch + px + k];
                    job.prediction[static_cast<std::ptrdiff_t>(py) * f.width + px + k] =
                        static_cast<std::uint8_t>(predicted);
                    job.residual[compensation::tile_element(px + k, py, job.tiles_x)] =
                        static_cast<std::int16_t>(current - predicted);
                    add_sample(sums, current, predicted,
                               s.reference[static_cast<std::ptrdiff_t>(py) * f.pitch + px + k]);
                }
            });
    }
    add_sums(sums, job);
}

__global__ void __launch_bounds__(kThreads)
    quantise_kernel(CompensationJob job, const std::int16_t* __restrict__ coefficients,
                    std::int16_t* __restrict__ dequantised, int step) {
    const int element = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    const compensation::TilePosition p = compensation::tile_position(element, job.tiles_x);
    unsigned long long energy = 0;
    unsigned long long zeros = 0;
    if (element < element_count(job)) {
        int restored = 0;  // cropped coefficients: the inverse reads zeros
        if (p.x < job.search.layout.width && p.y < job.search.layout.height) {
            const int coefficient = coefficients[element];
            energy = static_cast<unsigned long long>(coefficient * coefficient);
            restored = compensation::quantise_dequantise(coefficient, step);
            zeros = restored == 0 ? 1 : 0;
        }
        dequantised[element] = static_cast<std::int16_t>(restored);
    }
    cta_add(energy, &figures_of_cta(job).coefficient_energy);
    cta_add(zeros, &figures_of_cta(job).zero_coefficients);
}

__global__ void __launch_bounds__(kThreads)
    reconstruct_kernel(CompensationJob job, const std::int16_t* __restrict__ restored) {
    const int element = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    const FrameLayout& f = job.search.layout;
    const compensation::TilePosition p = compensation::tile_position(element, job.tiles_x);
    unsigned long long squared = 0;
    if (element < element_count(job) && p.x < f.width && p.y < f.height) {
        const int predicted = job.prediction[static_cast<std::ptrdiff_t>(p.y) * f.width + p.x];
        const int sample = min(max(predicted + restored[element], 0), 255);
        const int difference = sample - job.search.current[static_cast<std::ptrdiff_t>(p.y) * f.pitch + p.x];
        squared = static_cast<unsigned long long>(difference * difference);
    }
    cta_add(squared, &figures_of_cta(job).reconstruction_sse);
}

// The partition of the chosen mode (PartitionRecord::modes) that covers 4x4 tile (qx, qy) of its
// macroblock, in SPEC §9's order (xme/macroblock.hpp's table: 16x16; 16x8 top, bottom; 8x16 left,
// right; then per 8x8 quadrant q its 8x8, its 8x4 halves top then bottom, its 4x8 halves left then
// right, its 4x4s in raster order).
__device__ __forceinline__ int covering_partition(std::uint32_t modes, int qx, int qy) {
    switch (modes & 3u) {
        case 0:
            return 0;
        case 1:
            return 1 + (qy >> 1);
        case 2:
            return 3 + (qx >> 1);
        default:
            break;
    }
    const int q = (qy >> 1) * 2 + (qx >> 1);
    const int lx = qx & 1;
    const int ly = qy & 1;
    switch ((modes >> (8 + 2 * q)) & 3u) {
        case 0:
            return 5 + q;
        case 1:
            return 9 + 2 * q + ly;
        case 2:
            return 17 + 2 * q + lx;
        default:
            return 25 + 4 * q + 2 * ly + lx;
    }
}

__global__ void __launch_bounds__(kThreads)
    expand_partitions_kernel(const p41::PartitionRecord* records, int macroblocks_x, int tiles_x, int tiles_y,
                             MotionRecord* tiles) {
    const int tile = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    if (tile >= tiles_x * tiles_y) return;
    const int tx = tile % tiles_x;
    const int ty = tile / tiles_x;
    const p41::PartitionRecord& record = records[(ty >> 2) * macroblocks_x + (tx >> 2)];
    tiles[tile] = record.partitions[covering_partition(record.modes, tx & 3, ty & 3)];
}

unsigned element_grid(const CompensationJob& job) {
    return static_cast<unsigned>((job.tiles_x * job.tiles_y * 64 + kThreads - 1) / kThreads);
}

}  // namespace

cudaError_t launch_expand_partitions(const void* partition_records, int macroblocks_x, int tiles_x,
                                     int tiles_y, MotionRecord* tiles, cudaStream_t stream) {
    if (tiles_x == 0 || tiles_y == 0) return cudaSuccess;
    const auto grid = static_cast<unsigned>((tiles_x * tiles_y + kThreads - 1) / kThreads);
    expand_partitions_kernel<<<grid, kThreads, 0, stream>>>(
        static_cast<const p41::PartitionRecord*>(partition_records), macroblocks_x, tiles_x, tiles_y, tiles);
    return cudaGetLastError();
}

cudaError_t launch_predict_residual(const CompensationJob& job, cudaStream_t stream) {
    if (job.tiles_x == 0 || job.tiles_y == 0) return cudaSuccess;
    if (!job.h264) {
        predict_bilinear_kernel<<<element_grid(job), kThreads, 0, stream>>>(job);
        return cudaGetLastError();
    }
    const int blocks = job.search.blocks_x * job.search.blocks_y;
    const unsigned grid = static_cast<unsigned>((blocks + kWarps - 1) / kWarps);
    switch (job.search.block_size) {
        case 4:
            predict_h264_kernel<4><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case 8:
            predict_h264_kernel<8><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case 16:
            predict_h264_kernel<16><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case 32:
            predict_h264_kernel<32><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        default:
            return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

cudaError_t launch_quantise(const CompensationJob& job, const std::int16_t* coefficients,
                            std::int16_t* dequantised, int quantiser_step, cudaStream_t stream) {
    if (job.tiles_x == 0 || job.tiles_y == 0) return cudaSuccess;
    quantise_kernel<<<element_grid(job), kThreads, 0, stream>>>(job, coefficients, dequantised,
                                                                quantiser_step);
    return cudaGetLastError();
}

cudaError_t launch_reconstruct(const CompensationJob& job, const std::int16_t* restored,
                               cudaStream_t stream) {
    if (job.tiles_x == 0 || job.tiles_y == 0) return cudaSuccess;
    reconstruct_kernel<<<element_grid(job), kThreads, 0, stream>>>(job, restored);
    return cudaGetLastError();
}

}  // namespace xme::cuda
