// The Vulkan backend's entry points beyond the Backend interface, for its own tests and benchmarks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "xme/backend.hpp"

namespace xme {

[[nodiscard]] std::unique_ptr<Backend> make_vulkan_backend();

namespace vulkan {

// Choices a session makes by itself, fixed here instead.
struct SessionTuning {
    // "legacy": SPEC §5's P, processing elements per block; 0 means B*B, as sessions opened through
    // Device have.
    int legacy_pe_per_block = 0;
    // "fast": the arithmetic of the SAD loop (full_search.comp). automatic: 16-bit float pairs on GPUs
    // that have shaderFloat16, 32-bit floats elsewhere.
    enum class SadArithmetic { automatic, float32, float16_pairs } sad_arithmetic = SadArithmetic::automatic;
    // "fast": at most this many adjacent candidates per invocation; 0: 12 over the group's side
    // (12, 6, 4 or 3) on GPUs, 12 on CPU devices (lavapipe).
    int max_strip = 0;
    // "fast": at least this many (up to max_strip); 0: 1. Equal to max_strip, it fixes the strip that
    // the tile shape's cost model would otherwise choose.
    int min_strip = 0;
    // "fast": reduce a workgroup's keys by the shared-memory tree even where subgroup arithmetic
    // exists (the path of devices without it, so that tests reach it everywhere).
    bool tree_reduction = false;
    // "fast": full_search.comp searches G x G neighbouring blocks per workgroup, sharing one staged
    // window and one set-up; 1..4, 0: chosen by block size (full_search.cpp).
    int blocks_per_group = 0;
    // "fast": compare candidates by two-word keys even where one word holds SAD and rank (the path of
    // the rate key and of large blocks with large ranges, so that tests reach it everywhere).
    bool two_word_keys = false;
    // "fast": at most this many candidate rows per tile; 0: chosen by block size (full_search.cpp),
    // a number above the window's 2R + 1 rows: as many as fit. Shorter tiles give each invocation more
    // candidates per block, over which its per-block costs (the keys' reduction, the result) are
    // spread, at the price of staging more window rows.
    int max_tile_rows = 0;
    // "fast": stage each tile's whole window even where a tile could keep the rows it shares with the
    // tile above (the path of windows cut across or split over workgroups, and of 32-bit floats, so
    // that tests reach it everywhere).
    bool whole_window_per_tile = false;
    // "fast": the window's row pitch in shared memory. automatic: on GPUs padded against bank
    // conflicts for blocks of 16 and 32, the window's width for smaller ones (less shared memory per
    // workgroup ran faster there, conflicts and all: docs/vulkan.md, "Tile shapes and groups"); the width
    // on CPU devices.
    enum class WindowRows { automatic, padded, unpadded } window_rows = WindowRows::automatic;
    // "fast" with --partitions all: candidates per invocation of partition_search.comp, 1..8; 0: 4.
    // Each holds sixteen 4x4 SADs in registers, so fewer may keep them out of local memory.
    int partition_strip = 0;
};

// A session of `device`, which must come from the Vulkan backend (else Error(invalid_argument)), with
// `tuning`. Throws Error(invalid_argument) for a negative P, a partition strip outside 0..8, a group
// outside 0..4 or a min_strip above max_strip, and
// Error(unsupported) for 16-bit pairs on a device without shaderFloat16.
[[nodiscard]] std::unique_ptr<MotionSession> open_tuned_session(Device& device, const SessionOptions& options,
                                                                const SessionTuning& tuning);

// Whether the fast variant runs a chain with these settings in its strip kernel (full_search.comp, SPEC
// §8's key packed in its keys) rather than in rate_search.comp, one workgroup per block.
[[nodiscard]] bool fast_variant_uses_strip_kernel(const SearchParams& params);

// The SPIR-V words of shaders/dct.comp as embedded, so that a test can check that every float
// operation carries NoContraction (SPEC §13: no fused multiply-add).
[[nodiscard]] std::span<const std::uint32_t> dct_shader_words();

}  // namespace vulkan
}  // namespace xme
