// SPEC §8's spatial predictor from the final vectors of a block's left, top and top-right (or top-left)
// neighbours, which earlier wavefront steps wrote into results (block_result()'s packing): the median, or
// the one neighbour available. rate_search.comp and partition_search.comp (macroblocks: a neighbour's
// vector is its 16x16 partition's). Needs: results, params.blocks_x, unpack_vector.

int median3(int a, int b, int c) { return max(min(a, b), min(max(a, b), c)); }

ivec2 spatial_predictor(ivec2 block) {
    const bool has_a = block.x > 0;
    const bool has_b = block.y > 0;
    const bool has_c = block.y > 0 && block.x + 1 < params.blocks_x;
    const bool has_d = block.y > 0 && block.x > 0;
    const int row_above = (block.y - 1) * params.blocks_x;
    const ivec2 a = has_a ? unpack_vector(results[block.y * params.blocks_x + block.x - 1].x) : ivec2(0);
    const ivec2 b = has_b ? unpack_vector(results[row_above + block.x].x) : ivec2(0);
    ivec2 c = ivec2(0);
    bool c_available = false;
    if (has_c) {
        c = unpack_vector(results[row_above + block.x + 1].x);
        c_available = true;
    } else if (has_d) {
        c = unpack_vector(results[row_above + block.x - 1].x);
        c_available = true;
    }
    const int available = int(has_a) + int(has_b) + int(c_available);
    if (available == 1) return has_a ? a : has_b ? b : c;
    return ivec2(median3(a.x, b.x, c.x), median3(a.y, b.y, c.y));
}
