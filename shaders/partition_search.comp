// SPEC §9 on the fast variant: the 41 partitions of each 16x16 macroblock, one workgroup per macroblock.
// The window (one centre, one validity box for the macroblock) is walked in passes of up to 64 strips of
// STRIP candidates (whole rows of a band of at most BAND columns, so that few lanes idle whatever the
// range): the pass's reference pixels are staged in shared memory once, then each invocation costs its
// strip's sixteen 4x4 SADs per candidate and folds them into 41 running keys. A key is J << rank_bits | rank,
// with rank the candidate's place in SPEC §8's tie order, from the session's tables (xme/partition_keys.hpp,
// shared with CUDA): a plain 32-bit min is §8's key order, so the workgroup reduces with 41 shared atomicMin
// whatever order the candidates came in. Then partition_qpel.glsl refines each partition by §10 (QPEL), and
// lane 0 takes §9's mode decision on the final J. The spatial predictor runs it once per wavefront step
// (macroblocks with bx + 2 by = step, as rate_search.comp), each step reading the earlier ones' results.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "search_common.glsl"
#include "rate_key.glsl"

layout(local_size_x = 64) in;
// 1: each partition refined by SPEC §10 from its own integer vector (fs+p41+qpel).
layout(constant_id = 0) const int QPEL = 0;

