// SPEC §12-§13's per-sample steps on the device after the search, __host__ __device__ so that
// compensation_emulation_test.cpp checks them on a machine without a GPU against the reference:
// - a block's final vector, from the search's packed key or its record;
// - §4's bilinear prediction of one sample (integer vectors read the integer sample), from the padded
//   frame, whose margins repeat the edge so that SPEC §1's clamp is a clamp to the padded region;
// - §10's H.264 prediction of a whole block by one warp: the quarter-pel refinement's staged planes
//   (qpel_planes.cuh) and candidate runs (qpel_refine.cuh), the block's fraction being one candidate;
// - the residual's tile-major layout (dct_kernels' 8x8 blocks of 64 int16), and §13's quantiser.
#pragma once

#include "kernels.hpp"
#include "qpel_arith.cuh"
#include "qpel_planes.cuh"
#include "qpel_refine.cuh"
#include "xme/search_key.hpp"  // constexpr, usable in device code with --expt-relaxed-constexpr

namespace xme::cuda::compensation {

// A block's final vector in quarter pel: the record's, or the key's (half-pel units) doubled.
struct Vector4 {
    int x, y;
};
XME_QPEL_HD Vector4 block_vector(const std::uint64_t* keys, const MotionRecord* records, int block) {
    if (records != nullptr) return {records[block].mv_x, records[block].mv_y};
    return {2 * key_half_x(keys[block]), 2 * key_half_y(keys[block])};
}

// Sample (x, y) of a padded frame, any x and y: SPEC §1's edge replication.
XME_QPEL_HD int padded_sample(const FrameLayout& f, const std::uint8_t* origin, int x, int y) {
    x = qpel::clamp_int(x, -f.margin_x, f.padded_width + f.margin_x - 1);
    y = qpel::clamp_int(y, -f.margin_y, f.padded_height + f.margin_y - 1);
    return origin[static_cast<std::ptrdiff_t>(y) * f.pitch + x];
}

// SPEC §12 with §4: the rounded averages (A + B + 1) >> 1, (A + C + 1) >> 1, (A + B + C + D + 2) >> 2 at
// half positions (the vector's quarter components are even), A at floor(v / 4) (>> floors).
XME_QPEL_HD int bilinear_sample(const FrameLayout& f, const std::uint8_t* reference, int x, int y,
                                Vector4 mv) {
    const int ax = x + (mv.x >> 2);
    const int ay = y + (mv.y >> 2);
    const bool half_x = (mv.x & 3) != 0;
    const bool half_y = (mv.y & 3) != 0;
    const int a = padded_sample(f, reference, ax, ay);
    if (!half_x && !half_y) return a;
    const int b = padded_sample(f, reference, ax + 1, ay);
    const int c = padded_sample(f, reference, ax, ay + 1);
    if (!half_y) return (a + b + 1) >> 1;
    if (!half_x) return (a + c + 1) >> 1;
    return (a + b + c + padded_sample(f, reference, ax + 1, ay + 1) + 2) >> 2;
}

// Tile-major order: sample s of tile t (8x8 tiles from (0, 0), tiles_x per row) is element 64 t + s,
// s = 8 row + column, as dct_kernels reads its blocks. 32-bit: SPEC §1's largest frame has
// 2048 x 2048 tiles, 2^28 elements.
struct TilePosition {
    int x, y;
};
XME_QPEL_HD TilePosition tile_position(int element, int tiles_x) {
    const int tile = element >> 6;
    const int s = element & 63;
    const int ty = tile / tiles_x;
    return {(tile - ty * tiles_x) * 8 + (s & 7), ty * 8 + (s >> 3)};
}
XME_QPEL_HD int tile_element(int x, int y, int tiles_x) {
    return ((y >> 3) * tiles_x + (x >> 3)) * 64 + (y & 7) * 8 + (x & 7);
}

// SPEC §13's quantiser, q * S with q = sign(F) floor((2|F| + S) / (2S)): xme::reference::quantise_dequantise
// without its range check (the host checks S once).
XME_QPEL_HD int quantise_dequantise(int coefficient, int step) {
    const int magnitude = (2 * qpel::absolute(coefficient) + step) / (2 * step) * step;
    return coefficient < 0 ? -magnitude : magnitude;
}

// SPEC §12 with §10: the prediction of the B x B block at (x, y) at quarter-pel vector mv, by one warp
// (all 32 lanes, converged): the reference around the block's integer part staged and filtered into
// H.264's planes, then row j's word w (pixels 4w..4w+3) read as the fraction's candidate run. Calls
// out(lane's pixel x, y, the 4 samples packed) for each word; the caller crops to W x H.
template <int B, class Warp, class Out>
XME_QPEL_HD void predict_block_h264(Warp& warp, qpel::Scratch<B>& s, const SearchJob& job, int x, int y,
                                    Vector4 mv, Out&& out) {
    using G = qpel::Geometry<B>;
    warp.sync();  // the previous block's reads of s are done
    const int lane = warp.lane();
    const int align = qpel::stage_reference<B>(s, job, x + (mv.x >> 2), y + (mv.y >> 2), lane);
    warp.sync();
    qpel::build_b_and_j<B>(s, lane);
    qpel::build_h<B>(s, lane);
    warp.sync();
    // (P + Q + 1) >> 1 of a sample with itself is the sample: every fraction reads two runs.
    const qpel::CandidateRuns runs = qpel::candidate_runs<B>(align, mv.x & 3, mv.y & 3);
    for (int item = lane; item < B * B / 4; item += 32) {
        const int row = item / (B / 4);
        const int word = item % (B / 4);
        const int offset = row * G::kPitch + word;  // tile (word, row / 4), its row row % 4
        out(x + 4 * word, y + row,
            qpel::average_up4(qpel::fetch(s.words, runs.p, offset), qpel::fetch(s.words, runs.q, offset)));
    }
}

}  // namespace xme::cuda::compensation
