// "legacy" variant, pass 1 (SPEC §5, Lin et al. 2006): P processing elements (PEs) per block, laid
// out as a PE_WIDTH-wide rectangle per block in the local-minima image. PE k tests candidates k,
// k + P, k + 2P, ... of the block's (2R+1)^2 in raster order, reading both frames through a
// nearest-filtering, clamp-to-edge sampler (the texture unit does SPEC §1's edge replication), and
// writes its local minimum as a search key.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "search_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 0) const int BLOCK = 16;

layout(set = 0, binding = 0) uniform sampler2D reference_nearest;
layout(set = 0, binding = 1) uniform sampler2D current_nearest;
layout(set = 0, binding = 2, rg32ui) uniform writeonly uimage2D local_minima;

layout(push_constant) uniform LegacyPass1Params {
    ivec2 padded_size;
    ivec2 blocks;
    int range;
    int restrict_border;
    int pe_count;  // P
    int pe_width;  // the PEs of a block form pe_width x pe_height texels of local_minima
    int pe_height;
} params;

// The sample at integer position p: texel p's centre is p + 0.5 (unnormalized coordinates).
float texel(sampler2D frame, ivec2 p) { return round(textureLod(frame, vec2(p) + 0.5, 0.0).r * 255.0); }

void main() {
    const ivec2 pe_texel = ivec2(gl_GlobalInvocationID.xy);
    const ivec2 pe_shape = ivec2(params.pe_width, params.pe_height);
    const ivec2 block = pe_texel / pe_shape;
    if (any(greaterThanEqual(block, params.blocks))) return;
    const ivec2 within = pe_texel - block * pe_shape;
    const int pe = within.y * params.pe_width + within.x;
    const ivec2 block_origin = block * BLOCK;
    const int side = 2 * params.range + 1;

    uvec2 best = KEY_NONE;
    for (int candidate = pe; pe < params.pe_count && candidate < side * side; candidate += params.pe_count) {
        const ivec2 d = ivec2(candidate % side, candidate / side) - params.range;
        if (params.restrict_border != 0 && d != ivec2(0) &&
            !inside_padded_frame(block_origin + d, params.padded_size, BLOCK)) {
            continue;
        }
        float sad = 0.0;
        for (int y = 0; y < BLOCK; ++y) {
            for (int x = 0; x < BLOCK; ++x) {
                const ivec2 p = block_origin + ivec2(x, y);
                sad += abs(texel(current_nearest, p) - texel(reference_nearest, p + d));
            }
        }
        best = key_min(best, pack_key(uint(sad), 2 * d.x, 2 * d.y));
    }
    imageStore(local_minima, pe_texel, uvec4(best, 0, 0));
}
