// SPEC §8 for every search of shaders/searches/ (fs and §11's), alone, +hpel or +qpel (§10): J = D + lambda * R(mv - p)
// with the predictor none, temporal or spatial and the window centred on zero or on the predictor. One
// workgroup per block: for fs its invocations share the window's integer candidates and a reduction by
// §8's key (J, |mv - p|, mv.y, mv.x) picks the winner; the fast searches walk their steps together
// (walk_search.glsl's steps, each search's own in searches/).
// Then nine invocations cost §4's half-pel candidates exactly in integers (4 * the bilinear average is
// a sum of texels) and a second reduction picks the final vector, or qpel_stage.glsl refines to §10.
// Every chain of these settings takes this shader; a chain that reads its neighbours' final vectors
// (the spatial predictor, §8's predictor set) runs it once per wavefront step (blocks with
// bx + 2 by = step, so that the left, top, top-right and top-left neighbours are final:
// docs/vulkan.md, "The per-block shader").
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "search_common.glsl"
#include "rate_key.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int BLOCK = 16;
// The integer search: a code of xme/search_methods.def (SEARCH_<identifier>), or SEARCH_GIVEN: the fast
// kernel's pass left the integer vector in results (fs+qpel centred on zero, predictor none or
// temporal), which this refines, and Candidates is not written.
layout(constant_id = 1) const int SEARCH = 0;
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) const int SEARCH_##identifier = code;
#include "xme/search_methods.def"
#undef XME_SEARCH
const int SEARCH_GIVEN = -1;

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) buffer Results { uvec2 results[]; };  // block_result() per block
layout(set = 0, binding = 3, std430) writeonly buffer Candidates { uint candidates[]; };
// The previous pair's results of the same segment (SPEC §8): the temporal p and the predictor set's T.
layout(set = 0, binding = 4, std430) readonly buffer Previous { uvec2 previous[]; };
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
    int predictor;  // p: 0: zero (none, or temporal at a segment's first pair), 1: temporal, 2: spatial
    int centre_on_predictor;
    int wavefront;      // 1: blocks run in wavefront steps (step, first_row); 0: one dispatch of all
    int has_previous;   // 1: Previous holds the previous pair of this segment
    int predictor_set;  // 1: the search reads §8's predictor set (predictor_set.glsl)
    int step;           // wavefront: the step this dispatch computes
    int first_row;      // wavefront: the block row of workgroup 0
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
#include "predictor_set.glsl"

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
// Every search of shaders/searches/ and run_search(lane, frame), which runs the one SEARCH names
// (generated by backends/vulkan/CMakeLists.txt from the folder).
#include "search_kernels.glsl"

void main() {
    const uint lane = gl_LocalInvocationID.x;
    ivec2 block;
    if (params.wavefront != 0) {
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
    if (params.predictor_set != 0 && lane == 0) fill_predictor_set(block);
    const ivec2 centre = params.centre_on_predictor != 0
                             ? ivec2(round_quarter_to_pel(p.x), round_quarter_to_pel(p.y))
                             : ivec2(0);
    barrier();  // current_block, the predictor set

    const SearchArea frame = SearchArea(0, origin, centre, params.range, p, uint(params.lambda));
    Walk integer;
    if (SEARCH == SEARCH_GIVEN) {
        // Read by every lane before refine_qpel's first barrier; lane 0 overwrites it at the end.
        const uvec2 fast = results[index];
        integer = Walk(candidate_key(fast.y, 0u, 4 * (unpack_vector(fast.x) / 4), p), 0u);
    } else {
        integer = run_search(lane, frame);
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
        if (SEARCH != SEARCH_GIVEN) candidates[index] = evaluated;
    }
}
