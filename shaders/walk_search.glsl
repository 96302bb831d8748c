// SPEC §11's steps in rate_search.comp: the workgroup costs one block's candidates together, as
// engine/src/reference/integer_candidates.cpp does. Every invocation holds the same best key. A small
// step (at most 8 candidates: a walk's move) is costed by one invocation per (candidate, row), summed
// with shared atomics, then every invocation compares them in the reference's order; a large one (a
// window, tz's raster, ehds's level 2) by one invocation per candidate and a reduction. Needs: BLOCK,
// params, reference_frame, current_block, level_block, the pyramids, GROUP, keys, counts, reduce,
// candidate_key, key_less4, key_vector, inside_padded_frame.

shared uint step_sad[8];

struct Walk {
    uvec4 best;      // §8's key of the best candidate so far; all ones before the first
    uint evaluated;  // candidates evaluated, SPEC §11's count
};

const Walk WALK_NONE = Walk(uvec4(0xFFFFFFFFu), 0u);

// Where one search runs: level 0 is the frame with §8's J; levels 1 and 2 are ehds's mean pyramid,
// plain SAD (weight 0, p = 0) on blocks of BLOCK >> level, every candidate valid.
struct SearchArea {
    int level;
    ivec2 origin;  // the block's top-left sample on its level
    ivec2 centre;  // the window is centre + [-range, range]^2
    int range;
    ivec2 p;      // the predictor, quarter pel
    uint weight;  // lambda
};

// SAD of row `row` of the area's block against the reference displaced by pel_vector (SPEC §1's edge
// replication on the level's plane). Exact in float: integers below 2^24.
uint row_sad(SearchArea area, ivec2 pel_vector, int row) {
    float sum = 0.0;
    if (area.level == 0) {
        for (int i = 0; i < BLOCK; ++i) {
            const float r = pel(reference_frame, area.origin + pel_vector + ivec2(i, row), params.frame_size);
            sum += abs(current_block[row * BLOCK + i] - r);
        }
        return uint(sum);
    }
    const int side = BLOCK >> area.level;
    const ivec2 size = pyramid_level_size(params.frame_size, area.level);
    const int offset = pyramid_level_offset(params.frame_size, area.level);
    for (int i = 0; i < side; ++i) {
        const ivec2 at = clamp(area.origin + pel_vector + ivec2(i, row), ivec2(0), size - 1);
        sum += abs(level_block[row * side + i] - float(reference_pyramid[offset + at.y * size.x + at.x]));
    }
    return uint(sum);
}

// SPEC §2 at level 0 (`restrict` keeps the displaced block in the padded frame, zero always valid);
// every candidate of a pyramid level is valid.
bool displacement_valid(SearchArea area, ivec2 pel_vector) {
    return area.level > 0 || params.restrict_border == 0 || pel_vector == ivec2(0) ||
           inside_padded_frame(area.origin + pel_vector, params.padded_size, BLOCK);
}

// SPEC §11: a candidate outside the window or invalid in restrict mode is skipped.
bool walk_candidate_ok(SearchArea area, ivec2 pel_vector) {
    return all(lessThanEqual(abs(pel_vector - area.centre), ivec2(area.range))) &&
           displacement_valid(area, pel_vector);
}

// Costs candidates[0..count) that are ok (all of them when `force`), in order; returns whether the
// best moved (a strictly smaller key: a repeated candidate never improves on itself).
bool walk_step(uint lane, SearchArea area, ivec2 candidates[8], int count, bool force, inout Walk walk) {
    const int side = BLOCK >> area.level;
    // The arrays are only indexed by constants (unrolled loops, and a select for an item's candidate):
    // indexed by a variable they would go to local memory (the driver reported 224-352 bytes of it).
    bool ok[8];
    [[unroll]] for (int k = 0; k < 8; ++k) ok[k] = k < count && (force || walk_candidate_ok(area, candidates[k]));
    barrier();  // earlier readers of step_sad are done
    if (lane < 8u) step_sad[lane] = 0u;
    barrier();
    for (int item = int(lane); item < count * side; item += GROUP) {
        const int k = item / side;
        ivec2 candidate = candidates[0];
        bool candidate_ok = ok[0];
        [[unroll]] for (int j = 1; j < 8; ++j) {
            if (j == k) {
                candidate = candidates[j];
                candidate_ok = ok[j];
            }
        }
        if (candidate_ok) atomicAdd(step_sad[k], row_sad(area, candidate, item % side));
    }
    barrier();
    const uvec4 before = walk.best;
    [[unroll]] for (int k = 0; k < 8; ++k) {
        if (!ok[k]) continue;  // false from count on
        ++walk.evaluated;
        const uvec4 key = candidate_key(step_sad[k], area.weight, 4 * candidates[k], area.p);
        if (key_less4(key, walk.best)) walk.best = key;
    }
    return walk.best != before;
}

