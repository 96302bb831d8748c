// SPEC §11's umh (x264's uneven multi-hexagon search in FFmpeg's form) in rate_search.comp, step for step
// as engine/src/reference/searches/umh.cpp: §11's start then §8's predictor set (predictor_set.glsl),
// the cross, the 5x5 grid, the 16-point hexagons at radii 1 .. R/4, the hexagon walk and the small
// diamond once. Each step's centre is fixed; a step of more than 8 points runs as walk_steps of up to
// 8 (the same best key, and the count of its admissible points). Needs walk_search.glsl.

const int UMH_CROSS = 0;
const int UMH_GRID = 1;
const int UMH_MULTI_HEXAGON = 2;

// Step 4's 16 points, in SPEC's order.
const ivec2 UMH_HEXAGON[16] =
    ivec2[16](ivec2(-4, -2), ivec2(-4, -1), ivec2(-4, 0), ivec2(-4, 1), ivec2(-4, 2), ivec2(4, -2), ivec2(4, -1),
              ivec2(4, 0), ivec2(4, 1), ivec2(4, 2), ivec2(-2, 3), ivec2(0, 4), ivec2(2, 3), ivec2(-2, -3),
              ivec2(0, -4), ivec2(2, -3));

// Odd d <= R for the cross's (+-d, 0): (R + 1) / 2 of them; for (0, +-d), d <= R / 2.
int umh_cross_across(int range) { return 2 * ((range + 1) / 2); }

int umh_step_points(int kind, int range) {
    if (kind == UMH_CROSS) return umh_cross_across(range) + 2 * ((range / 2 + 1) / 2);
    if (kind == UMH_GRID) return 24;
    return 16 * (range / 4);
}

// Point i of a step, as an offset from its centre: the cross's (+-d, 0), then its (0, +-d); the 5x5
// grid but (0, 0), in raster order; the multi-hexagon's k h, k = i / 16 + 1.
ivec2 umh_offset(int kind, int i, int range) {
    if (kind == UMH_CROSS) {
        const int across = umh_cross_across(range);
        const int j = i < across ? i : i - across;
        const int d = 2 * (j / 2) + 1;
        const int signed_d = (j & 1) != 0 ? d : -d;
        return i < across ? ivec2(signed_d, 0) : ivec2(0, signed_d);
    }
    if (kind == UMH_GRID) {
        const int j = i < 12 ? i : i + 1;
        return ivec2(j % 5 - 2, j / 5 - 2);
    }
    return (i / 16 + 1) * UMH_HEXAGON[i % 16];
}

// Steps 2-4: every point around the best before the step, in walk_steps of up to 8.
void umh_step(uint lane, SearchArea area, int kind, inout Walk walk) {
    const ivec2 centre = walk_best_pel(walk);
    const int points = umh_step_points(kind, area.range);
    for (int first = 0; first < points; first += 8) {
        ivec2 candidates[8];
        [[unroll]] for (int k = 0; k < 8; ++k) candidates[k] = centre + umh_offset(kind, first + k, area.range);
        walk_step(lane, area, candidates, min(8, points - first), false, walk);
    }
}

Walk search_umh(uint lane, SearchArea frame) {
    Walk walk = walk_start(lane, frame);
    ivec2 members[8];
    [[unroll]] for (int k = 0; k < 8; ++k) {
        const ivec2 v = predictor_set_members[min(k, PREDICTOR_SET_MAX - 1)];
        members[k] = ivec2(round_quarter_to_pel(v.x), round_quarter_to_pel(v.y));
    }
    walk_step(lane, frame, members, predictor_set_size, false, walk);
    umh_step(lane, frame, UMH_CROSS, walk);
    umh_step(lane, frame, UMH_GRID, walk);
    umh_step(lane, frame, UMH_MULTI_HEXAGON, walk);
    walk_hexagon_moves(lane, frame, walk);
    walk_small_diamond_once(lane, frame, walk);
    return walk;
}
