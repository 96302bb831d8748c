// numpy arrays in, numpy arrays out: planes viewed in place where their layout allows, fields as arrays.
#include <cstring>
#include <utility>

#include "bindings.hpp"
#include "xme/error.hpp"
#include "xme/macroblock.hpp"

namespace xme::python {

std::string type_name(const py::handle& object) {
    return py::str(py::type::of(object).attr("__name__")).cast<std::string>();
}

namespace {

// Throws unless `object` is a 2-D uint8 array of a size xme handles; returns it as an array.
py::array checked_array(const py::handle& object, const std::string& what) {
    if (!py::isinstance<py::array>(object)) {
        throw Error(ErrorKind::invalid_argument,
                    what + " is a " + type_name(object) +
                        ": give a 2-D numpy array of uint8 samples (height, width), e.g. a frame's luma");
    }
    auto array = py::reinterpret_borrow<py::array>(object);
    if (array.ndim() != 2) {
        throw Error(ErrorKind::invalid_argument,
                    what + " has " + std::to_string(array.ndim()) +
                        " dimensions: give a 2-D array (height, width) of one plane, e.g. the luma");
    }
    if (!array.dtype().is(py::dtype::of<std::uint8_t>())) {
        throw Error(ErrorKind::invalid_argument,
                    what + " holds " + py::str(array.dtype()).cast<std::string>() +
                        " samples: xme estimates 8-bit ones; convert with .astype(numpy.uint8) (deeper "
                        "samples shifted down first)");
    }
    const auto height = array.shape(0);
    const auto width = array.shape(1);
    if (width < 1 || height < 1 || width > max_frame_dimension || height > max_frame_dimension) {
        throw Error(ErrorKind::invalid_argument, what + " is " + std::to_string(width) + "x" +
                                                     std::to_string(height) +
                                                     " (width x height): xme handles 1.." +
                                                     std::to_string(max_frame_dimension) + " in each");
    }
    return array;
}

// Copies any layout (negative or gapped strides) into a packed plane.
Plane packed_copy(const py::array& array) {
    const int height = static_cast<int>(array.shape(0));
    const int width = static_cast<int>(array.shape(1));
    const auto* origin = static_cast<const std::uint8_t*>(array.data());
    const py::ssize_t row_step = array.strides(0);
    const py::ssize_t column_step = array.strides(1);
    Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* row = origin + y * row_step;
        std::uint8_t* out = plane.row(y);
        if (column_step == 1) {
            std::memcpy(out, row, static_cast<std::size_t>(width));
        } else {
            for (int x = 0; x < width; ++x) out[x] = row[x * column_step];
        }
    }
    return plane;
}

}  // namespace

PlaneInput plane_input(const py::handle& object, const std::string& what) {
    py::array array = checked_array(object, what);
    const int height = static_cast<int>(array.shape(0));
    const int width = static_cast<int>(array.shape(1));
    PlaneInput input;
    // One row's stride is never followed; otherwise rows must not overlap or run backwards.
    const py::ssize_t row_step = height == 1 ? width : array.strides(0);
    if (array.strides(1) == 1 && row_step >= width) {
        input.view = {static_cast<const std::uint8_t*>(array.data()), width, height, row_step};
        input.owner = std::move(array);
    } else {
        input.copy = packed_copy(array);
        input.view = input.copy.view();
    }
    return input;
}

PairInput pair_input(const py::handle& reference, const py::handle& current,
                     const SessionOptions& job_session) {
    PairInput pair{plane_input(reference, "reference"), plane_input(current, "current"), job_session};
    const PlaneView& reference_plane = pair.reference.view;
    const PlaneView& current_plane = pair.current.view;
    if (reference_plane.width != current_plane.width || reference_plane.height != current_plane.height) {
        throw Error(ErrorKind::invalid_argument,
                    "reference is " + std::to_string(reference_plane.width) + "x" +
                        std::to_string(reference_plane.height) + " but current is " +
                        std::to_string(current_plane.width) + "x" + std::to_string(current_plane.height) +
                        " (width x height): a pair's frames must be of one size");
    }
    pair.session.width = current_plane.width;
    pair.session.height = current_plane.height;
    return pair;
}

Frame frame_from_array(const py::handle& object, const std::string& what) {
    Frame frame;
    frame.chroma = ChromaFormat::mono;
    frame.luma = packed_copy(checked_array(object, what));
    return frame;
}

py::array array_from_plane(Plane&& plane) {
    auto* owned = new Plane(std::move(plane));
    py::capsule free_plane(owned, [](void* pointer) { delete static_cast<Plane*>(pointer); });
    const py::ssize_t width = owned->width();
    return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(owned->height()), width},
                                     {width, py::ssize_t{1}}, owned->data(), free_plane);
}

