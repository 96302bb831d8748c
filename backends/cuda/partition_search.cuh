// SPEC §9 on CUDA, the work of one thread and of one macroblock, as __host__ __device__ code so that
// partition_emulation_test.cpp runs it on the host against the reference (partition_search.cu has the
// kernels that call it). Keys: partition_tables.hpp (J << rank_bits | rank, one 32-bit min per update).
//
// - fast_thread_bests (variant fast): the thread's units are (candidate column dx, chunk of kChunk
//   candidate rows). It holds the macroblock's 16x16 current pixels in 64 registers and streams the
//   kChunk + 15 reference rows its chunk's candidates share from the expanded reference (word c of a row
//   = bytes c..c+3, so each unaligned 4-byte run is one aligned load): every loaded word feeds up to
//   kChunk vabsdiff4, each into the 4x4 cell of its candidate. Then per candidate: the 41 partition SADs
//   (25 adds over the 16 cells), 41 keys (one multiply-add each) and 41 mins, all in registers.
// - positions_thread_bests (variant p41-002, 002's design): one search position at a time, its sixteen
//   4x4 SADs from its own loads of both blocks, the 41 costs and minima the same way.
// Both leave the thread's 41 least keys; the kernels reduce them over the CUDA block with 32-bit mins
// (any order: the keys are totally ordered by SPEC §8), then partition_decide.cuh decodes and decides.
#pragma once

#include <cstdint>

#include "partition_common.cuh"

