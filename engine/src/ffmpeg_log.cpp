// FFmpeg's own log lines through xme's: one prefix, the decoder's name instead of its address,
// control bytes from damaged input escaped, and the level set_ffmpeg_log chose.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "video_io.hpp"

extern "C" {
#include <libavutil/log.h>
}

namespace xme {
namespace {

std::atomic<int> max_level{AV_LOG_WARNING};

int av_level_of(FfmpegLog level) {
    switch (level) {
        case FfmpegLog::errors:
            return AV_LOG_ERROR;
        case FfmpegLog::warnings:
            return AV_LOG_WARNING;
        case FfmpegLog::verbose:
            return AV_LOG_VERBOSE;
    }
    return AV_LOG_WARNING;
}

// Decoder threads log too, and a message may come in pieces: one line at a time, whole.
std::mutex log_mutex;
std::string line_prefix;  // of the line being assembled, empty between lines
std::string line_text;

void append_escaped(std::string& line, const char* text) {
    for (const char* c = text; *c != '\0'; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        if (byte == '\n' || (byte >= 0x20 && byte != 0x7f)) {
            line += *c;
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            line += escaped;
        }
    }
}

void log_line(void* context, int level, const char* format, va_list arguments) {
    if (level > max_level.load(std::memory_order_relaxed)) return;
    char text[1024];
    std::vsnprintf(text, sizeof text, format, arguments);
    std::lock_guard lock(log_mutex);
    if (line_prefix.empty()) {
        const AVClass* av_class = context ? *static_cast<AVClass**>(context) : nullptr;
        line_prefix = "xme: ffmpeg: ";
        if (av_class) line_prefix += std::string(av_class->item_name(context)) + ": ";
    }
    append_escaped(line_text, text);
    for (std::size_t end; (end = line_text.find('\n')) != std::string::npos; line_text.erase(0, end + 1)) {
        const std::string line = line_text.substr(0, end);
        // FFmpeg breaks some messages with a leading newline: no empty lines.
        if (line.find_first_not_of(' ') != std::string::npos) {
            std::fprintf(stderr, "%s%s\n", line_prefix.c_str(), line.c_str());
        }
    }
    if (line_text.empty()) line_prefix.clear();
}

}  // namespace

void set_ffmpeg_log(FfmpegLog level) {
    max_level = av_level_of(level);
    av_log_set_level(max_level);
}

namespace detail {

void route_ffmpeg_log() {
    static std::once_flag once;
    std::call_once(once, [] {
        av_log_set_level(max_level);
        av_log_set_callback(log_line);
    });
}

}  // namespace detail
}  // namespace xme
