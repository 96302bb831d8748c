#include "conformance_table.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>

#include "xme/operations.hpp"

namespace xme::test {
namespace {

// SPEC §8's settings the table crosses with every chain: the pure distortion, and the rate term with
// each predictor (the temporal one restarting every other pair, the spatial one centring the window).
struct RateSetting {
    int lambda;
    Predictor predictor;
    WindowCentre centre;
    int refresh;
};
constexpr RateSetting rate_settings[] = {{0, Predictor::none, WindowCentre::zero, 0},
                                         {4, Predictor::spatial, WindowCentre::predictor, 0},
                                         {40, Predictor::temporal, WindowCentre::zero, 0},
                                         {4, Predictor::temporal, WindowCentre::predictor, 2}};

}  // namespace

std::string describe_operation(const SearchParams& p) {
    std::string label = chain_name(p) + " lambda " + std::to_string(p.lambda);
    if (p.predictor != Predictor::none) label += " " + std::string(to_string(p.predictor));
    if (p.centre == WindowCentre::predictor) label += ", centre predictor";
    if (p.refresh > 0) label += ", refresh " + std::to_string(p.refresh);
    return label;
}

std::vector<OperationRow> operation_rows(int block_size, BorderMode border) {
    const char* only = std::getenv("XME_TEST_OPERATION");
    std::vector<OperationRow> rows;
    // One chain with every rate setting.
    const auto add_chain = [&](SearchMethod search, Subpel subpel, Partitions partitions) {
        for (const auto& rate : rate_settings) {
            SearchParams params;
            params.block_size = block_size;
            params.border = border;
            params.search = search;
            params.subpel = subpel;
            params.partitions = partitions;
            params.lambda = rate.lambda;
            params.predictor = rate.predictor;
            params.centre = rate.centre;
            params.refresh = rate.refresh;
            const std::string label = describe_operation(params);
            if (only != nullptr && label.find(only) == std::string::npos) continue;
            rows.push_back({label, params});
        }
    };
    // Every search and refinement of the table of operations, at the block sizes each is defined for.
    for (const StageDescription& search : stages_of(StageKind::integer_search)) {
        if (block_size < search.min_block_size) continue;
        for (const StageDescription& subpel : stages_of(StageKind::refinement))
            add_chain(static_cast<SearchMethod>(search.code), static_cast<Subpel>(subpel.code),
                      Partitions::none);
    }
    // SPEC §9: the 41 partitions on the full search's window of a 16x16 macroblock, integer and quarter-pel;
    // the integer one also with a rate term and no predictor (qp 28's lambda: the settings above pair
    // lambda > 0 with a predictor), and with the spatial predictor around a window centred on 0 (the
    // settings above centre it on the predictor; the GPUs walk a wavefront for it, either way).
    if (block_size == 16) {
        for (const auto subpel : {Subpel::none, Subpel::qpel})
            add_chain(SearchMethod::full, subpel, Partitions::all);
        for (const auto predictor : {Predictor::none, Predictor::spatial}) {
            SearchParams params;
            params.block_size = block_size;
            params.border = border;
            params.partitions = Partitions::all;
            params.lambda = 6;
            params.predictor = predictor;
            const std::string label = describe_operation(params);
            if (only == nullptr || label.find(only) != std::string::npos) rows.push_back({label, params});
        }
    }
    return rows;
}

void ConformanceTable::passed(const std::string& operation, const DeviceUnderTest& dut) {
    ++rows_[{operation, dut.device->info().name, dut.variant}].passed;
}

void ConformanceTable::failed(const std::string& operation, const DeviceUnderTest& dut) {
    ++rows_[{operation, dut.device->info().name, dut.variant}].failed;
}

void ConformanceTable::not_supported(const std::string& operation, const DeviceUnderTest& dut,
                                     const std::string& reason) {
    Tally& tally = rows_[{operation, dut.device->info().name, dut.variant}];
    ++tally.not_supported;
    tally.reason = reason;
}

void ConformanceTable::report(const std::string& title) {
    std::ostringstream text;
    long passed = 0;
    long failed = 0;
    long unsupported = 0;
    for (const auto& [key, tally] : rows_) {
        const auto& [operation, device, variant] = key;
        text << "  " << operation << " | " << device << " " << variant << " | ";
        if (tally.not_supported > 0) {
            text << "not supported (" << tally.reason << ")";
        } else {
            text << (tally.failed > 0 ? "FAILED " : "passed ") << tally.passed << " of "
                 << tally.passed + tally.failed << " cases";
        }
        text << "\n";
        passed += tally.passed;
        failed += tally.failed;
        unsupported += tally.not_supported > 0 ? 1 : 0;
    }
    MESSAGE(title, ": ", passed, " cases passed, ", failed, " failed, ", unsupported,
            " rows not supported (not counted as passed)\n", text.str());
    rows_.clear();
}

}  // namespace xme::test
