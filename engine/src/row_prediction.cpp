// SPEC §12's prediction for compensate() (the host path of every device without its own) and for the
// metrics' MC-PSNR, by rows: the scalar reference reads each sample through an edge-replicating
// function (21 ms for a 1080p frame, a third of a CPU job's time; 15 ms for SPEC §9's partitions, which
// the GPUs leave to this path: 65 pairs/s for a 1080p fs+p41 job on an H100 that searches 1,900). A
// block or partition whose reads all fall inside the plane, at a whole-sample vector or a bilinear
// half-sample one, takes the same formulas on whole rows; §10's H.264 fractional samples are filtered
// per rectangle (predict_h264); any other rectangle goes to the reference.
#include <algorithm>
#include <cstring>
#include <vector>

#include "xme/compensation.hpp"
#include "xme/h264_positions.hpp"
#include "xme/macroblock.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/params.hpp"
#include "xme/reference_ops.hpp"

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

// The reference's filter over six samples `step` apart.
int six_tap(const int* v, std::ptrdiff_t step) {
    return reference::h264_six_tap(v[0], v[step], v[2 * step], v[3 * step], v[4 * step], v[5 * step]);
}
int clip255(int value) { return std::clamp(value, 0, 255); }

// SPEC §10's H.264 samples (reference/h264_sample.cpp's formulas) of the width x height rectangle at
// (x, y) and quarter vector mv, every integer sample read edge-replicated: the reference computes all
// eight letters around every sample (the centre j from 36 reads); here each plane the fraction needs is
// filtered once over the rectangle (and one column and row past it, for H, M, m and s).
void predict_h264(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                  Plane& prediction) {
    const int ax = x + (mv.x >> 2);  // the floor, also for negative vectors
    const int ay = y + (mv.y >> 2);
    const H264Tap* taps = h264_position_taps[(mv.y & 3) * 4 + (mv.x & 3)];
    // The integer samples of columns ax - 2 .. ax + width + 3 and rows ay - 2 .. ay + height + 3, clamped.
    const int patch_width = width + 6;
    const int patch_height = height + 6;
    std::vector<int> patch(static_cast<std::size_t>(patch_width) * static_cast<std::size_t>(patch_height));
    for (int r = 0; r < patch_height; ++r) {
        for (int c = 0; c < patch_width; ++c)
            patch[static_cast<std::size_t>(r * patch_width + c)] =
                reference.at_clamped(ax - 2 + c, ay - 2 + r);
    }
    const auto at = [&](int c, int r) {
        return &patch[static_cast<std::size_t>((r + 2) * patch_width + c + 2)];
    };
    // Each needed half-sample plane at columns ax .. ax + width and rows ay .. ay + height; the integer
    // plane G is the patch itself.
    const int columns = width + 1;
    const int rows = height + 1;
    std::vector<int> planes[h264_plane_count];
    bool needs[h264_plane_count] = {};
    needs[taps[0].plane] = needs[taps[1].plane] = true;
    for (int plane = 1; plane < h264_plane_count; ++plane) {
        if (needs[plane])
            planes[plane].resize(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows));
    }
    // Unrounded horizontal half samples b1 of rows ay - 2 .. ay + height + 3, for b and j.
    std::vector<int> b1;
    if (needs[1] || needs[3]) {
        b1.resize(static_cast<std::size_t>(columns) * static_cast<std::size_t>(patch_height));
        for (int r = -2; r < rows + 3; ++r) {
            for (int c = 0; c < columns; ++c)
                b1[static_cast<std::size_t>((r + 2) * columns + c)] = six_tap(at(c - 2, r), 1);
        }
    }
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            const std::size_t i = static_cast<std::size_t>(r * columns + c);
            if (needs[1])
                planes[1][i] = clip255((b1[static_cast<std::size_t>((r + 2) * columns + c)] + 16) >> 5);
            if (needs[2]) planes[2][i] = clip255((six_tap(at(c, r - 2), patch_width) + 16) >> 5);
            if (needs[3])
                planes[3][i] =
                    clip255((six_tap(&b1[static_cast<std::size_t>(r * columns + c)], columns) + 512) >> 10);
        }
    }
    // Where each tap's plane starts (its sample at column ax, row ay) and its row stride.
    const int* origin[h264_plane_count] = {at(0, 0), planes[1].data(), planes[2].data(), planes[3].data()};
    const std::ptrdiff_t stride[h264_plane_count] = {patch_width, columns, columns, columns};
    const auto sample = [&](const H264Tap& tap, int c, int r) {
        return origin[tap.plane][(r + tap.row) * stride[tap.plane] + c + tap.col];
    };
    for (int r = 0; r < height; ++r) {
        std::uint8_t* out = prediction.row(y + r) + x;
        for (int c = 0; c < width; ++c)
            out[c] = static_cast<std::uint8_t>((sample(taps[0], c, r) + sample(taps[1], c, r) + 1) >> 1);
    }
}

