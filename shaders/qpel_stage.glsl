// SPEC §10 in rate_search.comp: the quarter-pel refinement of one block by its workgroup. The reference
// samples around the integer vector are staged once per block as H.264's planes (h264_planes.glsl:
// every sample the 18 candidates read); the candidates' SATD then reads only shared memory, one
// invocation per (candidate, 4x4 tile), summed with shared atomics. Integers throughout: bit-exact with
// engine/src/reference/h264_sample.cpp and satd.cpp by construction. Needs: BLOCK, params,
// reference_frame, current_block, GROUP, candidate_key, key_less4, halfpel_valid.

#include "h264_planes.glsl"
#include "satd4.glsl"

shared uint stage_satd[9];

// One stage: `centre` and its 8 neighbours centre + step (sx, sy) in raster order, quarter units;
// the centre always, the others when valid. Returns the smallest key (§8, J = SATD + lambda R).
// `rel` is the planes' origin in quarter units relative to the block: 4 * (integer vector - 1).
uvec4 qpel_stage(uint lane, ivec2 origin, ivec2 centre, int step, ivec2 rel, ivec2 p) {
    barrier();  // earlier readers of stage_satd are done
    if (lane < 9u) stage_satd[lane] = 0u;
    barrier();
    const int tiles_across = BLOCK / 4;
    const int tiles = tiles_across * tiles_across;
    for (int item = int(lane); item < 9 * tiles; item += GROUP) {
        const int k = item / tiles;
        const int tile = item % tiles;
        const ivec2 q = centre + step * ivec2(k % 3 - 1, k / 3 - 1);
        if (k != 4 && params.restrict_border != 0 && !halfpel_valid(origin, q, params.padded_size, BLOCK))
            continue;
        const ivec2 corner = 4 * ivec2(tile % tiles_across, tile / tiles_across);
        int d[16];
        for (int y = 0; y < 4; ++y) {
            for (int x = 0; x < 4; ++x) {
                const ivec2 pixel = corner + ivec2(x, y);
                const int predicted = h264_sample(4 * pixel + q - rel);
                d[y * 4 + x] = int(current_block[pixel.y * BLOCK + pixel.x]) - predicted;
            }
        }
        atomicAdd(stage_satd[k], satd4(d));
    }
    barrier();
    uvec4 best = uvec4(0xFFFFFFFFu);
    for (int k = 0; k < 9; ++k) {
        const ivec2 q = centre + step * ivec2(k % 3 - 1, k / 3 - 1);
        if (k != 4 && params.restrict_border != 0 && !halfpel_valid(origin, q, params.padded_size, BLOCK))
            continue;
        const uvec4 key = candidate_key(stage_satd[k], uint(params.lambda), q, p);
        if (key_less4(key, best)) best = key;
    }
    return best;
}

// SPEC §10 from the integer winner `start` (quarter units, a multiple of 4).
uvec4 refine_qpel(uint lane, ivec2 origin, ivec2 start, ivec2 p) {
    barrier();  // earlier readers of the planes are done
    stage_planes(lane, origin + (start >> 2) - 1);
    const ivec2 rel = start - 4;
    const uvec4 half_best = qpel_stage(lane, origin, start, 2, rel, p);
    return qpel_stage(lane, origin, key_vector(half_best), 1, rel, p);
}
