// SPEC §11 `tz`: HM's TZSearch with its defaults (diamond first search stopping after 3 rounds without
// improvement, 2-point search, raster step 5, star refinement), on the CPU's candidate sets.
#include "integer_search.hpp"

namespace xme::cpu {
namespace {

constexpr int rounds_before_stop = 3;
constexpr int raster = 5;

// The search with HM's bookkeeping: where the best was found (its distance, and for distance 1 its axis
// step) and the diamond rounds since then.
struct TestZone {
    CandidateSearch search;
    int distance = 0;
    int idle_rounds = 0;
    MotionVector step;
};

// The points of HM's 8-point diamond at distance d around (0, 0): 4 for d = 1, 8 up to d = 8, 16 beyond.
int diamond_offsets(int d, MotionVector* out) {
    if (d == 1) {
        out[0] = {0, -1};
        out[1] = {-1, 0};
        out[2] = {1, 0};
        out[3] = {0, 1};
        return 4;
    }
    out[0] = {0, -d};
    out[1] = {-d, 0};
    out[2] = {d, 0};
    out[3] = {0, d};
    if (d <= 8) {
        const int h = d / 2;
        out[4] = {-h, -h};
        out[5] = {h, -h};
        out[6] = {-h, h};
        out[7] = {h, h};
        return 8;
    }
    int n = 4;
    for (int i = 1; i <= 3; ++i) {
        const int along = d / 4 * i;
        const int across = d - along;
        out[n++] = {-along, -across};
        out[n++] = {along, -across};
        out[n++] = {-along, across};
        out[n++] = {along, across};
    }
    return n;
}

void diamond(TestZone& tz, MotionVector centre, int d) {
    ++tz.idle_rounds;
    MotionVector offsets[16];
    MotionVector points[16];
    const int n = diamond_offsets(d, offsets);
    for (int i = 0; i < n; ++i) points[i] = {centre.x + offsets[i].x, centre.y + offsets[i].y};
    const int improved = tz.search.consider(points, n);
    if (improved >= 0) {
        tz.distance = d;
        tz.idle_rounds = 0;
        tz.step = offsets[improved];
    }
}

// From the best W = S + u found at distance 1: W + u + u' and W + u - u', u' = (u.y, u.x).
void two_points(TestZone& tz) {
    const MotionVector w = tz.search.best_pel();
    const MotionVector u = tz.step;
    const MotionVector points[2] = {{w.x + u.x + u.y, w.y + u.y + u.x}, {w.x + u.x - u.y, w.y + u.y - u.x}};
    tz.distance = 0;
    if (tz.search.consider(points, 2) >= 0) {
        tz.distance = 2;
        tz.idle_rounds = 0;
        tz.step = {};
    }
}

}  // namespace

IntegerResult tz_search(const IntegerBlock& block) {
    TestZone tz{CandidateSearch(block), 0, 0, {}};
    search_start(tz.search);
    const MotionVector start = tz.search.best_pel();
    for (int d = 1; d <= block.range; d *= 2) {
        diamond(tz, start, d);
        if (tz.idle_rounds >= rounds_before_stop) break;
    }
    if (tz.distance == 1) two_points(tz);
    if (tz.distance > raster) {
        tz.distance = raster;
        MotionVector row[2 * max_search_range / raster + 2];
        for (int y = block.centre.y - block.range; y <= block.centre.y + block.range; y += raster) {
            int n = 0;
            for (int x = block.centre.x - block.range; x <= block.centre.x + block.range; x += raster)
                row[n++] = {x, y};
            if (tz.search.consider(row, n) >= 0) tz.idle_rounds = 0;  // found at the raster step
        }
    }
    while (tz.distance > 0) {
        const MotionVector centre = tz.search.best_pel();
        tz.distance = 0;
        for (int d = 1; d <= block.range; d *= 2) diamond(tz, centre, d);
        if (tz.distance == 1) two_points(tz);
    }
    return tz.search.result();
}

}  // namespace xme::cpu
