// Shared by the compensation tests: whether two CompensatedFrames are identical, described.
#pragma once

#include <string>

#include "xme/compensation.hpp"

namespace xme::test {

// The first difference between two compensations (planes, figures), or empty when identical.
[[nodiscard]] std::string compensation_difference(const CompensatedFrame& expected,
                                                  const CompensatedFrame& actual);

}  // namespace xme::test