FieldArrays field_arrays(const MotionField& field, std::int64_t frame, const std::string& device,
                         double device_seconds) {
    FieldArrays out;
    out.frame = frame;
    out.device = device;
    out.block_size = field.block_size;
    out.cost_kind = to_string(field.cost_kind);
    out.cost_scale = field.cost_scale();
    out.device_seconds = device_seconds;
    const py::ssize_t rows = field.blocks_y;
    const py::ssize_t columns = field.blocks_x;
    py::array_t<std::int16_t> vectors({rows, columns, py::ssize_t{2}});
    py::array_t<std::uint32_t> cost({rows, columns});
    py::array_t<std::uint32_t> candidates({rows, columns});
    auto v = vectors.mutable_unchecked<3>();
    auto c = cost.mutable_unchecked<2>();
    auto n = candidates.mutable_unchecked<2>();
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const BlockMotion& block = field.at(bx, by);
            v(by, bx, 0) = block.mv_x;
            v(by, bx, 1) = block.mv_y;
            c(by, bx) = block.cost;
            n(by, bx) = block.candidates;
        }
    }
    out.vectors = std::move(vectors);
    out.cost = std::move(cost);
    out.candidates = std::move(candidates);
    if (field.macroblocks.empty()) return out;

    constexpr py::ssize_t parts = partition_count;
    py::array_t<std::int16_t> part_vectors({rows, columns, parts, py::ssize_t{2}});
    py::array_t<std::uint32_t> part_cost({rows, columns, parts});
    py::array_t<std::uint32_t> part_candidates({rows, columns, parts});
    py::array_t<bool> chosen({rows, columns, parts});
    auto pv = part_vectors.mutable_unchecked<4>();
    auto pc = part_cost.mutable_unchecked<3>();
    auto pn = part_candidates.mutable_unchecked<3>();
    auto ch = chosen.mutable_unchecked<3>();
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const MacroblockMotion& macroblock =
                field.macroblocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                  static_cast<std::size_t>(bx)];
            for (py::ssize_t p = 0; p < parts; ++p) {
                const BlockMotion& part = macroblock.partitions[static_cast<std::size_t>(p)];
                pv(by, bx, p, 0) = part.mv_x;
                pv(by, bx, p, 1) = part.mv_y;
                pc(by, bx, p) = part.cost;
                pn(by, bx, p) = part.candidates;
                ch(by, bx, p) = false;
            }
            for (const int index :
                 partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes))
                ch(by, bx, index) = true;
        }
    }
    out.partition_vectors = std::move(part_vectors);
    out.partition_cost = std::move(part_cost);
    out.partition_candidates = std::move(part_candidates);
    out.partition_chosen = std::move(chosen);
    return out;
}

void bind_field(py::module_& module) {
    py::class_<FieldArrays>(module, "Field",
                            "One frame pair's motion field: every block's vector (quarter pel), cost and "
                            "candidates evaluated, as numpy arrays indexed [block_row, block_column].")
        .def_readonly("frame", &FieldArrays::frame, "Index of the current frame; the reference is frame - 1")
        .def_readonly("device", &FieldArrays::device, "The device that computed it")
        .def_readonly("block_size", &FieldArrays::block_size)
        .def_readonly("cost_kind", &FieldArrays::cost_kind,
                      "sad, cost4 or satd, each with +rate when lambda > 0")
        .def_readonly("cost_scale", &FieldArrays::cost_scale, "4 for cost4 (quarter grey levels), else 1")
        .def_readonly("device_seconds", &FieldArrays::device_seconds)
        .def_readonly("vectors", &FieldArrays::vectors,
                      "(by, bx, 2) int16: (mv_x, mv_y) in quarter pel, from the current block to its match "
                      "in the reference")
        .def_readonly("cost", &FieldArrays::cost, "(by, bx) uint32, of the kind cost_kind names")
        .def_readonly("candidates", &FieldArrays::candidates,
                      "(by, bx) uint32: integer candidates the search evaluated (SPEC §7, §11)")
        .def_readonly("partition_vectors", &FieldArrays::partition_vectors,
                      "partitions='all': (by, bx, 41, 2) int16, in xme.PARTITIONS' order; else None")
        .def_readonly("partition_cost", &FieldArrays::partition_cost)
        .def_readonly("partition_candidates", &FieldArrays::partition_candidates)
        .def_readonly("partition_chosen", &FieldArrays::partition_chosen,
                      "(by, bx, 41) bool: the partitions of the mode each macroblock was decided in")
        .def("__repr__", [](const FieldArrays& field) {
            return "<xme.Field frame " + std::to_string(field.frame) + " on " + field.device + ": " +
                   py::str(field.vectors.attr("shape")).cast<std::string>() + " vectors, " + field.cost_kind +
                   ">";
        });

    py::list table;
    for (const Partition& partition : macroblock_partitions)
        table.append(py::make_tuple(partition.x, partition.y, partition.width, partition.height));
    module.attr("PARTITIONS") = py::tuple(table);
}

}  // namespace xme::python
