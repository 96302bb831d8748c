// SPEC §10: the quarter-pel refinement, half stage then quarter stage, J = SATD + lambda * R(mv - p). The
// half-pel planes are the reference frame's (filtered once per frame); every one of H.264's 16 sample
// positions is the rounded average of two of its planes (or one plane, averaged with itself).
#include <cstdint>

#include "subpel_refine.hpp"

namespace xme::cpu {
namespace {

struct Tap {
    const std::uint8_t* origin;
    std::ptrdiff_t stride;
};

struct Neighbourhood {
    const std::uint8_t* integer;  // G at plane position (0, 0), which is pixel (x + ix - 1, y + iy - 1)
    std::ptrdiff_t integer_stride;
    const std::uint8_t* horizontal;  // b at plane position (0, 0)
    const std::uint8_t* vertical;    // h
    const std::uint8_t* centre;      // j
    std::ptrdiff_t n;                // the half-sample planes' stride

    Tap at(int plane, int col, int row) const {
        switch (plane) {
            case 0:
                return {integer + row * integer_stride + col, integer_stride};
            case 1:
                return {horizontal + row * n + col, n};
            case 2:
                return {vertical + row * n + col, n};
            default:
                return {centre + row * n + col, n};
        }
    }
};

// H.264's letters as (plane, column shift, row shift): G b h j = planes 0-3 at (0, 0); H = G one column
// right, M = G one row down, m = h one column right, s = b one row down.
struct TapSpec {
    int plane, col, row;
};
constexpr TapSpec G{0, 0, 0}, H{0, 1, 0}, M{0, 0, 1}, b{1, 0, 0}, h{2, 0, 0}, j{3, 0, 0}, m{2, 1, 0},
    s{1, 0, 1};
// Per fy * 4 + fx: the two samples averaged (a single sample is averaged with itself).
constexpr TapSpec position_taps[16][2] = {{G, G}, {G, b}, {b, b}, {H, b}, {G, h}, {b, h}, {b, j}, {b, m},
                                          {h, h}, {h, j}, {j, j}, {j, m}, {M, h}, {h, s}, {j, s}, {m, s}};

}  // namespace

SubpelResult refine_qpel(const IntegerBlock& block, MotionVector integer_pel, const HalfPelFrame& planes) {
    const int size = block.size;
    const int n = size + 2;  // integer positions ix - 1 .. ix + size, the last one for H, M, m and s
    const int x = block.x + integer_pel.x - 1;
    const int y = block.y + integer_pel.y - 1;
    const Neighbourhood area{block.reference->block(x, y, n, n),
                             block.reference->stride(),
                             planes.region(HalfPelFrame::horizontal, x, y, n, n),
                             planes.region(HalfPelFrame::vertical, x, y, n, n),
                             planes.region(HalfPelFrame::centre, x, y, n, n),
                             planes.stride()};
    const std::uint8_t* current = block.current->block(block.x, block.y, size, size);

    const auto satd_at = [&](MotionVector mv) {
        const int col = (mv.x >> 2) - integer_pel.x + 1;
        const int row = (mv.y >> 2) - integer_pel.y + 1;
        const int fraction = (mv.y & 3) * 4 + (mv.x & 3);
        const TapSpec p = position_taps[fraction][0];
        const TapSpec q = position_taps[fraction][1];
        const Tap tp = area.at(p.plane, col + p.col, row + p.row);
        const Tap tq = area.at(q.plane, col + q.col, row + q.row);
        return block.kernels->satd(current, block.current->stride(), tp.origin, tp.stride, tq.origin,
                                   tq.stride, size, size);
    };
    // The quarter stage costs the half stage's winner again (SPEC §10 as the reference reads it): its SATD
    // is remembered rather than recomputed.
    MotionVector known_mv[9];
    std::uint32_t known_satd[9];
    int known = 0;
    const auto remembered_satd = [&](MotionVector mv) {
        for (int k = 0; k < known; ++k) {
            if (known_mv[k] == mv) return known_satd[k];
        }
        const std::uint32_t value = satd_at(mv);
        if (known < 9) {
            known_mv[known] = mv;
            known_satd[known++] = value;
        }
        return value;
    };
    const MotionVector start{4 * integer_pel.x, 4 * integer_pel.y};
    const SubpelResult half = subpel_step(block, start, 2, block.lambda, remembered_satd);
    return subpel_step(block, half.mv, 1, block.lambda, remembered_satd);
}

}  // namespace xme::cpu
