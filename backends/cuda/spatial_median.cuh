// SPEC §8's spatial predictor (H.264's median of the left, top and top-right or top-left neighbours)
// over a frame's final vectors so far, __host__ __device__ so that the host emulation tests run it too.
// The block search (rate_common.cuh) and the partition search (partition_common.cuh) both take it;
// the predictor set (predictor_set.cuh) takes its neighbours too.
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

// SPEC §8's neighbours of block (bx, by) of a frame `blocks_x` blocks wide: A (left), B (top) and C
// (top-right, or top-left D when C lies outside the frame), each with whether it lies inside the frame;
// one outside reads as (0, 0). The blocks above and to the left are final (the caller waits for them:
// a wavefront).
struct MedianNeighbours {
    MedianVector a, b, c;
    bool has_a, has_b, has_c;
};

__host__ __device__ __forceinline__ MedianNeighbours median_neighbours(const std::uint8_t* records,
                                                                       std::size_t stride, int blocks_x,
                                                                       int bx, int by) {
    const bool has_a = bx > 0;
    const bool has_b = by > 0;
    const bool has_c = by > 0 && bx + 1 < blocks_x;
    const bool has_d = by > 0 && bx > 0;
    const MedianVector a = has_a ? final_vector_at(records, stride, by * blocks_x + bx - 1) : MedianVector{};
    const MedianVector b =
        has_b ? final_vector_at(records, stride, (by - 1) * blocks_x + bx) : MedianVector{};
    const MedianVector c = has_c   ? final_vector_at(records, stride, (by - 1) * blocks_x + bx + 1)
                           : has_d ? final_vector_at(records, stride, (by - 1) * blocks_x + bx - 1)
                                   : MedianVector{};
    return {a, b, c, has_a, has_b, has_c || has_d};
}

// The spatial predictor of those neighbours: the one available, else the component-wise median.
__host__ __device__ __forceinline__ MedianVector median_of(const MedianNeighbours& n) {
    const int available = int{n.has_a} + int{n.has_b} + int{n.has_c};
    if (available == 1) return n.has_a ? n.a : n.has_b ? n.b : n.c;
    return {median_of_three(n.a.x, n.b.x, n.c.x), median_of_three(n.a.y, n.b.y, n.c.y)};
}

// The predictor of block (bx, by) of a frame `blocks_x` blocks wide, whose blocks above and to the left
// are final (the caller waits for them: a wavefront).
__host__ __device__ __forceinline__ MedianVector spatial_median(const std::uint8_t* records,
                                                                std::size_t stride, int blocks_x, int bx,
                                                                int by) {
    return median_of(median_neighbours(records, stride, blocks_x, bx, by));
}

}  // namespace xme::cuda
