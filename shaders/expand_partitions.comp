// SPEC §9 before §12 (device_compensation.cpp): each 4x4 tile of W x H gets the packed vector of the
// chosen mode's partition that covers it, from partition_search.comp's records, as a block-4 grid of
// results (block_result()'s layout) that predict_residual.comp with BLOCK 4 reads as any search's:
// each sample's prediction depends on its own vector only (SPEC §12).
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Records { uint records[]; };
layout(set = 0, binding = 1, std430) writeonly buffer TileResults { uvec2 tile_results[]; };
// compensation_common.glsl's block (this pass has no Figures buffer to include it with); blocks_x is
// the tiles across, ceil(W / 4).
layout(push_constant) uniform CompensationParams {
    ivec2 frame_size;
    int blocks_x;
    int tiles_x;
    int prediction_pitch;
    int quantiser_step;
} params;

const int RECORD_WORDS = 128;       // partition_search.comp's: 41 x (vector, J, candidates), then modes
const int MODES_WORD = 3 * 41;

// The partition of the chosen mode (mode in bits 0-1, quadrant q's sub-mode in bits 8 + 2q) covering
// 4x4 tile (qx, qy) of its macroblock, in SPEC §9's order (xme/macroblock.hpp's table).
int covering_partition(uint modes, int qx, int qy) {
    const uint mode = modes & 3u;
    if (mode == 0u) return 0;
    if (mode == 1u) return 1 + (qy >> 1);
    if (mode == 2u) return 3 + (qx >> 1);
    const int q = (qy >> 1) * 2 + (qx >> 1);
    const uint sub_mode = (modes >> (8 + 2 * q)) & 3u;
    if (sub_mode == 0u) return 5 + q;
    if (sub_mode == 1u) return 9 + 2 * q + (qy & 1);
    if (sub_mode == 2u) return 17 + 2 * q + (qx & 1);
    return 25 + 4 * q + 2 * (qy & 1) + (qx & 1);
}

void main() {
    const ivec2 tile = ivec2(gl_GlobalInvocationID.xy);
    if (tile.x >= params.blocks_x) return;
    const int macroblocks_x = (params.frame_size.x + 15) / 16;
    const int record = ((tile.y >> 2) * macroblocks_x + (tile.x >> 2)) * RECORD_WORDS;
    const int chosen = covering_partition(records[record + MODES_WORD], tile.x & 3, tile.y & 3);
    tile_results[tile.y * params.blocks_x + tile.x] = uvec2(records[record + 3 * chosen], 0u);
}
