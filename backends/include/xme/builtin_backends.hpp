// The backends compiled into this build of xme, ready to list and open.
#pragma once

#include "xme/registry.hpp"

namespace xme {

// Every backend this build has, in listing order, and an entry with the reason for each one left out.
[[nodiscard]] Registry make_builtin_registry();

}  // namespace xme
