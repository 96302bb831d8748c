// YUV4MPEG2 (.y4m): a one-line header, then per frame "FRAME[ params]\n" and the planes, packed.
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>
#include <string_view>

#include "packed_frames_reader.hpp"
#include "xme/error.hpp"
#include "xme/params.hpp"
#include "xme/staged_file.hpp"

namespace xme {
namespace {

constexpr char magic[] = "YUV4MPEG2 ";
constexpr std::size_t magic_length = sizeof magic - 1;
// Real header and FRAME lines are well under 100 bytes, but the format sets no limit (X comments
// and FRAME parameters may be long); a bound keeps a garbage file from being read whole.
constexpr std::size_t max_line_length = std::size_t{1} << 20;
const std::string max_line_text = "1 MiB (" + std::to_string(max_line_length) + " bytes)";

bool parse_int(std::string_view text, int& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc{} && end == text.data() + text.size();
}

// How a line read ended.
enum class LineEnd { newline, end_of_file, too_long };

// Which 8-bit layouts xme reads; the 4:2:0 variants differ only in chroma siting, which ME ignores.
std::optional<ChromaFormat> chroma_from_tag(std::string_view tag) {
    if (tag == "420" || tag == "420jpeg" || tag == "420paldv" || tag == "420mpeg2")
        return ChromaFormat::yuv420;
    if (tag == "422") return ChromaFormat::yuv422;
    if (tag == "444") return ChromaFormat::yuv444;
    if (tag == "mono") return ChromaFormat::mono;
    return std::nullopt;
}

const char* tag_for(ChromaFormat chroma) {
    switch (chroma) {
        case ChromaFormat::mono:
            return "mono";
        case ChromaFormat::yuv420:
            return "420jpeg";
        case ChromaFormat::yuv422:
            return "422";
        case ChromaFormat::yuv444:
            return "444";
    }
    return "420jpeg";
}

class Y4mReader final : public detail::PackedFramesReader {
public:
    Y4mReader(const std::string& path, detail::UniqueFile file, bool standard_input)
        : PackedFramesReader(path, std::move(file), "FRAME\n"), standard_input_(standard_input) {
        parse_header();
        frame_bytes_ = detail::frame_size_bytes(info_.width, info_.height, info_.chroma);
        // Exact only when no FRAME line carries parameters, which is what every common writer does.
        file_size_ = detail::regular_file_size(file_.get());
        if (file_size_) {
            const std::int64_t per_frame = static_cast<std::int64_t>(std::strlen("FRAME\n")) + frame_bytes_;
            const std::int64_t payload = *file_size_ - detail::tell(file_.get());
            if (payload % per_frame == 0) info_.frame_count = payload / per_frame;
        }
    }

    std::optional<Frame> read_frame() override {
        if (std::optional<Frame> frame; prefetched(frame)) return frame;
        if (!read_frame_marker()) return std::nullopt;
        // A header may declare any size up to max_io_dimension (12 GiB a frame): allocate only
        // once the file is known to hold the frame, so that a short file fails at once.
        const std::optional<std::int64_t> left = detail::bytes_left(file_.get());
        if (left && *left < frame_bytes_) {
            throw Error(ErrorKind::bad_input,
                        detail::truncated_frame_message(path_, next_frame_, *left, frame_bytes_));
        }
        // read_planes fills every sample or the frame is not returned.
        Frame frame = unfilled_frame();
        const std::int64_t got = detail::read_planes(file_.get(), path_, frame, frame_bytes_);
        if (got != frame_bytes_) {
            throw Error(ErrorKind::bad_input,
                        detail::truncated_frame_message(path_, next_frame_, got, frame_bytes_));
        }
        ++next_frame_;
        return frame;
    }

