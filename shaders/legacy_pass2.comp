// "legacy" variant, pass 2 (SPEC §5): one PE per block reduces the block's P local minima to the
// integer vector, then, for fs+hpel, samples the reference through a linear-filtering, clamp-to-edge
// sampler at the 8 half-pel neighbours and keeps the best (SPEC §4 key). At a half position the
// filter returns (a+b)/2 or (a+b+c+d)/4 over 255; times 1020 and rounded that is 4 * the bilinear
// average, exactly where the filter keeps the precision (see filter_probe.comp).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 0) const int BLOCK = 16;

layout(set = 0, binding = 0) uniform sampler2D reference_linear;
layout(set = 0, binding = 1) uniform sampler2D current_nearest;
layout(set = 0, binding = 2, rg32ui) uniform readonly uimage2D local_minima;
layout(set = 0, binding = 3, std430) writeonly buffer Results { uvec2 results[]; };

layout(push_constant) uniform LegacyPass2Params {
    ivec2 padded_size;
    ivec2 blocks;
    int restrict_border;
    int refine;
    int pe_count;
    int pe_width;
} params;

void main() {
    const ivec2 block = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(block, params.blocks))) return;
    const int block_index = block.y * params.blocks.x + block.x;
    const ivec2 block_origin = block * BLOCK;
    const int pe_height = (params.pe_count + params.pe_width - 1) / params.pe_width;

    uvec2 best = KEY_NONE;
    for (int pe = 0; pe < params.pe_count; ++pe) {
        const ivec2 pe_texel = block * ivec2(params.pe_width, pe_height) + ivec2(pe % params.pe_width, pe / params.pe_width);
        best = key_min(best, imageLoad(local_minima, pe_texel).xy);
    }
    const ivec2 centre_half = ivec2(key_half_x(best), key_half_y(best));
    if (params.refine == 0) {
        results[block_index] = block_result(2 * centre_half.x, 2 * centre_half.y, key_cost(best));
        return;
    }

    uvec2 refined = pack_key(4 * key_cost(best), centre_half.x, centre_half.y);
    for (int n = 0; n < 9; ++n) {
        const ivec2 half_vector = centre_half + ivec2(n % 3 - 1, n / 3 - 1);
        if (n == 4 || (params.restrict_border != 0 &&
                       !halfpel_valid(block_origin, 2 * half_vector, params.padded_size, BLOCK))) {
            continue;
        }
        // Pixel (x, y) is predicted from (x, y) + half_vector / 2; texel centres sit at + 0.5.
        const vec2 offset = vec2(half_vector) * 0.5 + 0.5;
        uint cost4 = 0;
        for (int y = 0; y < BLOCK; ++y) {
            for (int x = 0; x < BLOCK; ++x) {
                const vec2 p = vec2(block_origin + ivec2(x, y));
                const float current4 = 4.0 * round(textureLod(current_nearest, p + 0.5, 0.0).r * 255.0);
                const float interpolated4 = round(textureLod(reference_linear, p + offset, 0.0).r * 1020.0);
                cost4 += uint(abs(current4 - interpolated4));
            }
        }
        refined = key_min(refined, pack_key(cost4, half_vector.x, half_vector.y));
    }
    results[block_index] = block_result(2 * key_half_x(refined), 2 * key_half_y(refined), key_cost(refined));
}
