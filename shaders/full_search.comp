// "fast" variant, pass 1: exhaustive integer search (SPEC §3), one workgroup per GROUP x GROUP blocks
// (times `splits` for large ranges). The window of candidates is cut into tiles; for each tile the
// workgroup stages the reference pixels it needs in shared memory, and each invocation computes the SADs
// of STRIP horizontally adjacent candidates for each of its blocks, so that every sample it loads
// serves STRIP candidates of up to GROUP blocks. Small blocks are grouped because a workgroup's fixed
// costs (its set-up, the window's staging, the key reduction) outweigh one 4x4 block's SADs.
//
// GLSL has no packed-byte SAD instruction. Pixels are held as floats, exact for integers: |a - b|
// is a subtraction and an addition whose absolute value is a free source modifier on GPUs.
// HALF_PAIRS (devices with shaderFloat16) packs two rows per f16vec2, so each of those instructions
// handles two pixels; 16-bit floats hold integers exactly up to 2048, so the half sums are moved
// into 32-bit ones every 8 pixels (8 * 255 < 2048). Either way the SAD is exact.
//
// SUBGROUP_REDUCE (devices with subgroup arithmetic in compute shaders): the workgroup's keys are
// reduced by subgroupMin, then once across subgroups, instead of by a shared-memory tree with a barrier
// per level (9 levels for 363 invocations: at block 4 more instructions than the SADs themselves).
//
// RING_WINDOW (HALF_PAIRS, a window of one tile column, tiles_x 1, and one split): a tile shares all but
// TILE_H of its window rows with the tile above, so the window is a ring of rows and each tile after
// the first stages only its TILE_H new ones (H100, block 8 at range 16: staging each 11-row tile
// whole was ~17% of the search, docs/vulkan.md, "Tile shapes and groups"). A larger window holding
// several tiles would save the same rows but, at twice the shared memory, ran 1.2x slower there.
//
// RATE_KEY: SPEC §8 with the window centred on zero and p = 0 or the previous pair's vector (the
// temporal predictor, read from Previous on the device): each candidate's key is strip_rate_key's.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#ifdef HALF_PAIRS
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#ifdef SUBGROUP_REDUCE
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#include "search_common.glsl"
#include "rate_key.glsl"
#include "strip_key.glsl"

layout(local_size_x_id = 0) in;  // STRIPS_X * TILE_H invocations
layout(constant_id = 1) const int BLOCK = 16;
layout(constant_id = 2) const int STRIP = 4;     // adjacent candidates per invocation
layout(constant_id = 3) const int STRIPS_X = 9;  // invocations across a tile
layout(constant_id = 4) const int TILE_H = 33;   // candidate rows per tile
layout(constant_id = 5) const int WINDOW_PITCH = 51;  // >= WINDOW_W, padded against bank conflicts
layout(constant_id = 6) const int RATE_KEY = 0;  // 1: SPEC §8's key (strip_rate_key), else §3's
layout(constant_id = 7) const int GROUP = 1;     // blocks across and down one workgroup's group
// >= the workgroup's invocations and GROUP^2 times its subgroups (full_search.cpp computes it).
layout(constant_id = 8) const int REDUCTION_SLOTS = 1;
// 1 (one split, no half-pel stage): write each block's result itself, so that no reduction pass runs.
layout(constant_id = 9) const int WRITE_RESULTS = 0;
// > 0 (no rate key, and SAD and rank fit): keys are strip_key.glsl's one-word keys with this many rank
// bits, compared by one unsigned min (the two-word compare took 6-10% of the search at blocks 4-8, H100).
layout(constant_id = 10) const int ONE_WORD_RANK_BITS = 0;
layout(constant_id = 11) const int RING_WINDOW = 0;  // 1: the window's rows kept from tile to tile
const int SPAN = GROUP * BLOCK;  // the side of the group's pixels
const int KEYS = GROUP * GROUP;  // one per block of the group, row by row
const int ROW_SADS = GROUP * STRIP;  // an invocation's SADs for one row of the group's blocks
const int TILE_W = STRIP * STRIPS_X;
const int WINDOW_W = TILE_W + SPAN - 1;
const int WINDOW_H = TILE_H + SPAN - 1;
#ifdef HALF_PAIRS
const int WINDOW_ROWS = WINDOW_H - 1;  // element rows (row pairs) of the window
#endif

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) writeonly buffer BestKeys { uvec2 best_keys[]; };
layout(set = 0, binding = 3, std430) readonly buffer Previous { uvec2 previous[]; };  // block_result()s
layout(set = 0, binding = 4, std430) writeonly buffer Results { uvec2 results[]; };    // WRITE_RESULTS

