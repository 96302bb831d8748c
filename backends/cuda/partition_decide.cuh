// SPEC §9 on CUDA: a macroblock's 41 least keys (partition_search.cuh) decoded into records, and the mode
// decision on their J. __host__ __device__, as partition_search.cuh, for the emulation test.
#pragma once

#include "partition_search.cuh"

namespace xme::cuda::p41 {

// SPEC §9's mode decision on the 41 J: strictly smaller wins, so the earlier (sub-)mode takes a tie.
XME_P41_HD void decide_mode(PartitionRecord& out) {
    const auto j = [&](int i) { return static_cast<std::uint64_t>(out.partitions[i].cost); };
    std::uint64_t eight_by_eight = 0;
    std::uint32_t modes = 0;
    XME_P41_UNROLL
    for (int q = 0; q < 4; ++q) {
        const std::uint64_t sub[3] = {j(9 + 2 * q) + j(10 + 2 * q), j(17 + 2 * q) + j(18 + 2 * q),
                                      j(25 + 4 * q) + j(26 + 4 * q) + j(27 + 4 * q) + j(28 + 4 * q)};
        std::uint32_t cheapest = 0;
        std::uint64_t cheapest_cost = j(5 + q);
        XME_P41_UNROLL
        for (std::uint32_t m = 1; m < 4; ++m) {
            if (sub[m - 1] < cheapest_cost) cheapest = m, cheapest_cost = sub[m - 1];
        }
        modes |= cheapest << (8 + 2 * q);  // 8 (q + 1) would shift q = 3 out of the word
        eight_by_eight += cheapest_cost;
    }
    const std::uint64_t later[3] = {j(1) + j(2), j(3) + j(4), eight_by_eight};
    std::uint32_t mode = 0;
    std::uint64_t mode_cost = j(0);
    XME_P41_UNROLL
    for (std::uint32_t m = 1; m < 4; ++m) {
        if (later[m - 1] < mode_cost) mode = m, mode_cost = later[m - 1];
    }
    out.modes = modes | mode;
    out.unused = 0;
    out.cost = mode_cost;
}

// Partition i's record from its least key over the whole window (every partition has one: the zero
// vector is always valid), with the window's candidate count.
XME_P41_HD MotionRecord partition_record(const SearchJob& job, const Tables& t, int mb, std::uint32_t key) {
    int x, y;
    macroblock_origin(job, mb, x, y);
    const Predicted p = predicted(t, mb);
    const Box w = macroblock_window(job, x, y, p.cx, p.cy);
    if (empty(w)) return {0, 0, key >> t.rank_bits, 1};  // the zero vector, evaluated alone (zero_vector)
    const std::uint32_t offset = read_only(p.offsets + (key & ((1u << t.rank_bits) - 1u)));
    const int dx = static_cast<int>(offset & 0xFFFFu) - t.radius + p.qx;
    const int dy = static_cast<int>(offset >> 16) - t.radius + p.qy;
    return {static_cast<std::int16_t>(4 * dx), static_cast<std::int16_t>(4 * dy), key >> t.rank_bits,
            static_cast<std::uint32_t>((w.high_x - w.low_x + 1) * (w.high_y - w.low_y + 1))};
}

}  // namespace xme::cuda::p41
