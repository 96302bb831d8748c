// SPEC §10: H.264's luma sample interpolation (ITU-T H.264 8.4.2.2.1), every integer sample read
// edge-replicated (SPEC §1). Letters are H.264's: G the integer sample at the position's floor, H right
// of it, M below it; b/h the horizontal/vertical half samples next to G, j the centre; m the vertical
// half sample of H's column, s the horizontal half sample of M's row.
#include <algorithm>

#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

int clip255(int value) { return std::clamp(value, 0, 255); }

// Unrounded horizontal half sample between (x, y) and (x + 1, y).
int b1_at(PlaneView ref, int x, int y) {
    return h264_six_tap(ref.at_clamped(x - 2, y), ref.at_clamped(x - 1, y), ref.at_clamped(x, y),
                        ref.at_clamped(x + 1, y), ref.at_clamped(x + 2, y), ref.at_clamped(x + 3, y));
}
// Unrounded vertical half sample between (x, y) and (x, y + 1).
int h1_at(PlaneView ref, int x, int y) {
    return h264_six_tap(ref.at_clamped(x, y - 2), ref.at_clamped(x, y - 1), ref.at_clamped(x, y),
                        ref.at_clamped(x, y + 1), ref.at_clamped(x, y + 2), ref.at_clamped(x, y + 3));
}
// >> of a possibly negative int is arithmetic (C++20 defines it so).
int half_horizontal(PlaneView ref, int x, int y) { return clip255((b1_at(ref, x, y) + 16) >> 5); }
int half_vertical(PlaneView ref, int x, int y) { return clip255((h1_at(ref, x, y) + 16) >> 5); }
int half_centre(PlaneView ref, int x, int y) {
    // j1 from the six unrounded b1 of the rows around it.
    const int j1 = h264_six_tap(b1_at(ref, x, y - 2), b1_at(ref, x, y - 1), b1_at(ref, x, y),
                                b1_at(ref, x, y + 1), b1_at(ref, x, y + 2), b1_at(ref, x, y + 3));
    return clip255((j1 + 512) >> 10);
}
int average_up(int p, int q) { return (p + q + 1) >> 1; }

}  // namespace

int h264_sample(PlaneView ref, int qx, int qy) {
    const int x = qx >> 2;  // floor, also for negative positions
    const int y = qy >> 2;
    const int fx = qx & 3;
    const int fy = qy & 3;
    const int G = ref.at_clamped(x, y);
    const int H = ref.at_clamped(x + 1, y);
    const int M = ref.at_clamped(x, y + 1);
    const int b = half_horizontal(ref, x, y);
    const int h = half_vertical(ref, x, y);
    const int j = half_centre(ref, x, y);
    const int m = half_vertical(ref, x + 1, y);
    const int s = half_horizontal(ref, x, y + 1);
    switch (fy * 4 + fx) {
        case 0:
            return G;
        case 1:
            return average_up(G, b);  // a
        case 2:
            return b;  // b
        case 3:
            return average_up(H, b);  // c
        case 4:
            return average_up(G, h);  // d
        case 5:
            return average_up(b, h);  // e
        case 6:
            return average_up(b, j);  // f
        case 7:
            return average_up(b, m);  // g
        case 8:
            return h;  // h
        case 9:
            return average_up(h, j);  // i
        case 10:
            return j;  // j
        case 11:
            return average_up(j, m);  // k
        case 12:
            return average_up(M, h);  // n
        case 13:
            return average_up(h, s);  // p
        case 14:
            return average_up(j, s);  // q
        default:
            return average_up(m, s);  // r
    }
}

}  // namespace xme::reference
