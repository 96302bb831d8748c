// Measures how far a linear-filtering sampler's half-pel samples of an R8_UNORM image are from the
// exact bilinear average, as legacy_pass2.comp recovers them (round(value * 1020) = 4 * average):
// the largest error, in cost4 units per pixel, over every horizontal, vertical and diagonal half
// position of the probe image. 0 means the legacy variant's half-pel refinement is bit-exact.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D probe_linear;
layout(set = 0, binding = 1) uniform sampler2D probe_nearest;
layout(set = 0, binding = 2, std430) buffer ProbeResult { uint max_error; };

void main() {
    const ivec2 size = textureSize(probe_nearest, 0);
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size - 1))) return;
    const float a = pel(probe_nearest, p, size);
    const float b = pel(probe_nearest, p + ivec2(1, 0), size);
    const float c = pel(probe_nearest, p + ivec2(0, 1), size);
    const float d = pel(probe_nearest, p + ivec2(1, 1), size);
    const vec2 corner = vec2(p) + 0.5;
    const float across = round(textureLod(probe_linear, corner + vec2(0.5, 0.0), 0.0).r * 1020.0);
    const float down = round(textureLod(probe_linear, corner + vec2(0.0, 0.5), 0.0).r * 1020.0);
    const float diagonal = round(textureLod(probe_linear, corner + vec2(0.5, 0.5), 0.0).r * 1020.0);
    const float error = max(max(abs(across - 2.0 * (a + b)), abs(down - 2.0 * (a + c))), abs(diagonal - (a + b + c + d)));
    atomicMax(max_error, uint(error));
}
