// SPEC §10: the quarter-pel refinement, half stage then quarter stage, J = SATD + lambda * R(mv - p). The
// half-pel planes are the reference frame's (filtered once per frame); every one of H.264's 16 sample
// positions is the rounded average of two of its planes (or one plane, averaged with itself).
#include <cstdint>
#include <limits>

#include "subpel_refine.hpp"
#include "xme/h264_positions.hpp"

namespace xme::cpu {

SubpelResult refine_qpel(const IntegerBlock& block, int left, int top, int width, int height,
                         MotionVector integer_pel, const HalfPelFrame& planes) {
    // Integer positions ix - 1 .. ix + width (and the same rows), the last one for H, M, m and s.
    const int columns = width + 2;
    const int rows = height + 2;
    const int x = left + integer_pel.x - 1;
    const int y = top + integer_pel.y - 1;
    // Each plane at position (0, 0) of the neighbourhood, pixel (x, y).
    const std::uint8_t* const origin[h264_plane_count] = {
        block.reference->block(x, y, columns, rows),
        planes.region(HalfPelFrame::horizontal, x, y, columns, rows),
        planes.region(HalfPelFrame::vertical, x, y, columns, rows),
        planes.region(HalfPelFrame::centre, x, y, columns, rows)};
    const std::ptrdiff_t stride[h264_plane_count] = {block.reference->stride(), planes.stride(),
                                                     planes.stride(), planes.stride()};
    const std::uint8_t* current = block.current->block(left, top, width, height);
    const std::ptrdiff_t current_stride = block.current->stride();

    // The current block's half of SATD once for its up to 17 candidates, where the kernels have that form.
    const OperationKernels& kernels = *block.kernels;
    TransformedCurrent transformed;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
    const bool is_transformed =
        kernels.transform_current != nullptr &&
        kernels.transform_current(current, current_stride, width, height, transformed);
    const auto satd_at = [&](MotionVector mv, std::uint32_t limit) {
        const int col = (mv.x >> 2) - integer_pel.x + 1;
        const int row = (mv.y >> 2) - integer_pel.y + 1;
        const int fraction = (mv.y & 3) * 4 + (mv.x & 3);
        const H264Tap p = h264_position_taps[fraction][0];
        const H264Tap q = h264_position_taps[fraction][1];
        const std::uint8_t* p_samples = origin[p.plane] + (row + p.row) * stride[p.plane] + col + p.col;
        const std::uint8_t* q_samples = origin[q.plane] + (row + q.row) * stride[q.plane] + col + q.col;
        if (is_transformed) {
            return kernels.satd_transformed(transformed, p_samples, stride[p.plane], q_samples,
                                            stride[q.plane], width, height, limit);
        }
        return kernels.satd(current, current_stride, p_samples, stride[p.plane], q_samples, stride[q.plane],
                            width, height, limit);
    };
    // SPEC §10's validity (floor(mv / 4) and ceil(mv / 4) inside the padded frame) as one box of quarter
    // vectors: floor(v / 4) >= low and ceil(v / 4) <= high exactly when 4 low <= v <= 4 high. The box is
    // the block's: for a §9 partition, its macroblock's.
    const int size = block.size;
    MotionVector low{std::numeric_limits<int>::min(), std::numeric_limits<int>::min()};
    MotionVector high{std::numeric_limits<int>::max(), std::numeric_limits<int>::max()};
    if (block.border == BorderMode::restrict) {
        low = {-4 * block.x, -4 * block.y};
        high = {4 * (block.padded_width - size - block.x), 4 * (block.padded_height - size - block.y)};
    }
    struct Best {
        MotionVector mv;
        std::uint64_t cost = 0;
        std::uint32_t satd = 0;
    };
    const auto cost_of = [&](std::uint32_t satd, MotionVector mv) {
        return block.lambda == 0 ? satd : rate_constrained_cost(satd, block.lambda, mv, block.predictor);
    };
    // One stage: the centre (always costed; its SATD known from the stage before, when there was one)
    // and its valid neighbours at `step`, the least key kept (SPEC §8; built only for a tie of J). The
    // least key does not depend on the order: the centre, which usually wins, comes first, and a
    // neighbour's SATD need only be exact while it can still reach the best J; on a static scene most
    // stop at half the rows (docs/search-notes.md).
    const auto stage = [&](MotionVector centre, int step, const std::uint32_t* centre_satd) {
        const std::uint32_t satd = centre_satd != nullptr ? *centre_satd : satd_at(centre, satd_exact);
        Best best{centre, cost_of(satd, centre), satd};
        for (int sy = -1; sy <= 1; ++sy) {
            for (int sx = -1; sx <= 1; ++sx) {
                const MotionVector mv{centre.x + step * sx, centre.y + step * sy};
                if ((sx == 0 && sy == 0) || mv.x < low.x || mv.x > high.x || mv.y < low.y || mv.y > high.y)
                    continue;
                const std::uint64_t rate = cost_of(0, mv);
                if (rate > best.cost) continue;  // J above the best whatever the SATD
                const std::uint64_t headroom = best.cost - rate;
                const std::uint32_t neighbour_satd =
                    satd_at(mv, headroom < satd_exact ? static_cast<std::uint32_t>(headroom) : satd_exact);
                if (neighbour_satd > headroom) continue;
                const std::uint64_t cost = neighbour_satd + rate;
                if (cost == best.cost && !(make_candidate_key(cost, mv, block.predictor) <
                                           make_candidate_key(best.cost, best.mv, block.predictor))) {
                    continue;
                }
                best = {mv, cost, neighbour_satd};
            }
        }
        return best;
    };
    const Best half = stage({4 * integer_pel.x, 4 * integer_pel.y}, 2, nullptr);
    // The quarter stage costs the half stage's winner again (SPEC §10 as the reference reads it).
    const Best quarter = stage(half.mv, 1, &half.satd);
    return {quarter.mv, quarter.cost};
}

}  // namespace xme::cpu
