// SPEC §11's ehds in rate_search.comp, step for step as engine/src/reference/searches/ehds.cpp: level 2 of
// the mean pyramid searched exhaustively, dia on level 1 from twice its result, dia then the 8
// neighbours on level 0 from twice level 1's. The pyramid is built once per frame (mean_pyramid.comp);
// the level's current block is staged in level_block. Needs walk_search.glsl.

// round(v / divisor), halves away from zero, for divisor 2 or 4.
int round_div(int v, int divisor) {
    return v >= 0 ? (2 * v + divisor) / (2 * divisor) : -((-2 * v + divisor) / (2 * divisor));
}

// Level `level` of the block: window round(c / 2^level) +- ceil(R / 2^level), SAD with §3's key.
SearchArea pyramid_area(SearchArea frame, int level) {
    const int factor = 1 << level;
    const ivec2 centre = ivec2(round_div(frame.centre.x, factor), round_div(frame.centre.y, factor));
    const int range = (frame.range + factor - 1) >> level;
    return SearchArea(level, frame.origin >> level, centre, range, ivec2(0), 0u);
}

void stage_level_block(uint lane, SearchArea area) {
    const int side = BLOCK >> area.level;
    const ivec2 size = pyramid_level_size(params.frame_size, area.level);
    const int offset = pyramid_level_offset(params.frame_size, area.level);
    barrier();  // earlier readers of level_block are done
    for (int i = int(lane); i < side * side; i += GROUP) {
        const ivec2 at = min(area.origin + ivec2(i % side, i / side), size - 1);
        level_block[i] = float(current_pyramid[offset + at.y * size.x + at.x]);
    }
    barrier();
}

// Twice the level above's result, clamped into this level's window (x264's clipping of a start).
ivec2 doubled_start(SearchArea area, ivec2 above) {
    return clamp(2 * above, area.centre - area.range, area.centre + area.range);
}

Walk walk_ehds(uint lane, SearchArea frame) {
    const SearchArea level2 = pyramid_area(frame, 2);
    stage_level_block(lane, level2);
    Walk walk2 = WALK_NONE;
    grid_step(lane, level2, level2.centre - level2.range, 2 * level2.range + 1, 1, walk2);

    const SearchArea level1 = pyramid_area(frame, 1);
    stage_level_block(lane, level1);
    Walk walk1 = WALK_NONE;
    const ivec2 start1 = doubled_start(level1, walk_best_pel(walk2));
    walk_step(lane, level1, ivec2[8](start1, start1, start1, start1, start1, start1, start1, start1), 1, true,
              walk1);
    walk_diamond(lane, level1, walk1);

    Walk walk0 = WALK_NONE;
    const ivec2 start0 = doubled_start(frame, walk_best_pel(walk1));
    if (displacement_valid(frame, start0)) {
        walk_step(lane, frame, ivec2[8](start0, start0, start0, start0, start0, start0, start0, start0), 1,
                  true, walk0);
    } else {
        walk0 = walk_start(lane, frame);  // SPEC §11: restrict rejected the doubled level-1 result
    }
    walk_diamond(lane, frame, walk0);
    walk_square_neighbours(lane, frame, walk0);
    walk0.evaluated += walk2.evaluated + walk1.evaluated;  // every level's candidates count alike
    return walk0;
}

Walk search_ehds(uint lane, SearchArea frame) { return walk_ehds(lane, frame); }