// The ok candidates corner + stride * (i % side, i / side), 0 <= i < side^2, one invocation each;
// returns whether the best moved.
bool grid_step(uint lane, SearchArea area, ivec2 corner, int side, int stride, inout Walk walk) {
    const int rows = BLOCK >> area.level;
    uvec4 best = uvec4(0xFFFFFFFFu);
    uint count = 0;
    for (int i = int(lane); i < side * side; i += GROUP) {
        const ivec2 pel_vector = corner + stride * ivec2(i % side, i / side);
        if (!walk_candidate_ok(area, pel_vector)) continue;
        ++count;
        uint sad = 0;
        for (int row = 0; row < rows; ++row) sad += row_sad(area, pel_vector, row);
        const uvec4 key = candidate_key(sad, area.weight, 4 * pel_vector, area.p);
        if (key_less4(key, best)) best = key;
    }
    barrier();  // earlier readers of keys[0] are done
    keys[lane] = best;
    counts[lane] = count;
    reduce(lane);
    walk.evaluated += counts[0];
    if (!key_less4(keys[0], walk.best)) return false;
    walk.best = keys[0];
    return true;
}

ivec2 walk_best_pel(Walk walk) { return key_vector(walk.best) / 4; }

// SPEC §8/§11: where nothing could be evaluated, the zero vector is evaluated anyway.
void evaluate_zero_if_none(uint lane, SearchArea area, inout Walk walk) {
    if (walk.evaluated != 0u) return;
    const ivec2 zero[8] =
        ivec2[8](ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0));
    walk_step(lane, area, zero, 1, true, walk);
}

// SPEC §11's start: round(p / 4), then zero; zero anyway when neither could be evaluated.
Walk walk_start(uint lane, SearchArea area) {
    Walk walk = WALK_NONE;
    const ivec2 pel_p = ivec2(round_quarter_to_pel(area.p.x), round_quarter_to_pel(area.p.y));
    const ivec2 candidates[8] =
        ivec2[8](pel_p, ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0));
    walk_step(lane, area, candidates, 2, false, walk);
    evaluate_zero_if_none(lane, area, walk);
    return walk;
}

// The 4 neighbours (+-1, 0), (0, +-1) of the best, once; returns whether the best moved.
bool walk_small_diamond_once(uint lane, SearchArea area, inout Walk walk) {
    const ivec2 c = walk_best_pel(walk);
    const ivec2 candidates[8] =
        ivec2[8](c + ivec2(1, 0), c + ivec2(-1, 0), c + ivec2(0, 1), c + ivec2(0, -1), c, c, c, c);
    return walk_step(lane, area, candidates, 4, false, walk);
}

// SPEC §11 `dia`: the 4 neighbours of the best while one is better, at most `range` moves.
void walk_diamond(uint lane, SearchArea area, inout Walk walk) {
    for (int moves = 0; moves < area.range; ++moves) {
        if (!walk_small_diamond_once(lane, area, walk)) break;
    }
}

// SPEC §11 `hex`'s walk (and `umh`'s step 5): the 6 points (+-2, 0), (+-1, +-2) around the best while it
// moves, at most `range` moves.
void walk_hexagon_moves(uint lane, SearchArea area, inout Walk walk) {
    for (int moves = 0; moves < area.range; ++moves) {
        const ivec2 c = walk_best_pel(walk);
        const ivec2 candidates[8] = ivec2[8](c + ivec2(2, 0), c + ivec2(-2, 0), c + ivec2(1, 2),
                                             c + ivec2(-1, 2), c + ivec2(1, -2), c + ivec2(-1, -2), c, c);
        if (!walk_step(lane, area, candidates, 6, false, walk)) break;
    }
}

// The 8 neighbours of the best, once (the last step of `hex` and `ehds`).
void walk_square_neighbours(uint lane, SearchArea area, inout Walk walk) {
    const ivec2 c = walk_best_pel(walk);
    const ivec2 neighbours[8] = ivec2[8](c + ivec2(-1, -1), c + ivec2(0, -1), c + ivec2(1, -1),
                                         c + ivec2(-1, 0), c + ivec2(1, 0), c + ivec2(-1, 1), c + ivec2(0, 1),
                                         c + ivec2(1, 1));
    walk_step(lane, area, neighbours, 8, false, walk);
}
