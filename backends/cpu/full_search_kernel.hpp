// The integer full-search kernel, written once over a small set of vector operations (`Ops`) and
// instantiated per instruction set by full_search_<name>.cpp, each compiled with its own flags.
// Everything here has internal linkage and calls no library code: each instruction set gets its
// own copy, so the linker can never hand a function compiled for wider instructions to another.
//
// A group is as many horizontally adjacent blocks as one vector holds. For each candidate, each
// row's SAD for all blocks of the group takes one unaligned load of the reference and one packed
// SAD instruction, which sums every 8 bytes into a 64-bit lane; blocks of 16 or 32 then add their
// lanes together, and blocks of 4 use two masked passes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "full_search.hpp"
#include "xme/search_key.hpp"

namespace xme::cpu {
namespace {  // NOLINT(cert-dcl59-cpp,google-build-namespaces): one private copy per instruction set

template <class Ops>
using Vector_of = typename Ops::Vector;

constexpr std::uint64_t invalid_candidate_bit = std::uint64_t{1} << 62;  // above every real key
constexpr std::uint64_t no_key_yet = ~std::uint64_t{0} >> 1;  // positive as int64: AVX2 compares signed

inline int min_of(int a, int b) { return a < b ? a : b; }
inline int max_of(int a, int b) { return a > b ? a : b; }

template <class Ops, int BlockSize>
void search_group_sized(const SearchFrames& f, int block_row, int group, std::uint64_t* best_keys,
                        std::uint64_t* scratch) {
    using Vector = typename Ops::Vector;
    constexpr int vector_bytes = Ops::bytes;
    constexpr int lanes = vector_bytes / 8;
    constexpr int width = vector_bytes > BlockSize ? vector_bytes : BlockSize;
    constexpr int chunks = width / vector_bytes;
    constexpr int blocks_in_group = width / BlockSize;
    constexpr int lanes_per_block = BlockSize >= 8 ? (BlockSize / chunks) / 8 : 1;
    constexpr bool split_quads = BlockSize == 4;  // two 4-wide blocks share each 8-byte lane

    const int r = f.params.range;
    const int x0 = group * width;
    const int y0 = block_row * BlockSize;
    const bool restrict_mode = f.params.border == BorderMode::restrict;

    // SPEC §2: the window of each block; the group searches their union and masks each lane.
    int block_dx_low[blocks_in_group];
    int block_dx_high[blocks_in_group];
    int dx_low = r;
    int dx_high = -r;
    for (int k = 0; k < blocks_in_group; ++k) {
        const int bx = x0 + k * BlockSize;
        block_dx_low[k] = -r;
        block_dx_high[k] = r;
        if (restrict_mode) {
            block_dx_low[k] = max_of(-r, -bx);
            block_dx_high[k] = bx <= f.padded_width - BlockSize ? min_of(r, f.padded_width - BlockSize - bx) : 0;
        }
        dx_low = min_of(dx_low, block_dx_low[k]);
        dx_high = max_of(dx_high, block_dx_high[k]);
    }
    int dy_low = -r;
    int dy_high = r;
    if (restrict_mode) {
        dy_low = max_of(-r, -y0);
        dy_high = min_of(r, f.padded_height - BlockSize - y0);
    }

    // Per candidate dx: the key's tie-break fields for each dy of the current batch, then one
    // invalid-lane mask for each accumulator (even and odd 4-wide blocks, or all blocks).
    const int window = dx_high - dx_low + 1;
    std::uint64_t* secondary = scratch;
    std::uint64_t* invalid_base = scratch + static_cast<std::ptrdiff_t>(window) * search_row_batch;
    std::uint64_t* invalid[2] = {invalid_base, invalid_base + static_cast<std::ptrdiff_t>(window) * lanes};
    bool any_invalid = false;
    for (int dx = dx_low; dx <= dx_high; ++dx) {
        for (int half = 0; half < 2; ++half) {
            for (int lane = 0; lane < lanes; ++lane) {
                const int k = split_quads ? 2 * lane + half : (chunks == 1 ? lane * 8 / BlockSize : 0);
                const bool valid = dx >= block_dx_low[k] && dx <= block_dx_high[k];
                invalid[half][(dx - dx_low) * lanes + lane] = valid ? 0 : invalid_candidate_bit;
                any_invalid = any_invalid || !valid;
            }
        }
    }

    const std::ptrdiff_t stride = f.stride;
    const std::uint8_t* current = f.current + y0 * stride + x0;
    const Vector even_mask = Ops::even_quads_mask();
    const Vector odd_mask = Ops::bit_not(even_mask);
    Vector best[2] = {Ops::broadcast(no_key_yet), Ops::broadcast(no_key_yet)};

    // Candidates (dx, dy .. dy + batch - 1) together: reference row k serves the block's row k - d
    // of each of them, so one load of the reference feeds `batch` SAD instructions.
    constexpr int batch = search_row_batch;
    constexpr int halves = split_quads ? 2 : 1;
    for (int dy = dy_low; dy <= dy_high; dy += batch) {
        const int rows_in_batch = min_of(batch, dy_high - dy + 1);
        for (int d = 0; d < rows_in_batch; ++d) {
            for (int dx = dx_low; dx <= dx_high; ++dx) {
                secondary[d * window + dx - dx_low] = pack_search_key(0, 2 * dx, 2 * (dy + d));
            }
        }
        const std::uint8_t* reference_rows = f.reference + (y0 + dy) * stride + x0;
        for (int dx = dx_low; dx <= dx_high; ++dx) {
            Vector sums[batch][halves];
            for (auto& sum : sums) {
                for (auto& half : sum) half = Ops::zero();
            }
            // Unrolled whole, so that every row index is a constant and the sums stay in registers.
#pragma GCC unroll 64
            for (int k = 0; k < batch + BlockSize - 1; ++k) {
#pragma GCC unroll 4
                for (int c = 0; c < chunks; ++c) {
                    const Vector ref = Ops::load(reference_rows + k * stride + dx + c * vector_bytes);
#pragma GCC unroll 8
                    for (int d = 0; d < batch; ++d) {
                        const int j = k - d;
                        if (j < 0 || j >= BlockSize) continue;
                        const Vector cur = Ops::load(current + j * stride + c * vector_bytes);
                        if constexpr (split_quads) {
                            sums[d][0] = Ops::add(sums[d][0], Ops::sad(Ops::bit_and(cur, even_mask), Ops::bit_and(ref, even_mask)));
                            sums[d][1] = Ops::add(sums[d][1], Ops::sad(Ops::bit_and(cur, odd_mask), Ops::bit_and(ref, odd_mask)));
                        } else {
                            sums[d][0] = Ops::add(sums[d][0], Ops::sad(cur, ref));
                        }
                    }
                }
            }
            for (int d = 0; d < rows_in_batch; ++d) {
                Vector total = sums[d][0];
                if constexpr (lanes_per_block >= 2) total = Ops::fold_pairs(total);
                if constexpr (lanes_per_block >= 4) total = Ops::fold_quads(total);
                const Vector tie_break = Ops::broadcast(secondary[d * window + dx - dx_low]);
                for (int half = 0; half < halves; ++half) {
                    Vector key = Ops::bit_or(Ops::cost_to_key(half == 0 ? total : sums[d][1]), tie_break);
                    if (any_invalid) key = Ops::bit_or(key, Ops::load_words(invalid[half] + (dx - dx_low) * lanes));
                    best[half] = Ops::min_key(best[half], key);
                }
            }
        }
    }

    std::uint64_t lane_keys[2][lanes];
    Ops::store_words(lane_keys[0], best[0]);
    Ops::store_words(lane_keys[1], best[1]);
    for (int k = 0; k < blocks_in_group; ++k) {
        const int bx = group * blocks_in_group + k;
        if (bx >= f.blocks_x) break;
        const std::uint64_t key = split_quads ? lane_keys[k % 2][k / 2]
                                              : lane_keys[0][chunks == 1 ? k * BlockSize / 8 : 0];
        best_keys[block_row * f.blocks_x + bx] = key;
    }
}

template <class Ops>
void search_group(const SearchFrames& f, int block_row, int group, std::uint64_t* best_keys,
                  std::uint64_t* scratch) {
    switch (f.params.block_size) {
        case 4: search_group_sized<Ops, 4>(f, block_row, group, best_keys, scratch); break;
        case 8: search_group_sized<Ops, 8>(f, block_row, group, best_keys, scratch); break;
        case 16: search_group_sized<Ops, 16>(f, block_row, group, best_keys, scratch); break;
        default: search_group_sized<Ops, 32>(f, block_row, group, best_keys, scratch); break;
    }
}

// Peak of the packed SAD instruction alone: independent chains, so throughput (not latency) limits
// it. Returns the instructions executed; the caller times the call.
template <class Ops>
std::uint64_t run_sad_chains(std::uint64_t iterations, const std::uint8_t* seed_bytes) {
    constexpr int chains = 12;
    Vector_of<Ops> values[chains];
    const auto other = Ops::load(seed_bytes);
    for (int c = 0; c < chains; ++c) values[c] = Ops::load(seed_bytes + c);
    for (std::uint64_t i = 0; i < iterations; ++i) {
        for (int c = 0; c < chains; ++c) values[c] = Ops::sad(values[c], other);
    }
    std::uint64_t sink[Ops::bytes / 8];
    auto total = Ops::zero();
    for (int c = 0; c < chains; ++c) total = Ops::add(total, values[c]);
    Ops::store_words(sink, total);
    // The result feeds the return value, so the chains cannot be optimised away.
    return iterations * chains + (sink[0] & 1);
}

template <class Ops>
SearchKernel make_kernel() {
    return {&search_group<Ops>, &run_sad_chains<Ops>, Ops::bytes};
}

}  // namespace
}  // namespace xme::cpu
