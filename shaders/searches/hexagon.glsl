// SPEC §11's hex in rate_search.comp (walk_search.glsl's steps), as engine/src/reference/searches/hexagon.cpp.

// SPEC §11 `hex`: the hexagon around the best while it moves (at most R moves), then its 8 neighbours.
void walk_hexagon(uint lane, SearchArea area, inout Walk walk) {
    for (int moves = 0; moves < area.range; ++moves) {
        const ivec2 c = walk_best_pel(walk);
        const ivec2 candidates[8] = ivec2[8](c + ivec2(2, 0), c + ivec2(-2, 0), c + ivec2(1, 2),
                                             c + ivec2(-1, 2), c + ivec2(1, -2), c + ivec2(-1, -2), c, c);
        if (!walk_step(lane, area, candidates, 6, false, walk)) break;
    }
    walk_square_neighbours(lane, area, walk);
}

Walk search_hexagon(uint lane, SearchArea frame) {
    Walk walk = walk_start(lane, frame);
    walk_hexagon(lane, frame, walk);
    return walk;
}
