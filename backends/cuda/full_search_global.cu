// Variant "global" (Agha et al. 2024, Algorithm 2): one thread per block loops over every candidate,
// reading both frames byte by byte from global memory. The baseline the other variants are measured
// against; its few threads (one per block) leave most of the GPU idle.
#include "device_common.cuh"

namespace xme::cuda {
namespace {

template <int B>
__global__ void full_search_global_kernel(SearchJob job) {
    const int block = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (block >= job.blocks_x * job.blocks_y) return;
    const int x = (block % job.blocks_x) * B;
    const int y = (block / job.blocks_x) * B;
    const int pitch = job.layout.pitch;
    const Window w = candidate_window(job, x, y);
    const std::uint8_t* current = job.current + static_cast<std::ptrdiff_t>(y) * pitch + x;
    std::uint64_t best = ~std::uint64_t{0};
    for (int dy = w.low_y; dy <= w.high_y; ++dy) {
        for (int dx = w.low_x; dx <= w.high_x; ++dx) {
            const std::uint8_t* reference =
                job.reference + static_cast<std::ptrdiff_t>(y + dy) * pitch + x + dx;
            std::uint32_t sad = 0;
            for (int j = 0; j < B; ++j) {
#pragma unroll
                for (int i = 0; i < B; ++i) {
                    sad += static_cast<std::uint32_t>(
                        abs(int{current[j * pitch + i]} - int{reference[j * pitch + i]}));
                }
            }
            const std::uint64_t key = integer_key(sad, dx, dy);
            best = key < best ? key : best;
        }
    }
    job.keys[block] = best;
}

}  // namespace

cudaError_t launch_full_search_global(const SearchJob& job, cudaStream_t stream) {
    constexpr int threads = 64;
    const int blocks = job.blocks_x * job.blocks_y;
    const unsigned grid = static_cast<unsigned>((blocks + threads - 1) / threads);
    switch (job.block_size) {
        case 4:
            full_search_global_kernel<4><<<grid, threads, 0, stream>>>(job);
            break;
        case 8:
            full_search_global_kernel<8><<<grid, threads, 0, stream>>>(job);
            break;
        case 16:
            full_search_global_kernel<16><<<grid, threads, 0, stream>>>(job);
            break;
        default:
            full_search_global_kernel<32><<<grid, threads, 0, stream>>>(job);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
