// Integer full search over edge-padded frames, one kernel per instruction set, all bit-exact with
// the reference. A kernel searches one group of horizontally adjacent blocks: as many blocks as one
// vector register holds side by side, so every SAD lane does useful work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xme/params.hpp"

namespace xme::cpu {

struct SearchFrames {
    const std::uint8_t* current = nullptr;    // pixel (0, 0) of the padded current frame
    const std::uint8_t* reference = nullptr;  // pixel (0, 0) of the padded reference frame
    std::ptrdiff_t stride = 0;                // shared by both padded frames
    int padded_width = 0;                     // Wp, Hp of SPEC §1
    int padded_height = 0;
    int blocks_x = 0;
    int blocks_y = 0;
    SearchParams params;
};

// Writes the packed key (search_key.hpp) of the best integer candidate of every block of one
// group of block row `block_row` into best_keys[block_row * blocks_x + bx]. `scratch` holds
// scratch_words() words, private to the calling thread.
using GroupSearch = void (*)(const SearchFrames& frames, int block_row, int group, std::uint64_t* best_keys,
                             std::uint64_t* scratch);

// Runs `iterations` rounds of independent packed-SAD instructions on this thread (a microbenchmark
// of the instruction's peak); returns the instructions executed. `seed_bytes`: 2 vectors of input.
using SadChains = std::uint64_t (*)(std::uint64_t iterations, const std::uint8_t* seed_bytes);

struct SearchKernel {
    GroupSearch search_group = nullptr;
    SadChains run_sad_chains = nullptr;
    int vector_bytes = 0;  // a group is max(vector_bytes, block_size) pixels wide; pixels per SAD instruction
};

// The kernel of that name ("avx512bw", "avx2", "sse2", "portable"); the caller checked support.
[[nodiscard]] SearchKernel find_kernel(std::string_view name);

[[nodiscard]] inline int group_width(const SearchKernel& kernel, int block_size) {
    return kernel.vector_bytes > block_size ? kernel.vector_bytes : block_size;
}

// Vertically adjacent candidates searched together, so that one load of a reference row serves
// several of them.
inline constexpr int search_row_batch = 2;

// Per candidate column of the window: its tie-break key for each dy of a batch, and an invalid-lane
// mask per accumulator.
[[nodiscard]] inline std::size_t scratch_words(const SearchKernel& kernel, int range) {
    return static_cast<std::size_t>(2 * range + 1) *
           (search_row_batch + 2 * static_cast<std::size_t>(kernel.vector_bytes / 8));
}

// Margin the padded frames need around (0, 0)..(groups * group width, Hp) for a range: the
// search window, the extra sample of half-pel interpolation, and the rows a last, partial batch of
// candidates reads beyond the window (its results are discarded).
[[nodiscard]] inline int padding_margin(int range) { return range + 2 + search_row_batch; }

// Per instruction set, defined in full_search_<name>.cpp.
SearchKernel portable_kernel();
SearchKernel sse2_kernel();
SearchKernel avx2_kernel();
SearchKernel avx512bw_kernel();

}  // namespace xme::cpu
