// Internal: the registry lists the reference device in every build, after the compiled-in backends.
#pragma once

#include <memory>

#include "xme/backend.hpp"

namespace xme {

[[nodiscard]] std::unique_ptr<Backend> make_reference_backend();

}  // namespace xme
