// xme.References: SPEC §14 (several references, both directions) over a stream of frames fed from
// Python, through the engine's ReferenceRun on one device; each decided frame comes back as arrays
// (xme.DecidedField).
#include "xme/references.hpp"

#include <optional>

#include "bindings.hpp"
#include "xme/error.hpp"
#include "xme/reference_run.hpp"

namespace xme::python {

namespace {

// One decided frame as Python sees it.
struct DecidedArrays {
    std::int64_t frame = 0;
    std::string device;
    int block_size = 0;
    std::string cost_kind;
    double mc_psnr_db = 0;
    double device_seconds = 0;
    py::array vectors;  // (by, bx, 2) int16: the chosen vector (a `both` block's past one), quarter pel
    py::array refs;     // (by, bx) int8: its reference's signed distance
    py::array modes;    // (by, bx) uint8: 0 past, 1 future, 2 both
    py::array second_vectors;                  // (by, bx, 2) int16: a `both` block's future vector, else 0
    py::array second_refs;                     // (by, bx) int8: its distance, else 0
    py::array cost;                            // (by, bx) uint32: J of the chosen mode
    py::array bits;                            // (by, bx) uint32: its rate bits
    py::array candidates;                      // (by, bx) uint32: every reference's search's candidates
    py::object consistency = py::none();       // (by, bx) uint32 with direction="both"
    py::object backward_vectors = py::none();  // (by, bx, 2) int16: frame - 1's backward field
};

DecidedArrays arrays_of(const DecidedFrame& frame, const std::string& device) {
    const DecidedField& field = frame.decided;
    DecidedArrays out;
    out.frame = frame.frame;
    out.device = device;
    out.block_size = field.block_size;
    out.cost_kind = to_string(field.cost_kind);
    out.mc_psnr_db = frame.mc_psnr_db;
    out.device_seconds = frame.device_seconds;
    const py::ssize_t rows = field.blocks_y;
    const py::ssize_t columns = field.blocks_x;
    py::array_t<std::int16_t> vectors({rows, columns, py::ssize_t{2}});
    py::array_t<std::int16_t> second({rows, columns, py::ssize_t{2}});
    py::array_t<std::int8_t> refs({rows, columns});
    py::array_t<std::int8_t> second_refs({rows, columns});
    py::array_t<std::uint8_t> modes({rows, columns});
    py::array_t<std::uint32_t> cost({rows, columns});
    py::array_t<std::uint32_t> bits({rows, columns});
    py::array_t<std::uint32_t> candidates({rows, columns});
    auto v = vectors.mutable_unchecked<3>();
    auto s = second.mutable_unchecked<3>();
    auto r = refs.mutable_unchecked<2>();
    auto r2 = second_refs.mutable_unchecked<2>();
    auto m = modes.mutable_unchecked<2>();
    auto c = cost.mutable_unchecked<2>();
    auto b = bits.mutable_unchecked<2>();
    auto n = candidates.mutable_unchecked<2>();
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const DecidedBlock& block = field.at(bx, by);
            v(by, bx, 0) = static_cast<std::int16_t>(block.mv.x);
            v(by, bx, 1) = static_cast<std::int16_t>(block.mv.y);
            s(by, bx, 0) = static_cast<std::int16_t>(block.second_mv.x);
            s(by, bx, 1) = static_cast<std::int16_t>(block.second_mv.y);
            r(by, bx) = static_cast<std::int8_t>(block.distance);
            r2(by, bx) = static_cast<std::int8_t>(block.second_distance);
            m(by, bx) = static_cast<std::uint8_t>(block.mode);
            c(by, bx) = block.cost;
            b(by, bx) = block.bits;
            n(by, bx) = block.candidates;
        }
    }
    out.vectors = std::move(vectors);
    out.second_vectors = std::move(second);
    out.refs = std::move(refs);
    out.second_refs = std::move(second_refs);
    out.modes = std::move(modes);
    out.cost = std::move(cost);
    out.bits = std::move(bits);
    out.candidates = std::move(candidates);
    if (!frame.consistency.empty()) {
        py::array_t<std::uint32_t> consistency({rows, columns});
        auto k = consistency.mutable_unchecked<2>();
        for (py::ssize_t i = 0; i < rows * columns; ++i)
            k(i / columns, i % columns) = frame.consistency[static_cast<std::size_t>(i)];
        out.consistency = std::move(consistency);
    }
    if (frame.backward) {
        py::array_t<std::int16_t> backward({rows, columns, py::ssize_t{2}});
        auto w = backward.mutable_unchecked<3>();
        for (int by = 0; by < field.blocks_y; ++by) {
            for (int bx = 0; bx < field.blocks_x; ++bx) {
                w(by, bx, 0) = frame.backward->at(bx, by).mv_x;
                w(by, bx, 1) = frame.backward->at(bx, by).mv_y;
            }
        }
        out.backward_vectors = std::move(backward);
    }
    return out;
}

class References {
public:
    explicit References(const py::kwargs& keywords) {
        py::dict rest;
        for (const auto& [key, value] : keywords) {
            const std::string name = key.cast<std::string>();
            if (name == "refs") {
                references_.distances = keyword_distances(value);
            } else if (name == "direction") {
                if (!py::isinstance<py::str>(value))
                    throw Error(ErrorKind::invalid_argument, "direction is a str: \"forward\" or \"both\"");
                references_.both_directions = parse_direction(value.cast<std::string>());
            } else {
                rest[key] = value;
            }
        }
        job_ = parse_keywords(rest, false);
        references_.validate(job_.session.params);
    }