layout(push_constant) uniform FullSearchParams {
    ivec2 frame_size;
    ivec2 padded_size;
    int blocks_x;
    int block_count;
    int range;
    int restrict_border;  // 1: SPEC §2 restrict mode
    int tiles_x;          // tiles across and down the window of one block
    int tiles_y;
    int splits;           // workgroups per block: split z takes tiles z, z + splits, ...
    int lambda;           // RATE_KEY: 0..65535
    int temporal;         // RATE_KEY: 1 when p is the block's vector in Previous, else p = 0
} params;

#ifdef HALF_PAIRS
// Element (x, r) holds the samples of rows r and r + 1 at column x.
shared f16vec2 current_group[SPAN / 2 * SPAN];
shared f16vec2 window[(WINDOW_H - 1) * WINDOW_PITCH];
#else
shared float current_group[SPAN * SPAN];
shared float window[WINDOW_H * WINDOW_PITCH];
#endif
shared uvec2 reduction[REDUCTION_SLOTS];

float sample_at(sampler2D frame, ivec2 position) { return pel(frame, position, params.frame_size); }

// SPEC §1's samples at top_left + (0, 0), (1, 0), (0, 1), (1, 1) in one textureGather: the frames are
// bound with a normalised, clamp-to-edge sampler (the frame's own size, so clamping is §1's edge
// replication), and the point between the four texels selects them. Staging the window this way
// takes a quarter of the texture instructions of one texelFetch per sample.
vec4 quad_at(sampler2D frame, ivec2 top_left) {
    const vec4 texels = textureGather(frame, vec2(top_left + 1) / vec2(params.frame_size), 0);
    return round(texels.wzxy * 255.0);  // gather's order is (0, 1), (1, 1), (1, 0), (0, 0)
}

void load_current(ivec2 origin, int lane, int invocations) {
#ifdef HALF_PAIRS
    // Here element (x, r) holds rows 2r and 2r + 1 (disjoint pairs, unlike the window's), so a quad at
    // (x, 2r) is elements (x, r) and (x + 1, r): a gather per two elements, a quarter of the texture
    // instructions of a fetch per sample.
    for (int i = lane; i < SPAN / 2 * (SPAN / 2); i += invocations) {
        const ivec2 at = 2 * ivec2(i % (SPAN / 2), i / (SPAN / 2));
        const vec4 quad = quad_at(current_frame, origin + at);
        const int element = at.y / 2 * SPAN + at.x;
        current_group[element] = f16vec2(quad.xz);
        current_group[element + 1] = f16vec2(quad.yw);
    }
#else
    for (int i = lane; i < SPAN * SPAN; i += invocations) {
        current_group[i] = sample_at(current_frame, origin + ivec2(i % SPAN, i / SPAN));
    }
#endif
}

// The window by quads of 2x2 samples, one gather each; a quad past the window's last column or row
// writes only what is inside.
#ifdef HALF_PAIRS
// Elements (x, row) and, inside the window, (x + 1, row) of the window's shared copy.
void store_element_pair(int row, int x, f16vec2 left, f16vec2 right) {
    window[row * WINDOW_PITCH + x] = left;
    if (x + 1 < WINDOW_W) window[row * WINDOW_PITCH + x + 1] = right;
}

// Element rows first .. first + count - 1 of the window at `origin`, row r at r % WINDOW_ROWS (the ring).
void load_window_rows(ivec2 origin, int first, int count, int lane, int invocations) {
    const int quads_x = (WINDOW_W + 1) / 2;
    // Element (x, r) holds rows r and r + 1 for every r: a quad at (x, r) is elements (x, r), (x + 1, r).
    for (int i = lane; i < quads_x * count; i += invocations) {
        const ivec2 at = ivec2(2 * (i % quads_x), first + i / quads_x);
        const vec4 quad = quad_at(reference_frame, origin + at);
        const int row = RING_WINDOW != 0 ? at.y % WINDOW_ROWS : at.y;
        store_element_pair(row, at.x, f16vec2(quad.xz), f16vec2(quad.yw));
    }
}

