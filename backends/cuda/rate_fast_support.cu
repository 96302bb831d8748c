// The fast full search's rate term (see rate_fast.hpp): the bounds of its packed keys, and the records
// those keys become.
#include <cstdint>

#include "rate_common.cuh"
#include "rate_fast.hpp"

namespace xme::cuda {
namespace {

constexpr int kThreads = 128;
constexpr int kRowsPastWindow = 10;  // the fast kernel's last chunk of K <= 11 rows may run past +R

__global__ void rate_records_kernel(SearchJob job) {
    const int block = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (block >= job.blocks_x * job.blocks_y) return;
    job.records[block] = record_of_fast_key(job, block);
}

int bit_width(std::uint64_t v) {
    int width = 0;
    for (; v != 0; v >>= 1) ++width;
    return width;
}

}  // namespace

int rate_row_stride(int range) { return 2 * range + 1 + kRowsPastWindow; }

// Ranks reach 2|dy - centre| with |centre| <= range + 1: 4 range + 4.
int rate_rank_bits(int range) { return bit_width(static_cast<std::uint64_t>(4 * range + 4)); }

bool fast_rate_fits(int block_size, int range, int lambda, int predictor_bound) {
    // The packed tie (rate_records_kernel): 9 bits per offset, 13 for |mv - p|.
    const std::int64_t farthest = 4 * static_cast<std::int64_t>(range) + predictor_bound;  // |4 d - p|
    if (range > 255 || 2 * farthest >= (1 << 13)) return false;
    const std::int64_t bits =
        2 * (2 * (bit_width(static_cast<std::uint64_t>(2 * farthest + 1)) - 1) + 1);  // 2 se(-farthest)
    const std::int64_t most = static_cast<std::int64_t>(block_size) * block_size * 255 + lambda * bits;
    return ((most + 1) << rate_rank_bits(range)) <= (std::int64_t{1} << 31);
}

cudaError_t launch_rate_records(const SearchJob& job, cudaStream_t stream) {
    const int blocks = job.blocks_x * job.blocks_y;
    rate_records_kernel<<<static_cast<unsigned>((blocks + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        job);
    return cudaGetLastError();
}

}  // namespace xme::cuda
