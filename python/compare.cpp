// xme.compare(): one frame pair on several devices, and whether they agree under SPEC §6, as
// `xme compare` checks them (an exact device as the expected side; each device's own costs against
// the reference's cost of its vectors).
#include <algorithm>
#include <utility>

#include "bindings.hpp"
#include "xme/agreement.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"

namespace xme::python {

namespace {

struct DeviceRun {
    std::string name;
    Support support;
    MotionField field;
};

py::dict agreement_entry(const std::vector<DeviceRun>& runs, std::size_t first, std::size_t second,
                         const PlaneView& reference, const PlaneView& current, const SearchParams& params) {
    std::size_t expected = first;
    std::size_t actual = second;
    const std::uint32_t tolerance = std::max(runs[first].support.tolerance, runs[second].support.tolerance);
    if (runs[expected].support.tolerance > 0)
        std::swap(expected, actual);  // a filtered device is never expected
    const Agreement result =
        expected == actual
            ? check_reported_costs(reference, current, params, runs[actual].field, tolerance)
            : compare_fields(reference, current, params, runs[expected].field, runs[actual].field, tolerance);
    py::list mismatches;
    for (const auto& mismatch : result.mismatches) mismatches.append(describe(mismatch, params.block_size));
    // Labelled as `xme compare --json` labels them: a device's own costs are checked against "reference
    // costs", not against itself.
    const std::string actual_name = expected == actual ? "reference costs" : runs[actual].name;
    py::dict entry;
    entry["pair"] = runs[expected].name + " vs " + actual_name;
    entry["expected"] = runs[expected].name;
    entry["actual"] = actual_name;
    entry["tolerance"] = tolerance;
    entry["blocks_compared"] = result.blocks_compared;
    entry["blocks_different"] = result.blocks_different;
    entry["mismatches"] = mismatches;
    entry["agrees"] = result.agrees();
    return entry;
}

py::dict compare(const py::handle& reference_array, const py::handle& current_array,
                 const py::kwargs& keywords) {
    auto options = py::reinterpret_steal<py::kwargs>(PyDict_Copy(keywords.ptr()));
    std::vector<std::string> names{"cpu", "reference"};
    if (options.contains("devices")) {
        try {
            names = options["devices"].cast<std::vector<std::string>>();
        } catch (const py::cast_error&) {
            throw Error(ErrorKind::invalid_argument,
                        "devices must be a list of device names, as [\"cpu\", \"reference\"]");
        }
        PyDict_DelItemString(options.ptr(), "devices");
    }
    if (names.size() < 2) throw Error(ErrorKind::invalid_argument, "compare needs at least two devices");
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
            names.begin() + static_cast<std::ptrdiff_t>(i))
            throw Error(ErrorKind::invalid_argument, "device " + names[i] + " is listed twice");
    }
    const JobKeywords job = parse_keywords(options, false);
    // The pair and the runs, kept alive by run_interruptibly while the devices work.
    struct CompareCall {
        PairInput pair;
        std::vector<std::string> names;
        std::vector<DeviceRun> runs;
    };
    const auto call = std::make_shared<CompareCall>(
        CompareCall{pair_input(reference_array, current_array, job.session), names, {}});
    call->runs.resize(names.size());
    const PlaneView& reference = call->pair.reference.view;
    const PlaneView& current = call->pair.current.view;
    const SessionOptions& session = call->pair.session;
    std::vector<DeviceRun>& runs = call->runs;
    run_interruptibly(
        [&call = *call](const std::atomic<bool>& stop) {
            // Every device says whether it can run the chain before any of them works.
            std::vector<std::shared_ptr<CachedDevice>> devices;
            for (std::size_t i = 0; i < call.names.size(); ++i) {
                devices.push_back(cached_device(call.names[i]));
                const std::lock_guard lock(devices.back()->busy);
                call.runs[i].name = devices.back()->device->info().name;
                call.runs[i].support = devices.back()->device->supports(call.pair.session);
                require_supported(call.runs[i].support);
            }
            for (std::size_t i = 0; i < call.names.size() && !stop; ++i) {  // interrupted: no more devices
                const std::lock_guard lock(devices[i]->busy);
                call.runs[i].field = estimate_pair(*devices[i]->device, call.pair.session,
                                                   call.pair.reference.view, call.pair.current.view);
            }
        },
        call);
    py::dict fields;
    py::list agreements;
    bool agree = true;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        fields[py::str(runs[i].name)] = field_arrays(runs[i].field, 1, runs[i].name, 0);
        for (std::size_t j = i; j < runs.size(); ++j) {
            py::dict entry = agreement_entry(runs, i, j, reference, current, session.params);
            agree = agree && entry["agrees"].cast<bool>();
            agreements.append(entry);
        }
    }
    py::dict report;
    report["fields"] = fields;
    report["agreements"] = agreements;
    report["agree"] = agree;
    return report;
}

}  // namespace

void bind_compare(py::module_& module) {
    const std::string doc =
        std::string(R"(compare(reference, current, devices=["cpu", "reference"], **options) -> dict

The pair on every device, checked as `xme compare` checks them (SPEC §6): every device against every
other, an exact one as the expected side, and each one's reported costs against the reference's cost
of its vectors. Returns {"agree": bool, "fields": {device: xme.Field}, "agreements": [{"pair",
"expected", "actual" (a device, or "reference costs" for its own costs' check), "tolerance",
"blocks_compared", "blocks_different", "mismatches" (descriptions), "agrees"}]}. A device that cannot
run the chain refuses before any works. Ctrl-C raises KeyboardInterrupt at once; the device at work
finishes the pair on its own, and the devices after it are not started.

)") + keywords_help();
    module.def("compare", &compare, doc.c_str(), py::arg("reference"), py::arg("current"));
}

}  // namespace xme::python
