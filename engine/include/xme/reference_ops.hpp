// The scalar reference of SPEC §8, §10 and §11: one block, one operation, literally as SPEC words it
// (slow and obvious; every backend is tested against it). Each operation lives in its own file under
// engine/src/reference/. Plain arguments only: nothing here depends on SearchParams or MotionField.
#pragma once

#include <cstdint>
#include <vector>

#include "xme/frame.hpp"
#include "xme/motion_vector.hpp"
#include "xme/params.hpp"
#include "xme/rate.hpp"

namespace xme::reference {

// One block (or §9 partition) to search. Fast searches use square blocks of the frame's block size.
struct BlockSearch {
    PlaneView reference;
    PlaneView current;
    int x = 0;  // top-left pixel of the block or partition in the current frame
    int y = 0;
    int width = 16;  // block or partition size in pixels
    int height = 16;
    // B of SPEC §2/§9: `restrict` tests the B x B block of the grid that contains (x, y), displaced,
    // against the padded frame Wp x Hp. For a whole block that is the block itself; for a §9 partition
    // it is its macroblock ("one validity test for the whole 16x16 block").
    int restrict_block_size = 16;
    int range = 16;  // R: integer candidates c + [-R, R]^2
    BorderMode border = BorderMode::pad;
    int lambda = 0;          // >= 0; 0 gives the pure distortion
    MotionVector predictor;  // p, quarter pel
    MotionVector centre;     // c, integer pel (SPEC §8: 0, or round(p / 4))