    // Reads each FRAME line (its length varies with its parameters) and seeks over the planes.
    std::int64_t skip_frames(std::int64_t count) override {
        stop_prefetching();
        if (!file_size_) return VideoReader::skip_frames(count);
        std::int64_t skipped = 0;
        for (; skipped < count; ++skipped) {
            if (!read_frame_marker()) break;
            const std::int64_t left = detail::bytes_left(file_.get()).value_or(0);
            if (left < frame_bytes_) {
                throw Error(ErrorKind::bad_input,
                            detail::truncated_frame_message(path_, next_frame_, left, frame_bytes_));
            }
            if (!detail::seek_forward(file_.get(), frame_bytes_)) {
                throw Error(ErrorKind::bad_input, "cannot seek in " + path_ + ": " + std::strerror(errno));
            }
            ++next_frame_;
        }
        return skipped;
    }

private:
    [[noreturn]] void bad_header(const std::string& what) const {
        throw Error(ErrorKind::bad_input, path_ + ": bad YUV4MPEG2 header: " + what);
    }

    // Reads up to '\n' (dropped), at most max_line_length bytes before it.
    LineEnd read_line(std::string& line) {
        line.clear();
        for (int c = std::fgetc(file_.get()); c != '\n'; c = std::fgetc(file_.get())) {
            if (c == EOF) {
                if (std::ferror(file_.get())) {
                    throw Error(ErrorKind::bad_input, "cannot read " + path_ + ": " + std::strerror(errno));
                }
                return LineEnd::end_of_file;
            }
            if (line.size() >= max_line_length) return LineEnd::too_long;
            line.push_back(static_cast<char>(c));
        }
        return LineEnd::newline;
    }

    void parse_header() {
        char head[magic_length] = {};
        const std::size_t n = std::fread(head, 1, sizeof head, file_.get());
        if (std::ferror(file_.get())) {
            throw Error(ErrorKind::bad_input, "cannot read " + path_ + ": " + std::strerror(errno));
        }
        // From a pipe, nothing at all most often means the command writing into it failed.
        const std::string what_stdin_holds =
            standard_input_
                ? "; from standard input xme reads a YUV4MPEG2 stream, as `ffmpeg -i IN -pix_fmt yuv420p -f "
                  "yuv4mpegpipe -` writes it, or raw frames with --size WxH"
                : "";
        if (n == 0) {
            throw Error(ErrorKind::bad_input,
                        path_ + " is empty: it holds no YUV4MPEG2 header" +
                            (standard_input_ ? " (did the program writing to it fail?)" : "") +
                            what_stdin_holds);
        }
        if (n != sizeof head || std::memcmp(head, magic, sizeof head) != 0) {
            throw Error(ErrorKind::bad_input, path_ +
                                                  " is not a YUV4MPEG2 (.y4m) file: it does not start with "
                                                  "\"YUV4MPEG2 \"" +
                                                  what_stdin_holds);
        }
        std::string line;
        const LineEnd end = read_line(line);
        if (end == LineEnd::too_long) bad_header("the header line is longer than " + max_line_text);
        if (end == LineEnd::end_of_file) bad_header("the file ends before the header line does");

        std::istringstream tags(line);
        std::string tag;
        bool has_width = false, has_height = false;
        while (tags >> tag) {
            const std::string_view value = std::string_view(tag).substr(1);
            switch (tag[0]) {
                case 'W':
                    has_width = parse_dimension(tag, value, info_.width);
                    break;
                case 'H':
                    has_height = parse_dimension(tag, value, info_.height);
                    break;
                case 'F':
                    parse_rate(tag, value);
                    break;
                case 'C': {
                    const auto chroma = chroma_from_tag(value);
                    if (!chroma) {
                        throw Error(
                            ErrorKind::unsupported,
                            path_ + ": Y4M colour space " + tag +
                                " is not supported: xme reads 8-bit C420, C422, C444 and Cmono; convert with "
                                "`ffmpeg -i " +
                                path_ + " -pix_fmt yuv420p OUT.y4m`");
                    }
                    info_.chroma = *chroma;
                    break;
                }
                default:
                    break;  // I (interlacing), A (aspect) and X (comments) do not affect the planes
            }
        }
        check_dimension(has_width, "W");
        check_dimension(has_height, "H");
        info_.format = "y4m";
    }

