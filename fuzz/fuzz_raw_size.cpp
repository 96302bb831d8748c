// The raw reader's size arithmetic. Input: a "WxH" line as --size takes it, one byte choosing the
// pixel format, then the file's bytes. A size the parser accepts is the one the text says (no
// wrapping), and the reader counts, reads and skips exactly file size / frame size whole frames,
// reporting a partial last one.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <tuple>

#include "fuzz_support.hpp"
#include "job_options.hpp"
#include "video_io.hpp"
#include "xme/error.hpp"
#include "xme/params.hpp"

namespace {

// The decimal number `text` spells (digits only), saturated: enough to see whether a parser wrapped.
std::int64_t spelled_number(std::string_view text) {
    std::int64_t value = 0;
    for (char c : text) value = std::min<std::int64_t>(value * 10 + (c - '0'), std::int64_t{1} << 40);
    return value;
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Checks the parser against the text when the text is plain digits "WxH"; returns the size or nothing.
std::optional<std::pair<int, int>> parse_size(const std::string& text) {
    std::optional<std::pair<int, int>> parsed;
    try {
        parsed = xme::cli::parse_frame_size(text, "--size");
    } catch (const xme::Error&) {
    }
    const std::size_t x = text.find('x');
    if (x == std::string::npos) return parsed;
    const std::string_view width(text.data(), x), height(text.data() + x + 1, text.size() - x - 1);
    if (!all_digits(width) || !all_digits(height)) return parsed;
    const std::int64_t w = spelled_number(width), h = spelled_number(height);
    // --size takes 1..max_frame_dimension per side (issue 15: no wrapping, no frame xme cannot hold).
    const bool valid = w >= 1 && h >= 1 && w <= xme::max_frame_dimension && h <= xme::max_frame_dimension;
    if (valid != parsed.has_value() || (parsed && (parsed->first != w || parsed->second != h))) {
        xme::fuzz::finding("--size '" + text + "' parsed as " +
                           (parsed ? std::to_string(parsed->first) + "x" + std::to_string(parsed->second)
                                   : std::string("an error")));
    }
    return parsed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto* begin = reinterpret_cast<const char*>(data);
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', std::min<std::size_t>(size, 64)));
    if (!newline || newline + 1 == begin + size) return 0;
    const auto size_option = parse_size(std::string(begin, newline));
    if (!size_option) return 0;

    xme::RawVideoOptions options;
    std::tie(options.width, options.height) = *size_option;
    const auto format = static_cast<std::uint8_t>(newline[1]) % 4;
    options.chroma = std::array{xme::ChromaFormat::yuv420, xme::ChromaFormat::yuv422,
                                xme::ChromaFormat::yuv444, xme::ChromaFormat::mono}[format];
    const auto* content = reinterpret_cast<const std::uint8_t*>(newline + 2);
    const auto content_size = static_cast<std::int64_t>(data + size - content);
    const xme::fuzz::MemoryFile file(content, static_cast<std::size_t>(content_size));

    // The frame size computed here independently, in 64 bits, from the format's definition.
    const std::int64_t w = options.width, h = options.height;
    const std::int64_t cw = format == 2 ? w : (w + 1) / 2, ch = format == 0 ? (h + 1) / 2 : h;
    const std::int64_t frame_bytes = w * h + (format == 3 ? 0 : 2 * cw * ch);
    const std::int64_t whole = content_size / frame_bytes;
    const bool partial = content_size % frame_bytes != 0;

    for (const bool skip : {false, true}) {
        std::int64_t frames = 0;
        bool failed = false;
        try {
            auto reader =
                xme::detail::open_raw_video(file.path(), xme::detail::open_for_reading(file.path()), options);
            if (reader->info().frame_count != whole)
                xme::fuzz::finding("frame_count is not file size / frame size");
            if (skip) {
                frames = reader->skip_frames(whole + 1);
            } else {
                while (reader->read_frame()) ++frames;
            }
        } catch (const xme::Error& error) {
            if (error.kind() == xme::ErrorKind::invalid_argument && (w > 65536 || h > 65536)) return 0;
            failed = true;
        }
        // Reading counts the whole frames before the partial one fails; skipping fails as a whole.
        if (failed != partial || ((!skip || !failed) && frames != whole)) {
            xme::fuzz::finding(std::string(skip ? "skipping" : "reading") + " gave " +
                               std::to_string(frames) + " frames" + (failed ? " and an error" : "") +
                               " for a file of " + std::to_string(content_size) + " bytes and frames of " +
                               std::to_string(frame_bytes));
        }
    }
    return 0;
}
