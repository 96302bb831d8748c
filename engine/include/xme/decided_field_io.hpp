// The rows of SPEC §14's runs (several references, both directions): -o's CSV and NPY with the columns
// of xme/field_io.hpp first, where they are there, then what §14 adds.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "xme/reference_run.hpp"

namespace xme {

// frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates (as field_io's; mv the chosen reference's,
// for `both` the past one), then ref (its signed distance), mode (past, future, both; NPY 0, 1, 2),
// mv2_x,mv2_y,ref2 (the future vector and distance of a `both` block, else 0), back_mv_x,back_mv_y (with
// both directions: the backward vector of the block at (x, y) of frame - 1, else 0), consistency and
// flagged (§14's figure and flag, else 0).
inline constexpr int decided_columns = 18;
[[nodiscard]] std::string decided_csv_header();
[[nodiscard]] std::string decided_csv_rows(const DecidedFrame& frame);

class DecidedFieldWriter {
public:
    virtual ~DecidedFieldWriter() = default;
    // Appends one frame's rows; written and cut back as FieldWriter's files are (xme/field_io.hpp).
    virtual void write(const DecidedFrame& frame) = 0;
    // Keeps the first `frames` frames (all when negative) and renames the file into place.
    virtual void finish(std::int64_t frames) = 0;
};

// ".csv" or ".npy" (int32, (rows, 18)); Error(invalid_argument) for another extension.
[[nodiscard]] std::unique_ptr<DecidedFieldWriter> open_decided_field_writer(const std::string& path);

}  // namespace xme
