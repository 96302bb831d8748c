// xme.estimate(): one frame pair on a device opened once per process and name.
#include <map>

#include "bindings.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"

namespace xme::python {

namespace {

std::mutex cache_mutex;
std::map<std::string, std::shared_ptr<CachedDevice>> device_cache;  // guarded by cache_mutex

FieldArrays estimate(const py::handle& reference_array, const py::handle& current_array,
                     const py::kwargs& keywords) {
    const JobKeywords job = parse_keywords(keywords, false);
    const PairInput pair = pair_input(reference_array, current_array, job.session);
    MotionField field;
    std::string device_name;
    {
        const py::gil_scoped_release release;  // opening a GPU and searching take no Python objects
        const std::shared_ptr<CachedDevice> cached = cached_device(job.devices.front());
        const std::lock_guard lock(cached->busy);
        require_supported(cached->device->supports(pair.session));
        field = estimate_pair(*cached->device, pair.session, pair.reference.view, pair.current.view);
        device_name = cached->device->info().name;
    }
    return field_arrays(field, 1, device_name, 0);
}

}  // namespace

std::shared_ptr<CachedDevice> cached_device(const std::string& name) {
    const std::lock_guard lock(cache_mutex);
    auto& entry = device_cache[name];
    if (!entry) {
        auto opened = std::make_shared<CachedDevice>();
        opened->device = registry().registry.open(name);
        entry = std::move(opened);
    }
    return entry;
}

void release_device_cache() {
    const std::lock_guard lock(cache_mutex);
    device_cache.clear();
}

void bind_estimate(py::module_& module) {
    const std::string doc = std::string(R"(estimate(reference, current, **options) -> xme.Field

The motion of `current` against `reference`: two 2-D uint8 arrays (height, width) of one size, in any
strides (viewed in place where each row's samples are adjacent, copied otherwise). The device is opened
on first use and kept for later calls; the GIL is released while it works.

)") + keywords_help();
    module.def("estimate", &estimate, doc.c_str(), py::arg("reference"), py::arg("current"));
}

}  // namespace xme::python