namespace xme::cuda::p41 {

// Candidate (cells g, row-major 4x4 SADs; term = its rate and rank): each partition's key and min, in
// SPEC §9's order (quadrant q's cells a b / c d).
XME_P41_HD void update_bests(std::uint32_t (&best)[kPartitions], const std::uint32_t (&g)[16],
                             std::uint32_t scale, std::uint32_t term) {
    std::uint32_t eight[4];
    XME_P41_UNROLL
    for (int q = 0; q < 4; ++q) {
        const int first = (q >> 1) * 8 + (q & 1) * 2;
        const std::uint32_t a = g[first], b = g[first + 1], c = g[first + 4], d = g[first + 5];
        const std::uint32_t top = a + b, bottom = c + d;
        eight[q] = top + bottom;
        best[5 + q] = min_key(best[5 + q], eight[q] * scale + term);
        best[9 + 2 * q] = min_key(best[9 + 2 * q], top * scale + term);
        best[10 + 2 * q] = min_key(best[10 + 2 * q], bottom * scale + term);
        best[17 + 2 * q] = min_key(best[17 + 2 * q], (a + c) * scale + term);
        best[18 + 2 * q] = min_key(best[18 + 2 * q], (b + d) * scale + term);
        best[25 + 4 * q] = min_key(best[25 + 4 * q], a * scale + term);
        best[26 + 4 * q] = min_key(best[26 + 4 * q], b * scale + term);
        best[27 + 4 * q] = min_key(best[27 + 4 * q], c * scale + term);
        best[28 + 4 * q] = min_key(best[28 + 4 * q], d * scale + term);
    }
    const std::uint32_t upper = eight[0] + eight[1], lower = eight[2] + eight[3];
    best[1] = min_key(best[1], upper * scale + term);
    best[2] = min_key(best[2], lower * scale + term);
    best[3] = min_key(best[3], (eight[0] + eight[2]) * scale + term);
    best[4] = min_key(best[4], (eight[1] + eight[3]) * scale + term);
    best[0] = min_key(best[0], (upper + lower) * scale + term);
}

XME_P41_HD void clear_bests(std::uint32_t (&best)[kPartitions]) {
    XME_P41_UNROLL
    for (int i = 0; i < kPartitions; ++i) best[i] = kNoBest;
}

// SPEC §8: an empty centred window (restrict) takes the zero vector, evaluated (rank 0: the only one).
XME_P41_HD void zero_vector(const SearchJob& job, const Tables& t, int x, int y, const Predicted& p,
                            std::uint32_t (&best)[kPartitions]) {
    const int pitch = job.layout.pitch;
    const auto* c = reinterpret_cast<const std::uint32_t*>(job.current + y * pitch + x);
    const std::uint32_t* words = job.reference_words + y * pitch + x;
    std::uint32_t g[16] = {};
    for (int j = 0; j < 16; ++j) {
        for (int v = 0; v < 4; ++v)
            g[(j >> 2) * 4 + v] = absdiff4(read_only(c + j * (pitch / 4) + v),
                                           read_only(words + j * pitch + 4 * v), g[(j >> 2) * 4 + v]);
    }
    const std::uint32_t rate = static_cast<std::uint32_t>(t.lambda) * (se_length(-p.px) + se_length(-p.py));
    update_bests(best, g, 1u << t.rank_bits, rate << t.rank_bits);
}

// What both designs' threads start from: the macroblock, its predictor and window, and its pixels.
struct MacroblockSearch {
    int x, y;
    Predicted p;
    Box w;
    int r, side, pitch;
    const std::uint32_t* current;  // the macroblock's first row, as words
    std::uint32_t scale;           // 1 << rank_bits: J's place in a key
};

XME_P41_HD MacroblockSearch macroblock_search(const SearchJob& job, const Tables& t, int mb) {
    MacroblockSearch m{};
    macroblock_origin(job, mb, m.x, m.y);
    m.p = predicted(t, mb);
    m.w = macroblock_window(job, m.x, m.y, m.p.cx, m.p.cy);
    m.r = job.range;
    m.side = 2 * m.r + 1;
    m.pitch = job.layout.pitch;
    m.current = reinterpret_cast<const std::uint32_t*>(job.current + m.y * m.pitch + m.x);
    m.scale = 1u << t.rank_bits;
    return m;
}

// Variant fast: thread `thread` of `threads` takes units thread, thread + threads, ... of the
// macroblock's side x ceil(side / kChunk) units (column-major within a chunk row, so that neighbouring
// threads read neighbouring words).
template <bool kCentred = false>
XME_P41_HD void fast_thread_bests(const SearchJob& job, const Tables& t, int mb, int thread, int threads,
                                  std::uint32_t (&best)[kPartitions]) {
    clear_bests(best);
    const MacroblockSearch m = macroblock_search(job, t, mb);
    const auto& [x, y, p, w, r, side, pitch, c, scale] = m;
    std::uint32_t current[16][4];
    XME_P41_UNROLL
    for (int j = 0; j < 16; ++j) {
        XME_P41_UNROLL
        for (int v = 0; v < 4; ++v) current[j][v] = read_only(c + j * (pitch / 4) + v);
    }
    if (kCentred && empty(w)) {
        if (thread == 0) zero_vector(job, t, x, y, p, best);
        return;
    }
    const int units = side * ((side + kChunk - 1) / kChunk);
    for (int unit = thread; unit < units; unit += threads) {
        const int chunk = unit / side;
        const int column = unit - chunk * side;
        const int dx = p.cx + column - r;
        if (dx < w.low_x || dx > w.high_x) continue;  // restrict: the whole column is outside
        const int dy0 = p.cy + chunk * kChunk - r;
        int word_columns[4];
        XME_P41_UNROLL
        for (int v = 0; v < 4; ++v) word_columns[v] = reference_column<kCentred>(job, x + dx + 4 * v);
        std::uint32_t sums[kChunk][16];
        XME_P41_UNROLL
        for (int k = 0; k < kChunk; ++k) {
            XME_P41_UNROLL
            for (int cell = 0; cell < 16; ++cell) sums[k][cell] = 0;
        }
        XME_P41_UNROLL
        for (int row = 0; row < 16 + kChunk - 1; ++row) {
            std::uint32_t ref[4];
            XME_P41_UNROLL
            for (int v = 0; v < 4; ++v)
                ref[v] = read_only(job.reference_words + reference_row<kCentred>(job, y + dy0 + row) * pitch +
                                   word_columns[v]);
            XME_P41_UNROLL
            for (int k = 0; k < kChunk; ++k) {
                const int j = row - k;  // the macroblock row that reference row `row` meets for dy0 + k
                if (j >= 0 && j < 16) {
                    XME_P41_UNROLL
                    for (int v = 0; v < 4; ++v)
                        sums[k][(j >> 2) * 4 + v] =
                            absdiff4(current[j][v], ref[v], sums[k][(j >> 2) * 4 + v]);
                }
            }
        }
        XME_P41_UNROLL
        for (int k = 0; k < kChunk; ++k) {
            const int dy = dy0 + k;
            if (dy < w.low_y || dy > w.high_y) continue;  // past the window's last row, or restrict
            update_bests(best, sums[k], scale,
                         read_only(p.terms + (dy - p.qy + t.radius) * t.side + dx - p.qx + t.radius));
        }
    }
}

// Variant p41-002: thread `thread` of `threads` takes positions thread, thread + threads, ... of the
// window (raster order), each on its own: 64 current and 64 reference word loads, 64 vabsdiff4.
template <bool kCentred = false>
XME_P41_HD void positions_thread_bests(const SearchJob& job, const Tables& t, int mb, int thread, int threads,
                                       std::uint32_t (&best)[kPartitions]) {
    clear_bests(best);
    const MacroblockSearch m = macroblock_search(job, t, mb);
    const auto& [x, y, p, w, r, side, pitch, c, scale] = m;
    if (kCentred && empty(w)) {
        if (thread == 0) zero_vector(job, t, x, y, p, best);
        return;
    }
    for (int position = thread; position < side * side; position += threads) {
        const int ey = position / side;
        const int dy = p.cy + ey - r;
        const int dx = p.cx + position - ey * side - r;
        if (dx < w.low_x || dx > w.high_x || dy < w.low_y || dy > w.high_y) continue;
        std::uint32_t g[16];
        XME_P41_UNROLL
        for (int cell = 0; cell < 16; ++cell) g[cell] = 0;
        XME_P41_UNROLL
        for (int j = 0; j < 16; ++j) {
            XME_P41_UNROLL
            for (int v = 0; v < 4; ++v)
                g[(j >> 2) * 4 + v] = absdiff4(
                    read_only(c + j * (pitch / 4) + v),
                    read_only(job.reference_words + reference_row<kCentred>(job, y + dy + j) * pitch +
                              reference_column<kCentred>(job, x + dx + 4 * v)),
                    g[(j >> 2) * 4 + v]);
        }
        update_bests(best, g, scale,
                     read_only(p.terms + (dy - p.qy + t.radius) * t.side + dx - p.qx + t.radius));
    }
}

}  // namespace xme::cuda::p41
