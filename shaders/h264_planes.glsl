// SPEC §10's samples of one block from shared memory: the reference around the block's integer
// vector staged once as H.264's planes (G, b, h, j packed in one word per integer position, (B + 2)^2
// positions: every sample a vector within one integer step of it reads). Integers throughout:
// bit-exact with engine/src/reference/h264_sample.cpp by construction. Used by the quarter-pel
// refinement (qpel_stage.glsl) and the prediction (predict_residual.comp). Needs: BLOCK, GROUP,
// params.frame_size, reference_frame, pel().

const int PLANE_SIDE = BLOCK + 2;
// A shader that stages several areas (partition_qpel.glsl) defines PLANE_WORDS, their total.
#ifndef PLANE_WORDS
#define PLANE_WORDS (PLANE_SIDE * PLANE_SIDE)
#endif
shared uint planes[PLANE_WORDS];  // G | b << 8 | h << 16 | j << 24

int ipel(ivec2 position) { return int(pel(reference_frame, position, params.frame_size)); }

int six_tap(int e, int f, int g, int h, int i, int j) { return e - 5 * f + 20 * g + 20 * h - 5 * i + j; }

// Unrounded horizontal half sample between `position` and its right neighbour.
int b1_at(ivec2 position) {
    return six_tap(ipel(position - ivec2(2, 0)), ipel(position - ivec2(1, 0)), ipel(position),
                   ipel(position + ivec2(1, 0)), ipel(position + ivec2(2, 0)), ipel(position + ivec2(3, 0)));
}

// The planes' word at integer position p; `>>` of a negative int is arithmetic in GLSL.
uint plane_word(ivec2 p) {
    const int g = ipel(p);
    const int b = clamp((b1_at(p) + 16) >> 5, 0, 255);
    const int h1 = six_tap(ipel(p - ivec2(0, 2)), ipel(p - ivec2(0, 1)), g, ipel(p + ivec2(0, 1)),
                           ipel(p + ivec2(0, 2)), ipel(p + ivec2(0, 3)));
    const int h = clamp((h1 + 16) >> 5, 0, 255);
    const int j1 = six_tap(b1_at(p - ivec2(0, 2)), b1_at(p - ivec2(0, 1)), b1_at(p), b1_at(p + ivec2(0, 1)),
                           b1_at(p + ivec2(0, 2)), b1_at(p + ivec2(0, 3)));
    const int j = clamp((j1 + 512) >> 10, 0, 255);
    return uint(g) | (uint(b) << 8) | (uint(h) << 16) | (uint(j) << 24);
}

// The planes at integer positions base + (0..B+1)^2.
void stage_planes(uint lane, ivec2 base) {
    for (int i = int(lane); i < PLANE_SIDE * PLANE_SIDE; i += GROUP)
        planes[i] = plane_word(base + ivec2(i % PLANE_SIDE, i / PLANE_SIDE));
}

int plane_g(uint word) { return int(word & 0xFFu); }
int plane_b(uint word) { return int((word >> 8) & 0xFFu); }
int plane_h(uint word) { return int((word >> 16) & 0xFFu); }
int plane_j(uint word) { return int(word >> 24); }
int average_up(int p, int q) { return (p + q + 1) >> 1; }

// H.264's sample at quarter position q relative to the origin of an area of planes staged from word
// `first` in rows of `stride` words (q >= 0).
int h264_sample_in(int first, int stride, ivec2 q) {
    const ivec2 at = q >> 2;
    const int f = (q.y & 3) * 4 + (q.x & 3);
    const int word = first + at.y * stride + at.x;
    const uint here = planes[word];
    const uint right = planes[word + 1];
    const uint below = planes[word + stride];
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

// The same in stage_planes' area.
int h264_sample(ivec2 q) { return h264_sample_in(0, PLANE_SIDE, q); }
