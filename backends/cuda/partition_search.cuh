// SPEC §9 on CUDA, the work of one thread and of one macroblock, as __host__ __device__ code so that
// partition_emulation_test.cpp runs it on the host against the reference (partition_search.cu has the
// kernels that call it). Keys: partition_tables.hpp (J << rank_bits | rank, one 32-bit min per update).
//
// - fast_thread_bests (variant fast): the thread's units are (candidate column dx, chunk of kChunk
//   candidate rows). The CUDA block keeps the macroblock's 16x16 current pixels in shared memory (one
//   128-bit load a row); each thread streams the kChunk + 15 reference rows its chunk's candidates share
//   from the expanded reference (word c of a row = bytes c..c+3, so each unaligned 4-byte run is one
//   aligned load; a row's address is the unit's first row's plus its offset, row_pointer): every loaded
//   word feeds up to kChunk vabsdiff4, each into the 4x4 cell of its candidate. As soon as a candidate's
//   upper 8 rows are in, the 18 partitions inside them take their keys and mins, then the lower 18 and
//   the 5 across both: per candidate 41 partition SADs (25 adds over the 16 cells), 41 keys (one
//   multiply-add each) and 41 mins, all in registers, with 8 cells live a candidate instead of 16.
// - positions_thread_bests (variant p41-positions): one search position at a time, its sixteen
//   4x4 SADs from its own loads of both blocks, the 41 costs and minima the same way.
// Both leave the thread's 41 least keys; the kernels reduce them over the CUDA block with 32-bit mins
// (any order: the keys are totally ordered by SPEC §8), then partition_decide.cuh decodes and decides.
#pragma once

#include <cstdint>
#include <type_traits>

#include "partition_common.cuh"

namespace xme::cuda::p41 {

// Half h of a candidate (cells: its rows 8h..8h + 7 as 8 row-major 4x4 SADs; term: its rate and rank): the
// 18 partitions inside the half, each key SAD x scale + term and its min, in SPEC §9's order (quadrant q's
// cells a b / c d), and the half's two 8x8 SADs (scaled) for update_whole. scale is Tables::key_scale, which
// the compiler cannot see is a power of two, so that ptxas makes each key one IMAD (FMA pipe) beside its
// VIMNMX (integer ALU pipe, which the candidate's 64 vabsdiff4 fill); with a visible shift it took a
// shift and an add-min per key, both on the ALU pipe. Written with the cells scaled first, which ptxas
// folds back into one IMAD a key: this form measured 2.5% faster than `sad * scale + term` after the
// sums (docs/cuda.md, "Partitions").
XME_P41_HD void update_half(std::uint32_t (&best)[kPartitions], const std::uint32_t* cells, int h,
                            std::uint32_t scale, std::uint32_t term, std::uint32_t (&eight)[2]) {
    std::uint32_t g[8];
    XME_P41_UNROLL
    for (int cell = 0; cell < 8; ++cell) g[cell] = cells[cell] * scale;
    XME_P41_UNROLL
    for (int side = 0; side < 2; ++side) {
        const int q = 2 * h + side;
        const std::uint32_t a = g[2 * side], b = g[2 * side + 1], c = g[2 * side + 4], d = g[2 * side + 5];
        const std::uint32_t top = a + b, bottom = c + d;
        eight[side] = top + bottom;
        best[5 + q] = min_key(best[5 + q], eight[side] + term);
        best[9 + 2 * q] = min_key(best[9 + 2 * q], top + term);
        best[10 + 2 * q] = min_key(best[10 + 2 * q], bottom + term);
        best[17 + 2 * q] = min_key(best[17 + 2 * q], (a + c) + term);
        best[18 + 2 * q] = min_key(best[18 + 2 * q], (b + d) + term);
        best[25 + 4 * q] = min_key(best[25 + 4 * q], a + term);
        best[26 + 4 * q] = min_key(best[26 + 4 * q], b + term);
        best[27 + 4 * q] = min_key(best[27 + 4 * q], c + term);
        best[28 + 4 * q] = min_key(best[28 + 4 * q], d + term);
    }
}

// The five partitions across the halves (16x16, 16x8, 8x16) from the four quadrants' scaled 8x8 SADs.
XME_P41_HD void update_whole(std::uint32_t (&best)[kPartitions], const std::uint32_t (&upper)[2],
                             const std::uint32_t (&lower)[2], std::uint32_t term) {
    const std::uint32_t top = upper[0] + upper[1], bottom = lower[0] + lower[1];
    best[1] = min_key(best[1], top + term);
    best[2] = min_key(best[2], bottom + term);
    best[3] = min_key(best[3], (upper[0] + lower[0]) + term);
    best[4] = min_key(best[4], (upper[1] + lower[1]) + term);
    best[0] = min_key(best[0], (top + bottom) + term);
}

XME_P41_HD void update_bests(std::uint32_t (&best)[kPartitions], const std::uint32_t (&cells)[16],
                             std::uint32_t scale, std::uint32_t term) {
    std::uint32_t upper[2], lower[2];
    update_half(best, cells, 0, scale, term, upper);
    update_half(best, cells + 8, 1, scale, term, lower);
    update_whole(best, upper, lower, term);
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
    update_bests(best, g, t.key_scale, rate << t.rank_bits);
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
    m.scale = t.key_scale;
    return m;
}

// The macroblock's 16x16 current pixels as 64 words, row-major (4 a row): the fast design's threads
// share them (shared memory on the device, 16-byte aligned), word `word` written by whoever calls this.
XME_P41_HD void current_word(const SearchJob& job, int mb, int word, std::uint32_t* rows) {
    int x, y;
    macroblock_origin(job, mb, x, y);
    const int pitch = job.layout.pitch;
    rows[word] = read_only(reinterpret_cast<const std::uint32_t*>(job.current + y * pitch + x) +
                           (word >> 2) * (pitch / 4) + (word & 3));
}

// Row j of those words (one 128-bit shared load on the device).
XME_P41_HD void current_row(const std::uint32_t* rows, int j, std::uint32_t (&row)[4]) {
#if defined(__CUDA_ARCH__)
    const uint4 words = reinterpret_cast<const uint4*>(rows)[j];
    row[0] = words.x;
    row[1] = words.y;
    row[2] = words.z;
    row[3] = words.w;
#else
    for (int v = 0; v < 4; ++v) row[v] = rows[4 * j + v];
#endif
}

// Whether the bytes [words, words + reach] cross a 4 GiB boundary of addresses.
XME_P41_HD bool crosses_4gib(const std::uint32_t* words, std::uint32_t reach) {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(words)) > 0xFFFFFFFFu - reach;
}

