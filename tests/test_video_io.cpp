// Video readers and writers, and the frame helpers, on random data from a seed printed per run.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "io_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace fs = std::filesystem;
using namespace xme::test::io;
using xme::ChromaFormat;
using xme::ErrorKind;

TEST_SUITE_BEGIN("io");

TEST_CASE("chroma plane sizes round up, and pixel format names round-trip") {
    CHECK(xme::chroma_width(ChromaFormat::yuv420, 33) == 17);
    CHECK(xme::chroma_height(ChromaFormat::yuv420, 17) == 9);
    CHECK(xme::chroma_width(ChromaFormat::yuv422, 1) == 1);
    CHECK(xme::chroma_height(ChromaFormat::yuv422, 17) == 17);
    CHECK(xme::chroma_width(ChromaFormat::yuv444, 33) == 33);
    CHECK(xme::chroma_width(ChromaFormat::mono, 33) == 0);
    const xme::Frame frame = xme::make_frame(33, 17, ChromaFormat::yuv420);
    CHECK((frame.cb.width() == 17 && frame.cb.height() == 9 && frame.cr.size_bytes() == 17 * 9));
    CHECK(xme::make_frame(4, 4, ChromaFormat::mono).cb.empty());
    for (ChromaFormat format : all_formats) CHECK(xme::parse_pixel_format(xme::to_string(format)) == format);
    check_error([] { (void)xme::parse_pixel_format("nv12"); }, ErrorKind::invalid_argument,
                {"nv12", "yuv420p", "gray"});
}

TEST_CASE("Y4M round trip keeps every plane, for every chroma format and odd sizes") {
    SEEDED_RNG(rng, "io/y4m round trip");
    TempDir dir;
    for (ChromaFormat format : all_formats) {
        for (auto [width, height] : {std::pair{33, 17}, {1, 1}, {2, 3}, {17, 1}}) {
            CAPTURE(xme::to_string(format));
            CAPTURE(width);
            CAPTURE(height);
            const std::string path = dir.file("clip.y4m");
            const auto frames = write_y4m(path, width, height, format, 3, rng);
            const auto reader = xme::open_video(path);
            const xme::VideoInfo& info = reader->info();
            CHECK((info.width == width && info.height == height && info.chroma == format));
            CHECK((info.fps_num == 30000 && info.fps_den == 1001 && info.frame_count == 3 &&
                   info.format == "y4m"));
            for (const xme::Frame& expected : frames) {
                const auto frame = reader->read_frame();
                REQUIRE(frame);
                CHECK(same_frame(*frame, expected));
            }
            CHECK_FALSE(reader->read_frame());
        }
    }
}

