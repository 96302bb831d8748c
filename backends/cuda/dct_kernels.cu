// SPEC §13's 2-D transforms: each variant's 1-D transform (dct_1d.cuh) over the rows, then over the
// columns, then x 0.125f and rounding, as the reference does.
//
// Layout of the work: 8 threads per 8x8 block, 32 blocks per CTA. Thread r of a block loads row r as
// one 16-byte load (a warp reads 4 whole blocks, 512 contiguous bytes) and transforms it; the block goes
// through shared memory so that thread c transforms column c; the rounded results go back through
// shared memory so that thread r stores row r as one 16-byte store. So global memory sees only fully
// coalesced 16-byte accesses, and the block is read and written once: the kernel is built to run at
// memory bandwidth (docs/cuda.md, "The DCT", has the floor).
#include "dct_1d.cuh"
#include "dct_kernels.hpp"

namespace xme::cuda {
namespace {

constexpr int kBlocksPerCta = 32;
constexpr int kThreads = 8 * kBlocksPerCta;
// A block's tile is 8 rows of 9 floats: with the pad, a warp's 32 lanes hit 32 different banks both
// when each writes its row (lane (b, r) at 72 b + 9 r + k) and when each reads its column
// (72 b + 9 k + c): 72 = 8 mod 32 and 9 = 9 mod 32 spread the 4 x 8 lanes over all banks.
constexpr int kTileStride = 9;

// uint4 = 8 int16, little-endian: sample 2i in the low half of word i.
__device__ __forceinline__ void unpack(const uint4 raw, float (&v)[8]) {
    const unsigned words[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        v[2 * i] = static_cast<float>(static_cast<std::int16_t>(words[i] & 0xFFFFu));  // exact in 24 bits
        v[2 * i + 1] = static_cast<float>(static_cast<std::int16_t>(words[i] >> 16));
    }
}

// The values are whole numbers that fit int16 (see epilogue), so the conversion is exact.
__device__ __forceinline__ uint4 pack(const float (&v)[8]) {
    unsigned words[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const unsigned low = static_cast<unsigned>(__float2int_rz(v[2 * i])) & 0xFFFFu;
        const unsigned high = static_cast<unsigned>(__float2int_rz(v[2 * i + 1])) & 0xFFFFu;
        words[i] = low | (high << 16);
    }
    return make_uint4(words[0], words[1], words[2], words[3]);
}

// dct_rounding.hpp: x 0.125f (exact: both passes compute 8 times the orthonormal transform), then to
// nearest with halves away from zero: CUDA's roundf is exact and rounds halves away from zero, as
// std::round does (it is not floor(v + 0.5f)). A coefficient stays within int16 (|F| <= 8 * 2048 plus
// float error); an inverse sample is clipped to -256..255 like the reference's std::clamp.
template <bool kInverse>
__device__ __forceinline__ float epilogue(float scaled_by_8) {
    const float rounded = roundf(dct::mul(0.125f, scaled_by_8));
    if constexpr (kInverse) {
        return fminf(fmaxf(rounded, -256.0f), 255.0f);
    } else {
        return rounded;
    }
}

template <class OneD>
__global__ void __launch_bounds__(kThreads)
    dct_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t count) {
    __shared__ float tiles[kBlocksPerCta][8][kTileStride];
    // The row this thread loads, transforms in pass 1 and stores; the column it transforms in pass 2.
    const int lane = static_cast<int>(threadIdx.x % 8);
    const int local_block = static_cast<int>(threadIdx.x / 8);
    const std::size_t block = static_cast<std::size_t>(blockIdx.x) * kBlocksPerCta + local_block;
    // A block's 8 threads leave together, so each block syncs only its own 8 lanes: the mask never
    // names a thread that has left.
    if (block >= count) return;
    const unsigned block_lanes = 0xFFu << ((threadIdx.x % 32) & ~7u);
    float(&tile)[8][kTileStride] = tiles[local_block];
    const OneD one_d;

    // Pass 1: row `lane`.
    float values[8];
    float transformed[8];
    unpack(in[8 * block + lane], values);
    one_d(values, transformed);
#pragma unroll
    for (int k = 0; k < 8; ++k) tile[lane][k] = transformed[k];
    __syncwarp(block_lanes);

    // Pass 2: column `lane`. Each thread then overwrites only the column it read itself, so no other
    // thread's read can see a result early.
#pragma unroll
    for (int k = 0; k < 8; ++k) values[k] = tile[k][lane];
    one_d(values, transformed);
#pragma unroll
    for (int k = 0; k < 8; ++k) tile[k][lane] = epilogue<OneD::inverse>(transformed[k]);
    __syncwarp(block_lanes);

    // Row `lane` of the result.
#pragma unroll
    for (int k = 0; k < 8; ++k) values[k] = tile[lane][k];
    out[8 * block + lane] = pack(values);
}

template <class OneD>
cudaError_t launch(const std::int16_t* in, std::int16_t* out, std::size_t count, cudaStream_t stream) {
    if (count == 0) return cudaSuccess;
    const std::size_t ctas = (count + kBlocksPerCta - 1) / kBlocksPerCta;
    // grid.x allows 2^31 - 1 CTAs, i.e. 2^36 blocks (8 TiB): more than any GPU holds.
    dct_kernel<OneD><<<static_cast<unsigned>(ctas), kThreads, 0, stream>>>(
        reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), count);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_dct(DctVariant variant, DctDirection direction, const std::int16_t* in, std::int16_t* out,
                       std::size_t count, cudaStream_t stream) {
    const bool forward = direction == DctDirection::forward;
    if (variant == DctVariant::matrix) {
        return forward ? launch<dct::MatrixForward>(in, out, count, stream)
                       : launch<dct::MatrixInverse>(in, out, count, stream);
    }
    return forward ? launch<dct::LoefflerForward>(in, out, count, stream)
                   : launch<dct::LoefflerInverse>(in, out, count, stream);
}

}  // namespace xme::cuda
