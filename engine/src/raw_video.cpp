// Raw planar video (.yuv, .raw, .gray): frames of a size the user states, packed back to back.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "packed_frames_reader.hpp"
#include "xme/error.hpp"

namespace xme {
namespace {

class RawVideoReader final : public detail::PackedFramesReader {
public:
    RawVideoReader(const std::string& path, detail::UniqueFile file, const RawVideoOptions& options)
        : PackedFramesReader(path, std::move(file), "") {
        for (int size : {options.width, options.height}) {
            if (size < 1 || size > detail::max_io_dimension) {
                throw Error(ErrorKind::invalid_argument,
                            "raw input " + path + ": size " + std::to_string(options.width) + "x" +
                                std::to_string(options.height) + " is outside 1.." +
                                std::to_string(detail::max_io_dimension) + "; pass --size WxH");
            }
        }
        if (options.fps_num < 1 || options.fps_den < 1) {
            throw Error(ErrorKind::invalid_argument,
                        "raw input " + path + ": frame rate " + std::to_string(options.fps_num) + "/" +
                            std::to_string(options.fps_den) + " must be positive");
        }
        info_.width = options.width;
        info_.height = options.height;
        info_.chroma = options.chroma;
        info_.fps_num = options.fps_num;
        info_.fps_den = options.fps_den;
        info_.format = "raw";
        frame_bytes_ = detail::frame_size_bytes(info_.width, info_.height, info_.chroma);
        file_size_ = detail::regular_file_size(file_.get());
        // A partial last frame is not counted; reading it throws, so nothing is dropped silently. From
        // the read position: standard input may be a file already partly read.
        if (!file_size_) return;
        const std::int64_t bytes = *file_size_ - detail::tell(file_.get());
        info_.frame_count = bytes / frame_bytes_;
        // Not one frame at all: the likelier mistake is --size (or --pix-fmt), not the file.
        if (bytes > 0 && bytes < frame_bytes_) {
            throw Error(ErrorKind::bad_input,
                        path + " holds " + std::to_string(bytes) + " bytes, less than one " +
                            std::to_string(info_.width) + "x" + std::to_string(info_.height) + " " +
                            to_string(info_.chroma) + " frame (" + std::to_string(frame_bytes_) +
                            " bytes): check --size (and --pix-fmt)");
        }
    }

    std::optional<Frame> read_frame() override {
        if (std::optional<Frame> frame; prefetched(frame)) return frame;
        // Allocate only what the file can fill: a mistyped --size must not cost gigabytes first.
        if (const std::optional<std::int64_t> left = detail::bytes_left(file_.get())) {
            if (*left == 0) return std::nullopt;
            if (*left < frame_bytes_) truncated(*left);
        }
        // read_planes fills every sample or the frame is not returned.
        Frame frame = unfilled_frame();
        const std::int64_t got = detail::read_planes(file_.get(), path_, frame, frame_bytes_);
        if (got == 0) return std::nullopt;
        if (got != frame_bytes_) truncated(got);
        ++next_frame_;
        return frame;
    }

    std::int64_t skip_frames(std::int64_t count) override {
        stop_prefetching();
        if (!file_size_ || count <= 0) return VideoReader::skip_frames(count);
        const std::int64_t left = *file_size_ - detail::tell(file_.get());
        const std::int64_t whole = std::min(count, left / frame_bytes_);
        if (!detail::seek_forward(file_.get(), whole * frame_bytes_)) {
            throw Error(ErrorKind::bad_input, "cannot seek in " + path_ + ": " + std::strerror(errno));
        }
        next_frame_ += whole;
        // The partial frame lies within the range asked for: report it as reading would.
        if (whole < count && left % frame_bytes_ != 0) truncated(left % frame_bytes_);
        return whole;
    }

private:
    [[noreturn]] void truncated(std::int64_t got) const {
        std::string message = detail::truncated_frame_message(path_, next_frame_, got, frame_bytes_);
        message += "; a " + std::to_string(info_.width) + "x" + std::to_string(info_.height) + " " +
                   to_string(info_.chroma) + " frame is " + std::to_string(frame_bytes_) + " bytes";
        if (file_size_) message += " and the file is " + std::to_string(*file_size_);
        message += ": check --size and --pix-fmt";
        throw Error(ErrorKind::bad_input, message);
    }
};

}  // namespace

namespace detail {

std::unique_ptr<VideoReader> open_raw_video(const std::string& path, UniqueFile file,
                                            const RawVideoOptions& options) {
    return std::make_unique<RawVideoReader>(path, std::move(file), options);
}

}  // namespace detail
}  // namespace xme
