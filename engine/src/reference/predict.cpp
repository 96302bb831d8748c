// SPEC §12: motion compensation. §4's half positions as the rounded averages (A + B + 1) >> 1,
// (A + C + 1) >> 1, (A + B + C + D + 2) >> 2; §10's positions as H.264's samples; reads edge-replicated.
#include <string>

#include "xme/error.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

std::uint8_t bilinear_sample(PlaneView reference, int x, int y, MotionVector mv) {
    if (mv.x % 2 != 0 || mv.y % 2 != 0) {
        throw Error(ErrorKind::invalid_argument,
                    "bilinear prediction (SPEC §4/§12) needs half-pel vectors, got (" + std::to_string(mv.x) +
                        "," + std::to_string(mv.y) + ") quarter pel");
    }
    // A at the position's floor (>> is floor also for negative vectors), B right of it, C below, D both.
    const int ax = x + (mv.x >> 2);
    const int ay = y + (mv.y >> 2);
    const bool half_x = (mv.x & 3) != 0;
    const bool half_y = (mv.y & 3) != 0;
    const int a = reference.at_clamped(ax, ay);
    if (!half_x && !half_y) return static_cast<std::uint8_t>(a);
    const int b = reference.at_clamped(ax + 1, ay);
    const int c = reference.at_clamped(ax, ay + 1);
    if (half_x && !half_y) return static_cast<std::uint8_t>((a + b + 1) >> 1);
    if (!half_x) return static_cast<std::uint8_t>((a + c + 1) >> 1);
    const int d = reference.at_clamped(ax + 1, ay + 1);
    return static_cast<std::uint8_t>((a + b + c + d + 2) >> 2);
}

void require_vector_count(std::size_t actual, std::size_t expected, const char* what) {
    if (actual != expected) {
        throw Error(ErrorKind::invalid_argument, std::string(what) + ": " + std::to_string(actual) +
                                                     " entries for a frame of " + std::to_string(expected));
    }
}

}  // namespace

std::uint8_t predicted_sample(PlaneView reference, int x, int y, MotionVector mv,
                              Interpolation interpolation) {
    if (interpolation == Interpolation::h264) {
        return static_cast<std::uint8_t>(h264_sample(reference, 4 * x + mv.x, 4 * y + mv.y));
    }
    return bilinear_sample(reference, x, y, mv);
}

void predict_rectangle(PlaneView reference, int x, int y, int width, int height, MotionVector mv,
                       Interpolation interpolation, Plane& prediction) {
    for (int j = 0; j < height; ++j) {
        for (int i = 0; i < width; ++i) {
            const int px = x + i;
            const int py = y + j;
            if (px >= prediction.width() || py >= prediction.height()) continue;  // cropped to W x H
            prediction.at(px, py) = predicted_sample(reference, px, py, mv, interpolation);
        }
    }
}

Plane predict_blocks(PlaneView reference, int block_size, const std::vector<MotionVector>& vectors,
                     Interpolation interpolation) {
    if (block_size < 1) throw Error(ErrorKind::invalid_argument, "prediction: block size must be at least 1");
    const int blocks_x = blocks_across(reference.width, block_size);
    const int blocks_y = blocks_across(reference.height, block_size);
    require_vector_count(vectors.size(),
                         static_cast<std::size_t>(blocks_x) * static_cast<std::size_t>(blocks_y),
                         "prediction from block vectors");
    Plane prediction(reference.width, reference.height);
    for (int by = 0; by < blocks_y; ++by) {
        for (int bx = 0; bx < blocks_x; ++bx) {
            predict_rectangle(reference, bx * block_size, by * block_size, block_size, block_size,
                              vectors[static_cast<std::size_t>(by * blocks_x + bx)], interpolation,
                              prediction);
        }
    }
    return prediction;
}

Plane predict_field(PlaneView reference, const MotionField& field) {
    if (!field.macroblocks.empty())
        return predict_macroblocks(reference, field.macroblocks, interpolation_of(field.cost_kind));
    std::vector<MotionVector> vectors;
    vectors.reserve(field.blocks.size());
    for (const BlockMotion& block : field.blocks) vectors.push_back({block.mv_x, block.mv_y});
    return predict_blocks(reference, field.block_size, vectors, interpolation_of(field.cost_kind));
}

Plane predict_macroblocks(PlaneView reference, const std::vector<MacroblockMotion>& macroblocks,
                          Interpolation interpolation) {
    const int macroblocks_x = blocks_across(reference.width, macroblock_size);
    const int macroblocks_y = blocks_across(reference.height, macroblock_size);
    require_vector_count(macroblocks.size(),
                         static_cast<std::size_t>(macroblocks_x) * static_cast<std::size_t>(macroblocks_y),
                         "prediction from macroblocks");
    Plane prediction(reference.width, reference.height);
    for (int my = 0; my < macroblocks_y; ++my) {
        for (int mx = 0; mx < macroblocks_x; ++mx) {
            const MacroblockMotion& macroblock =
                macroblocks[static_cast<std::size_t>(my * macroblocks_x + mx)];
            for (const int index :
                 partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
                const Partition& partition = macroblock_partitions[static_cast<std::size_t>(index)];
                const BlockMotion& motion = macroblock.partitions[static_cast<std::size_t>(index)];
                predict_rectangle(reference, mx * macroblock_size + partition.x,
                                  my * macroblock_size + partition.y, partition.width, partition.height,
                                  {motion.mv_x, motion.mv_y}, interpolation, prediction);
            }
        }
    }
    return prediction;
}

}  // namespace xme::reference
