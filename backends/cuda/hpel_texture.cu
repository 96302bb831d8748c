// Half-pel refinement of variant fast-texture: the CUDA twin of the legacy texture method (SPEC §5).
// The padded reference is bound as a uchar texture read as normalized float with linear filtering,
// unnormalized coordinates and clamp addressing; each half position is one filtered fetch.
//
// Bit-exact by SPEC §6: at exact half positions the filter weights are exactly 1/2 and 1/4, and the
// texture unit returns (a+b)/510 or (a+b+c+d)/1020 closely enough that rounding recovers the integer
// sum: rint(v * 510) = a + b, rint(v * 1020) = a + b + c + d, rint(v * 255) = a at a texel centre.
#include "hpel_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kWarps = 4;  // one warp per block, its lanes sharing the block's pixels

struct TextureSampler {
    cudaTextureObject_t texture;
    int margin_x;  // texel (i, j) of the texture is frame pixel (i - margin_x, j - margin_y)
    int margin_y;

    __device__ __forceinline__ void add(int px, int py, int cx, int cy, int current4,
                                        std::uint32_t* sums) const {
#pragma unroll
        for (int sy = -1; sy <= 1; ++sy) {
#pragma unroll
            for (int sx = -1; sx <= 1; ++sx) {
                // Texel i's centre is at i + 0.5; halfway between texels i and i + 1 is i + 1.0.
                const float u = static_cast<float>(px + cx + margin_x) + 0.5f * static_cast<float>(sx) + 0.5f;
                const float v = static_cast<float>(py + cy + margin_y) + 0.5f * static_cast<float>(sy) + 0.5f;
                const float t = tex2D<float>(texture, u, v);
                int four_interp;
                if (sx != 0 && sy != 0) {
                    four_interp = __float2int_rn(t * 1020.0f);
                } else if (sx != 0 || sy != 0) {
                    four_interp = 2 * __float2int_rn(t * 510.0f);
                } else {
                    four_interp = 4 * __float2int_rn(t * 255.0f);
                }
                sums[(sy + 1) * 3 + sx + 1] += static_cast<std::uint32_t>(abs(current4 - four_interp));
            }
        }
    }
};

template <int B>
__global__ void hpel_texture_kernel(SearchJob job) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int block = static_cast<int>(blockIdx.x) * kWarps + static_cast<int>(threadIdx.x) / 32;
    if (block >= job.blocks_x * job.blocks_y) return;  // the whole warp leaves together
    const int x = (block % job.blocks_x) * B;
    const int y = (block / job.blocks_x) * B;
    const Vector winner = integer_winner(job, block);
    const int cx = winner.x;
    const int cy = winner.y;
    const TextureSampler sampler{job.reference_texture, job.layout.margin_x, job.layout.margin_y};
    std::uint32_t sums[9] = {};
    for (int p = lane; p < B * B; p += 32) {
        const int px = x + p % B;
        const int py = y + p / B;
        const int current4 = 4 * int{job.current[static_cast<std::ptrdiff_t>(py) * job.layout.pitch + px]};
        sampler.add(px, py, cx, cy, current4, sums);
    }
#pragma unroll
    for (int n = 0; n < 9; ++n) {
        for (int offset = 16; offset > 0; offset >>= 1)
            sums[n] += __shfl_xor_sync(0xffffffffu, sums[n], offset);
    }
    if (lane == 0) store_refined(job, block, x, y, cx, cy, sums);
}

}  // namespace

cudaError_t launch_hpel_texture(const SearchJob& job, cudaStream_t stream) {
    const int blocks = job.blocks_x * job.blocks_y;
    const unsigned grid = static_cast<unsigned>((blocks + kWarps - 1) / kWarps);
    switch (job.block_size) {
        case 4:
            hpel_texture_kernel<4><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case 8:
            hpel_texture_kernel<8><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case 16:
            hpel_texture_kernel<16><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        default:
            hpel_texture_kernel<32><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
