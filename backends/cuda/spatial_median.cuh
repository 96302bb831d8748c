// SPEC §8's spatial predictor (H.264's median of the left, top and top-right or top-left neighbours)
// over a frame's final vectors so far, __host__ __device__ so that the host emulation tests run it too.
// The block search (rate_common.cuh) and the partition search (partition_common.cuh) both take it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace xme::cuda {

struct MedianVector {
    int x, y;
};

__host__ __device__ __forceinline__ int median_of_three(int a, int b, int c) {
    const int low = a < b ? a : b;
    const int high = a < b ? b : a;
    const int upper = high < c ? high : c;
    return low > upper ? low : upper;
}

// Block `index`'s final vector: the first two int16 of its record at records + index * stride bytes (a
// MotionRecord, or a partition record, whose first member is its 16x16 partition's). On the device it is
// read past L1, which does not see what other SMs wrote.
__host__ __device__ __forceinline__ MedianVector final_vector_at(const std::uint8_t* records,
                                                                 std::size_t stride, int index) {
    const std::uint8_t* at = records + static_cast<std::size_t>(index) * stride;
#if defined(__CUDA_ARCH__)
    const unsigned packed = __ldcg(reinterpret_cast<const unsigned*>(at));
#else
    unsigned packed = 0;
    std::memcpy(&packed, at, sizeof packed);
#endif
    return {static_cast<std::int16_t>(packed & 0xFFFFu), static_cast<std::int16_t>(packed >> 16)};
}

// The predictor of block (bx, by) of a frame `blocks_x` blocks wide, whose blocks above and to the left
// are final (the caller waits for them: a wavefront).
__host__ __device__ __forceinline__ MedianVector spatial_median(const std::uint8_t* records,
                                                                std::size_t stride, int blocks_x, int bx,
                                                                int by) {
    const bool has_a = bx > 0;
    const bool has_b = by > 0;
    const bool has_c = by > 0 && bx + 1 < blocks_x;
    const bool has_d = by > 0 && bx > 0;
    const MedianVector a = has_a ? final_vector_at(records, stride, by * blocks_x + bx - 1) : MedianVector{};
    const MedianVector b =
        has_b ? final_vector_at(records, stride, (by - 1) * blocks_x + bx) : MedianVector{};
    const bool c_available = has_c || has_d;
    const MedianVector c = has_c   ? final_vector_at(records, stride, (by - 1) * blocks_x + bx + 1)
                           : has_d ? final_vector_at(records, stride, (by - 1) * blocks_x + bx - 1)
                                   : MedianVector{};
    const int available = int{has_a} + int{has_b} + int{c_available};
    if (available == 1) return has_a ? a : has_b ? b : c;
    return {median_of_three(a.x, b.x, c.x), median_of_three(a.y, b.y, c.y)};
}

}  // namespace xme::cuda
