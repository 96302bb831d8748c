// SPEC §8 for fs, dia, hex, ehds and tz (§11), alone, +hpel or +qpel (§10): J = D + lambda * R(mv - p)
// with the predictor none, temporal or spatial and the window centred on zero or on the predictor. One
// workgroup per block: for fs its invocations share the window's integer candidates and a reduction by
// §8's key (J, |mv - p|, mv.y, mv.x) picks the winner; the fast searches walk their steps together
// (walk_search.glsl, ehds_walk.glsl on the mean pyramid, tz_walk.glsl).
// Then nine invocations cost §4's half-pel candidates exactly in integers (4 * the bilinear average is
// a sum of texels) and a second reduction picks the final vector, or qpel_stage.glsl refines to §10.
// Every chain of these settings takes this shader; the spatial predictor runs it once per wavefront
// step (blocks with bx + 2 by = step, so that the left, top, top-right and top-left neighbours are
// final: docs/vulkan-notes.md).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "search_common.glsl"
#include "rate_key.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int BLOCK = 16;
// The integer search: 0 fs, 1 dia, 2 hex, 4 ehds, 5 tz; 3 none: the fast kernel's pass left the integer
// vector in results (fs+qpel centred on zero, predictor none or temporal), and Candidates is not written.
layout(constant_id = 1) const int WALK = 0;

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) buffer Results { uvec2 results[]; };  // block_result() per block
layout(set = 0, binding = 3, std430) writeonly buffer Candidates { uint candidates[]; };
layout(set = 0, binding = 4, std430) readonly buffer Previous { uvec2 previous[]; };  // the temporal p
// ehds: the frames' mean pyramids (pyramid_level_offset's layout).
layout(set = 0, binding = 5, std430) readonly buffer ReferencePyramid { uint reference_pyramid[]; };
layout(set = 0, binding = 6, std430) readonly buffer CurrentPyramid { uint current_pyramid[]; };

layout(push_constant) uniform RateSearchParams {
    ivec2 frame_size;
    ivec2 padded_size;
    int blocks_x;
    int blocks_y;
    int range;
    int restrict_border;
    int refine;     // 0: none; 1: +hpel; 2: +qpel
    int lambda;     // 0..65535
    int predictor;  // 0: none (or a segment's first pair), 1: temporal, 2: spatial
    int centre_on_predictor;
    int step;       // spatial: the wavefront step this dispatch computes
    int first_row;  // spatial: the block row of workgroup 0
} params;

const int GROUP = 64;

shared float current_block[BLOCK * BLOCK];
shared float level_block[(BLOCK / 2) * (BLOCK / 2)];  // ehds: the block on a pyramid level
shared uvec4 keys[GROUP];
shared uint counts[GROUP];

// The smallest of the workgroup's keys (and the sum of its counts) in keys[0] and counts[0].
void reduce(uint lane) {
    for (uint stride = GROUP / 2; stride > 0; stride /= 2) {
        barrier();
        if (lane < stride) {
            if (key_less4(keys[lane + stride], keys[lane])) keys[lane] = keys[lane + stride];
            counts[lane] += counts[lane + stride];
        }
    }
    barrier();
}

#include "spatial_predictor.glsl"

// round(q / 4), halves away from zero.
int round_quarter_to_pel(int q) { return q >= 0 ? (q + 2) / 4 : -((-q + 2) / 4); }

// SPEC §4's cost4 at quarter-pel vector q on the half-pel grid: sum |4 cur - (A + B + C + D)|, where
// the four texels repeat at axis-aligned positions.
uint half_pel_cost4(ivec2 origin, ivec2 q) {
    const ivec2 low = q >> 2;  // floor(q / 4)
    const ivec2 high = low + ivec2(notEqual(q & 3, ivec2(0)));
    float sum = 0.0;
    for (int j = 0; j < BLOCK; ++j) {
        for (int i = 0; i < BLOCK; ++i) {
            const ivec2 p = origin + ivec2(i, j);
            const float four = pel(reference_frame, p + low, params.frame_size) +
                               pel(reference_frame, p + ivec2(high.x, low.y), params.frame_size) +
                               pel(reference_frame, p + ivec2(low.x, high.y), params.frame_size) +
                               pel(reference_frame, p + high, params.frame_size);
            sum += abs(4.0 * current_block[j * BLOCK + i] - four);
        }
    }
    return uint(sum);
}

