// SPEC §8's predictor set of a block, for the searches that read it (§11's umh), as
// engine/src/reference/spatial_predictor.cpp's predictor_set(): A, B and C (or D) from this frame's
// final vectors, which earlier wavefront steps wrote into results; the spatial predictor when one of
// them is available; then T, the co-located vector of Previous, unless the pair starts a segment.
// Quarter pel, in that order. Needs: spatial_predictor.glsl, Previous, params.blocks_x,
// params.has_previous.

const int PREDICTOR_SET_MAX = 5;

shared ivec2 predictor_set_members[PREDICTOR_SET_MAX];
shared int predictor_set_size;

// Fills predictor_set_members and predictor_set_size for `block`; one invocation, then a barrier.
void fill_predictor_set(ivec2 block) {
    const int index = block.y * params.blocks_x + block.x;
    const int row_above = index - params.blocks_x;
    int size = 0;
    if (block.x > 0) predictor_set_members[size++] = unpack_vector(results[index - 1].x);
    if (block.y > 0) predictor_set_members[size++] = unpack_vector(results[row_above].x);
    if (block.y > 0 && block.x + 1 < params.blocks_x) {
        predictor_set_members[size++] = unpack_vector(results[row_above + 1].x);
    } else if (block.y > 0 && block.x > 0) {
        predictor_set_members[size++] = unpack_vector(results[row_above - 1].x);
    }
    if (size > 0) predictor_set_members[size++] = spatial_predictor(block);
    if (params.has_previous != 0) predictor_set_members[size++] = unpack_vector(previous[index].x);
    predictor_set_size = size;
}
