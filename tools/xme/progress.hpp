// Progress of a long run on stderr (frames done/total, frames/s, ETA), only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>

namespace xme::cli {

class Progress {
public:
    // total_frames: -1 when unknown; total_exact false when it is only an estimate (a container's
    // header can claim more frames than the file holds), shown as "~total".
    Progress(std::int64_t total_frames, bool total_exact, bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    void frame_done();

private:
    void print(std::chrono::steady_clock::time_point now, bool final) const;

    std::int64_t total_;
    bool total_exact_;
    std::int64_t done_ = 0;
    bool enabled_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_print_{};
};

}  // namespace xme::cli
