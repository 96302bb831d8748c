// SPEC §8's exhaustive search in rate_search.comp (walk_search.glsl's grid step), as
// engine/src/reference/searches/full.cpp.

// SPEC §8's full search of the area's window; the zero vector when it holds no valid candidate (a
// window centred on the predictor, `restrict`).
Walk search_full(uint lane, SearchArea area) {
    Walk walk = WALK_NONE;
    grid_step(lane, area, area.centre - area.range, 2 * area.range + 1, 1, walk);
    evaluate_zero_if_none(lane, area, walk);
    return walk;
}
