// xme.open_video(): a video's frames, one at a time, as numpy arrays of their luma.
#include <utility>

#include "bindings.hpp"
#include "job_options.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme::python {

namespace {

class Video {
public:
    Video(const std::string& path, const py::object& size, const std::string& pixel_format) : path_(path) {
        RawVideoOptions raw;
        if (py::isinstance<py::tuple>(size) && py::len(size) == 2) {  // (width, height)
            const std::string text = py::str(size[py::int_(0)]).cast<std::string>() + "x" +
                                     py::str(size[py::int_(1)]).cast<std::string>();
            std::tie(raw.width, raw.height) = cli::parse_frame_size(text, "size");
        } else if (!size.is_none()) {
            std::tie(raw.width, raw.height) =
                cli::parse_frame_size(py::str(size).cast<std::string>(), "size");
        }
        raw.chroma = parse_pixel_format(pixel_format);
        const py::gil_scoped_release release;
        reader_ = open_video(path, raw);
        cli::check_frame_dimensions(path, reader_->info());
        info_ = reader_->info();
    }

    py::array next() {
        std::optional<Frame> frame;
        {
            const py::gil_scoped_release release;
            if (reader_) frame = reader_->read_frame();
        }
        if (!frame) {
            reader_.reset();  // closes the file at the end, not when Python collects the object
            throw py::stop_iteration();
        }
        ++frames_read_;
        return array_from_plane(std::move(frame->luma));
    }

    std::int64_t skip(std::int64_t count) {
        if (count < 0)
            throw Error(ErrorKind::invalid_argument, "skip(" + std::to_string(count) + "): give 0 or more");
        const py::gil_scoped_release release;
        const std::int64_t skipped = reader_ ? reader_->skip_frames(count) : 0;
        frames_read_ += skipped;
        return skipped;
    }

    [[nodiscard]] const VideoInfo& info() const { return info_; }

    [[nodiscard]] py::list notices() {
        py::list texts;
        if (reader_) {
            for (const auto& notice : reader_->take_notices()) texts.append(notice.text);
        }
        return texts;
    }

    std::string path_;
    std::int64_t frames_read_ = 0;
    std::unique_ptr<VideoReader> reader_;
    VideoInfo info_;  // kept after the end, when the reader is closed
};

}  // namespace

void bind_video(py::module_& module) {
    py::class_<Video>(module, "Video",
                      "A video opened by xme.open_video: iterating it yields each frame's luma as a 2-D "
                      "uint8 array (height, width), read one at a time.")
        .def("__iter__", [](py::object self) { return self; })
        .def("__next__", &Video::next)
        .def("skip", &Video::skip, py::arg("count"),
             "Skips up to count frames; returns how many were skipped")
        .def_property_readonly("width", [](const Video& video) { return video.info().width; })
        .def_property_readonly("height", [](const Video& video) { return video.info().height; })
        .def_property_readonly(
            "fps",
            [](const Video& video) { return py::make_tuple(video.info().fps_num, video.info().fps_den); },
            "(numerator, denominator)")
        .def_property_readonly(
            "frame_count",
            [](const Video& video) -> py::object {
                const auto count = video.info().frame_count;
                return count < 0 ? py::object(py::none()) : py::object(py::int_(count));
            },
            "Frames in the file, or None; a container's claim when frame_count_exact is False")
        .def_property_readonly("frame_count_exact",
                               [](const Video& video) { return video.info().frame_count_exact; })
        .def_property_readonly("bit_depth", [](const Video& video) { return video.info().bit_depth; })
        .def_property_readonly("format", [](const Video& video) { return video.info().format; })
        .def_readonly("frames_read", &Video::frames_read_)
        .def("notices", &Video::notices,
             "What the reader noticed without stopping (deeper samples reduced, damage)");

    module.def(
        "open_video",
        [](const std::string& path, const py::object& size, const std::string& pixel_format) {
            return Video(path, size, pixel_format);
        },
        R"(open_video(path, size=None, pix_fmt="yuv420p") -> xme.Video

Opens .y4m, raw planar .yuv/.raw/.gray (size="352x288" or (352, 288), and pix_fmt: yuv420p, yuv422p, yuv444p, gray),
or any container and codec FFmpeg reads, as `xme estimate` does; frames come as 2-D uint8 luma arrays.)",
        py::arg("path"), py::arg("size") = py::none(), py::arg("pix_fmt") = "yuv420p");
}

}  // namespace xme::python