#include "qpel_stage.glsl"
#include "walk_search.glsl"
#include "ehds_walk.glsl"
#include "tz_walk.glsl"

// SPEC §8's full search of the area's window; the zero vector when it holds no valid candidate (a
// window centred on the predictor, `restrict`).
Walk window_search(uint lane, SearchArea area) {
    Walk walk = WALK_NONE;
    grid_step(lane, area, area.centre - area.range, 2 * area.range + 1, 1, walk);
    evaluate_zero_if_none(lane, area, walk);
    return walk;
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    ivec2 block;
    if (params.predictor == 2) {
        block.y = params.first_row + int(gl_WorkGroupID.x);
        block.x = params.step - 2 * block.y;
    } else {
        block = ivec2(gl_WorkGroupID.xy);
    }
    const int index = block.y * params.blocks_x + block.x;
    const ivec2 origin = block * BLOCK;
    for (int i = int(lane); i < BLOCK * BLOCK; i += GROUP) {
        current_block[i] = pel(current_frame, origin + ivec2(i % BLOCK, i / BLOCK), params.frame_size);
    }

    ivec2 p = ivec2(0);
    if (params.predictor == 1) p = unpack_vector(previous[index].x);
    if (params.predictor == 2) p = spatial_predictor(block);
    const ivec2 centre = params.centre_on_predictor != 0
                             ? ivec2(round_quarter_to_pel(p.x), round_quarter_to_pel(p.y))
                             : ivec2(0);
    barrier();  // current_block

    const SearchArea frame = SearchArea(0, origin, centre, params.range, p, uint(params.lambda));
    Walk integer;
    if (WALK == 0) {
        integer = window_search(lane, frame);
    } else if (WALK == 3) {
        // Read by every lane before refine_qpel's first barrier; lane 0 overwrites it at the end.
        const uvec2 fast = results[index];
        integer = Walk(candidate_key(fast.y, 0u, 4 * (unpack_vector(fast.x) / 4), p), 0u);
    } else if (WALK == 4) {
        integer = walk_ehds(lane, frame);
    } else {
        integer = walk_start(lane, frame);
        if (WALK == 1) walk_diamond(lane, frame, integer);
        if (WALK == 2) walk_hexagon(lane, frame, integer);
        if (WALK == 5) walk_tz(lane, frame, integer);
    }
    uvec4 winner = integer.best;
    const uint evaluated = integer.evaluated;
    const uint weight = uint(params.lambda);

    if (params.refine == 2) winner = refine_qpel(lane, origin, key_vector(winner), p);
    if (params.refine == 1) {
        barrier();  // every lane has read keys[0]
        const ivec2 start = key_vector(winner);
        uvec4 best = uvec4(0xFFFFFFFFu);
        if (lane < 9) {
            const ivec2 q = start + 2 * ivec2(int(lane) % 3 - 1, int(lane) / 3 - 1);
            const bool valid = lane == 4 || params.restrict_border == 0 ||
                               halfpel_valid(origin, q, params.padded_size, BLOCK);
            if (valid) best = candidate_key(half_pel_cost4(origin, q), 4u * weight, q, p);
        }
        keys[lane] = best;
        counts[lane] = 0;
        reduce(lane);
        winner = keys[0];
    }
    if (lane == 0) {
        const ivec2 mv = key_vector(winner);
        results[index] = block_result(mv.x, mv.y, winner.x);
        if (WALK != 3) candidates[index] = evaluated;
    }
}
