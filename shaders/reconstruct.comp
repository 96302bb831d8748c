// SPEC §13's reconstruction clip(prediction + inverse(q * S), 0, 255) against the current frame: its
// squared error, from which the host computes the PSNR as compensate() does. One workgroup per tile
// of the inverse DCT's output, two samples per invocation; integers only.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) uniform sampler2D current_frame;
layout(set = 0, binding = 1, std430) readonly buffer Prediction { uint prediction[]; };
layout(set = 0, binding = 2, std430) readonly buffer Restored { uint restored[]; };
layout(set = 0, binding = 3, std430) buffer Figures { uint figures[]; };

#include "compensation_common.glsl"

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const ivec2 tile = ivec2(gl_WorkGroupID.xy);
    const int word = (tile.y * params.tiles_x + tile.x) * 32 + int(lane);
    const ivec2 at = 8 * tile + ivec2(2 * (int(lane) % 4), int(lane) / 4);
    clear_group_sums(lane);
    barrier();
    const uint pair = restored[word];
    const int residual[2] = int[2](low_int16(pair), high_int16(pair));
    uint squared = 0u;
    for (int k = 0; k < 2; ++k) {
        const ivec2 pixel = at + ivec2(k, 0);
        if (!inside_frame(pixel)) continue;
        const uint samples = prediction[pixel.y * params.prediction_pitch + pixel.x / 4];
        const int predicted = int((samples >> (8 * (pixel.x & 3))) & 0xFFu);
        const int difference =
            clamp(predicted + residual[k], 0, 255) - int(pel(current_frame, pixel, params.frame_size));
        squared += uint(difference * difference);
    }
    add_group_sums(lane, ivec3(RECONSTRUCTION_SSE, NO_FIGURE, NO_FIGURE), uvec3(squared, 0u, 0u));
}