TEST_CASE("Y4M headers: default and named 4:2:0 variants, ignored tags, FRAME parameters") {
    TempDir dir;
    const std::string path = dir.file("tags.y4m");
    const std::string frame0(10, '\1'), frame1(10, '\2');  // 3x2 4:2:0: 6 luma + 2 + 2 chroma bytes
    write_file(path,
               "YUV4MPEG2 W3 H2 F30:1 It A0:0 XYSCSS=420JPEG\nFRAME Ixyz\n" + frame0 + "FRAME\n" + frame1);
    auto reader = xme::open_video(path);
    CHECK((reader->info().chroma == ChromaFormat::yuv420 && reader->info().fps_num == 30));
    CHECK(reader->info().frame_count == -1);  // not derivable once a FRAME line carries parameters
    CHECK(reader->skip_frames(1) == 1);
    const auto frame = reader->read_frame();
    REQUIRE(frame);
    CHECK(planes_bytes(*frame) == frame1);

    for (auto [tag, format] : {std::pair{"C420mpeg2", ChromaFormat::yuv420},
                               {"C420paldv", ChromaFormat::yuv420},
                               {"C422", ChromaFormat::yuv422},
                               {"C444", ChromaFormat::yuv444},
                               {"Cmono", ChromaFormat::mono}}) {
        write_file(path, std::string("YUV4MPEG2 W3 H2 F25:1 ") + tag + "\n");
        CHECK(xme::open_video(path)->info().chroma == format);
    }
    for (const char* tag : {"C420p10", "C444p16", "C444alpha"}) {
        write_file(path, std::string("YUV4MPEG2 W3 H2 F25:1 ") + tag + "\n");
        check_error([&] { (void)xme::open_video(path); }, ErrorKind::unsupported,
                    {path, tag, "-pix_fmt yuv420p"});
    }
    write_file(path, "YUV4MPEG3 W3 H2\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {path, "YUV4MPEG2"});
    write_file(path, "YUV4MPEG2 H2 F25:1\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {path, "W"});
    write_file(path, "YUV4MPEG2 W0 H2\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {path, "W0"});
}

TEST_CASE(
    "luma only: Y4M and raw readers pass over chroma, in a file and in a pipe, and still see truncation") {
    SEEDED_RNG(rng, "io/luma only");
    TempDir dir;
    const std::string path = dir.file("clip.y4m");
    const auto frames = write_y4m(path, 33, 17, ChromaFormat::yuv420, 3, rng);
    const std::string fifo = dir.file("pipe.y4m");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // The pipe is fed from another thread: its reader cannot seek, so it reads the chroma and drops it.
    std::thread feeder([&] { write_file(fifo, read_file(path)); });
    for (const std::string& input : {path, fifo}) {
        CAPTURE(input);
        const auto reader = xme::open_video(input);
        reader->set_luma_only();
        for (const xme::Frame& expected : frames) {
            const auto frame = reader->read_frame();
            REQUIRE(frame);
            CHECK(frame->chroma == ChromaFormat::mono);
            CHECK(frame->cb.empty());
            CHECK(same_plane(frame->luma, expected.luma));
        }
        CHECK_FALSE(reader->read_frame());
    }
    feeder.join();

    const std::string whole = read_file(path);
    write_file(path, whole.substr(0, whole.size() - 5));  // the last frame's chroma cut short
    auto reader = xme::open_video(path);
    reader->set_luma_only();
    CHECK(reader->read_frame());
    CHECK(reader->read_frame());
    check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input, {path, "frame 2 is truncated"});

    std::string bytes;
    for (const xme::Frame& frame : frames) bytes += planes_bytes(frame);
    write_file(dir.file("clip.yuv"), bytes);
    reader = xme::open_video(dir.file("clip.yuv"), xme::RawVideoOptions{33, 17, ChromaFormat::yuv420, 25, 1});
    reader->set_luma_only();
    for (const xme::Frame& expected : frames) {
        const auto frame = reader->read_frame();
        REQUIRE(frame);
        CHECK(same_plane(frame->luma, expected.luma));
    }
    CHECK_FALSE(reader->read_frame());
}

TEST_CASE("Y4M: truncated frames and bad FRAME markers name the frame") {
    SEEDED_RNG(rng, "io/y4m truncated");
    TempDir dir;
    const std::string path = dir.file("cut.y4m");
    (void)write_y4m(path, 33, 17, ChromaFormat::yuv420, 3, rng);
    const std::string whole = read_file(path);
    constexpr int frame_bytes = 33 * 17 + 2 * 17 * 9;
    const std::size_t header = whole.find('\n') + 1;

    write_file(path, whole.substr(0, whole.size() - 5));
    auto reader = xme::open_video(path);
    CHECK(reader->read_frame());
    CHECK(reader->read_frame());
    check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input,
                {path, "frame 2 is truncated (got " + std::to_string(frame_bytes - 5) + " of 867 bytes)"});
    reader = xme::open_video(path);
    check_error([&] { (void)reader->skip_frames(3); }, ErrorKind::bad_input, {path, "frame 2 is truncated"});

    write_file(path, whole.substr(0, header + 6 + frame_bytes + 3));  // ends inside frame 1's "FRAME"
    reader = xme::open_video(path);
    CHECK(reader->read_frame());
    check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input, {path, "frame 1 is truncated"});

    std::string corrupt = whole;
    corrupt[header + 6 + frame_bytes] = 'G';
    write_file(path, corrupt);
    reader = xme::open_video(path);
    CHECK(reader->read_frame());
    check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input, {path, "frame 1", "FRAME"});
}

TEST_CASE("Y4M: skip_frames seeks, stops at the end; the magic wins over the extension") {
    SEEDED_RNG(rng, "io/y4m skip");
    TempDir dir;
    const std::string path = dir.file("skip.y4m");
    const auto frames = write_y4m(path, 17, 9, ChromaFormat::yuv444, 5, rng);
    auto reader = xme::open_video(path);
    CHECK(reader->skip_frames(2) == 2);
    auto frame = reader->read_frame();
    REQUIRE(frame);
    CHECK(same_frame(*frame, frames[2]));
    CHECK(reader->skip_frames(10) == 2);
    CHECK_FALSE(reader->read_frame());

    for (const char* name : {"clip.dat", "clip.yuv", "clip.mkv"}) {
        fs::copy_file(path, dir.file(name));
        reader = xme::open_video(dir.file(name));  // no --size needed for .yuv: it is a Y4M
        CHECK(reader->info().format == "y4m");
        CHECK(reader->info().frame_count == 5);
    }
}

