// Reading and writing video, one frame at a time: a long video is never loaded whole.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xme/frame.hpp"

namespace xme {

struct VideoInfo {
    int width = 0;
    int height = 0;
    ChromaFormat chroma = ChromaFormat::yuv420;  // of the frames handed out
    int fps_num = 25;
    int fps_den = 1;
    std::int64_t frame_count = -1;  // -1 when the container does not say; for FFmpeg input, the container's
                                    // claim, which may exceed the frames actually decoded (tree.avi claims
                                    // 444 but holds 68)
    bool frame_count_exact = true;  // false while frame_count is only the container's claim
    int bit_depth = 8;              // of the input's luma samples; deeper ones are reduced (see notices)
    std::string format;             // "y4m", "raw", or "ffmpeg:<demuxer>/<codec>"
};

// How to read raw planar YUV, which carries no header.
struct RawVideoOptions {
    int width = 0;  // both required for raw input
    int height = 0;
    ChromaFormat chroma = ChromaFormat::yuv420;
    int fps_num = 25;
    int fps_den = 1;
};

class VideoReader {
public:
    virtual ~VideoReader() = default;
    [[nodiscard]] virtual const VideoInfo& info() const = 0;
    // The next frame, or nothing at a clean end of the stream. A truncated or malformed frame
    // throws Error(bad_input) naming the file and the frame index.
    [[nodiscard]] virtual std::optional<Frame> read_frame() = 0;
    // Skips up to `count` frames; returns how many were skipped (fewer at the end of the stream).
    virtual std::int64_t skip_frames(std::int64_t count);

    // What the reader noticed that did not stop it, each once: samples deeper than 8 bits reduced,
    // damaged frames the decoder concealed, a stream that ends short of its declared length.
    struct Notice {
        std::string text;
        bool frames_lost = false;  // frames were damaged or missing: the run's result is incomplete
    };
    [[nodiscard]] virtual std::vector<Notice> take_notices() { return {}; }

    // Of the time spent in read_frame so far, how much went to converting decoded pictures to 8-bit
    // luma (FFmpeg's swscale and copy); the rest is reading and decoding. Readers of raw and Y4M
    // files read straight into the frame: 0.
    [[nodiscard]] virtual double convert_seconds() const { return 0; }

    // For callers that use luma only: from now on frames may come without chroma (mono), and readers
    // that can pass over the chroma bytes without reading them do (Y4M and raw files: a third less
    // to read in 4:2:0). FFmpeg's reader drops chroma always.
    virtual void set_luma_only() {}

    // Threads that read frames ahead of the caller, in parallel, where frames sit at known offsets of
    // a regular file (Y4M and raw; 0: read on the caller's thread). The default comes from the
    // machine's cores: none below 8, else half of them up to 8. Set it before the first read; other
    // readers ignore it.
    virtual void set_read_threads(int /*threads*/) {}

    // Memory for the planes of the frames read from now on (Scheduler::plane_memory: pinned memory a
    // GPU uploads from without a copy); null: ordinary memory. Readers that fill frames take it.
    virtual void set_plane_memory(std::shared_ptr<PlaneMemory> memory) { static_cast<void>(memory); }
};

// Opens by content and extension: ".y4m" as YUV4MPEG2, ".yuv"/".raw"/".gray" as raw planar (size
// required), anything else through FFmpeg when this build has it (decoded to 8-bit luma, chroma
// dropped; deeper samples keep their high 8 bits, with a notice). Throws Error(bad_input) for a missing or
// unreadable file and Error(invalid_argument) for raw input without a size.
// "-" reads standard input: raw frames when `raw` gives a size, else a YUV4MPEG2 stream (a pipe cannot
// be rewound to sniff it, and FFmpeg's containers are not read from it). Its frame count is unknown
// (-1) until the end. Throws Error(invalid_argument) when standard input is a terminal.
[[nodiscard]] std::unique_ptr<VideoReader> open_video(const std::string& path,
                                                      const RawVideoOptions& raw = {});

// "standard input" for "-", else the path itself: how messages name an input.
[[nodiscard]] std::string input_name(const std::string& path);

// Whether this build decodes containers and codecs through FFmpeg.
[[nodiscard]] bool ffmpeg_available();

// How much of FFmpeg's own log goes to stderr, each line as "xme: ffmpeg: ...". Process-wide.
enum class FfmpegLog { errors, warnings, verbose };
void set_ffmpeg_log(FfmpegLog level);

// Parses "yuv420p", "yuv422p", "yuv444p", "gray"; throws Error(invalid_argument) listing them.
[[nodiscard]] ChromaFormat parse_pixel_format(const std::string& name);

// The extension of a path, lowercased (".y4m" for "clip.Y4M"): how files are told apart by name.
[[nodiscard]] std::string lowercase_extension(const std::string& path);

class StagedFile;  // xme/staged_file.hpp

// Written under a temporary name beside `path` and renamed onto it by finish() or the destructor
// (xme/staged_file.hpp), as the motion-field files are (xme/field_io.hpp).
class Y4mWriter {
public:
    Y4mWriter(const std::string& path, int width, int height, ChromaFormat chroma, int fps_num = 25,
              int fps_den = 1);
    // Keeps every whole frame, as finish(-1) does.
    ~Y4mWriter();
    Y4mWriter(const Y4mWriter&) = delete;
    Y4mWriter& operator=(const Y4mWriter&) = delete;
    // Throws Error(invalid_argument) for a frame of another size or format, Error(io) on failure (a full
    // disk, a file-size limit), after cutting the file back to its whole frames.
    void write(const Frame& frame);
    // Keeps the first `frames` frames (every frame when negative) and renames the file onto its path;
    // throws Error(io).
    void finish(std::int64_t frames);

private:
    int put(std::string_view bytes);  // all of `bytes`: 0, or the errno of the write that failed

    std::unique_ptr<StagedFile> file_;
    bool failed_ = false;            // a write failed: the file keeps the frames before it, and no more
    std::int64_t frames_ = 0;        // whole frames written
    std::int64_t header_bytes_ = 0;  // the header's length: frames follow it, each of frame_bytes_
    std::int64_t frame_bytes_ = 0;
    std::string path_;
    int width_;
    int height_;
    ChromaFormat chroma_;
};

}  // namespace xme