    // Digits only, and in range: from_chars reports an overflow instead of wrapping.
    bool parse_dimension(const std::string& tag, std::string_view value, int& size) const {
        const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string_view::npos;
        if (!digits) return false;
        if (!parse_int(value, size) || size > detail::max_io_dimension) {
            // A size, only one larger than any xme handles: unsupported (exit 4), as a 20000 that the
            // reader takes and the CLI then refuses (xme(1), INPUT).
            throw Error(ErrorKind::unsupported,
                        path_ + ": " + tag + " is larger than the frames xme reads (up to " +
                            std::to_string(detail::max_io_dimension) + ") or estimates (up to " +
                            std::to_string(max_frame_dimension) + ", in width and height)");
        }
        if (size < 1) bad_header(tag + " is outside 1.." + std::to_string(detail::max_io_dimension));
        return true;
    }

    void check_dimension(bool parsed, const std::string& tag) const {
        if (!parsed) bad_header("missing or malformed " + tag + " (frame size)");
    }

    void parse_rate(const std::string& tag, std::string_view value) {
        const std::size_t colon = value.find(':');
        int num = 0, den = 0;
        if (colon == std::string_view::npos || !parse_int(value.substr(0, colon), num) ||
            !parse_int(value.substr(colon + 1), den) || num < 0 || den < 0) {
            bad_header("malformed frame rate " + tag + " (expected F<num>:<den>)");
        }
        if (num > 0 && den > 0) {  // F0:0 means "unknown": keep the default
            info_.fps_num = num;
            info_.fps_den = den;
        }
    }

    // Consumes "FRAME[ params]\n"; false at a clean end of the file.
    bool read_frame_marker() {
        static constexpr char frame_tag[] = "FRAME";
        char head[sizeof frame_tag - 1] = {};
        const std::size_t n = std::fread(head, 1, sizeof head, file_.get());
        if (std::ferror(file_.get())) {
            throw Error(ErrorKind::bad_input, "cannot read " + path_ + ": " + std::strerror(errno));
        }
        if (n == 0) return false;
        if (std::memcmp(head, frame_tag, n) != 0) bad_marker();
        std::string params;
        const LineEnd end = n < sizeof head ? LineEnd::end_of_file : read_line(params);
        if (end == LineEnd::end_of_file) {
            const auto got = static_cast<std::int64_t>(n + params.size());
            throw Error(ErrorKind::bad_input,
                        detail::truncated_frame_message(path_, next_frame_, got, got + 1 + frame_bytes_));
        }
        if (end == LineEnd::too_long) {
            throw Error(ErrorKind::bad_input, path_ + ": the FRAME line of frame " +
                                                  std::to_string(next_frame_) + " is longer than " +
                                                  max_line_text + "; the file is corrupt");
        }
        if (!params.empty() && params[0] != ' ') bad_marker();
        return true;
    }

    [[noreturn]] void bad_marker() const {
        throw Error(ErrorKind::bad_input,
                    path_ + ": frame " + std::to_string(next_frame_) +
                        " does not start with a FRAME line; the file is corrupt or its header's size (" +
                        std::to_string(info_.width) + "x" + std::to_string(info_.height) + " " +
                        to_string(info_.chroma) + ") does not match its frames");
    }

