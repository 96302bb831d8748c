// SPEC §11's hex in rate_search.comp (walk_search.glsl's steps), as engine/src/reference/searches/hexagon.cpp.

// SPEC §11 `hex`: the hexagon around the best while it moves (at most R moves), then its 8 neighbours.
void walk_hexagon(uint lane, SearchArea area, inout Walk walk) {
    walk_hexagon_moves(lane, area, walk);
    walk_square_neighbours(lane, area, walk);
}

Walk search_hexagon(uint lane, SearchArea frame) {
    Walk walk = walk_start(lane, frame);
    walk_hexagon(lane, frame, walk);
    return walk;
}
