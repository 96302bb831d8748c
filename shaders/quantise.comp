// SPEC §13's quantiser on the forward DCT's tiles (dct.comp, in place): q * S into the dequantised
// tiles, which the inverse DCT then transforms in place, and the figures of the coefficients inside
// W x H (their energy, those that quantise to zero). Coefficients outside W x H are cropped: written
// zero, so that the inverse reads zeros there as the reference's inverse of a W x H plane does.
// One workgroup per tile, two coefficients (one word) per invocation; integers only.
#version 450
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std430) readonly buffer Coefficients { uint coefficients[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dequantised { uint dequantised[]; };
layout(set = 0, binding = 2, std430) buffer Figures { uint figures[]; };

#include "compensation_common.glsl"

// q * S with q = sign(F) floor((2|F| + S) / (2S)): xme::reference::quantise_dequantise.
int quantise_dequantise(int coefficient, int step) {
    const int magnitude = (2 * abs(coefficient) + step) / (2 * step) * step;
    return coefficient < 0 ? -magnitude : magnitude;
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const ivec2 tile = ivec2(gl_WorkGroupID.xy);
    const int word = (tile.y * params.tiles_x + tile.x) * 32 + int(lane);
    const ivec2 at = 8 * tile + ivec2(2 * (int(lane) % 4), int(lane) / 4);
    clear_group_sums(lane);
    barrier();
    const uint pair = coefficients[word];
    const int coefficient[2] = int[2](low_int16(pair), high_int16(pair));
    int restored[2] = int[2](0, 0);
    uint energy = 0u;
    uint zeros = 0u;
    for (int k = 0; k < 2; ++k) {
        if (!inside_frame(at + ivec2(k, 0))) continue;
        energy += uint(coefficient[k] * coefficient[k]);
        restored[k] = quantise_dequantise(coefficient[k], params.quantiser_step);
        zeros += restored[k] == 0 ? 1u : 0u;
    }
    dequantised[word] = pack_int16(restored[0], restored[1]);
    add_group_sums(lane, ivec3(COEFFICIENT_ENERGY, ZERO_COEFFICIENTS, NO_FIGURE), uvec3(energy, zeros, 0u));
}
