// xme.run_estimate(arguments): a whole `xme estimate` job in this process, its registry and devices opened
// once per process and kept for the next job (docs/python.md, "Jobs"; the corpus's workers, docs/corpus.md).
#include <map>

#include "bindings.hpp"
#include "estimate_job.hpp"
#include "interrupt.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"

namespace xme::python {

namespace {

// What jobs share: one job at a time (a device serves one scheduler), on devices opened by the first
// job that named them. Separate from estimate()'s devices, which serve one pair at a time.
struct JobDevices {
    std::mutex one_job;
    std::unique_ptr<Registry> registry;  // guarded by one_job
    std::mutex opened_mutex;             // a split job opens its devices on several threads
    std::map<std::string, std::shared_ptr<Device>> opened;
};

JobDevices& job_devices() {
    static auto* devices = new JobDevices();  // never destroyed: release_job_devices() empties it
    return *devices;
}

std::shared_ptr<Device> open_kept(JobDevices& devices, const std::string& name) {
    const std::lock_guard lock(devices.opened_mutex);
    std::shared_ptr<Device>& device = devices.opened[name];
    if (!device) device = devices.registry->open(name);
    return device;
}

void run_job(const std::vector<std::string>& arguments, const std::atomic<bool>& stop) {
    JobDevices& devices = job_devices();
    const std::lock_guard one_job(devices.one_job);
    if (!devices.registry) devices.registry = std::make_unique<Registry>(make_builtin_registry());
    try {
        cli::run_estimate_arguments(arguments, [&](cli::EstimateSettings& settings) {
            settings.registry = devices.registry.get();
            settings.open_device = [&devices](const std::string& name) { return open_kept(devices, name); };
            settings.stop = &stop;
            settings.quiet = true;  // a table or a progress bar would go into the caller's own output
        });
    } catch (const Error& error) {
        // A device that failed may stay failed (a CUDA context after a fault): the next job opens anew.
        if (error.kind() == ErrorKind::device) {
            const std::lock_guard lock(devices.opened_mutex);
            devices.opened.clear();
        }
        throw;
    }
}

void run_estimate(const std::vector<std::string>& arguments) {
    // Ctrl-C stops the job between pairs and waits for it: its outputs end whole, as the CLI's do, and
    // nothing is left writing behind the caller's back.
    try {
        run_interruptibly([&arguments](const std::atomic<bool>& stop) { run_job(arguments, stop); }, nullptr,
                          OnSignal::wait);
    } catch (const cli::Interrupted& interrupted) {  // stopped by a signal another library handled
        PyErr_SetString(PyExc_KeyboardInterrupt, interrupted.what());
        throw py::error_already_set();
    }
}

}  // namespace

void release_job_devices() {
    JobDevices& devices = job_devices();
    const std::lock_guard one_job(devices.one_job);
    {
        const std::lock_guard lock(devices.opened_mutex);
        devices.opened.clear();
    }
    devices.registry.reset();
}

void bind_run_estimate(py::module_& module) {
    module.def("run_estimate", &run_estimate, py::arg("arguments"),
               R"(run_estimate(arguments) -> None

Runs `xme estimate ARGUMENTS...` in this process: the same options, outputs (-o, --json, --export-mvs,
--prediction, --draw ...) and files, byte for byte, as the command writes, without a summary table or
progress (-q). The registry and every device a job opens stay open for the next job of this process
(a GPU's context and first launches are paid once); jobs run one at a time. An error raises the
xme.Error subclass of the command's exit status (a bad option: xme.InvalidArgument); Ctrl-C stops the
job between pairs, its outputs ended whole, and raises KeyboardInterrupt.)");
    module.def(
        "check_estimate_arguments",
        [](const std::vector<std::string>& arguments) {
            const cli::EstimateCheck check = cli::check_estimate_arguments(arguments);
            py::dict facts;
            facts["reads_previous_pair"] = check.reads_previous_pair;
            facts["policy"] = std::string(to_string(check.policy));
            facts["devices"] = check.devices;
            facts["refresh"] = check.refresh;
            facts["threads"] = check.threads;
            return facts;
        },
        py::arg("arguments"),
        "Parses `xme estimate ARGUMENTS...` and makes its settings as run_estimate() would, and runs "
        "nothing: "
        "xme.InvalidArgument names a bad option. Returns what a caller needs of the job, as the CLI read "
        "it: {'reads_previous_pair': bool (SPEC §8: the temporal predictor, umh's predictor set), 'policy', "
        "'devices' (as given, 'auto' by default), 'refresh', 'threads' (0: not given)}.");
    module.def("estimate_option_names", &cli::estimate_option_names,
               "Every option name of `xme estimate` with whether it takes a value: [(name, takes_value)].");
}

}  // namespace xme::python