    bool standard_input_ = false;  // refusals then say what xme reads from there
};

}  // namespace

namespace detail {

std::unique_ptr<VideoReader> open_y4m(const std::string& path, UniqueFile file, bool standard_input) {
    return std::make_unique<Y4mReader>(path, std::move(file), standard_input);
}

}  // namespace detail

Y4mWriter::Y4mWriter(const std::string& path, int width, int height, ChromaFormat chroma, int fps_num,
                     int fps_den)
    : path_(path), width_(width), height_(height), chroma_(chroma) {
    if (width < 1 || height < 1 || fps_num < 1 || fps_den < 1) {
        throw Error(ErrorKind::invalid_argument, "cannot write " + path + ": frame size " +
                                                     std::to_string(width) + "x" + std::to_string(height) +
                                                     " and rate " + std::to_string(fps_num) + "/" +
                                                     std::to_string(fps_den) + " must be positive");
    }
    file_ = std::make_unique<StagedFile>(path);
    const std::string header = std::string(magic) + "W" + std::to_string(width) + " H" +
                               std::to_string(height) + " F" + std::to_string(fps_num) + ":" +
                               std::to_string(fps_den) + " Ip A1:1 C" + tag_for(chroma) + "\n";
    if (const int error = put(header); error != 0)
        throw Error(ErrorKind::io, "cannot write " + path + ": " + std::strerror(error));
    header_bytes_ = static_cast<std::int64_t>(header.size());
    const auto chroma_bytes =
        static_cast<std::int64_t>(chroma_width(chroma, width)) * chroma_height(chroma, height);
    frame_bytes_ = 6 + std::int64_t{width} * height + 2 * chroma_bytes;  // "FRAME\n" and the planes
}

Y4mWriter::~Y4mWriter() {
    try {
        finish(-1);
    } catch (const Error&) {  // a destructor reports nothing: finish() is where this is reported
    }
}

int Y4mWriter::put(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(file_->descriptor(), bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return written < 0 ? errno : ENOSPC;
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return 0;
}

void Y4mWriter::write(const Frame& frame) {
    const bool planes_fit = frame.cb.width() == chroma_width(chroma_, width_) &&
                            frame.cb.height() == chroma_height(chroma_, height_) &&
                            frame.cr.width() == frame.cb.width() && frame.cr.height() == frame.cb.height();
    if (frame.width() != width_ || frame.height() != height_ || frame.chroma != chroma_ || !planes_fit) {
        throw Error(ErrorKind::invalid_argument,
                    "cannot write a " + std::to_string(frame.width()) + "x" + std::to_string(frame.height()) +
                        " " + to_string(frame.chroma) + " frame to " + path_ + ", which holds " +
                        std::to_string(width_) + "x" + std::to_string(height_) + " " + to_string(chroma_));
    }
    if (failed_ || file_->descriptor() < 0) {
        throw Error(ErrorKind::io, "cannot write " + path_ +
                                       ": an earlier write failed; it keeps the frames "
                                       "written before");
    }
    // Written with plain calls (no stdio buffer), so that a full disk is an error here, not a silently
    // short file at close. The part of the frame that was written is cut off again, so that the file
    // keeps whole frames, as the motion-field files do.
    int error = put("FRAME\n");
    for (const Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        if (error != 0 || plane->empty()) continue;
        error = put({reinterpret_cast<const char*>(plane->data()), plane->size_bytes()});
    }
    if (error != 0) {
        failed_ = true;
        static_cast<void>(::ftruncate(file_->descriptor(), header_bytes_ + frames_ * frame_bytes_));
        throw Error(ErrorKind::io, "cannot write " + path_ + ": " + std::strerror(error) +
                                       "; it keeps the frames written before");
    }
    ++frames_;
}

void Y4mWriter::finish(std::int64_t frames) {
    if (file_->descriptor() < 0) return;
    if (frames >= 0 && frames < frames_) {
        // A device written in place (/dev/null) has no length to cut.
        if (::ftruncate(file_->descriptor(), header_bytes_ + frames * frame_bytes_) != 0 &&
            !file_->in_place()) {
            const int error = errno;
            file_->discard();
            throw Error(ErrorKind::io, "cannot write " + path_ + ": " + std::strerror(error));
        }
        frames_ = frames;
    }
    file_->publish();
}

}  // namespace xme
