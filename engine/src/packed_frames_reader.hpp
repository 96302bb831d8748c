// What the Y4M and raw readers share: frames of one layout packed back to back in a FILE, each after a
// marker (Y4M's "FRAME\n"; none in raw video), read luma only and into the plane memory when asked,
// and by the prefetcher's threads where the file is regular.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "frame_prefetcher.hpp"
#include "video_io.hpp"

namespace xme::detail {

class PackedFramesReader : public VideoReader {
public:
    [[nodiscard]] const VideoInfo& info() const override { return info_; }
    void set_luma_only() override { luma_only_ = true; }
    void set_read_threads(int threads) override { prefetching_.set_threads(threads); }
    void set_plane_memory(std::shared_ptr<PlaneMemory> memory) override {
        overwrite_.memory = std::move(memory);
    }

protected:
    PackedFramesReader(std::string path, UniqueFile file, std::string marker)
        : path_(std::move(path)), file_(std::move(file)), marker_(std::move(marker)) {}

    // From a regular file, frames come from the prefetcher while the file matches its layout: true when
    // it answered (`frame` is the next frame, or nothing at the end), false to read on sequentially.
    [[nodiscard]] bool prefetched(std::optional<Frame>& frame) {
        if (!file_size_) return false;
        const FrameLayoutInFile shape{.path = path_,
                                      .marker = marker_,
                                      .frame_bytes = frame_bytes_,
                                      .width = info_.width,
                                      .height = info_.height,
                                      .chroma = chroma_read(),
                                      .overwrite = overwrite_};
        if (!prefetching_.next(file_.get(), shape, frame)) return false;
        if (frame) ++next_frame_;
        return true;
    }
    // The next frame's planes, for read_planes to fill: luma only when asked, where set_plane_memory says.
    [[nodiscard]] Frame unfilled_frame() const {
        return make_frame(info_.width, info_.height, chroma_read(), overwrite_);
    }
    // Before a sequential operation: the FILE moves to the first frame not handed out.
    void stop_prefetching() { prefetching_.stop(file_.get()); }

    std::string path_;
    UniqueFile file_;
    VideoInfo info_;  // the reader's constructor fills it, frame_bytes_ and file_size_
    std::int64_t frame_bytes_ = 0;
    std::int64_t next_frame_ = 0;
    std::optional<std::int64_t> file_size_;  // none for a pipe, which is skipped by reading

private:
    [[nodiscard]] ChromaFormat chroma_read() const { return luma_only_ ? ChromaFormat::mono : info_.chroma; }

    std::string marker_;
    bool luma_only_ = false;
    Plane::ForOverwrite overwrite_;  // where frames' planes live
    // After file_, so destroyed before it: the prefetcher's threads stop before the FILE closes.
    Prefetching prefetching_;
};

}  // namespace xme::detail