// unit_words + offset words. kLowWord: added to the address's low 32 bits only, one 32-bit add a row
// (which ptxas puts on the FMA pipe) where a 64-bit add took two integer-ALU instructions beside the
// vabsdiff4; the unit's rows must not cross a 4 GiB boundary (crosses_4gib).
template <bool kLowWord>
XME_P41_HD const std::uint32_t* row_pointer(const std::uint32_t* unit_words, int offset) {
    if constexpr (!kLowWord) return unit_words + offset;
    const auto address = reinterpret_cast<std::uintptr_t>(unit_words);
    const std::uint32_t low = static_cast<std::uint32_t>(address) + 4u * static_cast<std::uint32_t>(offset);
#if defined(__CUDA_ARCH__)
    std::uint64_t joined;  // a register pair, not a 64-bit add
    asm("mov.b64 %0, {%1, %2};" : "=l"(joined) : "r"(low), "r"(static_cast<std::uint32_t>(address >> 32)));
    return reinterpret_cast<const std::uint32_t*>(joined);
#else
    return reinterpret_cast<const std::uint32_t*>((address & ~std::uintptr_t{0xFFFFFFFFu}) | low);
#endif
}

// Reference row `row` of a unit's candidates at column dx: 4 words from the expanded reference. The
// default path adds the row's offset to the unit's first row (row_pointer); the centred one clamps every
// read into the margins.
template <bool kCentred, bool kLowWord>
XME_P41_HD void reference_row_words(const SearchJob& job, const std::uint32_t* unit_words, int x, int y,
                                    int row, std::uint32_t (&ref)[4]) {
    const int pitch = job.layout.pitch;
    XME_P41_UNROLL
    for (int v = 0; v < 4; ++v) {
        ref[v] = kCentred ? read_only(job.reference_words + reference_row<true>(job, y + row) * pitch +
                                      reference_column<true>(job, x + 4 * v))
                          : read_only(row_pointer<kLowWord>(unit_words, row * pitch) + 4 * v);
    }
}

