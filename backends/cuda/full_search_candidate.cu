// Variant "candidate" (Agha et al. 2024, Algorithm 4; Halldal's 29 x 15 layout): one CUDA block per
// image block and one thread per candidate. The thread block is tile_width x tile_height threads and
// covers tile_width x (2 * tile_height) candidates, two per thread (Halldal: 29 x 15 threads for a
// 29 x 29 window); larger windows are walked tile by tile. The search window tile and the current block
// sit in shared memory; the winner is found by a binary min-reduction over packed 64-bit keys in shared
// memory (Rodriguez-Sanchez et al.'s 256 -> 1 scheme), so ties resolve exactly as SPEC §3 says.
#include <algorithm>

#include "device_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kMaxTileWidth = 64;
constexpr int kMaxThreads = 1024;

template <int B>
__global__ void full_search_candidate_kernel(SearchJob job) {
    extern __shared__ std::uint64_t shared_words[];
    const int tile_width = static_cast<int>(blockDim.x);
    const int tile_height = 2 * static_cast<int>(blockDim.y);
    const int window_width = tile_width + B - 1;
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    std::uint64_t* keys = shared_words;                                       // one per thread
    std::uint8_t* current = reinterpret_cast<std::uint8_t*>(keys + threads);  // B x B
    std::uint8_t* window = current + B * B;  // (2 * blockDim.y + B - 1) x window_width

    const int block = static_cast<int>(blockIdx.x);
    const int x = (block % job.blocks_x) * B;
    const int y = (block / job.blocks_x) * B;
    const int pitch = job.layout.pitch;
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    const Window w = candidate_window(job, x, y);

    for (int i = tid; i < B * B; i += threads) {
        current[i] = job.current[static_cast<std::ptrdiff_t>(y + i / B) * pitch + x + i % B];
    }
    std::uint64_t best = ~std::uint64_t{0};
    for (int tile_y = w.low_y; tile_y <= w.high_y; tile_y += tile_height) {
        for (int tile_x = w.low_x; tile_x <= w.high_x; tile_x += tile_width) {
            const int rows = min(tile_height, w.high_y - tile_y + 1) + B - 1;
            const int columns = min(tile_width, w.high_x - tile_x + 1) + B - 1;
            __syncthreads();
            for (int i = tid; i < rows * columns; i += threads) {
                const int r = i / columns;
                const int c = i % columns;
                window[r * window_width + c] =
                    job.reference[static_cast<std::ptrdiff_t>(y + tile_y + r) * pitch + x + tile_x + c];
            }
            __syncthreads();
            const int dx = tile_x + static_cast<int>(threadIdx.x);
            for (int half = 0; half < 2; ++half) {
                const int row = static_cast<int>(threadIdx.y) + half * static_cast<int>(blockDim.y);
                const int dy = tile_y + row;
                if (dx > w.high_x || dy > w.high_y) continue;
                std::uint32_t sad = 0;
                for (int j = 0; j < B; ++j) {
#pragma unroll
                    for (int i = 0; i < B; ++i) {
                        const int a = current[j * B + i];
                        sad += static_cast<std::uint32_t>(
                            abs(a - int{window[(row + j) * window_width + threadIdx.x + i]}));
                    }
                }
                const std::uint64_t key = integer_key(sad, dx, dy);
                best = key < best ? key : best;
            }
        }
    }

    keys[tid] = best;
    int active = 1;
    while (active < threads) active <<= 1;
    for (int stride = active / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride && tid + stride < threads) {
            const std::uint64_t other = keys[tid + stride];
            if (other < keys[tid]) keys[tid] = other;
        }
    }
    if (tid == 0) job.keys[block] = keys[0];
}

template <int B>
void launch(const SearchJob& job, dim3 threads, cudaStream_t stream) {
    const int count = static_cast<int>(threads.x * threads.y);
    const std::size_t bytes = sizeof(std::uint64_t) * static_cast<std::size_t>(count) + B * B +
                              static_cast<std::size_t>(threads.x + B - 1) * (2 * threads.y + B - 1);
    full_search_candidate_kernel<B>
        <<<static_cast<unsigned>(job.blocks_x * job.blocks_y), threads, bytes, stream>>>(job);
}

}  // namespace

cudaError_t launch_full_search_candidate(const SearchJob& job, cudaStream_t stream) {
    // The window every block's tiles are cut from (restrict mode clips it, never beyond 2R+1).
    const int r = job.range;
    const int span_x = job.restrict_border
                           ? std::min(2 * r + 1, 2 * (job.layout.padded_width - job.block_size) + 1)
                           : 2 * r + 1;
    const int span_y = job.restrict_border
                           ? std::min(2 * r + 1, 2 * (job.layout.padded_height - job.block_size) + 1)
                           : 2 * r + 1;
    const int width = std::min(span_x, kMaxTileWidth);
    const int height = std::max(1, std::min((span_y + 1) / 2, kMaxThreads / width));
    const dim3 threads(static_cast<unsigned>(width), static_cast<unsigned>(height));
    switch (job.block_size) {
        case 4:
            launch<4>(job, threads, stream);
            break;
        case 8:
            launch<8>(job, threads, stream);
            break;
        case 16:
            launch<16>(job, threads, stream);
            break;
        default:
            launch<32>(job, threads, stream);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
