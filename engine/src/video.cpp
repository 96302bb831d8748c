// Opening a video by content and extension, and the frame helpers every reader shares.
#include "xme/video.hpp"

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <optional>
#include <system_error>
#include <vector>

#include "video_io.hpp"
#include "xme/error.hpp"

namespace xme {

int chroma_width(ChromaFormat format, int luma_width) {
    switch (format) {
        case ChromaFormat::mono:
            return 0;
        case ChromaFormat::yuv420:
        case ChromaFormat::yuv422:
            return (luma_width + 1) / 2;
        case ChromaFormat::yuv444:
            return luma_width;
    }
    return 0;
}

int chroma_height(ChromaFormat format, int luma_height) {
    switch (format) {
        case ChromaFormat::mono:
            return 0;
        case ChromaFormat::yuv420:
            return (luma_height + 1) / 2;
        case ChromaFormat::yuv422:
        case ChromaFormat::yuv444:
            return luma_height;
    }
    return 0;
}

// The names parse_pixel_format accepts, so that a format printed can be passed back as --pix-fmt.
const char* to_string(ChromaFormat format) {
    switch (format) {
        case ChromaFormat::mono:
            return "gray";
        case ChromaFormat::yuv420:
            return "yuv420p";
        case ChromaFormat::yuv422:
            return "yuv422p";
        case ChromaFormat::yuv444:
            return "yuv444p";
    }
    return "unknown";
}

Frame make_frame(int width, int height, ChromaFormat format) {
    Frame frame = make_frame(width, height, format, Plane::ForOverwrite{});
    for (Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) std::fill_n(plane->data(), plane->size_bytes(), 0);
    return frame;
}

Frame make_frame(int width, int height, ChromaFormat format, const Plane::ForOverwrite& overwrite) {
    Frame frame;
    frame.chroma = format;
    // A frame is the largest thing xme allocates, and its size comes from the input.
    try {
        frame.luma = Plane(width, height, overwrite);
        if (format != ChromaFormat::mono) {
            frame.cb = Plane(chroma_width(format, width), chroma_height(format, height), overwrite);
            frame.cr = Plane(chroma_width(format, width), chroma_height(format, height), overwrite);
        }
    } catch (const std::bad_alloc&) {
        throw Error(ErrorKind::unsupported,
                    "a " + std::to_string(width) + "x" + std::to_string(height) + " " + to_string(format) +
                        " frame (" + std::to_string(detail::frame_size_bytes(width, height, format)) +
                        " bytes) is too large for this machine's memory");
    }
    return frame;
}

ChromaFormat parse_pixel_format(const std::string& name) {
    for (ChromaFormat format :
         {ChromaFormat::yuv420, ChromaFormat::yuv422, ChromaFormat::yuv444, ChromaFormat::mono}) {
        if (name == to_string(format)) return format;
    }
    throw Error(ErrorKind::invalid_argument,
                "unknown pixel format '" + name + "': use yuv420p, yuv422p, yuv444p or gray");
}

bool ffmpeg_available() {
#ifdef XME_HAVE_FFMPEG
    return true;
#else
    return false;
#endif
}

#ifndef XME_HAVE_FFMPEG
void set_ffmpeg_log(FfmpegLog) {}  // nothing to route
#endif

std::int64_t VideoReader::skip_frames(std::int64_t count) {
    std::int64_t skipped = 0;
    while (skipped < count && read_frame()) ++skipped;
    return skipped;
}

namespace detail {

UniqueFile open_for_reading(const std::string& path) {
    std::error_code ignored;
    // fopen succeeds on a directory on Linux and only the first read fails; say it up front.
    if (std::filesystem::is_directory(path, ignored)) {
        throw Error(ErrorKind::bad_input, "cannot open " + path + ": " + std::strerror(EISDIR));
    }
    UniqueFile file(std::fopen(path.c_str(), "rb"));
    if (!file) throw Error(ErrorKind::bad_input, "cannot open " + path + ": " + std::strerror(errno));
    return file;
}

std::optional<std::int64_t> regular_file_size(std::FILE* file) {
    struct stat status {};
    if (fstat(fileno(file), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
    return static_cast<std::int64_t>(status.st_size);
}

std::optional<std::int64_t> bytes_left(std::FILE* file) {
    const std::optional<std::int64_t> size = regular_file_size(file);
    if (!size) return std::nullopt;
    return std::max<std::int64_t>(0, *size - tell(file));
}

std::int64_t frame_size_bytes(int width, int height, ChromaFormat chroma) {
    const auto plane = [](int w, int h) { return static_cast<std::int64_t>(w) * h; };
    return plane(width, height) + 2 * plane(chroma_width(chroma, width), chroma_height(chroma, height));
}

std::int64_t read_planes(std::FILE* file, const std::string& path, Frame& frame, std::int64_t frame_bytes) {
    std::int64_t got = 0;
    auto read_into = [&](std::uint8_t* data, std::size_t size) {
        const std::size_t n = std::fread(data, 1, size, file);
        got += static_cast<std::int64_t>(n);
        if (n == size) return true;
        if (std::ferror(file)) {
            throw Error(ErrorKind::bad_input, "cannot read " + path + ": " + std::strerror(errno));
        }
        return false;  // end of file: the caller reports the truncated frame
    };
    for (Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        if (!plane->empty() && !read_into(plane->data(), plane->size_bytes())) return got;
    }
    const std::int64_t skip_bytes = frame_bytes - got;
    if (skip_bytes <= 0) return got;
    // A regular file: seek, if the bytes are there (a short file reads to its end instead, so that
    // the truncation is reported with what it held).
    if (const std::optional<std::int64_t> left = bytes_left(file); left && *left >= skip_bytes) {
        if (seek_forward(file, skip_bytes)) return got + skip_bytes;
    }
    std::vector<std::uint8_t> dropped(static_cast<std::size_t>(std::min<std::int64_t>(skip_bytes, 1 << 20)));
    for (std::int64_t left = skip_bytes; left > 0;) {
        const auto chunk = static_cast<std::size_t>(std::min<std::int64_t>(left, std::ssize(dropped)));
        if (!read_into(dropped.data(), chunk)) break;
        left -= static_cast<std::int64_t>(chunk);
    }
    return got;
}

bool seek_forward(std::FILE* file, std::int64_t bytes) {
    return fseeko(file, static_cast<off_t>(bytes), SEEK_CUR) == 0;
}

std::int64_t tell(std::FILE* file) { return static_cast<std::int64_t>(ftello(file)); }

std::string truncated_frame_message(const std::string& path, std::int64_t frame_index, std::int64_t got,
                                    std::int64_t expected) {
    return path + ": frame " + std::to_string(frame_index) + " is truncated (got " + std::to_string(got) +
           " of " + std::to_string(expected) + " bytes)";
}

}  // namespace detail

std::string input_name(const std::string& path) { return path == "-" ? "standard input" : path; }

std::string lowercase_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

namespace {

// Reads the first bytes and rewinds; only for regular files, since a pipe cannot rewind.
bool starts_with_y4m_magic(std::FILE* file) {
    static constexpr char magic[] = "YUV4MPEG2 ";
    char head[sizeof magic - 1] = {};
    const std::size_t n = std::fread(head, 1, sizeof head, file);
    std::rewind(file);
    return n == sizeof head && std::memcmp(head, magic, sizeof head) == 0;
}

// Standard input through its own descriptor, so that closing the reader leaves fd 0 and stdin alone.
std::unique_ptr<VideoReader> open_standard_input(const RawVideoOptions& raw) {
    const std::string name = input_name("-");
    if (isatty(STDIN_FILENO) != 0) {
        throw Error(ErrorKind::invalid_argument,
                    "the input - reads standard input, which is a terminal here: pipe a Y4M stream into "
                    "xme, e.g. `ffmpeg -i IN -pix_fmt yuv420p -f yuv4mpegpipe - | xme estimate -`");
    }
    const int fd = dup(STDIN_FILENO);
    std::FILE* stream = fd < 0 ? nullptr : fdopen(fd, "rb");
    if (stream == nullptr) {
        const int error = errno;
        if (fd >= 0) close(fd);
        throw Error(ErrorKind::bad_input, "cannot read " + name + ": " + std::strerror(error));
    }
    detail::UniqueFile file(stream);
    if (raw.width > 0 || raw.height > 0) return detail::open_raw_video(name, std::move(file), raw);
    return detail::open_y4m(name, std::move(file), true);
}

}  // namespace

std::unique_ptr<VideoReader> open_video(const std::string& path, const RawVideoOptions& raw) {
    if (path == "-") return open_standard_input(raw);
    detail::UniqueFile file = detail::open_for_reading(path);
    const std::string ext = lowercase_extension(path);
    const bool seekable = detail::regular_file_size(file.get()).has_value();

    if (ext == ".y4m" || (seekable && starts_with_y4m_magic(file.get()))) {
        return detail::open_y4m(path, std::move(file));
    }
    if (ext == ".yuv" || ext == ".raw" || ext == ".gray") {
        if (raw.width <= 0 || raw.height <= 0) {
            throw Error(ErrorKind::invalid_argument,
                        "raw input " + path + " needs --size WxH (and --pix-fmt if not yuv420p)");
        }
        return detail::open_raw_video(path, std::move(file), raw);
    }
#ifdef XME_HAVE_FFMPEG
    file.reset();
    return detail::open_ffmpeg_video(path);
#else
    throw Error(
        ErrorKind::unsupported,
        "cannot read " + path +
            ": this build of xme has no FFmpeg, so it reads only .y4m and raw .yuv; convert it first, "
            "e.g. with `ffmpeg -i " +
            path + " -pix_fmt yuv420p OUT.y4m`");
#endif
}

}  // namespace xme