// Variant fast: thread `thread` of `threads` takes units thread, thread + threads, ... of the
// macroblock's side x ceil(side / kChunk) units (column-major within a chunk row, so that neighbouring
// threads read neighbouring words). `current_rows`: the 64 words of current_word.
template <bool kCentred = false>
XME_P41_HD void fast_thread_bests(const SearchJob& job, const Tables& t, int mb, int thread, int threads,
                                  const std::uint32_t* current_rows, std::uint32_t (&best)[kPartitions]) {
    clear_bests(best);
    const MacroblockSearch m = macroblock_search(job, t, mb);
    const auto& [x, y, p, w, r, side, pitch, c, scale] = m;
    if (kCentred && empty(w)) {
        if (thread == 0) zero_vector(job, t, x, y, p, best);
        return;
    }
    const int units = side * ((side + kChunk - 1) / kChunk);
    // The last byte a unit reads past its first word: kChunk + 15 rows of 16 pixels (words 0, 4, 8, 12).
    const auto unit_reach = static_cast<std::uint32_t>(4 * ((kChunk + 14) * pitch + 12) + 3);
    // A unit's chunk and column stepped along with it: a division per unit was ~15 instructions of ~880.
    const int chunk_step = threads / side;
    const int column_step = threads - chunk_step * side;
    int chunk = thread / side;
    int column = thread - chunk * side;
    for (int unit = thread; unit < units; unit += threads, chunk += chunk_step, column += column_step) {
        if (column >= side) {  // column_step < side: one wrap at most
            column -= side;
            ++chunk;
        }
        const int dx = p.cx + column - r;
        if (dx < w.low_x || dx > w.high_x) continue;  // restrict: the whole column is outside
        // The chunk's rows inside the window (restrict may cut it): a chunk that reaches past the window's
        // last row is moved up to end on it, so that every candidate of the unit lies in the window and
        // takes no test. The rows it repeats were evaluated by the chunk above, and the min of a key
        // with itself changes nothing. Only a window fewer than kChunk rows high (restrict, at the
        // frame's corners) keeps candidates outside it, tested one by one.
        int dy0 = p.cy + chunk * kChunk - r;
        if (dy0 > w.high_y || dy0 + kChunk - 1 < w.low_y) continue;
        const bool short_window = w.high_y - w.low_y + 1 < kChunk;
        if (!short_window) dy0 = clamp_to(dy0, w.low_y, w.high_y - kChunk + 1);
        const std::uint32_t* unit_words =
            kCentred ? nullptr : job.reference_words + (y + dy0) * pitch + x + dx;
        // The tested unit also takes the rare unit whose rows cross a 4 GiB boundary of addresses, where
        // row_pointer's low-word add would wrap.
        const bool tested = short_window || (!kCentred && crosses_4gib(unit_words, unit_reach));
        // The unit's candidates' terms, consecutive (terms_by_column): one address, fixed offsets.
        const std::uint32_t* unit_terms = term_of(t, p, dx, dy0);
        // One unit's kChunk candidates, streamed row by row; `tests`: some may lie outside the window (a
        // lambda rather than a function, whose arguments took ptxas to 8 bytes of spill). Structured
        // bindings are not captured before C++20: their values are.
        const int column_x = x + dx;
        const int top = y + dy0;
        const Box window = w;
        const std::uint32_t key_scale = scale;
        const auto unit_bests = [&](auto tests) {
            constexpr bool kTests = decltype(tests)::value;
            // The candidates' terms loaded with the unit's first rows, not behind each candidate's update:
            // there the load's latency stalled all 41 keys of its candidate. A candidate outside the
            // window reads the nearest window row's term, never used.
            std::uint32_t terms[kChunk];
            XME_P41_UNROLL
            for (int k = 0; k < kChunk; ++k) {
                terms[k] = read_only(unit_terms +
                                     (kTests ? clamp_to(dy0 + k, window.low_y, window.high_y) - dy0 : k));
            }
            // Candidate k's cells of the half it is in (its 8 words), and its upper half's two 8x8 SADs
            // (scaled) once that half is done: 10 registers a candidate where its whole cells took 16, so
            // that 5 candidates a unit fit 128 registers (docs/cuda.md, "Partitions").
            std::uint32_t cells[kChunk][8] = {};
            std::uint32_t upper[kChunk][2] = {};
            // current[k]: macroblock row `row - k` (a 128-bit shared load), the one reference row `row`
            // meets for candidate row dy0 + k.
            std::uint32_t current[kChunk][4];
            XME_P41_UNROLL
            for (int row = 0; row < 16 + kChunk - 1; ++row) {
                XME_P41_UNROLL
                for (int k = kChunk - 1; k > 0; --k) {
                    XME_P41_UNROLL
                    for (int v = 0; v < 4; ++v) current[k][v] = current[k - 1][v];
                }
                if (row < 16) current_row(current_rows, row, current[0]);
                std::uint32_t ref[4];
                reference_row_words<kCentred, !kTests>(job, unit_words, column_x, top, row, ref);
                XME_P41_UNROLL
                for (int k = 0; k < kChunk; ++k) {
                    const int j = row - k;
                    if (j < 0 || j >= 16) continue;
                    XME_P41_UNROLL
                    for (int v = 0; v < 4; ++v) {
                        std::uint32_t& cell = cells[k][((j >> 2) & 1) * 4 + v];
                        cell = absdiff4(current[k][v], ref[v], j % 4 == 0 ? 0u : cell);
                    }
                    // A half's partitions as soon as its 8 rows are in.
                    if (j % 8 != 7) continue;
                    if (kTests && (dy0 + k < window.low_y || dy0 + k > window.high_y)) continue;
                    if (j == 7) {
                        update_half(best, cells[k], 0, key_scale, terms[k], upper[k]);
                    } else {
                        std::uint32_t lower[2];
                        update_half(best, cells[k], 1, key_scale, terms[k], lower);
                        update_whole(best, upper[k], lower, terms[k]);
                    }
                }
            }
        };
        if (tested)
            unit_bests(std::true_type{});
        else
            unit_bests(std::false_type{});
    }
}

// Variant p41-positions: thread `thread` of `threads` takes positions thread, thread + threads, ... of the
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
        update_bests(best, g, scale, read_only(term_of(t, p, dx, dy)));
    }
}

}  // namespace xme::cuda::p41
