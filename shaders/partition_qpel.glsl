// SPEC §9's sub-pel stage in partition_search.comp: each of a macroblock's 41 partitions refined by §10
// from its own integer vector, with its own SATD, all 41 at once. Every partition's reference area
// ((w + 2) x (h + 2) integer positions around its vector, PLANE_WORDS in all) is staged as H.264's planes
// (h264_planes.glsl); each stage then costs its 9 candidates per partition as one list of (4x4 tile,
// candidate) items over the workgroup, summed with shared atomics, and 41 invocations pick the winners.
// `restrict` tests the macroblock displaced, as the reference does. Integers throughout: bit-exact with
// engine/src/reference/refine_qpel.cpp by construction. Needs: BLOCK (16), GROUP, PARTITIONS, params,
// reference_frame, current_block, integer_vector, final_vector, final_cost, rate_key.glsl.

#include "h264_planes.glsl"
#include "satd4.glsl"

// The partitions come in 7 shapes of 16 tiles in all (16x16, 16x8, 8x16, 8x8, 8x4, 4x8, 4x4): a shape's
// first partition, log2 of its tiles per partition, and where its partitions' areas start in planes.
const int SHAPE_FIRST[7] = int[7](0, 1, 3, 5, 9, 17, 25);
const int SHAPE_TILES_LOG2[7] = int[7](4, 3, 3, 2, 1, 1, 0);
const int SHAPE_WORDS_FIRST[8] = int[8](0, 324, 684, 1044, 1444, 1924, 2404, 2980);
const int SHAPE_TILES = 7 * 16;

shared uint stage_satd[PARTITIONS * 9];

int shape_of(int i) {
    return i == 0 ? 0 : i <= 2 ? 1 : i <= 4 ? 2 : i <= 8 ? 3 : i <= 16 ? 4 : i <= 24 ? 5 : 6;
}

// Partition i's (x, y, width, height) in its macroblock (xme/macroblock.hpp's table).
ivec4 partition_rect(int i) {
    if (i == 0) return ivec4(0, 0, 16, 16);
    if (i <= 2) return ivec4(0, 8 * (i - 1), 16, 8);
    if (i <= 4) return ivec4(8 * (i - 3), 0, 8, 16);
    if (i <= 8) return ivec4(8 * ((i - 5) & 1), 8 * ((i - 5) >> 1), 8, 8);
    if (i <= 16) {  // each quadrant's top then bottom half
        const int q = (i - 9) >> 1;
        return ivec4(8 * (q & 1), 8 * (q >> 1) + 4 * ((i - 9) & 1), 8, 4);
    }
    if (i <= 24) {  // each quadrant's left then right half
        const int q = (i - 17) >> 1;
        return ivec4(8 * (q & 1) + 4 * ((i - 17) & 1), 8 * (q >> 1), 4, 8);
    }
    const int q = (i - 25) >> 2;  // each quadrant's four in raster order
    const int k = (i - 25) & 3;
    return ivec4(8 * (q & 1) + 4 * (k & 1), 8 * (q >> 1) + 4 * (k >> 1), 4, 4);
}

// Partition i's first word in planes; its rows are width + 2 words.
int plane_first(int i, ivec4 rect) {
    const int shape = shape_of(i);
    return SHAPE_WORDS_FIRST[shape] + (i - SHAPE_FIRST[shape]) * (rect.z + 2) * (rect.w + 2);
}

// Candidate k (raster order of the 3x3) of a stage around `centre`, and whether it is costed: the centre
// always (the last stage's winner), the others when valid (§10).
ivec2 stage_candidate(ivec2 centre, int step, int k) { return centre + step * ivec2(k % 3 - 1, k / 3 - 1); }
bool stage_costs(ivec2 origin, ivec2 candidate, int k) {
    return k == 4 || params.restrict_border == 0 ||
           halfpel_valid(origin, candidate, params.padded_size, BLOCK);
}

// One stage of every partition around its final_vector; leaves the winners in final_vector, final_cost.
void partition_stage(uint lane, ivec2 origin, int step, ivec2 p) {
    barrier();  // final_vector is written, earlier readers of stage_satd are done
    for (int s = int(lane); s < PARTITIONS * 9; s += GROUP) stage_satd[s] = 0u;
    barrier();
    for (int item = int(lane); item < SHAPE_TILES * 9; item += GROUP) {
        const int k = item % 9;
        const int t = item / 9;
        const int shape = t >> 4;
        const int i = SHAPE_FIRST[shape] + ((t & 15) >> SHAPE_TILES_LOG2[shape]);
        const int tile = t & ((1 << SHAPE_TILES_LOG2[shape]) - 1);
        const ivec2 candidate = stage_candidate(unpack_vector(final_vector[i]), step, k);
        if (!stage_costs(origin, candidate, k)) continue;
        const ivec4 rect = partition_rect(i);
        const int first = plane_first(i, rect);
        const ivec2 corner = 4 * ivec2(tile % (rect.z / 4), tile / (rect.z / 4));
        // The area starts one integer position before the integer vector: 4 (pixel + 1) + candidate - v.
        const ivec2 shift = candidate - unpack_vector(integer_vector[i]) + 4;
        int d[16];
        for (int y = 0; y < 4; ++y) {
            for (int x = 0; x < 4; ++x) {
                const ivec2 pixel = corner + ivec2(x, y);
                const ivec2 at = rect.xy + pixel;
                d[y * 4 + x] =
                    current_block[at.y * BLOCK + at.x] - h264_sample_in(first, rect.z + 2, 4 * pixel + shift);
            }
        }
        atomicAdd(stage_satd[i * 9 + k], satd4(d));
    }
    barrier();
    ivec2 winner = ivec2(0);
    uvec4 best_key = uvec4(0xFFFFFFFFu);
    if (lane < uint(PARTITIONS)) {
        const int i = int(lane);
        const ivec2 centre = unpack_vector(final_vector[i]);
        for (int k = 0; k < 9; ++k) {
            const ivec2 candidate = stage_candidate(centre, step, k);
            if (!stage_costs(origin, candidate, k)) continue;
            const uvec4 key = candidate_key(stage_satd[i * 9 + k], uint(params.lambda), candidate, p);
            if (key_less4(key, best_key)) {
                best_key = key;
                winner = candidate;
            }
        }
    }
    barrier();  // every invocation has read final_vector
    if (lane < uint(PARTITIONS)) {
        final_vector[lane] = block_result(winner.x, winner.y, 0u).x;
        final_cost[lane] = best_key.x;
    }
}

// SPEC §10 for every partition from integer_vector (= final_vector on entry), predictor p.
void refine_partitions(uint lane, ivec2 origin, ivec2 p) {
    barrier();  // integer_vector is written; the integer search is done with planes
    for (int word = int(lane); word < PLANE_WORDS; word += GROUP) {
        int shape = 0;
        while (word >= SHAPE_WORDS_FIRST[shape + 1]) ++shape;
        const ivec4 first_rect = partition_rect(SHAPE_FIRST[shape]);
        const int stride = first_rect.z + 2;
        const int area = stride * (first_rect.w + 2);
        const int n = (word - SHAPE_WORDS_FIRST[shape]) / area;
        const int at = word - SHAPE_WORDS_FIRST[shape] - n * area;
        const int i = SHAPE_FIRST[shape] + n;
        const ivec2 start = origin + partition_rect(i).xy + (unpack_vector(integer_vector[i]) >> 2) - 1;
        planes[word] = plane_word(start + ivec2(at % stride, at / stride));
    }
    partition_stage(lane, origin, 2, p);
    partition_stage(lane, origin, 1, p);
}
