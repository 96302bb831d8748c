#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace xme::cli {

Progress::Progress(std::int64_t total_frames, bool total_exact, bool enabled)
    : total_(total_frames), total_exact_(total_exact), enabled_(enabled && isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
    if (!enabled_ || done_ == 0) return;
    // The estimate gave the last line an ETA; the count is what was done.
    if (!total_exact_) print(std::chrono::steady_clock::now(), true);
    std::fputc('\n', stderr);
}

void Progress::frame_done() {
    ++done_;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_print_ < std::chrono::milliseconds(200) && done_ != total_) return;
    last_print_ = now;
    print(now, false);
}

void Progress::print(std::chrono::steady_clock::time_point now, bool final) const {
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
    // An estimate the run has passed is no use: from there on, the count alone.
    if (total_ > 0 && !final && (total_exact_ || done_ < total_)) {
        const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : 0;
        const char* about = total_exact_ ? "" : "~";
        std::fprintf(stderr, "\rframes %lld/%s%lld  %.1f frames/s  ETA %s%d:%02d   ",
                     static_cast<long long>(done_), about, static_cast<long long>(total_), rate, about,
                     static_cast<int>(eta) / 60, static_cast<int>(eta) % 60);
    } else {
        std::fprintf(stderr, "\rframes %lld  %.1f frames/s                    ",
                     static_cast<long long>(done_), rate);
    }
    std::fflush(stderr);
}

}  // namespace xme::cli
