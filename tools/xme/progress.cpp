#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace xme::cli {

Progress::Progress(std::int64_t total_frames, bool enabled)
    : total_(total_frames), enabled_(enabled && isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
    if (enabled_ && done_ > 0) std::fputc('\n', stderr);
}

void Progress::frame_done() {
    ++done_;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_print_ < std::chrono::milliseconds(200) && done_ != total_) return;
    last_print_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
    if (total_ > 0) {
        const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : 0;
        std::fprintf(stderr, "\rframes %lld/%lld  %.1f frames/s  ETA %d:%02d   ", static_cast<long long>(done_),
                     static_cast<long long>(total_), rate, static_cast<int>(eta) / 60, static_cast<int>(eta) % 60);
    } else {
        std::fprintf(stderr, "\rframes %lld  %.1f frames/s   ", static_cast<long long>(done_), rate);
    }
    std::fflush(stderr);
}

}  // namespace xme::cli
