// SPEC §9 on CUDA: what partition_search.cuh's thread work and partition_decide.cuh share: the session's
// tables and the pair's predictors on the device, the macroblock's window, the result record, the packed
// SAD. __host__ __device__, for partition_emulation_test.cpp.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "kernels.hpp"
#include "qpel_arith.cuh"
#include "spatial_median.cuh"

#define XME_P41_HD __host__ __device__ __forceinline__
#if defined(__CUDA_ARCH__)
#define XME_P41_UNROLL _Pragma("unroll")
#else
#define XME_P41_UNROLL
#endif

namespace xme::cuda::p41 {

inline constexpr int kPartitions = 41;
// Candidate rows per unit of the fast variant: 5 share each loaded reference word (20 loads for 5
// candidates); with each candidate's cells kept half by half (partition_search.cuh) they fit 128
// registers, 16 CTAs of one warp per SM (partition_search.cu), the current block in shared memory. A
// 65-row window (range 32) is 13 chunks of 5. 4 rows ran 8% slower at range 32, 6 spill
// (docs/cuda.md, "Partitions").
inline constexpr int kChunk = 5;
inline constexpr std::uint32_t kNoBest = 0xFFFFFFFFu;

// The session's tables on the device (partition_tables.hpp), and this pair's predictors.
struct Tables {
    const std::uint32_t* terms = nullptr;
    const std::uint32_t* offsets = nullptr;
    int rank_bits = 0;
    // 1 << rank_bits, from the host: a factor the compiler cannot see is a power of two, so that each
    // key is one multiply-add (IMAD, on the FMA pipe) rather than a shift and an add on the integer
    // ALU pipe, which the 64 vabsdiff4 of a candidate already fill (docs/cuda.md, "Partitions").
    std::uint32_t key_scale = 1;
    int radius = 0;
    int side = 0;  // 2 radius + 1
    // The temporal predictor: macroblock mb's p is the vector of the MotionRecord at
    // temporal + mb * temporal_stride bytes (the previous pair's 16x16 partitions); null: p = 0.
    const std::uint8_t* temporal = nullptr;
    int temporal_stride = 0;
    // The spatial predictor: this pair's records as the row walk (partition_search.cu) finishes them, so
    // macroblock mb's p is the median of its left, top and top-right (or top-left) macroblocks' 16x16
    // vectors at spatial + i * spatial_stride bytes, i = by * blocks_x + bx; null: not spatial.
    const std::uint8_t* spatial = nullptr;
    int spatial_stride = 0;
    int blocks_x = 0;
    bool centred = false;  // SPEC §8's window centred on round(p / 4) (then radius = range + 1)
    int lambda = 0;        // for the zero vector that an empty centred window takes
};

// The CUDA kernels read the terms of partition_tables.hpp column by column: entry (o.y, o.x) of fraction
// f's table at f side^2 + (o.x + radius) side + o.y + radius, so that a unit's candidates (one column,
// consecutive rows) read theirs from one address at fixed offsets (docs/cuda.md, "Partitions").
inline std::vector<std::uint32_t> terms_by_column(const std::vector<std::uint32_t>& terms, int side) {
    std::vector<std::uint32_t> columns(terms.size());
    const std::size_t count = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
    for (std::size_t table = 0; table < terms.size(); table += count) {
        for (int row = 0; row < side; ++row) {
            for (int column = 0; column < side; ++column) {
                columns[table + static_cast<std::size_t>(column * side + row)] =
                    terms[table + static_cast<std::size_t>(row * side + column)];
            }
        }
    }
    return columns;
}

// Where macroblock mb's candidates find their terms and ranks: the table of p's fraction, and
// q = floor(p / 4), so that candidate d's entry is offset o = d - q.
struct Predicted {
    const std::uint32_t* terms;
    const std::uint32_t* offsets;
    int qx, qy;
    int cx, cy;  // the window's centre c
    int px, py;
};

// Candidate d's term (terms_by_column).
XME_P41_HD const std::uint32_t* term_of(const Tables& t, const Predicted& p, int dx, int dy) {
    return p.terms + (dx - p.qx + t.radius) * t.side + dy - p.qy + t.radius;
}

// round(v / 4), halves away from zero (SPEC §8's centre).
XME_P41_HD int round_quarter(int v) { return v >= 0 ? (v + 2) >> 2 : -((2 - v) >> 2); }

// Macroblock mb's predictor p (quarter pel).
XME_P41_HD void predictor_of(const Tables& t, int mb, int& px, int& py) {
    px = 0;
    py = 0;
    if (t.spatial != nullptr) {
        const int by = mb / t.blocks_x;
        const MedianVector p = spatial_median(t.spatial, static_cast<std::size_t>(t.spatial_stride),
                                              t.blocks_x, mb - by * t.blocks_x, by);
        px = p.x;
        py = p.y;
        return;
    }
    if (t.temporal == nullptr) return;
    const auto* r = reinterpret_cast<const MotionRecord*>(t.temporal + static_cast<std::ptrdiff_t>(mb) *
                                                                           t.temporal_stride);
    px = r->mv_x;
    py = r->mv_y;
}

XME_P41_HD Predicted predicted(const Tables& t, int mb) {
    int px, py;
    predictor_of(t, mb, px, py);
    const int table = ((py & 3) * 4 + (px & 3)) * t.side * t.side;
    const int cx = t.centred ? round_quarter(px) : 0;
    const int cy = t.centred ? round_quarter(py) : 0;
    return {t.terms + table, t.offsets + table, px >> 2, py >> 2, cx, cy, px, py};  // >> 2: floor
}

// One macroblock's result: exactly xme::MacroblockMotion's partitions, then the mode decision packed
// (mode | sub-mode q << (8 + 2 q): the mode in bits 0-1, the four sub-modes in byte 1) and its J;
// cuda_session.cpp turns it into a MacroblockMotion.
struct PartitionRecord {
    MotionRecord partitions[kPartitions];
    std::uint32_t modes;
    std::uint32_t unused;
    std::uint64_t cost;
};

using qpel::absdiff4;
using qpel::read_only;

XME_P41_HD std::uint32_t min_key(std::uint32_t a, std::uint32_t b) { return a < b ? a : b; }

// SPEC §2/§8's valid candidates of the macroblock at (x, y) around centre c: a rectangle, which a
// centred window in restrict mode may leave empty (it holds the zero vector when c = 0).
struct Box {
    int low_x, high_x, low_y, high_y;
};

XME_P41_HD Box macroblock_window(const SearchJob& job, int x, int y, int cx, int cy) {
    const int r = job.range;
    Box w{cx - r, cx + r, cy - r, cy + r};
    if (!job.restrict_border) return w;
    w.low_x = -x < w.low_x ? w.low_x : -x;
    w.high_x = job.layout.padded_width - 16 - x > w.high_x ? w.high_x : job.layout.padded_width - 16 - x;
    w.low_y = -y < w.low_y ? w.low_y : -y;
    w.high_y = job.layout.padded_height - 16 - y > w.high_y ? w.high_y : job.layout.padded_height - 16 - y;
    return w;
}

XME_P41_HD bool empty(const Box& w) { return w.low_x > w.high_x || w.low_y > w.high_y; }

XME_P41_HD int clamp_to(int v, int low, int high) { return v < low ? low : (v > high ? high : v); }

// se(v)'s length (SPEC §8).
XME_P41_HD std::uint32_t se_length(int v) {
    std::uint32_t k = v > 0 ? 2u * static_cast<std::uint32_t>(v) - 1u : 2u * static_cast<std::uint32_t>(-v);
    std::uint32_t width = 0;
    for (k += 1; k != 0; k >>= 1) ++width;
    return 2 * width - 1;
}

// The frame row and the column of a read of the expanded reference. A centred window may lie anywhere
// (p is any earlier result): its reads are clamped into the padded frame's margins, whose samples are
// the edge's (SPEC §1), so the clamped read returns what the unclamped one means.
template <bool kCentred>
XME_P41_HD int reference_row(const SearchJob& job, int row) {
    if (!kCentred) return row;
    return clamp_to(row, -job.layout.margin_y, job.layout.padded_height + job.layout.margin_y - 1);
}
template <bool kCentred>
XME_P41_HD int reference_column(const SearchJob& job, int column) {
    if (!kCentred) return column;
    return clamp_to(column, -job.layout.margin_x, job.layout.padded_width + job.layout.margin_x - 4);
}

// The macroblock's top-left pixel.
XME_P41_HD void macroblock_origin(const SearchJob& job, int mb, int& x, int& y) {
    y = mb / job.blocks_x * 16;
    x = (mb - y / 16 * job.blocks_x) * 16;
}

}  // namespace xme::cuda::p41