TEST_CASE("raw planar video: round trip, truncation, skip, size required") {
    SEEDED_RNG(rng, "io/raw");
    TempDir dir;
    for (ChromaFormat format : all_formats) {
        CAPTURE(xme::to_string(format));
        const std::string path = dir.file(format == ChromaFormat::mono ? "clip.gray" : "clip.yuv");
        std::vector<xme::Frame> frames;
        std::string bytes;
        for (int i = 0; i < 4; ++i)
            bytes += planes_bytes(frames.emplace_back(random_frame(33, 17, format, rng)));
        write_file(path, bytes);
        const xme::RawVideoOptions options{33, 17, format, 50, 1};
        auto reader = xme::open_video(path, options);
        CHECK((reader->info().format == "raw" && reader->info().frame_count == 4 &&
               reader->info().fps_num == 50));
        CHECK((reader->info().chroma == format && reader->info().width == 33 && reader->info().height == 17));
        for (const xme::Frame& expected : frames) {
            const auto frame = reader->read_frame();
            REQUIRE(frame);
            CHECK(same_frame(*frame, expected));
        }
        CHECK_FALSE(reader->read_frame());

        reader = xme::open_video(path, options);
        CHECK(reader->skip_frames(2) == 2);
        CHECK(same_frame(*reader->read_frame(), frames[2]));
        CHECK(reader->skip_frames(9) == 1);

        const auto frame_bytes = static_cast<std::int64_t>(bytes.size() / 4);
        const std::int64_t partial = frame_bytes / 2 + 1;
        write_file(path, bytes.substr(0, static_cast<std::size_t>(3 * frame_bytes + partial)));
        reader = xme::open_video(path, options);
        CHECK(reader->info().frame_count == 3);
        CHECK(reader->skip_frames(3) == 3);
        const std::string truncated = "frame 3 is truncated (got " + std::to_string(partial) + " of " +
                                      std::to_string(frame_bytes) + " bytes)";
        check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input, {path, truncated});
        reader = xme::open_video(path, options);
        check_error([&] { (void)reader->skip_frames(5); }, ErrorKind::bad_input, {path, truncated});
    }
    const std::string path = dir.file("clip.raw");
    write_file(path, std::string(100, '\0'));
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::invalid_argument,
                {path, "--size WxH", "--pix-fmt"});
    check_error(
        [&] {
            (void)xme::open_video(path, {16, 0});
        },
        ErrorKind::invalid_argument, {path, "--size WxH"});
    check_error(
        [&] {
            (void)xme::open_video(path, {1 << 20, 2});
        },
        ErrorKind::invalid_argument, {path, "--size"});
}

namespace {

// Every frame a reader gives, then what ended it: "end", or the error's message.
struct ReadOutcome {
    std::vector<xme::Frame> frames;
    std::string ending;
};

ReadOutcome read_all(xme::VideoReader& reader, std::int64_t skip_after = -1) {
    ReadOutcome outcome;
    try {
        while (auto frame = reader.read_frame()) {
            outcome.frames.push_back(std::move(*frame));
            if (std::ssize(outcome.frames) == skip_after) (void)reader.skip_frames(2);
        }
        CHECK_FALSE(reader.read_frame());  // the end stays the end
        outcome.ending = "end";
    } catch (const xme::Error& e) {
        outcome.ending = e.what();
    }
    return outcome;
}

// The same frames and the same ending with prefetching threads as without, luma only or not, with a
// skip between reads.
void check_prefetch_same(const std::string& path, const xme::RawVideoOptions& raw, const std::string& what) {
    for (const bool luma_only : {false, true}) {
        for (const std::int64_t skip_after : {std::int64_t{-1}, std::int64_t{3}}) {
            CAPTURE(what);
            CAPTURE(luma_only);
            CAPTURE(skip_after);
            auto sequential = xme::open_video(path, raw);
            sequential->set_read_threads(0);
            auto parallel = xme::open_video(path, raw);
            parallel->set_read_threads(3);
            if (luma_only) {
                sequential->set_luma_only();
                parallel->set_luma_only();
            }
            const ReadOutcome expected = read_all(*sequential, skip_after);
            const ReadOutcome got = read_all(*parallel, skip_after);
            CHECK(got.ending == expected.ending);
            REQUIRE(got.frames.size() == expected.frames.size());
            for (std::size_t i = 0; i < got.frames.size(); ++i)
                CHECK(same_frame(got.frames[i], expected.frames[i]));
        }
    }
}

}  // namespace

