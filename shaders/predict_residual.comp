// SPEC §12 after the search, with the vectors still on the device: each block's prediction from its
// final vector in the results buffer, the residual current - prediction in 8x8 tiles for dct.comp,
// and the sums of |residual|, residual^2 and the zero-motion (current - reference)^2. One workgroup per block; each invocation does 4 horizontally adjacent
// samples (blocks are at least 4 wide and 4-aligned), so it writes whole words of both planes.
// Integers only, bit-exact with engine/src/reference/predict.cpp by construction.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int BLOCK = 16;
// 1: SPEC §10's H.264 samples (the chains ending in +qpel, whose costs are SATD); 0: integer samples
// and §4's rounded bilinear averages.
layout(constant_id = 1) const int H264 = 0;

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
layout(set = 0, binding = 2, std430) readonly buffer Results { uvec2 results[]; };  // block_result()
layout(set = 0, binding = 3, std430) writeonly buffer Prediction { uint prediction[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Residual { uvec2 residual[]; };  // 4 int16 each
layout(set = 0, binding = 5, std430) buffer Figures { uint figures[]; };

#include "compensation_common.glsl"
const int GROUP = 64;
#include "h264_planes.glsl"

// §12's rounded averages of A at the position's floor (>> floors negative vectors too), B right of
// it, C below, D both; integer vectors read A.
int bilinear_sample(ivec2 at, ivec2 mv) {
    const ivec2 a = at + (mv >> 2);
    const bool half_x = (mv.x & 3) != 0;
    const bool half_y = (mv.y & 3) != 0;
    const int A = ipel(a);
    if (!half_x && !half_y) return A;
    if (!half_y) return (A + ipel(a + ivec2(1, 0)) + 1) >> 1;
    if (!half_x) return (A + ipel(a + ivec2(0, 1)) + 1) >> 1;
    return (A + ipel(a + ivec2(1, 0)) + ipel(a + ivec2(0, 1)) + ipel(a + ivec2(1, 1)) + 2) >> 2;
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const ivec2 origin = BLOCK * ivec2(gl_WorkGroupID.xy);
    const ivec2 mv = unpack_vector(results[gl_WorkGroupID.y * params.blocks_x + gl_WorkGroupID.x].x);
    clear_group_sums(lane);
    // The planes around the vector's integer part, less one: h264_sample's origin, 4 (pixel + 1).
    if (H264 != 0) stage_planes(lane, origin + (mv >> 2) - 1);
    barrier();
    uint magnitude = 0u;
    uint squared = 0u;
    uint zero_motion = 0u;
    const int words_across = BLOCK / 4;
    for (int word = int(lane); word < words_across * BLOCK; word += GROUP) {
        const ivec2 at = origin + ivec2(4 * (word % words_across), word / words_across);
        if (!inside_frame(at)) continue;  // cropped to W x H
        uint samples = 0u;
        int difference[4] = int[4](0, 0, 0, 0);  // right of W: zeros, which the DCT's partial tiles read
        for (int k = 0; k < 4; ++k) {
            const ivec2 pixel = at + ivec2(k, 0);
            if (pixel.x >= params.frame_size.x) break;
            const int predicted =
                H264 != 0 ? h264_sample(4 * (pixel - origin + 1) + (mv & 3)) : bilinear_sample(pixel, mv);
            const int current = int(pel(current_frame, pixel, params.frame_size));
            const int still = current - ipel(pixel);
            difference[k] = current - predicted;
            magnitude += uint(abs(difference[k]));
            squared += uint(difference[k] * difference[k]);
            zero_motion += uint(still * still);
            samples |= uint(predicted) << (8 * k);
        }
        prediction[at.y * params.prediction_pitch + at.x / 4] = samples;
        residual[tile_element(at) / 4] =
            uvec2(pack_int16(difference[0], difference[1]), pack_int16(difference[2], difference[3]));
    }
    add_group_sums(lane, ivec3(RESIDUAL_ABS_SUM, PREDICTION_SSE, ZERO_MOTION_SSE),
                   uvec3(magnitude, squared, zero_motion));
}
