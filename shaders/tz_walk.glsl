// SPEC §11's tz (HM's TZSearch, default settings) in rate_search.comp, step for step as
// engine/src/reference/tz_search.cpp. HM's bookkeeping (the distance at which the best was found, and
// its step u for the 2-point search) follows from a round's winner: every point of D(S, d) lies at
// distance d from S. Needs walk_search.glsl.

const int TZ_FIRST_SEARCH_ROUNDS = 3;
const int TZ_RASTER_STEP = 5;

struct TzState {
    int best_distance;
    int rounds_without_improvement;
    ivec2 best_step;  // u of the 2-point search: the winner's offset from the diamond's centre
};

// Point i of D(S, d) as an offset (HM's xTZ8PointDiamondSearch): the 4 axis points, then for d <= 8
// the 4 points (+-d/2, +-d/2), for d > 8 the 12 points (+-(d/4) k, +-(d - (d/4) k)), k = 1..3.
ivec2 tz_diamond_offset(int d, int i) {
    if (i < 4) return i == 0 ? ivec2(0, -d) : i == 1 ? ivec2(-d, 0) : i == 2 ? ivec2(d, 0) : ivec2(0, d);
    const int j = i - 4;
    const ivec2 sign = ivec2((j & 1) != 0 ? 1 : -1, (j & 2) != 0 ? 1 : -1);
    const int along = d <= 8 ? d / 2 : (d / 4) * (j / 4 + 1);
    const int across = d <= 8 ? d / 2 : d - along;
    return sign * ivec2(along, across);
}

// D(centre, d) in steps of 8 (4, 8 or 16 points, all at distance d: their order within a round
// does not change its winner).
void tz_diamond_round(uint lane, SearchArea area, ivec2 centre, int d, inout TzState state, inout Walk walk) {
    ++state.rounds_without_improvement;
    const int points = d == 1 ? 4 : d <= 8 ? 8 : 16;
    bool improved = false;
    for (int first = 0; first < points; first += 8) {
        ivec2 candidates[8];
        for (int k = 0; k < 8; ++k) candidates[k] = centre + tz_diamond_offset(d, first + k);
        improved = walk_step(lane, area, candidates, min(8, points - first), false, walk) || improved;
    }
    if (!improved) return;
    state.best_distance = d;
    state.rounds_without_improvement = 0;
    state.best_step = walk_best_pel(walk) - centre;
}

// SPEC §11 step 3 (HM's xTZ2PointSearch): W + u +- u', found at distance 2.
void tz_two_point(uint lane, SearchArea area, inout TzState state, inout Walk walk) {
    const ivec2 w = walk_best_pel(walk);
    const ivec2 u = state.best_step;
    const ivec2 beyond = w + u;
    const ivec2 across = u.yx;
    state.best_distance = 0;
    const ivec2 candidates[8] = ivec2[8](beyond + across, beyond - across, w, w, w, w, w, w);
    if (walk_step(lane, area, candidates, 2, false, walk)) state.best_distance = 2;
}

void walk_tz(uint lane, SearchArea area, inout Walk walk) {
    TzState state = TzState(0, 0, ivec2(0));
    const ivec2 first = walk_best_pel(walk);
    for (int d = 1; d <= area.range; d *= 2) {
        tz_diamond_round(lane, area, first, d, state, walk);
        if (state.rounds_without_improvement >= TZ_FIRST_SEARCH_ROUNDS) break;
    }
    if (state.best_distance == 1) tz_two_point(lane, area, state, walk);
    if (state.best_distance > TZ_RASTER_STEP) {
        // Every 5th candidate of the window from its top-left corner; refined as if found at step 5.
        state.best_distance = TZ_RASTER_STEP;
        grid_step(lane, area, area.centre - area.range, 2 * area.range / TZ_RASTER_STEP + 1, TZ_RASTER_STEP,
                  walk);
    }
    while (state.best_distance > 0) {  // the star refinement
        const ivec2 centre = walk_best_pel(walk);
        state.best_distance = 0;
        for (int d = 1; d <= area.range; d *= 2) tz_diamond_round(lane, area, centre, d, state, walk);
        if (state.best_distance == 1) tz_two_point(lane, area, state, walk);
    }
}
