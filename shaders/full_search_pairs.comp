// "fast" variant, pass 1, on GPUs with 16-bit floats: exhaustive integer search (SPEC §3) in
// f16vec2 arithmetic, two horizontally adjacent pixels per instruction. One workgroup per block (times
// `splits`); the window of candidates is cut into tiles staged in shared memory, as in full_search.comp.
//
// What limits it is the arithmetic, so each invocation keeps its slice of the current block in
// registers (SLICE_W columns, all rows) and takes K vertically adjacent candidates: every reference
// row pair it loads from shared memory serves up to K block rows, and nothing else is loaded per pixel.
// The slices of one candidate are summed through shared memory at the end of a tile.
//
// |c - r| is a subtraction and an absolute-value addition (a free source modifier). The half sums stay
// exact: a row's slice sum starts at 1024 and adds at most 4 * 255, so it stays in [1024, 2048), where
// fp16 holds every integer and its bit pattern is 0x6400 + (sum - 1024). The 32-bit pattern of the pair
// is therefore moved into an integer accumulator with one integer addition per row (on the integer
// pipe, idle otherwise), each 16-bit half of which stays below 2^16 (B * SLICE_W / 2 * 255 < 2^16).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "search_common.glsl"

layout(local_size_x_id = 0) in;  // TILE_W * SLICES * ROW_GROUPS invocations
layout(constant_id = 1) const int BLOCK = 16;
layout(constant_id = 2) const int SLICE_W = 8;     // block columns per invocation: 4 or 8
layout(constant_id = 3) const int K = 11;          // vertically adjacent candidates per invocation
layout(constant_id = 4) const int TILE_W = 33;     // candidate columns per tile
layout(constant_id = 5) const int ROW_GROUPS = 3;  // invocations down a tile, K rows each
layout(constant_id = 6) const int PAIR_PITCH = 24; // >= WINDOW_W / 2: pairs per window row and parity
const int SLICES = BLOCK / SLICE_W;
const int PAIRS = SLICE_W / 2;
const int TILE_H = K * ROW_GROUPS;
const int WINDOW_H = TILE_H + BLOCK - 1;

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) writeonly buffer BestKeys { uvec2 best_keys[]; };

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
} params;

// Window pair (parity p, row, i) holds the reference samples at window columns 2i + p and 2i + p + 1,
// so that a slice starting at any column reads whole pairs.
shared f16vec2 window_pairs[2 * WINDOW_H * PAIR_PITCH];
shared f16vec2 current_pairs[BLOCK * BLOCK / 2];
shared uint slice_sums[SLICES > 1 ? K * gl_WorkGroupSize.x : 1];
shared uvec2 reduction[gl_WorkGroupSize.x];

float sample_at(sampler2D frame, ivec2 position) { return pel(frame, position, params.frame_size); }

void load_window(ivec2 origin, int lane, int invocations) {
    for (int i = lane; i < 2 * WINDOW_H * PAIR_PITCH; i += invocations) {
        const int parity = i / (WINDOW_H * PAIR_PITCH);
        const int row = i / PAIR_PITCH % WINDOW_H;
        const ivec2 p = origin + ivec2(i % PAIR_PITCH * 2 + parity, row);
        window_pairs[i] = f16vec2(sample_at(reference_frame, p), sample_at(reference_frame, p + ivec2(1, 0)));
    }
}

void main() {
    const int invocations = int(gl_WorkGroupSize.x);
    const int lane = int(gl_LocalInvocationID.x);
    const int slice = lane % SLICES;
    const int column = lane / SLICES % TILE_W;
    const int row_group = lane / (SLICES * TILE_W);
    const ivec2 block_origin = ivec2(gl_WorkGroupID.xy) * BLOCK;

    for (int i = lane; i < BLOCK * BLOCK / 2; i += invocations) {
        const ivec2 p = block_origin + ivec2(i % (BLOCK / 2) * 2, i / (BLOCK / 2));
        current_pairs[i] = f16vec2(sample_at(current_frame, p), sample_at(current_frame, p + ivec2(1, 0)));
    }
    barrier();
    f16vec2 current[BLOCK][PAIRS];
    [[unroll]] for (int y = 0; y < BLOCK; ++y) {
        [[unroll]] for (int m = 0; m < PAIRS; ++m) current[y][m] = current_pairs[y * (BLOCK / 2) + slice * PAIRS + m];
    }
    const int first_column = column + slice * SLICE_W;  // the slice's first window column
    const int pair_base = (first_column & 1) * WINDOW_H * PAIR_PITCH + (first_column >> 1);

    uvec2 best = KEY_NONE;
    for (int tile = int(gl_WorkGroupID.z); tile < params.tiles_x * params.tiles_y; tile += params.splits) {
        const ivec2 tile_first = ivec2(tile % params.tiles_x * TILE_W, tile / params.tiles_x * TILE_H) - params.range;
        barrier();  // the previous tile's window and slice sums have been read
        load_window(block_origin + tile_first, lane, invocations);
        barrier();
        uint sums[K];
        [[unroll]] for (int k = 0; k < K; ++k) sums[k] = 0u;
        [[unroll]] for (int j = 0; j < K + BLOCK - 1; ++j) {
            f16vec2 reference[PAIRS];
            const int row_start = pair_base + (row_group * K + j) * PAIR_PITCH;
            [[unroll]] for (int m = 0; m < PAIRS; ++m) reference[m] = window_pairs[row_start + m];
            [[unroll]] for (int k = 0; k < K; ++k) {
                const int y = j - k;  // the block row that reference row j meets in candidate row k
                if (y < 0 || y >= BLOCK) continue;
                f16vec2 row_sum = abs(current[y][0] - reference[0]) + f16vec2(1024.0);
                [[unroll]] for (int m = 1; m < PAIRS; ++m) row_sum += abs(current[y][m] - reference[m]);
                sums[k] += packFloat2x16(row_sum) - 0x64006400u;
            }
        }
        [[unroll]] for (int k = 0; k < K; ++k) sums[k] = (sums[k] & 0xFFFFu) + (sums[k] >> 16);
        if (SLICES > 1) {
            [[unroll]] for (int k = 0; k < K; ++k) slice_sums[k * invocations + lane] = sums[k];
            barrier();
            [[unroll]] for (int k = 0; k < K; ++k) {
                for (int s = 1; s < SLICES; ++s) sums[k] += slice_sums[k * invocations + lane + s];
            }
        }
        if (slice == 0) {
            [[unroll]] for (int k = 0; k < K; ++k) {
                const ivec2 d = tile_first + ivec2(column, row_group * K + k);
                const bool in_range = all(lessThanEqual(abs(d), ivec2(params.range)));
                const bool valid = params.restrict_border == 0 || d == ivec2(0) ||
                                   inside_padded_frame(block_origin + d, params.padded_size, BLOCK);
                if (in_range && valid) best = key_min(best, pack_key(sums[k], 2 * d.x, 2 * d.y));
            }
        }
    }

    reduction[lane] = best;
    barrier();
    for (int stride = 1; stride < invocations; stride *= 2) {
        if (lane % (2 * stride) == 0 && lane + stride < invocations) {
            reduction[lane] = key_min(reduction[lane], reduction[lane + stride]);
        }
        barrier();
    }
    if (lane == 0) {
        const int block_index = int(gl_WorkGroupID.y) * params.blocks_x + int(gl_WorkGroupID.x);
        best_keys[int(gl_WorkGroupID.z) * params.block_count + block_index] = reduction[0];
    }
}
