// "fast" variant, pass 2: one workgroup per block takes the best of the splits' keys (the integer
// vector, SPEC §3), then, for fs+hpel, compares it with its 8 half-pel neighbours (SPEC §4) in exact
// integer arithmetic: 4 * the bilinear average is a sum of texels, so cost4 needs no filtering.
// RATE_KEY: the keys are full_search.comp's strip_rate_key (SPEC §8), and so is the refinement:
// J = cost4 + 4 lambda R(q - p), compared by §8's whole key.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"
#include "rate_key.glsl"
#include "strip_key.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int BLOCK = 16;
layout(constant_id = 1) const int RATE_KEY = 0;  // as full_search.comp's

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) readonly buffer BestKeys { uvec2 best_keys[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Results { uvec2 results[]; };
layout(set = 0, binding = 4, std430) readonly buffer Previous { uvec2 previous[]; };  // block_result()s

layout(push_constant) uniform HpelRefineParams {
    ivec2 frame_size;
    ivec2 padded_size;
    int blocks_x;
    int block_count;
    int splits;
    int restrict_border;
    int refine;  // 0: fs, write the integer vector; 1: fs+hpel
    int lambda;    // RATE_KEY: 0..65535
    int temporal;  // RATE_KEY: 1 when p is the block's vector in Previous, else p = 0
} params;

shared uvec2 reduction[64];
shared uint neighbour_costs[9];  // cost4 of (sx, sy) at index (sy + 1) * 3 + sx + 1; the centre unused

// 4 * the reference sample at half-pel offset (sx, sy) / 2 from `texels`, the 3x3 integer samples
// around the integer position (row-major, centre at index 4).
uint four_interpolated(float texels[9], int sx, int sy) {
    const float centre = texels[4];
    const float across = texels[4 + sx];
    const float down = texels[4 + 3 * sy];
    const float diagonal = texels[4 + 3 * sy + sx];
    return uint(centre + across + down + diagonal);  // sx or sy = 0 repeats samples: 2*(a+b) or 4*a
}

// The integer vector and its cost (SAD, or J with RATE_KEY) of the integer search's key.
ivec2 key_integer_vector(uvec2 key) { return strip_key_vector(key, RATE_KEY != 0); }
uint key_integer_cost(uvec2 key) { return strip_key_cost(key, RATE_KEY != 0); }

// SPEC §8 over the 9 half-pel candidates around integer vector v: the centre's cost4 + 4 lambda R is
// 4 * its J; the others' cost4 are in neighbour_costs. Returns the refined block_result().
uvec2 refine_with_rate(ivec2 block_origin, ivec2 v, uint integer_cost, ivec2 p) {
    uvec4 refined = uvec4(0xFFFFFFFFu);
    for (int n = 0; n < 9; ++n) {
        const ivec2 q = 4 * v + 2 * ivec2(n % 3 - 1, n / 3 - 1);
        if (n != 4 && params.restrict_border != 0 && !halfpel_valid(block_origin, q, params.padded_size, BLOCK)) {
            continue;
        }
        const uvec4 key = n == 4 ? candidate_key(4u * integer_cost, 0u, q, p)
                                 : candidate_key(neighbour_costs[n], 4u * uint(params.lambda), q, p);
        if (key_less4(key, refined)) refined = key;
    }
    const ivec2 mv = key_vector(refined);
    return block_result(mv.x, mv.y, refined.x);
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int block_index = int(gl_WorkGroupID.y) * params.blocks_x + int(gl_WorkGroupID.x);
    const ivec2 block_origin = ivec2(gl_WorkGroupID.xy) * BLOCK;

    uvec2 best = KEY_NONE;
    for (int split = lane; split < params.splits; split += 64) {
        best = key_min(best, best_keys[split * params.block_count + block_index]);
    }
    reduction[lane] = best;
    if (lane < 9) neighbour_costs[lane] = 0;
    barrier();
    for (int stride = 32; stride > 0; stride /= 2) {
        if (lane < stride) reduction[lane] = key_min(reduction[lane], reduction[lane + stride]);
        barrier();
    }
    best = reduction[0];
    const ivec2 integer_vector = key_integer_vector(best);
    if (params.refine == 0) {
        if (lane == 0) {
            results[block_index] = block_result(4 * integer_vector.x, 4 * integer_vector.y, key_integer_cost(best));
        }
        return;
    }

    uint costs[9] = uint[9](0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int i = lane; i < BLOCK * BLOCK; i += 64) {
        const ivec2 pixel = block_origin + ivec2(i % BLOCK, i / BLOCK);
        const float current4 = 4.0 * pel(current_frame, pixel, params.frame_size);
        float texels[9];
        for (int t = 0; t < 9; ++t) {
            texels[t] = pel(reference_frame, pixel + integer_vector + ivec2(t % 3 - 1, t / 3 - 1), params.frame_size);
        }
        for (int n = 0; n < 9; ++n) {
            if (n != 4) costs[n] += uint(abs(current4 - float(four_interpolated(texels, n % 3 - 1, n / 3 - 1))));
        }
    }
    for (int n = 0; n < 9; ++n) {
        if (n != 4) atomicAdd(neighbour_costs[n], costs[n]);
    }
    barrier();
    if (lane == 0 && RATE_KEY != 0) {
        const ivec2 p = params.temporal != 0 ? unpack_vector(previous[block_index].x) : ivec2(0);
        results[block_index] = refine_with_rate(block_origin, integer_vector, key_integer_cost(best), p);
    } else if (lane == 0) {
        const ivec2 centre_half = 2 * integer_vector;
        uvec2 refined = KEY_NONE;
        for (int n = 0; n < 9; ++n) {
            const ivec2 half_vector = centre_half + ivec2(n % 3 - 1, n / 3 - 1);
            if (params.restrict_border != 0 && !halfpel_valid(block_origin, 2 * half_vector, params.padded_size, BLOCK)) {
                continue;
            }
            const uint cost4 = n == 4 ? 4 * key_cost(best) : neighbour_costs[n];
            refined = key_min(refined, pack_key(cost4, half_vector.x, half_vector.y));
        }
        results[block_index] = block_result(2 * key_half_x(refined), 2 * key_half_y(refined), key_cost(refined));
    }
}
