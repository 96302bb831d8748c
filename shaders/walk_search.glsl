// SPEC §11's dia and hex in rate_search.comp: the workgroup walks one block's steps together, as
// engine/src/reference/diamond_search.cpp and hexagon_search.cpp do. Every invocation holds the same
// best key; a step's candidates (at most 8) are costed by one invocation per (candidate, row), summed
// with shared atomics, then every invocation compares them in the reference's order. Needs: BLOCK,
// params, reference_frame, current_block, GROUP, candidate_key, key_less4, key_vector,
// inside_padded_frame.

shared uint step_sad[8];

struct Walk {
    uvec4 best;      // §8's key of the best candidate so far; all ones before the first
    uint evaluated;  // candidates evaluated, SPEC §11's count
};

// SPEC §11: a candidate outside the window c + [-R, R]^2 or invalid in restrict mode is skipped.
bool walk_candidate_ok(ivec2 origin, ivec2 centre, ivec2 pel_vector) {
    if (any(greaterThan(abs(pel_vector - centre), ivec2(params.range)))) return false;
    return params.restrict_border == 0 || pel_vector == ivec2(0) ||
           inside_padded_frame(origin + pel_vector, params.padded_size, BLOCK);
}

// Costs candidates[0..count) whose `ok` is set (all of them when `force`), in order; returns whether
// the best moved (a strictly smaller key: a repeated candidate never improves on itself).
bool walk_step(uint lane, ivec2 origin, ivec2 centre, ivec2 p, ivec2 candidates[8], int count, bool force,
               inout Walk walk) {
    bool ok[8];
    for (int k = 0; k < 8; ++k)
        ok[k] = k < count && (force || walk_candidate_ok(origin, centre, candidates[k]));
    barrier();  // earlier readers of step_sad are done
    if (lane < 8u) step_sad[lane] = 0u;
    barrier();
    for (int item = int(lane); item < count * BLOCK; item += GROUP) {
        const int k = item / BLOCK;
        if (!ok[k]) continue;
        const int row = item % BLOCK;
        float sum = 0.0;  // exact: integers below 2^24
        for (int i = 0; i < BLOCK; ++i) {
            const float r = pel(reference_frame, origin + candidates[k] + ivec2(i, row), params.frame_size);
            sum += abs(current_block[row * BLOCK + i] - r);
        }
        atomicAdd(step_sad[k], uint(sum));
    }
    barrier();
    const uvec4 before = walk.best;
    for (int k = 0; k < count; ++k) {
        if (!ok[k]) continue;
        ++walk.evaluated;
        const uvec4 key = candidate_key(step_sad[k], uint(params.lambda), 4 * candidates[k], p);
        if (key_less4(key, walk.best)) walk.best = key;
    }
    return walk.best != before;
}

ivec2 walk_best_pel(Walk walk) { return key_vector(walk.best) / 4; }

// SPEC §11's start: round(p / 4), then zero; zero anyway when neither could be evaluated.
Walk walk_start(uint lane, ivec2 origin, ivec2 centre, ivec2 p) {
    Walk walk = Walk(uvec4(0xFFFFFFFFu), 0u);
    ivec2 candidates[8] = ivec2[8](ivec2(round_quarter_to_pel(p.x), round_quarter_to_pel(p.y)), ivec2(0),
                                   ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0), ivec2(0));
    walk_step(lane, origin, centre, p, candidates, 2, false, walk);
    if (walk.evaluated == 0u) {
        candidates[0] = ivec2(0);
        walk_step(lane, origin, centre, p, candidates, 1, true, walk);
    }
    return walk;
}

// SPEC §11 `dia`: the 4 neighbours of the best while one is better, at most R moves.
void walk_diamond(uint lane, ivec2 origin, ivec2 centre, ivec2 p, inout Walk walk) {
    for (int moves = 0; moves < params.range; ++moves) {
        const ivec2 c = walk_best_pel(walk);
        const ivec2 candidates[8] =
            ivec2[8](c + ivec2(1, 0), c + ivec2(-1, 0), c + ivec2(0, 1), c + ivec2(0, -1), c, c, c, c);
        if (!walk_step(lane, origin, centre, p, candidates, 4, false, walk)) break;
    }
}

// SPEC §11 `hex`: the hexagon around the best while it moves (at most R moves), then its 8 neighbours.
void walk_hexagon(uint lane, ivec2 origin, ivec2 centre, ivec2 p, inout Walk walk) {
    for (int moves = 0; moves < params.range; ++moves) {
        const ivec2 c = walk_best_pel(walk);
        const ivec2 candidates[8] = ivec2[8](c + ivec2(2, 0), c + ivec2(-2, 0), c + ivec2(1, 2),
                                             c + ivec2(-1, 2), c + ivec2(1, -2), c + ivec2(-1, -2), c, c);
        if (!walk_step(lane, origin, centre, p, candidates, 6, false, walk)) break;
    }
    const ivec2 c = walk_best_pel(walk);
    const ivec2 neighbours[8] = ivec2[8](c + ivec2(-1, -1), c + ivec2(0, -1), c + ivec2(1, -1),
                                         c + ivec2(-1, 0), c + ivec2(1, 0), c + ivec2(-1, 1), c + ivec2(0, 1),
                                         c + ivec2(1, 1));
    walk_step(lane, origin, centre, p, neighbours, 8, false, walk);
}
