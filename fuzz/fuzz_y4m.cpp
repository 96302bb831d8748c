// The Y4M reader on arbitrary bytes: every outcome is frames of the header's size or an xme::Error,
// and skipping frames agrees with reading them (same count, same failure).
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "video_io.hpp"
#include "xme/error.hpp"

namespace {

struct ReadOutcome {
    std::int64_t frames = 0;
    bool failed = false;
};

ReadOutcome read_all(const std::string& path) {
    ReadOutcome outcome;
    try {
        auto reader = xme::detail::open_y4m(path, xme::detail::open_for_reading(path));
        const xme::VideoInfo& info = reader->info();
        while (auto frame = reader->read_frame()) {
            if (frame->width() != info.width || frame->height() != info.height ||
                frame->chroma != info.chroma) {
                xme::fuzz::finding("a frame differs from the header's size or format");
            }
            ++outcome.frames;
        }
    } catch (const xme::Error& error) {
        // Messages quote the header; a control byte from the file must not reach the terminal.
        for (const char c : std::string_view(error.what())) {
            if ((c >= 0 && c < 0x20) || c == 0x7f) {
                xme::fuzz::finding("a control byte " + std::to_string(int{c}) +
                                   " in the message: " + error.what());
            }
        }
        outcome.failed = true;
    }
    return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const xme::fuzz::MemoryFile file(data, size);
    const ReadOutcome read = read_all(file.path());

    // Skipping one frame past the last one read must stop, or fail, exactly where reading did.
    bool skip_failed = false;
    std::int64_t skipped = -1;
    try {
        auto reader = xme::detail::open_y4m(file.path(), xme::detail::open_for_reading(file.path()));
        skipped = reader->skip_frames(read.frames + 1);
        if (!skip_failed && reader->read_frame()) xme::fuzz::finding("a frame after skipping to the end");
    } catch (const xme::Error&) {
        skip_failed = true;
    }
    if (read.failed != skip_failed || (!read.failed && skipped != read.frames)) {
        xme::fuzz::finding("reading gave " + std::to_string(read.frames) + " frames" +
                           (read.failed ? " then an error" : "") + ", skipping gave " +
                           std::to_string(skipped) + (skip_failed ? " and an error" : ""));
    }
    return 0;
}
