// `-o -`: motion vectors as CSV on standard output, for a pipe. NPY cannot go there: its header
// holds the row count, rewritten after every frame, and a pipe cannot seek back to it.
#pragma once

#include <memory>

#include "xme/field_io.hpp"

namespace xme::cli {

// The columns and rows of open_field_writer's ".csv", flushed after every frame; a failed write
// throws Error(io).
[[nodiscard]] std::unique_ptr<FieldWriter> open_stdout_csv_writer(FieldLayout layout);

}  // namespace xme::cli
