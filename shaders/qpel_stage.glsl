// SPEC §10 in rate_search.comp: the quarter-pel refinement of one block by its workgroup. The reference
// samples around the integer vector are staged once per block as H.264's planes (G, b, h, j packed in
// one word per integer position, (B + 2)^2 positions: every sample the 18 candidates read); the
// candidates' SATD then reads only shared memory, one invocation per (candidate, 4x4 tile), summed
// with shared atomics. Integers throughout: bit-exact with engine/src/reference/h264_sample.cpp and
// satd.cpp by construction. Needs: BLOCK, params, reference_frame, current_block, GROUP, candidate_key,
// key_less4, halfpel_valid.

const int PLANE_SIDE = BLOCK + 2;
shared uint planes[PLANE_SIDE * PLANE_SIDE];  // G | b << 8 | h << 16 | j << 24
shared uint stage_satd[9];

int ipel(ivec2 position) { return int(pel(reference_frame, position, params.frame_size)); }

int six_tap(int e, int f, int g, int h, int i, int j) { return e - 5 * f + 20 * g + 20 * h - 5 * i + j; }

// Unrounded horizontal half sample between `position` and its right neighbour.
int b1_at(ivec2 position) {
    return six_tap(ipel(position - ivec2(2, 0)), ipel(position - ivec2(1, 0)), ipel(position),
                   ipel(position + ivec2(1, 0)), ipel(position + ivec2(2, 0)), ipel(position + ivec2(3, 0)));
}

// The planes at integer positions base + (0..B+1)^2; `>>` of a negative int is arithmetic in GLSL.
void stage_planes(uint lane, ivec2 base) {
    for (int i = int(lane); i < PLANE_SIDE * PLANE_SIDE; i += GROUP) {
        const ivec2 p = base + ivec2(i % PLANE_SIDE, i / PLANE_SIDE);
        const int g = ipel(p);
        const int b = clamp((b1_at(p) + 16) >> 5, 0, 255);
        const int h1 = six_tap(ipel(p - ivec2(0, 2)), ipel(p - ivec2(0, 1)), g, ipel(p + ivec2(0, 1)),
                               ipel(p + ivec2(0, 2)), ipel(p + ivec2(0, 3)));
        const int h = clamp((h1 + 16) >> 5, 0, 255);
        const int j1 = six_tap(b1_at(p - ivec2(0, 2)), b1_at(p - ivec2(0, 1)), b1_at(p),
                               b1_at(p + ivec2(0, 1)), b1_at(p + ivec2(0, 2)), b1_at(p + ivec2(0, 3)));
        const int j = clamp((j1 + 512) >> 10, 0, 255);
        planes[i] = uint(g) | (uint(b) << 8) | (uint(h) << 16) | (uint(j) << 24);
    }
}

int plane_g(uint word) { return int(word & 0xFFu); }
int plane_b(uint word) { return int((word >> 8) & 0xFFu); }
int plane_h(uint word) { return int((word >> 16) & 0xFFu); }
int plane_j(uint word) { return int(word >> 24); }
int average_up(int p, int q) { return (p + q + 1) >> 1; }

// H.264's sample at quarter position q relative to the planes' origin (q >= 0).
int h264_sample(ivec2 q) {
    const ivec2 at = q >> 2;
    const int f = (q.y & 3) * 4 + (q.x & 3);
    const uint here = planes[at.y * PLANE_SIDE + at.x];
    const uint right = planes[at.y * PLANE_SIDE + at.x + 1];
    const uint below = planes[(at.y + 1) * PLANE_SIDE + at.x];
    const int G = plane_g(here), b = plane_b(here), h = plane_h(here), j = plane_j(here);
    const int m = plane_h(right), s = plane_b(below);
    switch (f) {
        case 0: return G;
        case 1: return average_up(G, b);
        case 2: return b;
        case 3: return average_up(plane_g(right), b);
        case 4: return average_up(G, h);
        case 5: return average_up(b, h);
        case 6: return average_up(b, j);
        case 7: return average_up(b, m);
        case 8: return h;
        case 9: return average_up(h, j);
        case 10: return j;
        case 11: return average_up(j, m);
        case 12: return average_up(plane_g(below), h);
        case 13: return average_up(h, s);
        case 14: return average_up(j, s);
        default: return average_up(m, s);
    }
}

const int HADAMARD[16] = int[16](1, 1, 1, 1, 1, 1, -1, -1, 1, -1, -1, 1, 1, -1, 1, -1);

// satd4 of engine/src/reference/satd.cpp: (sum |H D H^T|) >> 1, as the matrix products.
uint satd4(int d[16]) {
    int hd[16];
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            int sum = 0;
            for (int k = 0; k < 4; ++k) sum += HADAMARD[r * 4 + k] * d[k * 4 + c];
            hd[r * 4 + c] = sum;
        }
    }
    uint total = 0u;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            int coefficient = 0;
            for (int k = 0; k < 4; ++k) coefficient += hd[r * 4 + k] * HADAMARD[c * 4 + k];
            total += uint(abs(coefficient));
        }
    }
    return total >> 1;
}

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
