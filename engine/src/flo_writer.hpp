// The ".flo" writer behind open_field_writer (xme/field_io.hpp). Internal to the engine.
#pragma once

#include <memory>
#include <string>

#include "xme/field_io.hpp"

namespace xme {

[[nodiscard]] std::unique_ptr<FieldWriter> open_flo_writer(const std::string& path, FieldLayout layout,
                                                           LumaSize frame);

}  // namespace xme
