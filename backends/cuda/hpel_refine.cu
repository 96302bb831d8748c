// Half-pel refinement for every variant but fast-texture: the exact, unrounded bilinear average of
// SPEC §4 in integers, read from the padded reference (its margin covers the extra sample).
//
// One thread per column of a block: it slides a 3x3 window of integer samples down its column (3 new
// loads per pixel, coalesced across the lanes, which hold adjacent columns) and adds
// |4 cur - 4 interp| for the 9 positions; the block's B column-threads are adjacent lanes of one warp
// and add their sums with shuffles.
#include "hpel_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kThreads = 128;

template <int B>
__global__ void __launch_bounds__(kThreads) hpel_exact_kernel(SearchJob job) {
    const int blocks = job.blocks_x * job.blocks_y;
    const int i = static_cast<int>(threadIdx.x) % B;  // the column of the block
    const int wanted = static_cast<int>(blockIdx.x) * (kThreads / B) + static_cast<int>(threadIdx.x) / B;
    const int block = min(wanted, blocks - 1);  // surplus threads repeat the last block, write nothing
    const int x = (block % job.blocks_x) * B;
    const int y = (block / job.blocks_x) * B;
    const Vector winner = integer_winner(job, block);
    const int cx = winner.x;
    const int cy = winner.y;
    const int pitch = job.layout.pitch;
    const std::uint8_t* cur = job.current + static_cast<std::ptrdiff_t>(y) * pitch + x + i;
    // Row y+cy-1, columns x+i+cx-1 .. x+i+cx+1: sample (r, c) around the match of pixel (i, j) is
    // ref[(j + r) * pitch + c].
    const std::uint8_t* ref =
        job.reference + static_cast<std::ptrdiff_t>(y + cy - 1) * pitch + x + i + cx - 1;

    int s[3][3];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        s[1][c] = ref[c];
        s[2][c] = ref[pitch + c];
    }
    std::uint32_t sums[9] = {};
#pragma unroll
    for (int j = 0; j < B; ++j) {
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            s[0][c] = s[1][c];
            s[1][c] = s[2][c];
            s[2][c] = ref[(j + 2) * pitch + c];
        }
        const int current4 = 4 * int{cur[j * pitch]};
        add_half_pel_costs(current4, s, sums);
    }
#pragma unroll
    for (int n = 0; n < 9; ++n) {
#pragma unroll
        for (int offset = B / 2; offset > 0; offset >>= 1)
            sums[n] += __shfl_xor_sync(0xffffffffu, sums[n], offset);
    }
    if (i == 0 && wanted < blocks) store_refined(job, block, x, y, cx, cy, sums);
}

}  // namespace

cudaError_t launch_hpel_exact(const SearchJob& job, cudaStream_t stream) {
    const int blocks = job.blocks_x * job.blocks_y;
    const int per_cuda_block = kThreads / job.block_size;
    const unsigned grid = static_cast<unsigned>((blocks + per_cuda_block - 1) / per_cuda_block);
    switch (job.block_size) {
        case 4:
            hpel_exact_kernel<4><<<grid, kThreads, 0, stream>>>(job);
            break;
        case 8:
            hpel_exact_kernel<8><<<grid, kThreads, 0, stream>>>(job);
            break;
        case 16:
            hpel_exact_kernel<16><<<grid, kThreads, 0, stream>>>(job);
            break;
        default:
            hpel_exact_kernel<32><<<grid, kThreads, 0, stream>>>(job);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
