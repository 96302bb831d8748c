#include "picture_output.hpp"

#include <cctype>

#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme::cli {

#ifdef XME_HAVE_FFMPEG
// picture_encoder.cpp
std::unique_ptr<PictureWriter> open_ffmpeg_picture_writer(const PictureTarget& target, int width, int height,
                                                          int fps_num, int fps_den, std::int64_t first_frame);
#endif

namespace {

// The pattern's one conversion: where it is, how long, and its width and zero flag.
struct Conversion {
    std::size_t at = std::string::npos;
    std::size_t length = 0;
    int width = 0;
    bool zero = false;
};

// Finds "%d", "%4d" or "%04d"; throws for any other conversion or a second one.
Conversion find_conversion(const std::string& path, const std::string& option) {
    Conversion found;
    auto refuse = [&](const std::string& what) {
        throw Error(ErrorKind::invalid_argument,
                    option + " " + path + ": " + what +
                        "; a pattern has one %d, %4d or %04d for the frame number (%% for a literal %), "
                        "as in frames_%04d.png");
    };
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') continue;
        if (i + 1 < path.size() && path[i + 1] == '%') {
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        Conversion here;
        here.at = i;
        if (j < path.size() && path[j] == '0') {
            here.zero = true;
            ++j;
        }
        while (j < path.size() && std::isdigit(static_cast<unsigned char>(path[j])) && here.width < 100)
            here.width = here.width * 10 + (path[j++] - '0');
        if (j >= path.size() || path[j] != 'd' || here.width > 32)
            refuse("'" + path.substr(i, j + 1 - i) + "' is not a frame-number conversion");
        if (found.at != std::string::npos) refuse("it has two conversions");
        here.length = j + 1 - i;
        found = here;
        i = j;
    }
    return found;
}

}  // namespace

std::string PictureTarget::file_for(std::int64_t frame) const {
    if (kind != PictureKind::png_pattern) return path;
    const Conversion conversion = find_conversion(path, option);
    std::string number = std::to_string(frame < 0 ? -frame : frame);
    const std::size_t width = static_cast<std::size_t>(conversion.width);
    const std::size_t sign = frame < 0 ? 1 : 0;
    if (number.size() + sign < width)
        number.insert(0, width - number.size() - sign, conversion.zero ? '0' : ' ');
    if (frame < 0) number.insert(0, "-");
    // The text around the conversion, with each "%%" back to "%".
    auto literal = [](const std::string& text) {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            out += text[i];
            if (text[i] == '%' && i + 1 < text.size() && text[i + 1] == '%') ++i;
        }
        return out;
    };
    return literal(path.substr(0, conversion.at)) + number +
           literal(path.substr(conversion.at + conversion.length));
}

PictureTarget parse_picture_target(const std::string& path, const std::string& option) {
    if (path.empty()) throw Error(ErrorKind::invalid_argument, option + " needs a file name");
    PictureTarget target;
    target.path = path;
    target.option = option;
    const bool pattern = find_conversion(path, option).at != std::string::npos;
    const std::string ext = lowercase_extension(path);
    if (ext == ".png") {
        target.kind = pattern ? PictureKind::png_pattern : PictureKind::png;
    } else if (pattern) {
        throw Error(ErrorKind::invalid_argument, option + " " + path +
                                                     ": a pattern names PNG files (frames_%04d.png); a video "
                                                     "(out.mp4) is one file without a pattern");
    } else if (ext.empty()) {
        throw Error(ErrorKind::invalid_argument,
                    option + " " + path +
                        " has no extension: name a .png, a pattern such as frames_%04d.png, "
                        "or a video such as out.mp4");
    } else {
        target.kind = PictureKind::video;
    }
    return target;
}

bool pictures_available() {
#ifdef XME_HAVE_FFMPEG
    return true;
#else
    return false;
#endif
}

std::unique_ptr<PictureWriter> open_picture_writer(const PictureTarget& target, int width, int height,
                                                   int fps_num, int fps_den, std::int64_t first_frame) {
#ifdef XME_HAVE_FFMPEG
    return open_ffmpeg_picture_writer(target, width, height, fps_num, fps_den, first_frame);
#else
    (void)target, (void)width, (void)height, (void)fps_num, (void)fps_den, (void)first_frame;
    throw Error(ErrorKind::unsupported,
                "pictures are encoded with FFmpeg's libraries, and this xme was built without them "
                "(XME_WITH_FFMPEG=OFF): build with FFmpeg's development packages to draw");
#endif
}

}  // namespace xme::cli
