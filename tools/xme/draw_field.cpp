#include "draw_field.hpp"

#include <algorithm>
#include <cmath>

namespace xme::cli {
namespace {

// A drawn area: a block, or a chosen partition, with its motion.
struct Area {
    int x, y, width, height;
    double dx, dy;  // pixels
    std::int64_t cost;
};

std::vector<Area> areas_of(const std::vector<FieldRow>& rows, int block_size) {
    std::vector<Area> areas;
    for (const FieldRow& row : rows) {
        if (row.partition >= 0 && !row.chosen) continue;
        const bool partition = row.partition >= 0;
        areas.push_back({static_cast<int>(partition ? row.part_x : row.x),
                         static_cast<int>(partition ? row.part_y : row.y),
                         static_cast<int>(partition ? row.width : block_size),
                         static_cast<int>(partition ? row.height : block_size),
                         static_cast<double>(row.mv_x) / 4, static_cast<double>(row.mv_y) / 4, row.cost});
    }
    return areas;
}

}  // namespace

void draw_field(Picture& picture, const std::vector<FieldRow>& rows, int block_size,
                const DrawOptions& options) {
    const std::vector<Area> areas = areas_of(rows, block_size);
    if (areas.empty()) return;
    if (options.style == DrawStyle::flow) {
        double largest = 0;
        for (const Area& area : areas) largest = std::max(largest, std::hypot(area.dx, area.dy));
        const double full = options.flow_max.value_or(largest);
        for (const Area& area : areas)
            picture.fill(area.x, area.y, area.width, area.height, flow_colour(area.dx, area.dy, full));
        if (options.partitions) {
            for (const Area& area : areas)
                picture.outline(area.x, area.y, area.width, area.height, {64, 64, 64});
        }
        return;
    }
    const auto [lowest, highest] = std::minmax_element(
        areas.begin(), areas.end(), [](const Area& a, const Area& b) { return a.cost < b.cost; });
    const double low = options.cost_max ? 0.0 : static_cast<double>(lowest->cost);
    const double high = options.cost_max ? *options.cost_max : static_cast<double>(highest->cost);
    if (options.partitions) {
        for (const Area& area : areas)
            picture.outline(area.x, area.y, area.width, area.height,
                            partition_colour(area.width, area.height));
    }
    // Arrows last, so that no outline covers one. The centre pixel of an even size is the one right
    // and below the middle: (x + width / 2, y + height / 2).
    for (const Area& area : areas) {
        const Rgb colour = options.partitions ? partition_colour(area.width, area.height)
                           : high > low ? cost_colour((static_cast<double>(area.cost) - low) / (high - low))
                                        : cost_colour(0);
        picture.arrow(area.x + area.width / 2, area.y + area.height / 2, area.dx, area.dy, colour);
    }
}

void draw_decided(Picture& picture, const std::vector<FieldRow>& rows, int block_size) {
    for (const FieldRow& row : rows) {
        if (row.flagged)
            picture.outline(static_cast<int>(row.x), static_cast<int>(row.y), block_size, block_size,
                            flagged_colour);
    }
    // Arrows last, so that no outline covers one; the backward ones under the forward ones.
    const auto centre = [&](const FieldRow& row) {
        return std::pair{static_cast<double>(row.x + block_size / 2),
                         static_cast<double>(row.y + block_size / 2)};
    };
    for (const FieldRow& row : rows) {
        if (row.back_mv_x == 0 && row.back_mv_y == 0) continue;
        const auto [cx, cy] = centre(row);
        picture.arrow(cx, cy, static_cast<double>(row.back_mv_x) / 4, static_cast<double>(row.back_mv_y) / 4,
                      backward_colour);
    }
    for (const FieldRow& row : rows) {
        const auto [cx, cy] = centre(row);
        picture.arrow(cx, cy, static_cast<double>(row.mv_x) / 4, static_cast<double>(row.mv_y) / 4,
                      row.ref < 0 ? decided_past_colour : decided_future_colour);
        if (row.mode == 2) {
            picture.arrow(cx, cy, static_cast<double>(row.mv2_x) / 4, static_cast<double>(row.mv2_y) / 4,
                          decided_future_colour);
        }
    }
}

}  // namespace xme::cli
