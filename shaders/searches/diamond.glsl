// SPEC §11's dia in rate_search.comp (walk_search.glsl's steps), as engine/src/reference/searches/diamond.cpp:
// §11's start, then the small diamond.

Walk search_diamond(uint lane, SearchArea frame) {
    Walk walk = walk_start(lane, frame);
    walk_diamond(lane, frame, walk);
    return walk;
}
