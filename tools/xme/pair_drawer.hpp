// `xme estimate ... --draw out.png|frames_%04d.png|out.mp4`: each pair's field drawn over its
// current frame as it is delivered, as `xme draw` would draw the -o file (arrows coloured by cost;
// with partitions, the chosen partitions outlined).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "draw_field.hpp"
#include "output_files.hpp"
#include "picture_output.hpp"
#include "xme/scheduler.hpp"
#include "xme/video.hpp"

namespace xme::cli {

class PairDrawer {
public:
    // Checks, before the run, that this build has FFmpeg (exit 4), that `path` names pictures and, for
    // one PNG, that at most one pair is asked for (exit 2), and claims the first file (exit 7).
    // `first_frame` is the first drawn frame; `pairs` how many are asked for (-1: to the end).
    PairDrawer(const std::string& path, bool partitions, std::int64_t first_frame, std::int64_t pairs);
    void draw(const ScheduledPair& pair, const VideoInfo& video);
    // Frame `frame_index` (`frame`'s pixels) with `paint`'s drawing over it: SPEC §14's frames
    // (reference_job.cpp) come this way.
    void draw_over(std::int64_t frame_index, const Frame& frame, const VideoInfo& video,
                   const std::function<void(Picture&)>& paint);
    // Flushes a video; the first file stays claimed (and is removed) if no pair came.
    void finish();

private:
    PictureTarget target_;
    DrawOptions options_;
    std::int64_t first_frame_;
    std::optional<ClaimedOutput> claim_;
    std::unique_ptr<PictureWriter> writer_;
    std::int64_t drawn_ = 0;
};

}  // namespace xme::cli