layout(set = 0, binding = 0) uniform sampler2D reference_frame;
layout(set = 0, binding = 1) uniform sampler2D current_frame;
// Each macroblock's 16x16 partition as block_result(), and the candidates of its window: the session
// reads them as any search's results, the temporal predictor of the next pair and the spatial one of
// the next wavefront steps read Results.
layout(set = 0, binding = 2, std430) buffer Results { uvec2 results[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Candidates { uint candidates[]; };
layout(set = 0, binding = 4, std430) readonly buffer Previous { uvec2 previous[]; };  // the temporal p
// partition_keys.hpp's tables: [fraction][offset] (rate << rank_bits | rank), [fraction][rank] offset.
layout(set = 0, binding = 5, std430) readonly buffer Terms { uint terms[]; };
layout(set = 0, binding = 6, std430) readonly buffer Offsets { uint offsets[]; };
// RECORD_WORDS per macroblock: 41 x (packed vector, J, candidates), modes, the decision's J, zeros.
layout(set = 0, binding = 7, std430) writeonly buffer Records { uint records[]; };

layout(push_constant) uniform PartitionSearchParams {
    ivec2 frame_size;
    ivec2 padded_size;
    int blocks_x;
    int range;
    int restrict_border;
    int lambda;
    int predictor;  // 1: temporal (p from Previous), 2: spatial, 0: none or a segment's first pair
    int centred;    // the window centred on round(p / 4)
    int rank_bits;
    int radius;  // the tables' offsets o lie in [-radius, radius]^2
    int side;    // 2 radius + 1
    int step;       // spatial: the wavefront step this dispatch computes
    int first_row;  // spatial: the macroblock row of workgroup 0
} params;

const int BLOCK = 16;  // h264_planes.glsl's block: the macroblock
const int GROUP = 64;
const int PARTITIONS = 41;
const int RECORD_WORDS = 128;
// Candidates per invocation and pass, side by side (1..8: SessionTuning::partition_strip).
layout(constant_id = 1) const int STRIP = 8;
// Candidate columns per band: a pass stages at most (GROUP / s + 15) x (STRIP s + 15) words for s strips a
// row, 1817 at most (STRIP 8, s = 1 or 8).
const int BAND = GROUP;

shared int current_block[BLOCK * BLOCK];
shared uint best_keys[PARTITIONS];
shared uint integer_vector[PARTITIONS];  // block_result()'s packing
shared uint final_vector[PARTITIONS];
shared uint final_cost[PARTITIONS];

// h264_planes.glsl's planes hold every partition's area (partition_qpel.glsl); the integer search
// stages each pass's reference pixels in the same array.
#define PLANE_WORDS 2980
#include "partition_qpel.glsl"
#include "spatial_predictor.glsl"

uint best[PARTITIONS];  // this invocation's least keys

// A candidate's sixteen 4x4 SADs g (row-major) into the 41 partitions' keys, SPEC §9's order (quadrant
// q's cells a b / c d); term = its rate and rank.
void update_bests(uint g[16], uint scale, uint term) {
    uint eight[4];
    [[unroll]] for (int q = 0; q < 4; ++q) {
        const int first = (q >> 1) * 8 + (q & 1) * 2;
        const uint a = g[first], b = g[first + 1], c = g[first + 4], d = g[first + 5];
        const uint top = a + b, bottom = c + d;
        eight[q] = top + bottom;
        best[5 + q] = min(best[5 + q], eight[q] * scale + term);
        best[9 + 2 * q] = min(best[9 + 2 * q], top * scale + term);
        best[10 + 2 * q] = min(best[10 + 2 * q], bottom * scale + term);
        best[17 + 2 * q] = min(best[17 + 2 * q], (a + c) * scale + term);
        best[18 + 2 * q] = min(best[18 + 2 * q], (b + d) * scale + term);
        best[25 + 4 * q] = min(best[25 + 4 * q], a * scale + term);
        best[26 + 4 * q] = min(best[26 + 4 * q], b * scale + term);
        best[27 + 4 * q] = min(best[27 + 4 * q], c * scale + term);
        best[28 + 4 * q] = min(best[28 + 4 * q], d * scale + term);
    }
    const uint upper = eight[0] + eight[1], lower = eight[2] + eight[3];
    best[1] = min(best[1], upper * scale + term);
    best[2] = min(best[2], lower * scale + term);
    best[3] = min(best[3], (eight[0] + eight[2]) * scale + term);
    best[4] = min(best[4], (eight[1] + eight[3]) * scale + term);
    best[0] = min(best[0], (upper + lower) * scale + term);
}

// round(v / 4), halves away from zero (SPEC §8's centre).
int round_quarter(int v) { return v >= 0 ? (v + 2) >> 2 : -((2 - v) >> 2); }

// SPEC §9's mode decision on the final J: strictly smaller wins, so the earlier (sub-)mode takes a tie.
// J < 2^23 (a 16x16 SATD + 65535 x 62 bits), so the sums of up to 16 fit 32 bits.
void decide_mode(int index) {
    uint eight_by_eight = 0u;
    uint modes = 0u;
    for (int q = 0; q < 4; ++q) {
        const uint sub[3] = uint[3](final_cost[9 + 2 * q] + final_cost[10 + 2 * q],
                                    final_cost[17 + 2 * q] + final_cost[18 + 2 * q],
                                    final_cost[25 + 4 * q] + final_cost[26 + 4 * q] + final_cost[27 + 4 * q] +
                                        final_cost[28 + 4 * q]);
        uint cheapest = 0u;
        uint cheapest_cost = final_cost[5 + q];
        for (uint m = 1u; m < 4u; ++m) {
            if (sub[m - 1u] < cheapest_cost) {
                cheapest = m;
                cheapest_cost = sub[m - 1u];
            }
        }
        modes |= cheapest << (8 + 2 * q);
        eight_by_eight += cheapest_cost;
    }
    const uint later[3] =
        uint[3](final_cost[1] + final_cost[2], final_cost[3] + final_cost[4], eight_by_eight);
    uint mode = 0u;
    uint mode_cost = final_cost[0];
    for (uint m = 1u; m < 4u; ++m) {
        if (later[m - 1u] < mode_cost) {
            mode = m;
            mode_cost = later[m - 1u];
        }
    }
    const int at = index * RECORD_WORDS + 3 * PARTITIONS;
    records[at] = modes | mode;
    records[at + 1] = mode_cost;
    for (int i = at + 2; i < (index + 1) * RECORD_WORDS; ++i) records[i] = 0u;
}

// What a candidate's key needs besides its SADs: the predictor's table and floor(p / 4), and for an
// empty window the zero vector's term.
struct KeyTerms {
    int table;
    ivec2 q;
    uint scale;  // 1 << rank_bits
    bool empty;
    uint zero_term;
};

// The STRIP candidates first + (s, 0), s < STRIP, up to column `last` of the window, whose reference
// pixels start at word `corner` of the staged tile: each sample loaded serves all of them.
void cost_strip(ivec2 first, int corner, int stride, int last, KeyTerms window) {
    uint g[STRIP][16];
    [[unroll]] for (int s = 0; s < STRIP; ++s) {
        [[unroll]] for (int cell = 0; cell < 16; ++cell) g[s][cell] = 0u;
    }
    // Unrolled, so that every index of g is a constant (registers, not scratch memory).
    [[unroll]] for (int j = 0; j < BLOCK; ++j) {
        int current_row[BLOCK];
        [[unroll]] for (int i = 0; i < BLOCK; ++i) current_row[i] = current_block[j * BLOCK + i];
        [[unroll]] for (int x = 0; x < BLOCK + STRIP - 1; ++x) {
            const int reference = int(planes[corner + j * stride + x]);
            [[unroll]] for (int s = 0; s < STRIP; ++s) {
                const int i = x - s;
                if (i >= 0 && i < BLOCK)
                    g[s][(j >> 2) * 4 + (i >> 2)] += uint(abs(current_row[i] - reference));
            }
        }
    }
    [[unroll]] for (int s = 0; s < STRIP; ++s) {
        const ivec2 d = first + ivec2(s, 0);
        if (d.x > last) continue;
        const ivec2 o = d - window.q + params.radius;
        const uint term = window.empty ? window.zero_term : terms[window.table + o.y * params.side + o.x];
        update_bests(g[s], window.scale, term);
    }
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    ivec2 macroblock = ivec2(gl_WorkGroupID.xy);
    if (params.predictor == 2) {
        macroblock.y = params.first_row + int(gl_WorkGroupID.x);
        macroblock.x = params.step - 2 * macroblock.y;
    }
    const int index = macroblock.y * params.blocks_x + macroblock.x;
    const ivec2 origin = BLOCK * macroblock;
    for (int i = int(lane); i < BLOCK * BLOCK; i += GROUP)
        current_block[i] = int(pel(current_frame, origin + ivec2(i % BLOCK, i / BLOCK), params.frame_size));
    if (lane < PARTITIONS) best_keys[lane] = 0xFFFFFFFFu;

    // The predictor picks the table of its fraction; candidate d's entry is at offset d - floor(p / 4).
    const ivec2 p = params.predictor == 2   ? spatial_predictor(macroblock)
                    : params.predictor == 1 ? unpack_vector(previous[index].x)
                                            : ivec2(0);
    const ivec2 q = p >> 2;
    const int table = ((p.y & 3) * 4 + (p.x & 3)) * params.side * params.side;
    const ivec2 centre = params.centred != 0 ? ivec2(round_quarter(p.x), round_quarter(p.y)) : ivec2(0);
    ivec2 low = centre - params.range;
    ivec2 high = centre + params.range;
    if (params.restrict_border != 0) {
        low = max(low, -origin);
        high = min(high, params.padded_size - BLOCK - origin);
    }
    // SPEC §8: a centred window with no valid candidate (restrict) takes the zero vector, evaluated alone
    // with rank 0.
    const bool empty = any(greaterThan(low, high));
    uint zero_term = 0u;
    if (empty) {
        low = ivec2(0);
        high = ivec2(0);
        zero_term = (uint(params.lambda) * (se_bits(-p.x) + se_bits(-p.y))) << params.rank_bits;
    }
    const uint scale = 1u << params.rank_bits;
    const KeyTerms window = KeyTerms(table, q, scale, empty, zero_term);
    [[unroll]] for (int i = 0; i < PARTITIONS; ++i) best[i] = 0xFFFFFFFFu;
    const ivec2 extent = high - low + 1;
    for (int band = low.x; band <= high.x; band += BAND) {
        const int last = min(band + BAND - 1, high.x);
        const int strips = (last - band + STRIP) / STRIP;  // a row's strips in this band
        const int rows = GROUP / strips;                   // rows per pass, 4 or more
        const int stride = strips * STRIP + BLOCK - 1;     // staged words per row
        const int strip = int(lane) % strips;
        const int row = int(lane) / strips;
        for (int top = low.y; top <= high.y; top += rows) {
            const int pass_rows = min(rows, high.y - top + 1);
            barrier();  // current_block is written; the last pass's readers are done
            for (int k = int(lane); k < stride * (pass_rows + BLOCK - 1); k += GROUP) {
                const ivec2 at = origin + ivec2(band + k % stride, top + k / stride);
                planes[k] = uint(pel(reference_frame, at, params.frame_size));
            }
            barrier();
            if (row < pass_rows)
                cost_strip(ivec2(band + STRIP * strip, top + row), row * stride + STRIP * strip, stride, last,
                           window);
        }
    }
    [[unroll]] for (int i = 0; i < PARTITIONS; ++i) atomicMin(best_keys[i], best[i]);
    barrier();
    if (lane < PARTITIONS) {
        const uint key = best_keys[lane];
        ivec2 d = ivec2(0);
        if (!empty) {
            const uint offset = offsets[table + int(key & (scale - 1u))];
            d = ivec2(int(offset & 0xFFFFu), int(offset >> 16)) - params.radius + q;
        }
        integer_vector[lane] = block_result(4 * d.x, 4 * d.y, 0u).x;
        final_vector[lane] = integer_vector[lane];
        final_cost[lane] = key >> params.rank_bits;
    }
    if (QPEL != 0) refine_partitions(lane, origin, p);
    barrier();
    const uint count = uint(extent.x * extent.y);  // 1: the empty window's zero vector
    if (lane < PARTITIONS) {
        const int at = index * RECORD_WORDS + 3 * int(lane);
        records[at] = final_vector[lane];
        records[at + 1] = final_cost[lane];
        records[at + 2] = count;
    }
    if (lane == 0u) {
        decide_mode(index);
        results[index] = uvec2(final_vector[0], final_cost[0]);
        candidates[index] = count;
    }
}