    py::list feed(const py::handle& array) {
        Frame frame = frame_from_array(array, "frame " + std::to_string(frames_fed_));
        if (!run_) open(frame.width(), frame.height());
        if (frame.width() != width_ || frame.height() != height_) {
            throw Error(ErrorKind::invalid_argument,
                        "frame " + std::to_string(frames_fed_) + " is " + std::to_string(frame.width()) +
                            "x" + std::to_string(frame.height()) + " but the stream's frames are " +
                            std::to_string(width_) + "x" + std::to_string(height_));
        }
        ++frames_fed_;
        std::vector<DecidedFrame> decided;
        {
            const py::gil_scoped_release release;
            const std::lock_guard lock(device_->busy);
            decided = run_->feed(std::make_shared<const Frame>(std::move(frame)));
        }
        return listed(decided);
    }

    py::list finish() {
        if (!run_) return py::list();
        std::vector<DecidedFrame> decided;
        {
            const py::gil_scoped_release release;
            const std::lock_guard lock(device_->busy);
            decided = run_->finish();
        }
        run_.reset();
        return listed(decided);
    }

private:
    static std::vector<int> keyword_distances(const py::handle& value) {
        if (py::isinstance<py::str>(value)) return parse_reference_list(value.cast<std::string>(), "refs");
        if (!py::isinstance<py::sequence>(value))
            throw Error(ErrorKind::invalid_argument,
                        "refs is " + type_name(value) + ": give a list such as [-1, 1]");
        std::vector<int> distances;
        for (const auto& item : value.cast<py::sequence>()) {
            if (!py::isinstance<py::int_>(item))
                throw Error(ErrorKind::invalid_argument,
                            "refs holds " + type_name(item) + ": frame distances are ints");
            distances.push_back(item.cast<int>());
        }
        return distances;
    }

    void open(int width, int height) {
        width_ = width;
        height_ = height;
        SessionOptions options = job_.session;
        options.width = width;
        options.height = height;
        std::string name = job_.devices.front();
        if (name == "auto") name = registry().registry.best_device_name();
        device_ = cached_device(name);
        const py::gil_scoped_release release;
        const std::lock_guard lock(device_->busy);
        run_.emplace(*device_->device, options, references_);
    }

    py::list listed(const std::vector<DecidedFrame>& decided) const {
        py::list out;
        for (const DecidedFrame& frame : decided) out.append(arrays_of(frame, device_->device->info().name));
        return out;
    }

    JobKeywords job_;
    ReferenceOptions references_;
    std::shared_ptr<CachedDevice> device_;
    std::optional<ReferenceRun> run_;
    int width_ = 0;
    int height_ = 0;
    std::int64_t frames_fed_ = 0;
};

}  // namespace

void bind_references(py::module_& module) {
    py::class_<DecidedArrays>(
        module, "DecidedField",
        "One frame decided by SPEC §14 (xme.References): its arrays, one cell per block")
        .def_readonly("frame", &DecidedArrays::frame)
        .def_readonly("device", &DecidedArrays::device)
        .def_readonly("block_size", &DecidedArrays::block_size)
        .def_readonly("cost_kind", &DecidedArrays::cost_kind)
        .def_readonly("mc_psnr_db", &DecidedArrays::mc_psnr_db)
        .def_readonly("device_seconds", &DecidedArrays::device_seconds)
        .def_readonly("vectors", &DecidedArrays::vectors, "(by, bx, 2) int16, quarter pel: the chosen vector")
        .def_readonly("refs", &DecidedArrays::refs, "(by, bx) int8: its reference's signed frame distance")
        .def_readonly("modes", &DecidedArrays::modes, "(by, bx) uint8: 0 past, 1 future, 2 both")
        .def_readonly("second_vectors", &DecidedArrays::second_vectors,
                      "(by, bx, 2) int16: a bi-predicted block's future vector, else 0")
        .def_readonly("second_refs", &DecidedArrays::second_refs, "(by, bx) int8: its distance, else 0")
        .def_readonly("cost", &DecidedArrays::cost, "(by, bx) uint32: J of the chosen mode")
        .def_readonly("bits", &DecidedArrays::bits, "(by, bx) uint32: its rate bits")
        .def_readonly("candidates", &DecidedArrays::candidates, "(by, bx) uint32")
        .def_readonly("consistency", &DecidedArrays::consistency,
                      "(by, bx) uint32, quarter pel, with direction='both'; else None")
        .def_readonly(
            "backward_vectors", &DecidedArrays::backward_vectors,
            "(by, bx, 2) int16: frame - 1's vectors towards this frame, with direction='both'; else None");
    const std::string doc =
        std::string(R"(References(refs=[-1, -2] or "-1,+1", direction="forward", **options)

SPEC §14 over a stream of frames on one device: feed(frame) takes the next 2-D uint8 array and returns the
frames decided so far (a frame waits for its furthest future reference), finish() the rest; each an
xme.DecidedField. The same decisions as `xme estimate --refs ... --direction ...`.

)") + keywords_help();
    py::class_<References>(module, "References", doc.c_str())
        .def(py::init<const py::kwargs&>())
        .def("feed", &References::feed, py::arg("frame"), "Takes the next frame; returns the frames decided")
        .def("finish", &References::finish, "Ends the stream; returns every frame not yet decided");
}

}  // namespace xme::python