    // Throws Error(invalid_argument) naming the field: empty planes, sizes < 1, range < 0, lambda < 0.
    void validate() const;
};

// What a block's search reads besides its two frames (xme/operations.hpp's Need), prepared by
// reference::estimate for the searches whose row needs it.
struct SearchSurroundings {
    // Need::mean_pyramid (SPEC §11 ehds): levels 1 and 2 of both frames (mean_downsample).
    PlaneView level1_reference, level1_current, level2_reference, level2_current;
    // Need::predictor_set: SPEC §8's predictor set of the block (predictor_set()).
    std::vector<MotionVector> predictor_set;
};

struct BlockResult {
    MotionVector mv;               // quarter pel
    std::uint64_t cost = 0;        // J = distortion + lambda * R(mv - p)
    std::uint32_t distortion = 0;  // SAD, cost4 or SATD at mv
    std::uint32_t candidates = 0;  // candidates evaluated (one evaluated twice counts twice)
};

// --- Validity (validity.cpp) ---
// Whether integer displacement (dx, dy) in pel lies inside c + [-R, R]^2.
[[nodiscard]] bool inside_window(const BlockSearch& search, MotionVector pel);
// SPEC §2/§8: integer displacement (dx, dy) in pel; in `restrict` mode the displaced block must lie in
// the padded frame, and the zero vector is always valid.
[[nodiscard]] bool integer_displacement_valid(int x, int y, int dx, int dy, int frame_width, int frame_height,
                                              int restrict_block_size, BorderMode border);
[[nodiscard]] bool integer_displacement_valid(const BlockSearch& search, MotionVector pel);
// SPEC §4/§10: a quarter-pel vector is valid in `restrict` mode when the blocks displaced by
// floor(mv / 4) and by ceil(mv / 4), per axis, both lie inside the padded frame.
[[nodiscard]] bool fractional_vector_valid(int x, int y, MotionVector quarter, int frame_width,
                                           int frame_height, int restrict_block_size, BorderMode border);
[[nodiscard]] bool fractional_vector_valid(const BlockSearch& search, MotionVector quarter);

// --- Distortions ---
// SPEC §3/§9: SAD of the width x height block at (x, y) against the reference displaced by integer
// (dx, dy), every read edge-replicated (block_sad.cpp).
[[nodiscard]] std::uint32_t block_sad(PlaneView reference, PlaneView current, int x, int y, int width,
                                      int height, int dx, int dy);
// SPEC §10: H.264's luma sample at absolute quarter-pel position (qx, qy) = (4*x + fx, 4*y + fy)
// (h264_sample.cpp).
[[nodiscard]] int h264_sample(PlaneView reference, int qx, int qy);
// H.264's 6-tap half-sample filter (1, -5, 20, 20, -5, 1) over six consecutive samples, unrounded.
[[nodiscard]] constexpr int h264_six_tap(int e, int f, int g, int h, int i, int j) {
    return e - 5 * f + 20 * g + 20 * h - 5 * i + j;
}
// SPEC §10: (sum of |H D H^T|) >> 1 for a 4x4 difference D[row][column] (satd.cpp).
[[nodiscard]] std::uint32_t satd4(const int (&difference)[4][4]);
// SPEC §10: sum of satd4 over the 4x4 tiles of current - prediction at quarter-pel vector mv; width and
// height multiples of 4.
[[nodiscard]] std::uint32_t satd(PlaneView reference, PlaneView current, int x, int y, int width, int height,
                                 MotionVector mv);

// --- Operations ---
// SPEC §8: exhaustive search of c + [-R, R]^2 with J = SAD + lambda * R(mv - p) (full_search.cpp).
[[nodiscard]] BlockResult full_search(const BlockSearch& search);

// SPEC §8: the median predictor of block (bx, by) from the final vectors of the blocks before it in
// raster order (`finals` is row-major, blocks_x * blocks_y; later entries are not read)
// (spatial_predictor.cpp).
[[nodiscard]] MotionVector spatial_predictor(const std::vector<MotionVector>& finals, int blocks_x,
                                             int blocks_y, int bx, int by);

// SPEC §8's predictor set of block (bx, by): A, B, C (or D), the spatial predictor when one of them is
// available, then `temporal` (the co-located block's vector of the previous pair; null at a segment's
// start); `finals` as spatial_predictor reads it (spatial_predictor.cpp).
[[nodiscard]] std::vector<MotionVector> predictor_set(const std::vector<MotionVector>& finals, int blocks_x,
                                                      int blocks_y, int bx, int by, const MotionVector* temporal);

// SPEC §4 with §8's rate: bilinear half-pel refinement of integer_mv (quarter units), J = cost4 +
// lambda * R(mv - p); square blocks only (refine_hpel.cpp).
[[nodiscard]] BlockResult refine_hpel(const BlockSearch& search, MotionVector integer_mv);
// SPEC §10: half then quarter stage around integer_mv (quarter units), J = SATD + lambda * R(mv - p)
// (refine_qpel.cpp).
[[nodiscard]] BlockResult refine_qpel(const BlockSearch& search, MotionVector integer_mv);

// SPEC §11: 2x2 means (a + b + c + d + 2) >> 2, ceil(W/2) x ceil(H/2), edge-replicated (mean_downsample.cpp).
[[nodiscard]] Plane mean_downsample(PlaneView plane);

// SPEC §11's fast searches on square blocks (width == height); each in its own file.
[[nodiscard]] BlockResult diamond_search(const BlockSearch& search);
[[nodiscard]] BlockResult hexagon_search(const BlockSearch& search);
// The level planes are normally mean_downsample of the level below; their sizes must be
// ceil(W/2) x ceil(H/2) and ceil(W/4) x ceil(H/4). Width must be a multiple of 4.
[[nodiscard]] BlockResult ehds_search(const BlockSearch& search, PlaneView level1_reference,
                                      PlaneView level1_current, PlaneView level2_reference,
                                      PlaneView level2_current);
[[nodiscard]] BlockResult tz_search(const BlockSearch& search);

// SPEC §11's search `search` of one block through the reference's table of search kernels (one file per
// search, engine/src/reference/searches/); throws Error(unsupported) for a search it has no kernel for.
[[nodiscard]] BlockResult integer_search(SearchMethod search, const BlockSearch& block,
                                         const SearchSurroundings& surroundings);
// Whether the reference has a kernel for `search` (every search of search_methods.def; not one added at
// run time).
[[nodiscard]] bool has_search_kernel(SearchMethod search);

}  // namespace xme::reference
