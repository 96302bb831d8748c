// Pieces shared by the video readers and the Y4M writer; not part of the public API.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "xme/frame.hpp"
#include "xme/video.hpp"

namespace xme::detail {

struct FileCloser {
    void operator()(std::FILE* file) const noexcept { std::fclose(file); }
};
using UniqueFile = std::unique_ptr<std::FILE, FileCloser>;

// Frame sizes beyond this are certainly a corrupt header or a mistyped --size; refusing them early
// avoids allocating gigabytes. The devices have their own, smaller limit.
inline constexpr int max_io_dimension = 1 << 16;

// Opens `path` for binary reading; throws Error(bad_input) "cannot open PATH: <reason>".
[[nodiscard]] UniqueFile open_for_reading(const std::string& path);

// The size of an open regular file, or nothing for a pipe or device, which cannot seek. By the open
// file, not its path: standard input has none, and may be a pipe or a redirected file.
[[nodiscard]] std::optional<std::int64_t> regular_file_size(std::FILE* file);

// Bytes from the read position to the end of a regular file, by its size now (it may still be
// growing); nothing for a pipe or device. Readers check a frame against it before allocating one.
[[nodiscard]] std::optional<std::int64_t> bytes_left(std::FILE* file);

// Bytes of one tightly packed frame: luma, then Cb, then Cr.
[[nodiscard]] std::int64_t frame_size_bytes(int width, int height, ChromaFormat chroma);

// Reads one frame of `frame_bytes` from `file`: fills every plane of `frame`, and passes over what its
// planes do not take (the chroma of a luma-only frame: a seek where the file allows, else read and
// dropped); returns how many bytes it got (fewer than frame_bytes only at the end of the file).
// Throws Error(bad_input) on a read error.
[[nodiscard]] std::int64_t read_planes(std::FILE* file, const std::string& path, Frame& frame,
                                       std::int64_t frame_bytes);

// Moves `bytes` forward; false when the stream cannot seek.
[[nodiscard]] bool seek_forward(std::FILE* file, std::int64_t bytes);
[[nodiscard]] std::int64_t tell(std::FILE* file);

// "PATH: frame N is truncated (got X of Y bytes)".
[[nodiscard]] std::string truncated_frame_message(const std::string& path, std::int64_t frame_index,
                                                  std::int64_t got, std::int64_t expected);

// Each reader takes the file open at its first byte. `path` names it in messages (input_name()); for
// standard input, the Y4M reader's refusals say what xme reads from there.
[[nodiscard]] std::unique_ptr<VideoReader> open_y4m(const std::string& path, UniqueFile file,
                                                    bool standard_input = false);
[[nodiscard]] std::unique_ptr<VideoReader> open_raw_video(const std::string& path, UniqueFile file,
                                                          const RawVideoOptions& options);
#ifdef XME_HAVE_FFMPEG
[[nodiscard]] std::unique_ptr<VideoReader> open_ffmpeg_video(const std::string& path);
// Sends FFmpeg's log through xme's (set_ffmpeg_log); idempotent, called before FFmpeg's first use.
void route_ffmpeg_log();
#endif

}  // namespace xme::detail