// The whole window at element rows 0.. (a tile's, or a ring's first) down strips: a lane's STRIP_QUADS + 1
// gathers stacked in a column give its 2 * STRIP_QUADS element rows at two columns, the odd rows' lower
// samples taken from the quad below, where load_window_rows gathers once per element row: 36% fewer
// gathers for block 8's 3x3 tile.
const int STRIP_QUADS = 4;
void load_window_strips(ivec2 origin, int lane, int invocations) {
    const int quads_x = (WINDOW_W + 1) / 2;
    const int strips_y = (WINDOW_ROWS + 2 * STRIP_QUADS - 1) / (2 * STRIP_QUADS);
    for (int i = lane; i < quads_x * strips_y; i += invocations) {
        const int x = 2 * (i % quads_x);
        const int first_row = i / quads_x * 2 * STRIP_QUADS;
        vec4 quads[STRIP_QUADS + 1];
        [[unroll]] for (int k = 0; k <= STRIP_QUADS; ++k)
            quads[k] = quad_at(reference_frame, origin + ivec2(x, first_row + 2 * k));
        [[unroll]] for (int k = 0; k < STRIP_QUADS; ++k) {
            const int row = first_row + 2 * k;
            const vec4 quad = quads[k];
            const vec4 below = quads[k + 1];
            if (row < WINDOW_ROWS) store_element_pair(row, x, f16vec2(quad.xz), f16vec2(quad.yw));
            if (row + 1 < WINDOW_ROWS)
                store_element_pair(row + 1, x, f16vec2(quad.z, below.x), f16vec2(quad.w, below.y));
        }
    }
}
#else
void load_window(ivec2 origin, int lane, int invocations) {
    const int quads_x = (WINDOW_W + 1) / 2;
    for (int i = lane; i < quads_x * ((WINDOW_H + 1) / 2); i += invocations) {
        const ivec2 at = 2 * ivec2(i % quads_x, i / quads_x);
        const vec4 quad = quad_at(reference_frame, origin + at);
        const int element = at.y * WINDOW_PITCH + at.x;
        window[element] = quad.x;
        if (at.x + 1 < WINDOW_W) window[element + 1] = quad.y;
        if (at.y + 1 < WINDOW_H) {
            window[element + WINDOW_PITCH] = quad.z;
            if (at.x + 1 < WINDOW_W) window[element + WINDOW_PITCH + 1] = quad.w;
        }
    }
}
#endif

// With one-word keys the SADs are summed from 2^23, where floats are the integers of [2^23, 2^24) (block
// 32's largest SAD is 261,120): a sum's bits are then 0x4B000000 + SAD, a key without a float-to-integer
// conversion (a quarter-rate instruction on NVIDIA's GPUs, one per candidate and block).
const float SAD_BIAS = ONE_WORD_RANK_BITS > 0 ? 8388608.0 : 0.0;
const uint SAD_BIAS_BITS = 0x4B000000u;

// SADs of the STRIP candidates whose blocks start at `corner` (x, y) of the window, (x + 1, y), ...,
// for the blocks of the group's row `group_row`: sads[g * STRIP + s] for the block in column g. The
// window's row 0 is at element row ring_top (RING_WINDOW; else 0).
void strip_sads(ivec2 corner, int group_row, int ring_top, out float sads[ROW_SADS]) {
    [[unroll]] for (int i = 0; i < ROW_SADS; ++i) sads[i] = SAD_BIAS;
    const int first_row = group_row * BLOCK;
#ifdef HALF_PAIRS
    // A half sum must be moved out before it could pass 2048: every 8 samples of a lane, that is every
    // 8 columns, or for blocks narrower than 8 every 8 / BLOCK row pairs.
    const int row_pairs_per_flush = BLOCK < 8 ? 8 / BLOCK : 1;
    f16vec2 partial[ROW_SADS];
    [[unroll]] for (int i = 0; i < ROW_SADS; ++i) partial[i] = f16vec2(0.0);
    for (int y = 0; y < BLOCK; y += 2) {
        f16vec2 current_row[SPAN];
        [[unroll]] for (int x = 0; x < SPAN; ++x) current_row[x] = current_group[(first_row + y) / 2 * SPAN + x];
        int row = ring_top + corner.y + first_row + y;
        if (RING_WINDOW != 0 && row >= WINDOW_ROWS) row -= WINDOW_ROWS;
        const int row_start = row * WINDOW_PITCH + corner.x;
        [[unroll]] for (int x = 0; x < SPAN + STRIP - 1; ++x) {
            const f16vec2 reference = window[row_start + x];
            [[unroll]] for (int s = 0; s < STRIP; ++s) {
                const int span_column = x - s;
                if (span_column < 0 || span_column >= SPAN) continue;
                const int i = span_column / BLOCK * STRIP + s;
                const int column = span_column % BLOCK;
                partial[i] += abs(current_row[span_column] - reference);
                if (BLOCK >= 8 && (column % 8 == 7 || column == BLOCK - 1)) {
                    const vec2 exact = vec2(partial[i]);
                    sads[i] += exact.x + exact.y;
                    partial[i] = f16vec2(0.0);
                }
            }
        }
        if (BLOCK < 8 && ((y / 2 + 1) % row_pairs_per_flush == 0 || y + 2 >= BLOCK)) {
            [[unroll]] for (int i = 0; i < ROW_SADS; ++i) {
                const vec2 exact = vec2(partial[i]);
                sads[i] += exact.x + exact.y;
                partial[i] = f16vec2(0.0);
            }
        }
    }
#else
    for (int y = 0; y < BLOCK; ++y) {
        float current_row[SPAN];
        [[unroll]] for (int x = 0; x < SPAN; ++x) current_row[x] = current_group[(first_row + y) * SPAN + x];
        const int row_start = (corner.y + first_row + y) * WINDOW_PITCH + corner.x;
        [[unroll]] for (int x = 0; x < SPAN + STRIP - 1; ++x) {
            const float reference = window[row_start + x];
            [[unroll]] for (int s = 0; s < STRIP; ++s) {
                const int span_column = x - s;
                if (span_column >= 0 && span_column < SPAN) {
                    sads[span_column / BLOCK * STRIP + s] += abs(current_row[span_column] - reference);
                }
            }
        }
    }
#endif
}


