// `xme estimate -`: a Y4M stream (or raw frames with --size) piped into standard input gives the
// same vectors as the file it came from, and a short or empty stream is a clear error.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

using xme::test::cli::contains;
using xme::test::cli::lines_of;
using xme::test::cli::read_file;
using xme::test::cli::real_clip;
using xme::test::cli::run_xme_split;
using xme::test::cli::scratch_dir;
using xme::test::cli::SplitRun;
namespace fs = std::filesystem;

namespace {

// `FEED | xme ARGUMENTS` (FEED empty: no pipe, as for `< FILE`), stdout and stderr apart: with -o -
// the vectors share stdout with nothing else.
SplitRun run_piped(const std::string& feed, const std::string& arguments, const fs::path& dir) {
    return run_xme_split(arguments, dir, feed);
}

// The first `count` frames of the real clip as a Y4M file (the reader's own chroma: mono from
// FFmpeg, 4:2:0 from the .y4m stand-in); random moving texture where the clip is missing.
fs::path write_clip_y4m(const fs::path& dir, int count) {
    const fs::path path = dir / "clip.y4m";
    if (fs::exists(real_clip())) {
        auto reader = xme::open_video(real_clip());
        const xme::VideoInfo& info = reader->info();
        xme::Y4mWriter writer(path.string(), info.width, info.height, info.chroma);
        for (int i = 0; i < count; ++i) {
            auto frame = reader->read_frame();
            REQUIRE(frame.has_value());
            writer.write(*frame);
        }
        return path;
    }
    MESSAGE("the real clip ", real_clip(), " is missing: random moving texture instead (seed above)");
    auto rng = xme::test::rng_for("cli stdin clip");
    xme::Y4mWriter writer(path.string(), 96, 64, xme::ChromaFormat::yuv420);
    for (int i = 0; i < count; i += 2) {
        auto pair = xme::test::make_pair(xme::test::Content::moving_texture, 96, 64, rng);
        for (xme::Plane* luma : {&pair.reference, &pair.current}) {
            auto frame = xme::make_frame(96, 64, xme::ChromaFormat::yuv420);
            frame.luma = std::move(*luma);
            writer.write(frame);
        }
    }
    return path;
}

// The same frames packed back to back, as raw planar video; returns "WIDTHxHEIGHT --pix-fmt FORMAT".
std::string write_raw_copy(const fs::path& y4m, const fs::path& raw) {
    auto reader = xme::open_video(y4m.string());
    std::ofstream out(raw, std::ios::binary);
    while (auto frame = reader->read_frame()) {
        for (const xme::Plane* plane : {&frame->luma, &frame->cb, &frame->cr}) {
            out.write(reinterpret_cast<const char*>(plane->data()),
                      static_cast<std::streamsize>(plane->size_bytes()));
        }
    }
    const xme::VideoInfo& info = reader->info();
    return std::to_string(info.width) + "x" + std::to_string(info.height) + " --pix-fmt " +
           xme::to_string(info.chroma);
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("estimate - on a piped Y4M stream writes the file's vectors, byte for byte") {
        const fs::path dir = scratch_dir("stdin");
        const fs::path clip = write_clip_y4m(dir, 6);
        const std::string options = " --backend cpu --block 16 --range 8 --algo fs+hpel --quiet";
        const auto from_file =
            run_piped("",
                      "estimate " + clip.string() + options + " -o " + (dir / "file.csv").string() +
                          " --json " + (dir / "file.json").string(),
                      dir);
        REQUIRE(from_file.exit_code == 0);
        const std::string expected = read_file(dir / "file.csv");
        const auto rows = lines_of(expected);
        REQUIRE(rows.size() > 5 * 20);  // 5 pairs of many blocks
        int moving = 0;                 // real motion, not an all-zero field
        for (std::size_t i = 1; i < rows.size(); ++i) moving += contains(rows[i], ",0,0,") ? 0 : 1;
        CHECK(moving > 0);

        const std::string cat = "cat " + clip.string();
        const auto piped = run_piped(cat,
                                     "estimate -" + options + " -o " + (dir / "pipe.csv").string() +
                                         " --json " + (dir / "pipe.json").string(),
                                     dir);
        INFO(piped.err);
        REQUIRE(piped.exit_code == 0);
        CHECK(read_file(dir / "pipe.csv") == expected);
        const auto file_json = nlohmann::json::parse(read_file(dir / "file.json"));
        const auto pipe_json = nlohmann::json::parse(read_file(dir / "pipe.json"));
        CHECK(pipe_json["input"] == "-");
        REQUIRE(pipe_json["frames"].size() == file_json["frames"].size());
        for (std::size_t i = 0; i < file_json["frames"].size(); ++i) {  // timings differ; figures do not
            CHECK(pipe_json["frames"][i]["total_cost"] == file_json["frames"][i]["total_cost"]);
            CHECK(pipe_json["frames"][i]["mc_psnr_db"] == file_json["frames"][i]["mc_psnr_db"]);
        }

        // .npy too, and -o - on stdout while the frames come in on stdin.
        REQUIRE(
            run_piped("", "estimate " + clip.string() + options + " -o " + (dir / "file.npy").string(), dir)
                .exit_code == 0);
        REQUIRE(
            run_piped(cat, "estimate -" + options + " -o " + (dir / "pipe.npy").string(), dir).exit_code ==
            0);
        CHECK(read_file(dir / "pipe.npy") == read_file(dir / "file.npy"));
        const auto to_stdout = run_piped(cat, "estimate -" + options + " -o -", dir);
        CHECK(to_stdout.exit_code == 0);
        CHECK(to_stdout.out == expected);

        // --start skips by reading, where a file seeks; stdin redirected from the file seeks again.
        const std::string window = options + " --start 2 --frames 3 -o ";
        REQUIRE(run_piped("", "estimate " + clip.string() + window + (dir / "file_window.csv").string(), dir)
                    .exit_code == 0);
        const std::string expected_window = read_file(dir / "file_window.csv");
        CHECK(lines_of(expected_window).size() == 1 + 2 * (rows.size() - 1) / 5);
        REQUIRE(run_piped(cat, "estimate -" + window + (dir / "pipe_window.csv").string(), dir).exit_code ==
                0);
        CHECK(read_file(dir / "pipe_window.csv") == expected_window);
        REQUIRE(run_piped("", "estimate -" + window + (dir / "redirect.csv").string() + " < " + clip.string(),
                          dir)
                    .exit_code == 0);
        CHECK(read_file(dir / "redirect.csv") == expected_window);

        // Raw frames with --size: the same vectors again.
        const std::string raw_format = write_raw_copy(clip, dir / "clip.yuv");
        const auto raw =
            run_piped("cat " + (dir / "clip.yuv").string(),
                      "estimate - --size " + raw_format + options + " -o " + (dir / "raw.csv").string(), dir);
        INFO(raw.err);
        CHECK(raw.exit_code == 0);
        CHECK(read_file(dir / "raw.csv") == expected);
    }

    TEST_CASE("compare - and bench - read their frames from standard input once") {
        const fs::path dir = scratch_dir("stdin_others");
        const fs::path clip = write_clip_y4m(dir, 4);
        const std::string cat = "cat " + clip.string();
        const auto compare = run_piped(cat,
                                       "compare - --backends cpu,reference --block 16 --range 4 --json " +
                                           (dir / "compare.json").string(),
                                       dir);
        INFO(compare.out, compare.err);
        CHECK(compare.exit_code == 0);
        CHECK(contains(compare.out, "all devices agree"));
        CHECK(nlohmann::json::parse(read_file(dir / "compare.json"))["frames"].size() == 3);

        // bench used to open its input once for the size and again per device and size.
        const auto bench = run_piped(cat,
                                     "bench - --backends cpu --variants portable --algos fs --blocks 16 "
                                     "--ranges 2 --pairs 1 --no-sad-peak --json " +
                                         (dir / "bench.json").string(),
                                     dir);
        INFO(bench.err);
        REQUIRE(bench.exit_code == 0);
        const auto rows = nlohmann::json::parse(read_file(dir / "bench.json"))["rows"];
        REQUIRE(rows.size() == 1);
        CHECK(rows[0]["width"] == xme::open_video(clip.string())->info().width);
        CHECK(rows[0]["device_fps"].get<double>() > 0);
        const auto short_clip = run_piped(cat, "bench - --backends cpu --pairs 5 --no-sad-peak", dir);
        CHECK(short_clip.exit_code == 3);
        CHECK(contains(short_clip.err, "standard input has fewer than 7 frames"));
    }

    TEST_CASE("standard input cut short or empty or not Y4M: a clear error and a non-zero exit") {
        const fs::path dir = scratch_dir("stdin_faults");
        const fs::path clip = write_clip_y4m(dir, 4);
        const auto size = static_cast<long long>(fs::file_size(clip));
        // Cut inside the last frame: its pairs before are written, then exit 3 naming the frame.
        const auto cut = run_piped("head -c " + std::to_string(size - 100) + " " + clip.string(),
                                   "estimate - --backend cpu --block 16 --range 4 -o " +
                                       (dir / "cut.csv").string() + " --json " + (dir / "cut.json").string(),
                                   dir);
        CHECK(cut.exit_code == 3);
        CHECK(contains(cut.err, "standard input: frame 3 is truncated"));
        const auto summary = nlohmann::json::parse(read_file(dir / "cut.json"));
        CHECK(summary["frames"].size() == 2);
        CHECK(contains(summary["error"].get<std::string>(), "truncated"));

        const auto empty = run_piped("printf ''", "estimate -", dir);
        CHECK(empty.exit_code == 3);
        CHECK(contains(empty.err, "standard input is empty"));
        CHECK(contains(empty.err, "yuv4mpegpipe"));

        const auto foreign = run_piped("echo 'not a video'", "estimate -", dir);
        CHECK(foreign.exit_code == 3);
        CHECK(contains(foreign.err, "standard input is not a YUV4MPEG2"));
        CHECK(contains(foreign.err, "--size"));

        const auto one_frame = run_piped("head -c " + std::to_string(size / 4) + " " + clip.string(),
                                         "estimate - --backend cpu", dir);
        CHECK(one_frame.exit_code == 3);
        CHECK(contains(one_frame.err, "standard input: frame"));

        const auto raw_cut = run_piped("head -c 1000 " + clip.string(), "estimate - --size 64x48", dir);
        CHECK(raw_cut.exit_code == 3);
        CHECK(contains(raw_cut.err, "standard input: frame 0 is truncated"));
        CHECK(contains(raw_cut.err, "check --size"));

        const auto pix_fmt_alone = run_piped("cat " + clip.string(), "estimate - --pix-fmt gray", dir);
        CHECK(pix_fmt_alone.exit_code == 2);
        CHECK(contains(pix_fmt_alone.err, "--size"));
    }
}
