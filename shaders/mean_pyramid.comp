// SPEC §11's mean pyramid for ehds, once per uploaded frame: level 1 holds the 2x2 means
// (a + b + c + d + 2) >> 2 of the frame, level 2 those of level 1, each with edge replication at odd
// sizes (engine/src/reference/mean_downsample.cpp). One invocation per level-2 sample computes the
// 2x2 level-1 samples under it (writing those inside level 1, so each is written once) and their mean,
// so both levels take one dispatch.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D frame;
// pyramid_level_offset's layout (search_common.glsl)
layout(set = 0, binding = 1, std430) writeonly buffer Pyramid { uint pyramid[]; };

layout(push_constant) uniform MeanPyramidParams {
    ivec2 frame_size;
} params;

uint level1_sample(ivec2 at) {
    uint sum = 2u;
    for (int j = 0; j < 2; ++j) {
        for (int i = 0; i < 2; ++i) sum += uint(pel(frame, 2 * at + ivec2(i, j), params.frame_size));
    }
    return sum >> 2;
}

void main() {
    const ivec2 size1 = pyramid_level_size(params.frame_size, 1);
    const ivec2 size2 = pyramid_level_size(params.frame_size, 2);
    const ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(at, size2))) return;
    uint sum = 2u;
    for (int j = 0; j < 2; ++j) {
        for (int i = 0; i < 2; ++i) {
            const ivec2 below = 2 * at + ivec2(i, j);
            const ivec2 inside = min(below, size1 - 1);  // edge replication of level 1
            const uint mean = level1_sample(inside);
            sum += mean;
            if (below == inside) pyramid[below.y * size1.x + below.x] = mean;  // level 1 comes first
        }
    }
    pyramid[pyramid_level_offset(params.frame_size, 2) + at.y * size2.x + at.x] = sum >> 2;
}
