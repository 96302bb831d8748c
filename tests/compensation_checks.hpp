// Shared by the compensation tests: whether two CompensatedFrames are identical, described.
#pragma once

#include <string>
#include <vector>

#include "xme/compensation.hpp"
#include "xme/device.hpp"

namespace xme::test {

// The first difference between two compensations (planes, figures), or empty when identical.
[[nodiscard]] std::string compensation_difference(const CompensatedFrame& expected,
                                                  const CompensatedFrame& actual);

// Streams `frames` through open_compensating_session(device, options), every pair submitted before
// the first result is taken, and checks each pair's compensation against compensate() of the field
// the device returned; failures name `name` and the pair.
void check_streamed_compensation(Device& device, const SessionOptions& options,
                                 const std::vector<Plane>& frames, const std::string& name);

}  // namespace xme::test
