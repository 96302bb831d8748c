// One frame's motion drawn over its picture: arrows coloured by cost or by partition, or the flow
// colour wheel (xme(1), `xme draw`).
#pragma once

#include <optional>
#include <vector>

#include "field_file.hpp"
#include "picture.hpp"

namespace xme::cli {

enum class DrawStyle { arrows, flow };

struct DrawOptions {
    DrawStyle style = DrawStyle::arrows;
    bool partitions = false;         // outline the chosen partitions, colour by their shape
    std::optional<double> cost_max;  // the cost drawn red, in the file's cost units; else the frame's range
    std::optional<double> flow_max;  // the magnitude (pixels) of full saturation; else the frame's largest
};

// Draws the rows of one frame. Block rows cover block_size squares; partition rows (a file with
// partitions) are drawn for the partitions of each macroblock's chosen mode.
void draw_field(Picture& picture, const std::vector<FieldRow>& rows, int block_size,
                const DrawOptions& options);

// SPEC §14's rows of one frame (FieldRow::decided): each block's chosen vector from its centre, green
// from a past reference, orange from a future one (a bi-predicted block both); with both directions the
// backward vector of the block at the same place in frame - 1 in cyan, and the blocks whose consistency
// is flagged outlined in red.
inline constexpr Rgb decided_past_colour{64, 220, 64};
inline constexpr Rgb decided_future_colour{255, 150, 0};
inline constexpr Rgb backward_colour{0, 200, 255};
inline constexpr Rgb flagged_colour{255, 0, 0};
void draw_decided(Picture& picture, const std::vector<FieldRow>& rows, int block_size);

}  // namespace xme::cli
