// Variant "shared" (Agha et al. 2024, Algorithm 3; Sayadi et al.'s shared-memory version): still one
// thread per block looping over its candidates, but a CUDA block of neighbouring image blocks first
// copies their current blocks and the search window they share into shared memory, one tile of
// kTile x kTile candidates at a time (so any range fits), and every SAD reads shared memory only.
#include "device_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kTile = 16;  // candidates per side of one staged tile

// Image blocks per CUDA block (one thread each): about 128 x 64 pixels of current frame.
template <int B>
struct Shape {
    static constexpr int across = B == 32 ? 4 : B == 16 ? 8 : 16;
    static constexpr int down = B == 32 ? 2 : B == 16 ? 4 : B == 8 ? 4 : 8;
    static constexpr int current_width = across * B;  // current blocks, side by side
    static constexpr int current_height = down * B;
    static constexpr int window_width = current_width + kTile - 1;
    static constexpr int window_height = current_height + kTile - 1;
};

template <int B>
__global__ void full_search_shared_kernel(SearchJob job) {
    using S = Shape<B>;
    __shared__ std::uint8_t current[S::current_height][S::current_width];
    __shared__ std::uint8_t window[S::window_height][S::window_width];

    const int pitch = job.layout.pitch;
    const int first_bx = static_cast<int>(blockIdx.x) * S::across;
    const int first_by = static_cast<int>(blockIdx.y) * S::down;
    const int blocks_across = min(S::across, job.blocks_x - first_bx);  // image blocks inside the frame
    const int blocks_down = min(S::down, job.blocks_y - first_by);
    const int x0 = first_bx * B;
    const int y0 = first_by * B;
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    const bool active =
        static_cast<int>(threadIdx.x) < blocks_across && static_cast<int>(threadIdx.y) < blocks_down;
    const int x = x0 + static_cast<int>(threadIdx.x) * B;
    const int y = y0 + static_cast<int>(threadIdx.y) * B;
    const Window mine = candidate_window(job, x, y);

    // The union of the windows of the image blocks inside the frame: the lowest bound belongs to the
    // last block, the highest to the first (restrict mode); all are equal in pad mode.
    const Window last = candidate_window(job, x0 + (blocks_across - 1) * B, y0 + (blocks_down - 1) * B);
    const Window first = candidate_window(job, x0, y0);
    const Window all{last.low_x, first.high_x, last.low_y, first.high_y};

    for (int i = tid; i < blocks_down * B * S::current_width; i += threads) {
        const int r = i / S::current_width;
        const int c = i % S::current_width;
        if (c < blocks_across * B)
            current[r][c] = job.current[static_cast<std::ptrdiff_t>(y0 + r) * pitch + x0 + c];
    }

    std::uint64_t best = ~std::uint64_t{0};
    for (int tile_y = all.low_y; tile_y <= all.high_y; tile_y += kTile) {
        for (int tile_x = all.low_x; tile_x <= all.high_x; tile_x += kTile) {
            // Only what the blocks inside the frame read for candidates up to the window's end.
            const int rows = blocks_down * B + min(kTile, all.high_y - tile_y + 1) - 1;
            const int columns = blocks_across * B + min(kTile, all.high_x - tile_x + 1) - 1;
            __syncthreads();  // the previous tile is no longer read
            for (int i = tid; i < rows * columns; i += threads) {
                const int r = i / columns;
                const int c = i % columns;
                window[r][c] =
                    job.reference[static_cast<std::ptrdiff_t>(y0 + tile_y + r) * pitch + x0 + tile_x + c];
            }
            __syncthreads();
            if (!active) continue;
            const int dy_end = min(tile_y + kTile - 1, mine.high_y);
            const int dx_end = min(tile_x + kTile - 1, mine.high_x);
            for (int dy = max(tile_y, mine.low_y); dy <= dy_end; ++dy) {
                for (int dx = max(tile_x, mine.low_x); dx <= dx_end; ++dx) {
                    const int wr = static_cast<int>(threadIdx.y) * B + dy - tile_y;
                    const int wc = static_cast<int>(threadIdx.x) * B + dx - tile_x;
                    std::uint32_t sad = 0;
                    for (int j = 0; j < B; ++j) {
#pragma unroll
                        for (int i = 0; i < B; ++i) {
                            const int a = current[threadIdx.y * B + j][threadIdx.x * B + i];
                            sad += static_cast<std::uint32_t>(abs(a - int{window[wr + j][wc + i]}));
                        }
                    }
                    const std::uint64_t key = integer_key(sad, dx, dy);
                    best = key < best ? key : best;
                }
            }
        }
    }
    if (active)
        job.keys[(first_by + static_cast<int>(threadIdx.y)) * job.blocks_x + first_bx +
                 static_cast<int>(threadIdx.x)] = best;
}

template <int B>
void launch(const SearchJob& job, cudaStream_t stream) {
    using S = Shape<B>;
    const dim3 grid(static_cast<unsigned>((job.blocks_x + S::across - 1) / S::across),
                    static_cast<unsigned>((job.blocks_y + S::down - 1) / S::down));
    full_search_shared_kernel<B><<<grid, dim3(S::across, S::down), 0, stream>>>(job);
}

}  // namespace

cudaError_t launch_full_search_shared(const SearchJob& job, cudaStream_t stream) {
    switch (job.block_size) {
        case 4:
            launch<4>(job, stream);
            break;
        case 8:
            launch<8>(job, stream);
            break;
        case 16:
            launch<16>(job, stream);
            break;
        default:
            launch<32>(job, stream);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