TEST_CASE("reading ahead in threads gives the sequential reader's frames and errors, in order") {
    SEEDED_RNG(rng, "io/prefetch");
    TempDir dir;
    const std::string path = dir.file("clip.y4m");
    const auto frames = write_y4m(path, 33, 17, ChromaFormat::yuv420, 23, rng);
    const std::string whole = read_file(path);
    const std::size_t header = whole.find('\n') + 1;
    constexpr std::size_t frame_bytes = 33 * 17 + 2 * 17 * 9;
    const auto frame_at = [&](std::size_t i) { return header + i * (6 + frame_bytes); };
    {
        auto reader = xme::open_video(path);
        reader->set_read_threads(3);
        const ReadOutcome outcome = read_all(*reader);
        CHECK(outcome.ending == "end");
        REQUIRE(outcome.frames.size() == frames.size());
        for (std::size_t i = 0; i < frames.size(); ++i) CHECK(same_frame(outcome.frames[i], frames[i]));
    }
    check_prefetch_same(path, {}, "whole file");
    // A FRAME line with parameters moves every later frame: reading goes on sequentially from there.
    write_file(path, whole.substr(0, frame_at(9)) + "FRAME Ip" + whole.substr(frame_at(9) + 5));
    check_prefetch_same(path, {}, "FRAME parameters at frame 9");
    // Truncated in the last frame's chroma, in its luma, in a marker; a bad marker.
    for (const std::size_t cut : {whole.size() - 5, frame_at(22) + 6 + 100, frame_at(20) + 3}) {
        write_file(path, whole.substr(0, cut));
        check_prefetch_same(path, {}, "cut at " + std::to_string(cut));
    }
    std::string corrupt = whole;
    corrupt[frame_at(14)] = 'G';
    write_file(path, corrupt);
    check_prefetch_same(path, {}, "bad marker at frame 14");

    const std::string raw_path = dir.file("clip.yuv");
    std::string bytes;
    for (const xme::Frame& frame : frames) bytes += planes_bytes(frame);
    const xme::RawVideoOptions raw{33, 17, ChromaFormat::yuv420, 25, 1};
    write_file(raw_path, bytes);
    check_prefetch_same(raw_path, raw, "raw");
    write_file(raw_path, bytes.substr(0, bytes.size() - frame_bytes / 2));
    check_prefetch_same(raw_path, raw, "raw, a partial last frame");
}

TEST_CASE("readers fill frames in the plane memory they are given, and every plane goes back to it") {
    SEEDED_RNG(rng, "io/plane memory");
    TempDir dir;
    const std::string path = dir.file("clip.y4m");
    const auto frames = write_y4m(path, 33, 17, ChromaFormat::yuv420, 9, rng);
    for (const int threads : {0, 3}) {
        for (const bool luma_only : {false, true}) {
            CAPTURE(threads);
            CAPTURE(luma_only);
            const auto memory = std::make_shared<xme::test::CountingPlaneMemory>();
            {
                auto reader = xme::open_video(path);
                reader->set_read_threads(threads);
                if (luma_only) reader->set_luma_only();
                reader->set_plane_memory(memory);
                const ReadOutcome outcome = read_all(*reader);
                CHECK(outcome.ending == "end");
                REQUIRE(outcome.frames.size() == frames.size());
                for (std::size_t i = 0; i < frames.size(); ++i) {
                    CHECK(same_plane(outcome.frames[i].luma, frames[i].luma));
                    if (!luma_only) CHECK(same_frame(outcome.frames[i], frames[i]));
                }
                // Every plane of every frame came from the memory (luma only: one a frame).
                CHECK(memory->allocated() == static_cast<int>(frames.size()) * (luma_only ? 1 : 3));
            }
            CHECK(memory->released() == memory->allocated());  // all given back, none twice
        }
    }
    // A memory with nothing to give: ordinary memory, the same frames.
    const auto empty = std::make_shared<xme::test::CountingPlaneMemory>(true);
    auto reader = xme::open_video(path);
    reader->set_plane_memory(empty);
    const ReadOutcome outcome = read_all(*reader);
    REQUIRE(outcome.frames.size() == frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) CHECK(same_frame(outcome.frames[i], frames[i]));
    CHECK(empty->released() == 0);
}