// A block's least key, to the keys of its split, or (WRITE_RESULTS) as its result: the integer vector in
// quarter pels and its cost, what hpel_refine.comp writes without a half-pel stage.
void store_best(int block_index, uvec2 key) {
    if (WRITE_RESULTS != 0) {
        const ivec2 v = strip_key_vector(key, RATE_KEY != 0);
        results[block_index] = block_result(4 * v.x, 4 * v.y, strip_key_cost(key, RATE_KEY != 0));
    } else {
        best_keys[int(gl_WorkGroupID.z) * params.block_count + block_index] = key;
    }
}

#ifdef SUBGROUP_REDUCE
// The least key (key_less) of the subgroup's active invocations: the least high word, then the least
// low word among the invocations that hold it.
uvec2 subgroup_key_min(uvec2 key) {
    const uint high = subgroupMin(key.y);
    return uvec2(subgroupMin(key.y == high ? key.x : 0xFFFFFFFFu), high);
}
#endif

void main() {
    const int invocations = int(gl_WorkGroupSize.x);
    const int lane = int(gl_LocalInvocationID.x);
    const ivec2 first_block = ivec2(gl_WorkGroupID.xy) * GROUP;  // the group's, in blocks
    const ivec2 group_origin = first_block * BLOCK;
    const ivec2 strip_position = ivec2(lane % STRIPS_X * STRIP, lane / STRIPS_X);
    const ivec2 blocks = ivec2(params.blocks_x, params.block_count / params.blocks_x);

    load_current(group_origin, lane, invocations);
    // Per block of the group: whether the frame has it (a group may overhang the last column or row
    // of blocks; it is searched, never read from Previous nor written), its predictor and key floor.
    bool exists[KEYS];
    int block_index[KEYS];
    ivec2 p[KEYS];
    uint distance_floor[KEYS];
    uvec2 best[KEYS];
    uint best_word[KEYS];  // ONE_WORD_RANK_BITS > 0
    [[unroll]] for (int k = 0; k < KEYS; ++k) {
        const ivec2 block = first_block + ivec2(k % GROUP, k / GROUP);
        exists[k] = all(lessThan(block, blocks));
        block_index[k] = block.y * params.blocks_x + block.x;
        p[k] = ivec2(0);
        if (RATE_KEY != 0 && params.temporal != 0 && exists[k]) p[k] = unpack_vector(previous[block_index[k]].x);
        const ivec2 beyond = max(abs(p[k]) - 4 * params.range, ivec2(0));
        distance_floor[k] = uint(beyond.x + beyond.y);
        best[k] = KEY_NONE;
        best_word[k] = 0xFFFFFFFFu;
    }
    for (int tile = int(gl_WorkGroupID.z); tile < params.tiles_x * params.tiles_y; tile += params.splits) {
        const ivec2 tile_first = ivec2(tile % params.tiles_x * TILE_W, tile / params.tiles_x * TILE_H) - params.range;
        // The previous tile's window has been read. Before the first, none was: groups of small blocks
        // without the ring then stage their window while the current group's loads are in flight
        // (H200: +1% at blocks 4 and 8, range 16; block 8's ring at range 32 -0.8%, block 32 -3%).
        if (GROUP == 1 || RING_WINDOW != 0 || tile != int(gl_WorkGroupID.z)) barrier();
#ifdef HALF_PAIRS
        // The ring: tile t's element row r is the ring's row t * TILE_H + r; after the first tile only
        // the TILE_H rows below the previous tile's window are new.
        const int ring_top = RING_WINDOW != 0 ? tile * TILE_H % WINDOW_ROWS : 0;
        if (RING_WINDOW != 0 && tile > 0) {
            load_window_rows(group_origin - params.range, (tile - 1) * TILE_H + WINDOW_ROWS, TILE_H, lane,
                             invocations);
        } else {
            load_window_strips(group_origin + tile_first, lane, invocations);
        }
#else
        const int ring_top = 0;
        load_window(group_origin + tile_first, lane, invocations);
#endif
        barrier();
        // The strip's candidates, the same for every block of the group.
        ivec2 d[STRIP];
        bool in_range[STRIP];
        uint rank[STRIP];  // one-word keys: the rank less the bias's bits shifted (wrapping), see SAD_BIAS
        [[unroll]] for (int s = 0; s < STRIP; ++s) {
            d[s] = tile_first + strip_position + ivec2(s, 0);
            in_range[s] = all(lessThanEqual(abs(d[s]), ivec2(params.range)));
            rank[s] = candidate_rank(d[s], params.range) - (SAD_BIAS_BITS << ONE_WORD_RANK_BITS);
        }
        [[unroll]] for (int group_row = 0; group_row < GROUP; ++group_row) {
            float sads[ROW_SADS];
            strip_sads(strip_position, group_row, ring_top, sads);
            [[unroll]] for (int group_column = 0; group_column < GROUP; ++group_column) {
                const int k = group_row * GROUP + group_column;
                const ivec2 block_origin = group_origin + ivec2(group_column, group_row) * BLOCK;
                [[unroll]] for (int s = 0; s < STRIP; ++s) {
                    const bool valid = params.restrict_border == 0 || d[s] == ivec2(0) ||
                                       inside_padded_frame(block_origin + d[s], params.padded_size, BLOCK);
                    if (!in_range[s] || !valid) continue;
                    if (ONE_WORD_RANK_BITS > 0) {
                        const uint biased = floatBitsToUint(sads[group_column * STRIP + s]);
                        best_word[k] = min(best_word[k], (biased << ONE_WORD_RANK_BITS) + rank[s]);
                        continue;
                    }
                    const uint sad = uint(sads[group_column * STRIP + s]);
                    const uvec2 key = RATE_KEY != 0
                                          ? strip_rate_key(sad, d[s], p[k], distance_floor[k], uint(params.lambda))
                                          : pack_key(sad, 2 * d[s].x, 2 * d[s].y);
                    best[k] = key_min(best[k], key);
                }
            }
        }
    }

#ifdef SUBGROUP_REDUCE
    // Not gl_NumSubgroups: lavapipe (Mesa 22.3) derives it from the unspecialised workgroup size.
    const uint subgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
    [[unroll]] for (int k = 0; k < KEYS; ++k) {
        // One-word keys: one subgroupMin, and the key in the slot's low word (its high word 0 for all).
        const uvec2 least = ONE_WORD_RANK_BITS > 0 ? uvec2(subgroupMin(best_word[k]), 0u) : subgroup_key_min(best[k]);
        if (subgroupElect()) reduction[k * subgroups + gl_SubgroupID] = least;
    }
    barrier();
    if (gl_SubgroupID == 0) {  // whatever invocations the subgroups hold, each wrote its own slots
        [[unroll]] for (int k = 0; k < KEYS; ++k) {
            uvec2 least = KEY_NONE;
            for (uint i = gl_SubgroupInvocationID; i < subgroups; i += gl_SubgroupSize) {
                least = key_min(least, reduction[k * subgroups + i]);
            }
            least = subgroup_key_min(least);
            if (ONE_WORD_RANK_BITS > 0) least = expand_one_word_key(least.x, ONE_WORD_RANK_BITS, params.range);
            if (subgroupElect() && exists[k]) store_best(block_index[k], least);
        }
    }
#else
    [[unroll]] for (int k = 0; k < KEYS; ++k) {
        barrier();  // the previous block's tree has been read
        reduction[lane] = ONE_WORD_RANK_BITS > 0 ? expand_one_word_key(best_word[k], ONE_WORD_RANK_BITS, params.range)
                                                 : best[k];
        barrier();
        for (int stride = 1; stride < invocations; stride *= 2) {
            if (lane % (2 * stride) == 0 && lane + stride < invocations) {
                reduction[lane] = key_min(reduction[lane], reduction[lane + stride]);
            }
            barrier();
        }
        if (lane == 0 && exists[k]) store_best(block_index[k], reduction[0]);
    }
#endif
}
