// The Python module `xme` (its native part, xme._xme): its errors, the process's registry of devices, and
// xme.devices().
#include <exception>
#include <map>

#include "bindings.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/version.hpp"
#include "xme/video.hpp"

namespace xme::python {

namespace {

std::mutex registry_mutex;
std::unique_ptr<Registry> the_registry;  // guarded by registry_mutex; made on first use

// xme.Error and one subclass per ErrorKind; invalid arguments are also ValueErrors, bad input OSErrors.
std::map<ErrorKind, py::object>& error_classes() {
    static auto* classes = new std::map<ErrorKind, py::object>();  // never destroyed: outlives the module
    return *classes;
}

void register_errors(py::module_& module) {
    const std::string module_name = "xme";  // the package (python/xme/__init__.py) that re-exports them
    auto make = [&](const char* name, py::handle bases) {
        const std::string qualified = module_name + "." + name;
        py::object cls =
            py::reinterpret_steal<py::object>(PyErr_NewException(qualified.c_str(), bases.ptr(), nullptr));
        module.attr(name) = cls;
        return cls;
    };
    py::object base = make("Error", PyExc_RuntimeError);
    base.attr("__doc__") =
        "An error of xme: the message is xme's own; kind and exit_code say its category "
        "as the CLI's exit status does.";
    auto& classes = error_classes();
    classes[ErrorKind::invalid_argument] =
        make("InvalidArgument", py::make_tuple(base, py::handle(PyExc_ValueError)));
    classes[ErrorKind::bad_input] = make("BadInput", py::make_tuple(base, py::handle(PyExc_OSError)));
    classes[ErrorKind::unsupported] = make("Unsupported", base);
    classes[ErrorKind::device] = make("DeviceError", base);
    classes[ErrorKind::mismatch] = make("Mismatch", base);
    classes[ErrorKind::io] = make("OutputError", py::make_tuple(base, py::handle(PyExc_OSError)));

    py::register_exception_translator([](std::exception_ptr pointer) {
        if (!pointer) return;
        try {
            std::rethrow_exception(pointer);
        } catch (const Error& error) {
            static const char* const kinds[] = {
                "", "", "invalid_argument", "bad_input", "unsupported", "device", "mismatch", "io"};
            const py::object& cls = error_classes().at(error.kind());
            // OSError's two-argument form would reorder the message: give it the message alone.
            py::object instance = cls(error.what());
            instance.attr("kind") = kinds[error.exit_code()];
            instance.attr("exit_code") = error.exit_code();
            PyErr_SetObject(cls.ptr(), instance.ptr());
        }
    });
}

py::list list_devices() {
    auto access = registry();
    std::string best;
    try {
        best = access.registry.best_device_name();
    } catch (const Error&) {
        // no device available: each entry says why
    }
    py::list out;
    for (const DeviceInfo& info : access.registry.devices()) {
        py::dict entry;
        entry["name"] = info.name;
        entry["backend"] = info.backend;
        entry["description"] = info.description;
        entry["available"] = info.available;
        entry["reason"] = info.unavailable_reason;
        entry["variants"] = info.variants;
        entry["on_host_cores"] = info.on_host_cores;
        entry["default"] = info.name == best;
        out.append(entry);
    }
    return out;
}

}  // namespace

RegistryAccess registry() {
    std::unique_lock lock(registry_mutex);
    if (!the_registry) the_registry = std::make_unique<Registry>(make_builtin_registry());
    return {std::move(lock), *the_registry};
}

void release_registry() {
    const std::lock_guard lock(registry_mutex);
    the_registry.reset();
}

}  // namespace xme::python

PYBIND11_MODULE(_xme, module) {
    namespace py = pybind11;
    using namespace xme::python;
    module.doc() =
        "xme: block motion estimation on the CPU, CUDA and Vulkan devices, bit-exact with "
        "docs/SPEC.md's reference.";
    module.attr("__version__") = xme::version();
    module.attr("__license__") = XME_LICENSE;
    register_errors(module);
    bind_field(module);
    bind_video(module);
    bind_estimate(module);
    bind_estimator(module);
    bind_references(module);
    bind_compare(module);
    bind_run_estimate(module);
    module.def("devices", &list_devices,
               "Every device of every backend in this build, and every backend left out: a list of dicts "
               "with name, backend, description, available, reason (why it is unavailable or absent), "
               "variants (the first is the default), on_host_cores (it computes on this machine's CPU cores: "
               "two such devices under split compete for them) and default (the one device='auto' opens).");
    module.def("ffmpeg_available", &xme::ffmpeg_available,
               "Whether open_video reads containers and codecs through FFmpeg (else .y4m and raw only).");
    // Devices are closed before the interpreter exits, while every GPU driver is still loaded.
    py::module_::import("atexit").attr("register")(py::cpp_function([] {
        finish_interrupted_work();  // interrupted calls' pairs still on the devices
        release_device_cache();
        release_job_devices();
        release_registry();
    }));
}
