// Where `xme draw` (and `xme compare --disagreement`) put their pictures: one PNG, one PNG per frame
// through a printf pattern, or a video, all encoded by FFmpeg's libraries.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "picture.hpp"

namespace xme::cli {

enum class PictureKind { png, png_pattern, video };

struct PictureTarget {
    std::string path;
    PictureKind kind = PictureKind::png;
    std::string option = "-o";  // the option that named it, for messages (-o, --draw, --disagreement)
    // The file a frame goes to: the pattern with the frame's index put in, or the path itself.
    [[nodiscard]] std::string file_for(std::int64_t frame) const;
};

// Parses what `option` names: "x.png" is one picture; "f_%04d.png" (exactly one %d, optionally
// with a zero flag and a width; "%%" is a literal %) one PNG per frame; anything else a video whose
// container FFmpeg picks by the extension. Throws Error(invalid_argument) naming the option and
// what is wrong.
[[nodiscard]] PictureTarget parse_picture_target(const std::string& path, const std::string& option);

// Whether this build can write pictures (it encodes them with FFmpeg).
[[nodiscard]] bool pictures_available();

class PictureWriter {
public:
    virtual ~PictureWriter() = default;
    // Every picture has the size the writer was opened with.
    virtual void write(std::int64_t frame, const Picture& picture) = 0;
    // Flushes a video's encoder and writes its trailer; pictures written before stay without it.
    virtual void finish() = 0;
};

// Opens the target for pictures of width x height (a video at fps_num/fps_den frames per second):
// a video's file is opened at once, so an unwritable path fails before any work (Error(io)); a PNG
// path is checked by `first_frame`'s file. Throws Error(unsupported) in a build without FFmpeg.
[[nodiscard]] std::unique_ptr<PictureWriter> open_picture_writer(const PictureTarget& target, int width,
                                                                 int height, int fps_num, int fps_den,
                                                                 std::int64_t first_frame);

}  // namespace xme::cli
