// tools/codecview_mvs end to end: FFmpeg's codecview filter draws `xme estimate --export-mvs` on the
// clip's frames (lossless .y4m in and out): the output differs from the input at the vectors' blocks
// and nowhere on the frame without vectors; and a file that is not an .mvs.npy is refused.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "cli_test_helpers.hpp"
#include "export_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

#ifdef XME_CODECVIEW_MVS_BINARY
Run run_codecview(const std::string& arguments) {
    return run_command(std::string(XME_CODECVIEW_MVS_BINARY) + " " + arguments);
}
#endif

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("codecview_mvs: FFmpeg's codecview draws --export-mvs where the vectors are") {
#ifndef XME_CODECVIEW_MVS_BINARY
        MESSAGE("skipped: tools/codecview_mvs is not built (no FFmpeg, or no libavfilter-dev)");
#else
        // People walking (vtest.avi), 4 frames, as a yuv420p .y4m so that nothing but the drawing changes.
        const int width = 352;
        const int height = 288;
        const auto luma = xme::test::clip_luma("vtest.avi", 4, 200, 150, width, height);
        if (!luma) {
            MESSAGE("skipped: vtest.avi is missing");
            return;
        }
        const fs::path dir = scratch_dir("codecview");
        const std::string clip = (dir / "walk.y4m").string();
        {
            xme::Y4mWriter writer(clip, width, height, xme::ChromaFormat::yuv420);
            for (const auto& plane : *luma) {
                xme::Frame frame = xme::make_frame(width, height, xme::ChromaFormat::yuv420);
                for (int y = 0; y < height; ++y)
                    for (int x = 0; x < width; ++x) frame.luma.at(x, y) = plane.view().at(x, y);
                std::fill_n(frame.cb.data(), frame.cb.size_bytes(), std::uint8_t{128});
                std::fill_n(frame.cr.data(), frame.cr.size_bytes(), std::uint8_t{128});
                writer.write(frame);
            }
        }
        const std::string mvs = (dir / "v.mvs.npy").string();
        const Run estimate = run_xme("estimate " + clip + " --range 8 --backend cpu -q --export-mvs " + mvs +
                                     " -o " + (dir / "v.npy").string());
        INFO(estimate.output);
        REQUIRE(estimate.exit_code == 0);
        const std::string drawn = (dir / "drawn.y4m").string();
        const Run draw = run_codecview(clip + " " + mvs + " " + drawn);
        INFO(draw.output);
        REQUIRE(draw.exit_code == 0);
        CHECK(draw.output.find("on 3 of 4 frames") != std::string::npos);

        auto reader = xme::open_video(drawn);
        const auto records = xme::test::exports::read_mvs_npy(mvs);
        for (int frame = 0; frame < 4; ++frame) {
            INFO("frame ", frame);
            const auto out = reader->read_frame();
            REQUIRE(out.has_value());
            const xme::Plane& in = (*luma)[static_cast<std::size_t>(frame)];
            int changed = 0;
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x)
                    changed += out->luma.view().at(x, y) != in.view().at(x, y) ? 1 : 0;
            if (frame == 0) {
                CHECK(changed == 0);  // no vectors: codecview leaves it as it is
                continue;
            }
            // codecview draws each vector as a line from dst towards src: dst's pixel always changes
            // (unless other lines add up to a multiple of 256 there, which the count allows for).
            int moving = 0;
            int marked = 0;
            for (const auto& r : records) {
                if (r.frame != frame || (r.src_x == r.dst_x && r.src_y == r.dst_y)) continue;
                ++moving;
                marked += out->luma.view().at(r.dst_x, r.dst_y) != in.view().at(r.dst_x, r.dst_y) ? 1 : 0;
            }
            INFO(moving, " moving blocks, ", marked, " marked, ", changed, " pixels changed");
            CHECK(moving > 0);
            CHECK(marked >= moving * 95 / 100);
            CHECK(changed > moving);
        }
        CHECK(!reader->read_frame().has_value());

        // An MP4 keeps every frame: without packet durations its edit list ended at the last
        // frame's start and players (and ffprobe) dropped that frame.
        const std::string drawn_mp4 = (dir / "drawn.mp4").string();
        const Run draw_mp4 = run_codecview(clip + " " + mvs + " " + drawn_mp4);
        INFO(draw_mp4.output);
        REQUIRE(draw_mp4.exit_code == 0);
        auto mp4 = xme::open_video(drawn_mp4);
        int mp4_frames = 0;
        while (mp4->read_frame()) ++mp4_frames;
        CHECK(mp4_frames == 4);

        const Run wrong =
            run_codecview(clip + " " + (dir / "v.npy").string() + " " + (dir / "x.y4m").string());
        INFO(wrong.output);
        CHECK(wrong.exit_code == 3);
        CHECK(wrong.output.find("not a file of xme estimate --export-mvs") != std::string::npos);
#endif
    }
}
