// SPEC §11's tz (HM's TZSearch, default settings) in rate_search.comp, with the results of
// engine/src/reference/searches/test_zone.cpp. The diamonds D(S, d), d = 1, 2, 4, ... <= R, around one centre
// do not depend on each other's outcome, so one step costs all of them (one invocation per
// (point, row), shared atomics), and every invocation then replays HM's rounds in order from the
// costs: which rounds run (the first search stops after 3 without improvement), which candidates
// count, the distance at which the best was found and its step u for the 2-point search. A round
// costed but never reached is not counted (the first search costs its rounds beyond d = 4 only when
// it goes on). Needs walk_search.glsl.

const int TZ_FIRST_SEARCH_ROUNDS = 3;
const int TZ_RASTER_STEP = 5;
// Points of D(S, d) for every d = 2^k <= 4095 (SPEC's largest range): 4 for d = 1, 8 for d = 2..8,
// 16 for d = 16..2048.
const int TZ_MAX_POINTS = 4 + 3 * 8 + 8 * 16;
const int TZ_MAX_D = 2048;

shared uint diamond_sad[TZ_MAX_POINTS];

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

int tz_round_points(int d) { return d == 1 ? 4 : d <= 8 ? 8 : 16; }

// The points of the rounds before d (d a power of 2).
int tz_points_before(int d) {
    int points = 0;
    for (int smaller = 1; smaller < d; smaller *= 2) points += tz_round_points(smaller);
    return points;
}

// Point g of the rounds in order (d = 1, 2, 4, ...) as an offset from their centre.
ivec2 tz_point_offset(int g) {
    if (g < 4) return tz_diamond_offset(1, g);
    if (g < 28) return tz_diamond_offset(2 << ((g - 4) / 8), (g - 4) % 8);
    return tz_diamond_offset(16 << ((g - 28) / 16), (g - 28) % 16);
}

// HM's diamond rounds around `centre` for d = first_d, 2 first_d, ... <= min(last_d, R); with
// `first_search`, stopping after TZ_FIRST_SEARCH_ROUNDS rounds without improvement. Returns whether
// it stopped so.
bool tz_diamond_rounds(uint lane, SearchArea area, ivec2 centre, int first_d, int last_d, bool first_search,
                       inout TzState state, inout Walk walk) {
    const int last = min(last_d, area.range);
    const int first_point = tz_points_before(first_d);
    int points = 0;
    for (int d = first_d; d <= last; d *= 2) points += tz_round_points(d);
    barrier();  // earlier readers of diamond_sad are done
    for (int g = int(lane); g < points; g += GROUP) diamond_sad[g] = 0u;
    barrier();
    for (int item = int(lane); item < points * BLOCK; item += GROUP) {
        const int g = item / BLOCK;
        const ivec2 candidate = centre + tz_point_offset(first_point + g);
        if (walk_candidate_ok(area, candidate))
            atomicAdd(diamond_sad[g], row_sad(area, candidate, item % BLOCK));
    }
    barrier();
    int g = 0;
    for (int d = first_d; d <= last; d *= 2) {
        ++state.rounds_without_improvement;
        bool improved = false;
        for (int i = 0; i < tz_round_points(d); ++i, ++g) {
            const ivec2 candidate = centre + tz_diamond_offset(d, i);
            if (!walk_candidate_ok(area, candidate)) continue;
            ++walk.evaluated;
            const uvec4 key = candidate_key(diamond_sad[g], area.weight, 4 * candidate, area.p);
            if (!key_less4(key, walk.best)) continue;
            walk.best = key;
            improved = true;
        }
        if (improved) {
            state.best_distance = d;
            state.rounds_without_improvement = 0;
            state.best_step = walk_best_pel(walk) - centre;
        }
        if (first_search && state.rounds_without_improvement >= TZ_FIRST_SEARCH_ROUNDS) return true;
    }
    return false;
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
    // The first search stops at the earliest after its third round (d = 4): the rounds beyond are costed
    // only when it goes on.
    const ivec2 start = walk_best_pel(walk);
    if (!tz_diamond_rounds(lane, area, start, 1, 4, true, state, walk))
        tz_diamond_rounds(lane, area, start, 8, TZ_MAX_D, true, state, walk);
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
        tz_diamond_rounds(lane, area, centre, 1, TZ_MAX_D, false, state, walk);
        if (state.best_distance == 1) tz_two_point(lane, area, state, walk);
    }
}

Walk search_test_zone(uint lane, SearchArea frame) {
    Walk walk = walk_start(lane, frame);
    walk_tz(lane, frame, walk);
    return walk;
}