TEST_CASE("missing files and directories are bad_input naming the file and the reason") {
    TempDir dir;
    for (const char* name : {"none.y4m", "none.yuv", "none.mp4"}) {
        check_error(
            [&] {
                (void)xme::open_video(dir.file(name), {8, 8});
            },
            ErrorKind::bad_input, {"cannot open " + dir.file(name), "No such file"});
    }
    check_error([&] { (void)xme::open_video(dir.file("")); }, ErrorKind::bad_input,
                {"cannot open", "directory"});
}

TEST_CASE("FFmpeg: a real clip decodes to luma frames; garbage is bad_input") {
    TempDir dir;
    const std::string garbage = dir.file("garbage.mp4");
    SEEDED_RNG(rng, "io/ffmpeg clip");
    std::string noise(4096, '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    write_file(garbage, noise);
    if (!xme::ffmpeg_available()) {
        check_error([&] { (void)xme::open_video(garbage); }, ErrorKind::unsupported, {garbage, "ffmpeg -i"});
        MESSAGE("skipped FFmpeg decoding: this build has no FFmpeg");
        return;
    }
    check_error([&] { (void)xme::open_video(garbage); }, ErrorKind::bad_input, {garbage});

    const std::string clip = xme::test::clip_path("tree.avi");
    if (!fs::exists(clip)) {
        MESSAGE("skipped FFmpeg decoding: " << clip << " is absent (Debian package opencv-doc)");
        return;
    }
    auto reader = xme::open_video(clip);
    const xme::VideoInfo info = reader->info();
    CHECK((info.width == 320 && info.height == 240 && info.chroma == ChromaFormat::mono));
    CHECK(info.frame_count > 0);
    CHECK(info.format.rfind("ffmpeg:avi/", 0) == 0);
    std::vector<xme::Frame> first;
    std::int64_t decoded = 0;
    while (auto frame = reader->read_frame()) {
        CHECK((frame->width() == 320 && frame->height() == 240 && frame->chroma == ChromaFormat::mono));
        if (first.size() < 3) {
            const auto [low, high] = std::minmax_element(frame->luma.data(), frame->luma.data() + 320 * 240);
            CHECK(*low < *high);
            first.push_back(std::move(*frame));
        }
        ++decoded;
    }
    CHECK(decoded > 0);
    CHECK(reader->info().frame_count == decoded);  // the count is exact once the end is reached
    reader = xme::open_video(clip);
    CHECK(reader->skip_frames(2) == 2);
    CHECK(same_frame(*reader->read_frame(), first.at(2)));
}

TEST_CASE("FFmpeg: luma of a losslessly coded planar YUV video is exact") {
    if (!xme::ffmpeg_available() || std::system("ffmpeg -version > /dev/null 2>&1") != 0) {
        MESSAGE("skipped: needs FFmpeg in this build and the ffmpeg program to make the clip");
        return;
    }
    SEEDED_RNG(rng, "io/ffmpeg exact");
    TempDir dir;
    const auto frames = write_y4m(dir.file("in.y4m"), 33, 17, ChromaFormat::yuv420, 4, rng);
    const std::string coded = dir.file("coded.mkv");
    REQUIRE(std::system(("ffmpeg -v error -i " + dir.file("in.y4m") + " -c:v ffv1 " + coded).c_str()) == 0);
    auto reader = xme::open_video(coded);
    for (const xme::Frame& expected : frames) {
        const auto frame = reader->read_frame();
        REQUIRE(frame);
        CHECK(same_plane(frame->luma, expected.luma));
    }
    CHECK_FALSE(reader->read_frame());
    CHECK(reader->info().frame_count == 4);

    // Packed YUYV goes through swscale, which must leave luma untouched too.
    const std::string packed = dir.file("packed.nut");
    REQUIRE(
        std::system(("ffmpeg -v error -i " + dir.file("in.y4m") + " -c:v rawvideo -pix_fmt yuyv422 " + packed)
                        .c_str()) == 0);
    reader = xme::open_video(packed);
    for (const xme::Frame& expected : frames) {
        const auto frame = reader->read_frame();
        REQUIRE(frame);
        CHECK(same_plane(frame->luma, expected.luma));
    }

    // B-frames make the decoder hold the last frames back until it is flushed.
    const std::string reordered = dir.file("reordered.avi");
    REQUIRE(std::system(
                ("ffmpeg -v error -i " + dir.file("in.y4m") + " -c:v mpeg4 -bf 2 " + reordered).c_str()) ==
            0);
    reader = xme::open_video(reordered);
    CHECK(reader->info().frame_count == 4);
    CHECK(reader->skip_frames(9) == 4);
}

TEST_SUITE_END();
