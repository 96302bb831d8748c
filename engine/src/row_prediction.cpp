// SPEC §12's prediction for compensate() (the host path of every device without its own), by rows:
// the scalar reference reads each sample through an edge-replicating function (21 ms for a 1080p
// frame, a third of a CPU job's time). A block whose bilinear reads all fall inside the plane takes
// the same formulas on whole rows; any other block, and §10's H.264 samples, go to the reference.
#include <algorithm>
#include <cstring>

#include "xme/compensation.hpp"
#include "xme/params.hpp"

namespace xme {
namespace {

// The width x height rectangle at (x, y) at vector mv (even quarter components), every read inside.
void predict_inside(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                    Plane& prediction) {
    const int ax = x + (mv.x >> 2);
    const int ay = y + (mv.y >> 2);
    const bool half_x = (mv.x & 3) != 0;
    const bool half_y = (mv.y & 3) != 0;
    for (int j = 0; j < height; ++j) {
        const std::uint8_t* a = reference.row(ay + j) + ax;
        const std::uint8_t* c = half_y ? reference.row(ay + j + 1) + ax : a;
        std::uint8_t* out = prediction.row(y + j) + x;
        if (!half_x && !half_y) {
            std::memcpy(out, a, static_cast<std::size_t>(width));
        } else if (half_x && half_y) {
            for (int i = 0; i < width; ++i)
                out[i] = static_cast<std::uint8_t>((a[i] + a[i + 1] + c[i] + c[i + 1] + 2) >> 2);
        } else if (half_x) {
            for (int i = 0; i < width; ++i) out[i] = static_cast<std::uint8_t>((a[i] + a[i + 1] + 1) >> 1);
        } else {
            for (int i = 0; i < width; ++i) out[i] = static_cast<std::uint8_t>((a[i] + c[i] + 1) >> 1);
        }
    }
}

}  // namespace

Plane predict_field_by_rows(PlaneView reference, const MotionField& field) {
    const int block = field.block_size;
    const bool plain_blocks =
        field.macroblocks.empty() && block >= 1 &&
        interpolation_of(field.cost_kind) == Interpolation::bilinear &&
        field.blocks.size() == static_cast<std::size_t>(blocks_across(reference.width, block)) *
                                   static_cast<std::size_t>(blocks_across(reference.height, block));
    bool half_pel = true;  // bilinear takes half-pel vectors only: the reference says so otherwise
    for (const BlockMotion& motion : field.blocks)
        half_pel = half_pel && motion.mv_x % 2 == 0 && motion.mv_y % 2 == 0;
    if (!plain_blocks || !half_pel) return reference::predict_field(reference, field);

    Plane prediction(reference.width, reference.height);
    const int blocks_x = blocks_across(reference.width, block);
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        const int x = static_cast<int>(i % static_cast<std::size_t>(blocks_x)) * block;
        const int y = static_cast<int>(i / static_cast<std::size_t>(blocks_x)) * block;
        const MotionVector mv{field.blocks[i].mv_x, field.blocks[i].mv_y};
        const int width = std::min(block, reference.width - x);
        const int height = std::min(block, reference.height - y);
        const int ax = x + (mv.x >> 2);
        const int ay = y + (mv.y >> 2);
        const bool inside = ax >= 0 && ay >= 0 && ax + width + ((mv.x & 3) != 0 ? 1 : 0) <= reference.width &&
                            ay + height + ((mv.y & 3) != 0 ? 1 : 0) <= reference.height;
        if (inside) {
            predict_inside(reference, x, y, width, height, mv, prediction);
        } else {
            reference::predict_rectangle(reference, x, y, block, block, mv, Interpolation::bilinear,
                                         prediction);
        }
    }
    return prediction;
}

}  // namespace xme
