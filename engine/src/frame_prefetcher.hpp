// Frames of a regular file that sit at known offsets (raw video; Y4M whose FRAME lines carry no
// parameters), read by several threads ahead of the caller and handed out in order. One thread's copy
// from the page cache (about 0.45 ms a 1080p luma plane on the GPU machine) limited a whole GPU job;
// reading frames in parallel scales it with the threads (docs/scheduler.md, "Reading").
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "xme/frame.hpp"

namespace xme::detail {

// Where frame j (counted from the prefetch's start) lies: its marker ("FRAME\n" for Y4M, none for raw)
// at start_offset + j * (marker size + frame_bytes), then the planes, packed.
struct FrameLayoutInFile {
    int descriptor = -1;  // read with pread: the FILE's own position and buffer are left alone
    std::string path;     // for messages
    std::string marker;
    std::int64_t start_offset = 0;
    std::int64_t frame_bytes = 0;  // every plane of the file's format
    int width = 0;
    int height = 0;
    // Of the frames handed out (mono: luma only, the rest passed over), and where their planes live.
    ChromaFormat chroma = ChromaFormat::mono;
    Plane::ForOverwrite overwrite;
};

// Thrown by next() where the file does not hold a whole frame with its marker at the next offset (a
// Y4M FRAME line with parameters, a truncated or damaged frame): the reader goes on sequentially from
// stop_offset(), and reports what it finds there as it always does.
class ReadSequentially : public std::exception {
public:
    [[nodiscard]] const char* what() const noexcept override {
        return "no whole frame at the next offset: read it sequentially";
    }
};

// Threads for reading ahead by default: none on small machines (the scheduler's own reader thread
// already overlaps reading with the devices), half the cores up to 8 on larger ones: on the 16-core
// H100 machine 4 threads read 1080p luma at ~9,500 frames/s, below the GPU's ~11,200 pairs/s, and 8 at
// 12,300-14,000 (docs/scheduler.md, "Why: the measurements").
[[nodiscard]] int default_read_threads();

class FramePrefetcher {
public:
    FramePrefetcher(FrameLayoutInFile layout, int threads);
    ~FramePrefetcher();
    FramePrefetcher(const FramePrefetcher&) = delete;
    FramePrefetcher& operator=(const FramePrefetcher&) = delete;

    // The next frame in order, nothing at the end of the file; rethrows a frame's error (unreadable,
    // ReadSequentially).
    [[nodiscard]] std::optional<Frame> next();
    // The file offset of the first frame not yet handed out.
    [[nodiscard]] std::int64_t stop_offset() const;

private:
    struct End {};
    using Result = std::variant<Frame, End, std::exception_ptr>;

    void work();
    [[nodiscard]] Result read(std::int64_t j) const;
    [[nodiscard]] std::int64_t offset_of(std::int64_t j) const;

    FrameLayoutInFile layout_;
    int depth_;  // frames read ahead of the caller at most

    std::mutex mutex_;
    std::condition_variable ready_;  // a result arrived
    std::condition_variable room_;   // the caller took one, or stop
    std::map<std::int64_t, Result> results_;
    std::int64_t next_claim_ = 0;
    std::int64_t next_take_ = 0;
    std::int64_t end_ = INT64_MAX;  // no frame at or after it is read (the end, or an error, came first)
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

// A reader's prefetching: started at its first read from a regular file when it has threads, given
// up for good where the file stops matching its layout (the reader then reads on by itself).
class Prefetching {
public:
    void set_threads(int threads) { threads_ = threads; }
    // True when the prefetcher answered: `frame` is the next frame, or nothing at the end. False: read
    // the next frame sequentially (the FILE is at it). `shape` describes the frames; their descriptor
    // and start offset are the FILE's, taken when prefetching starts.
    [[nodiscard]] bool next(std::FILE* file, const FrameLayoutInFile& shape, std::optional<Frame>& frame);
    // Before a sequential operation: the FILE moves to the first frame not handed out.
    void stop(std::FILE* file);

private:
    int threads_ = default_read_threads();
    bool given_up_ = false;
    std::string path_;
    std::unique_ptr<FramePrefetcher> prefetcher_;
};

}  // namespace xme::detail
