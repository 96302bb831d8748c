// The conformance table (ggml's test-backend-ops, x264's checkasm): operations x parameters x devices x
// variants, each row run against the reference. Every row has a status: supported and passed or
// failed, or not supported with the device's reason. A row a device does not support is reported,
// never counted as passed.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "xme/params.hpp"

namespace xme::test {

// The operations of the table: every chain (search x refinement) with the rate and predictor
// settings SPEC §8 defines, on one block size and border mode. XME_TEST_OPERATION, when set, keeps
// the rows whose label contains it (e.g. "tz+qpel").
struct OperationRow {
    std::string label;  // "tz+qpel lambda 4 spatial, centre predictor"
    SearchParams params;
};
[[nodiscard]] std::vector<OperationRow> operation_rows(int block_size, BorderMode border);
[[nodiscard]] std::string describe_operation(const SearchParams& params);

// Tallies per (operation, device, variant), printed as the table at the end of a test case.
class ConformanceTable {
public:
    void passed(const std::string& operation, const DeviceUnderTest& dut);
    void failed(const std::string& operation, const DeviceUnderTest& dut);
    void not_supported(const std::string& operation, const DeviceUnderTest& dut, const std::string& reason);
    // Prints one line per (operation, device, variant) and clears the tallies.
    void report(const std::string& title);

private:
    struct Tally {
        long passed = 0;
        long failed = 0;
        long not_supported = 0;
        std::string reason;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Tally> rows_;
};

}  // namespace xme::test