// SPEC §9: each macroblock's partitions of its chosen mode, as reference::predict_macroblocks.
Plane predict_macroblocks_by_rows(PlaneView reference, const MotionField& field) {
    const Interpolation interpolation = interpolation_of(field.cost_kind);
    const int macroblocks_x = blocks_across(reference.width, macroblock_size);
    const int macroblocks_y = blocks_across(reference.height, macroblock_size);
    bool takes_rows = field.macroblocks.size() ==
                      static_cast<std::size_t>(macroblocks_x) * static_cast<std::size_t>(macroblocks_y);
    for (std::size_t i = 0; takes_rows && i < field.macroblocks.size(); ++i) {
        const MacroblockMotion& macroblock = field.macroblocks[i];
        for (const int index : mode_partitions(macroblock.decision.mode, macroblock.decision.sub_modes)) {
            const BlockMotion& motion = macroblock.partitions[static_cast<std::size_t>(index)];
            // Bilinear takes half-sample vectors only: the reference's error says so otherwise.
            if (interpolation == Interpolation::bilinear && (motion.mv_x % 2 != 0 || motion.mv_y % 2 != 0))
                takes_rows = false;
        }
    }
    if (!takes_rows) return reference::predict_field(reference, field);
    Plane prediction(reference.width, reference.height);
    for (int my = 0; my < macroblocks_y; ++my) {
        for (int mx = 0; mx < macroblocks_x; ++mx) {
            const MacroblockMotion& macroblock =
                field.macroblocks[static_cast<std::size_t>(my * macroblocks_x + mx)];
            for (const int index : mode_partitions(macroblock.decision.mode, macroblock.decision.sub_modes)) {
                const Partition& partition = macroblock_partitions[static_cast<std::size_t>(index)];
                const BlockMotion& motion = macroblock.partitions[static_cast<std::size_t>(index)];
                predict_rectangle_by_rows(
                    reference, mx * macroblock_size + partition.x, my * macroblock_size + partition.y,
                    partition.width, partition.height, {motion.mv_x, motion.mv_y}, interpolation, prediction);
            }
        }
    }
    return prediction;
}

}  // namespace

void predict_rectangle_by_rows(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                               Interpolation interpolation, Plane& prediction) {
    const bool whole_sample = (mv.x & 3) == 0 && (mv.y & 3) == 0;
    // Bilinear takes half-sample vectors only: the reference says so.
    if (interpolation == Interpolation::bilinear && (mv.x % 2 != 0 || mv.y % 2 != 0)) {
        reference::predict_rectangle(reference, x, y, width, height, mv, interpolation, prediction);
        return;
    }
    const int clipped_width = std::min(width, reference.width - x);
    const int clipped_height = std::min(height, reference.height - y);
    if (clipped_width <= 0 || clipped_height <= 0) return;  // a partition past a partial macroblock's edge
    const int ax = x + (mv.x >> 2);
    const int ay = y + (mv.y >> 2);
    const bool inside = ax >= 0 && ay >= 0 &&
                        ax + clipped_width + ((mv.x & 3) != 0 ? 1 : 0) <= reference.width &&
                        ay + clipped_height + ((mv.y & 3) != 0 ? 1 : 0) <= reference.height;
    if (inside && (whole_sample || interpolation == Interpolation::bilinear)) {
        predict_inside(reference, x, y, clipped_width, clipped_height, mv, prediction);
    } else if (interpolation == Interpolation::h264) {
        predict_h264(reference, x, y, clipped_width, clipped_height, mv, prediction);
    } else {
        reference::predict_rectangle(reference, x, y, width, height, mv, interpolation, prediction);
    }
}

Plane predict_field_by_rows(PlaneView reference, const MotionField& field) {
    if (!field.macroblocks.empty()) return predict_macroblocks_by_rows(reference, field);
    const int block = field.block_size;
    const Interpolation interpolation = interpolation_of(field.cost_kind);
    const bool plain_blocks =
        field.macroblocks.empty() && block >= 1 &&
        field.blocks.size() == static_cast<std::size_t>(blocks_across(reference.width, block)) *
                                   static_cast<std::size_t>(blocks_across(reference.height, block));
    bool half_pel = true;  // bilinear takes half-pel vectors only: the reference says so otherwise
    for (const BlockMotion& motion : field.blocks)
        half_pel = half_pel && motion.mv_x % 2 == 0 && motion.mv_y % 2 == 0;
    if (!plain_blocks || (interpolation == Interpolation::bilinear && !half_pel))
        return reference::predict_field(reference, field);

    Plane prediction(reference.width, reference.height);
    const int blocks_x = blocks_across(reference.width, block);
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        const int x = static_cast<int>(i % static_cast<std::size_t>(blocks_x)) * block;
        const int y = static_cast<int>(i / static_cast<std::size_t>(blocks_x)) * block;
        const MotionVector mv{field.blocks[i].mv_x, field.blocks[i].mv_y};
        predict_rectangle_by_rows(reference, x, y, block, block, mv, interpolation, prediction);
    }
    return prediction;
}

}  // namespace xme
