// Video readers and writers, and motion-field files, on random data from a seed printed per run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/video.hpp"

namespace fs = std::filesystem;
using xme::ChromaFormat;
using xme::ErrorKind;

namespace {

constexpr ChromaFormat all_formats[] = {ChromaFormat::yuv420, ChromaFormat::yuv422, ChromaFormat::yuv444,
                                        ChromaFormat::mono};

// A generator for one test from the run's seed (test_support prints it), shown with any failure.
#define SEEDED_RNG(rng, test_name)                          \
    const std::uint64_t rng##_seed = xme::test::run_seed(); \
    INFO("XME_TEST_SEED=" << rng##_seed);                   \
    auto rng = xme::test::rng_for(test_name)

// A fresh directory per test, removed at the end.
class TempDir {
public:
    TempDir() {
        std::random_device device;
        do {
            path_ = fs::temp_directory_path() / ("xme_test_io_" + std::to_string(device()));
        } while (!fs::create_directory(path_));
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

void fill_random(xme::Frame& frame, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> byte(0, 255);
    for (xme::Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        std::generate_n(plane->data(), plane->size_bytes(),
                        [&] { return static_cast<std::uint8_t>(byte(rng)); });
    }
}

xme::Frame random_frame(int width, int height, ChromaFormat format, std::mt19937_64& rng) {
    xme::Frame frame = xme::make_frame(width, height, format);
    fill_random(frame, rng);
    return frame;
}

bool same_plane(const xme::Plane& a, const xme::Plane& b) {
    return a.width() == b.width() && a.height() == b.height() &&
           std::equal(a.data(), a.data() + a.size_bytes(), b.data(), b.data() + b.size_bytes());
}

bool same_frame(const xme::Frame& a, const xme::Frame& b) {
    return a.chroma == b.chroma && same_plane(a.luma, b.luma) && same_plane(a.cb, b.cb) &&
           same_plane(a.cr, b.cr);
}

std::string planes_bytes(const xme::Frame& frame) {
    std::string bytes;
    for (const xme::Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        bytes.append(reinterpret_cast<const char*>(plane->data()), plane->size_bytes());
    }
    return bytes;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// Runs `action` and checks that it throws xme::Error of `kind` whose message holds every part.
template <typename Action>
void check_error(Action&& action, ErrorKind kind, const std::vector<std::string>& parts) {
    try {
        action();
        FAIL("no xme::Error thrown");
    } catch (const xme::Error& error) {
        INFO("message: " << error.what());
        CHECK(static_cast<int>(error.kind()) == static_cast<int>(kind));
        for (const std::string& part : parts)
            CHECK_MESSAGE(std::string(error.what()).find(part) != std::string::npos, part);
    }
}

std::vector<xme::Frame> write_y4m(const std::string& path, int width, int height, ChromaFormat format,
                                  int count, std::mt19937_64& rng) {
    xme::Y4mWriter writer(path, width, height, format, 30000, 1001);
    std::vector<xme::Frame> frames;
    for (int i = 0; i < count; ++i)
        writer.write(frames.emplace_back(random_frame(width, height, format, rng)));
    return frames;
}

}  // namespace

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

namespace {

xme::MotionField random_field(int blocks_x, int blocks_y, int block_size, int cost_scale,
                              std::mt19937_64& rng) {
    xme::MotionField field;
    field.blocks_x = blocks_x;
    field.blocks_y = blocks_y;
    field.block_size = block_size;
    field.cost_scale = cost_scale;
    std::uniform_int_distribution<int> mv(-512, 512);
    std::uniform_int_distribution<std::uint32_t> cost(0, 4 * 255 * 32 * 32);
    for (int i = 0; i < blocks_x * blocks_y; ++i) {
        field.blocks.push_back(
            {static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)), cost(rng)});
    }
    return field;
}

// The rows both formats hold, one string per value, in file order.
std::vector<std::string> expected_values(std::int64_t frame_index, const xme::MotionField& field) {
    std::vector<std::string> values;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const xme::BlockMotion& b = field.at(bx, by);
            for (std::int64_t v :
                 {frame_index, std::int64_t{bx} * field.block_size, std::int64_t{by} * field.block_size,
                  std::int64_t{b.mv_x}, std::int64_t{b.mv_y}, std::int64_t{b.cost},
                  std::int64_t{field.cost_scale}}) {
                values.push_back(std::to_string(v));
            }
        }
    }
    return values;
}

std::string join(const std::vector<std::string>& values, std::size_t per_line, char separator) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) {
        text += values[i];
        text += (i + 1) % per_line == 0 ? '\n' : separator;
    }
    return text;
}

// What numpy.load makes of the file: "dtype shape values...".
std::string load_with_numpy(const std::string& path) {
    const std::string command =
        "/usr/bin/python3 -c \"import numpy, sys; a = numpy.load(sys.argv[1]); "
        "print(a.dtype.str, a.shape, *a.ravel().tolist())\" " +
        path + " 2>&1";
    std::string output;
    if (std::FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
        pclose(pipe);
    }
    return output;
}

}  // namespace

TEST_CASE("CSV field file: header, then one row per block, complete after every frame") {
    SEEDED_RNG(rng, "io/csv");
    TempDir dir;
    const std::string path = dir.file("field.csv");
    auto writer = xme::open_field_writer(path);
    std::string expected = "frame,x,y,mv_x,mv_y,cost,cost_scale\n";
    CHECK(read_file(path) == expected);
    for (std::int64_t frame_index : {1, 7}) {
        const xme::MotionField field = random_field(3, 2, 16, 4, rng);
        writer->write(frame_index, field);
        expected += join(expected_values(frame_index, field), 7, ',');
        CHECK(read_file(path) == expected);
    }
}

TEST_CASE("NPY field file: int32 (rows, 7), loadable with numpy after every frame") {
    SEEDED_RNG(rng, "io/npy");
    TempDir dir;
    const std::string path = dir.file("field.npy");
    auto writer = xme::open_field_writer(path);
    CHECK(read_file(path).size() == 128);  // the fixed header, shape (0, 7)
    if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        MESSAGE("skipped loading with numpy: /usr/bin/python3 with numpy is absent");
        return;
    }
    CHECK(load_with_numpy(path) == "<i4 (0, 7)\n");
    std::vector<std::string> values;
    std::size_t rows = 0;
    for (std::int64_t frame_index : {0, 1}) {
        const xme::MotionField field = random_field(5, 3, 8, 1, rng);
        writer->write(frame_index, field);
        const auto more = expected_values(frame_index, field);
        values.insert(values.end(), more.begin(), more.end());
        rows += field.blocks.size();
        CHECK(load_with_numpy(path) ==
              "<i4 (" + std::to_string(rows) + ", 7) " + join(values, values.size(), ' '));
    }
}

TEST_CASE("field and Y4M writers: bad extension, unwritable path, wrong frame, value too large") {
    SEEDED_RNG(rng, "io/writer errors");
    TempDir dir;
    check_error([&] { (void)xme::open_field_writer(dir.file("field.txt")); }, ErrorKind::invalid_argument,
                {"field.txt", ".csv", ".npy"});
    const std::string unwritable = dir.file("no/such/dir/field.csv");
    check_error([&] { (void)xme::open_field_writer(unwritable); }, ErrorKind::io,
                {unwritable, "No such file"});
    check_error([&] { xme::Y4mWriter(dir.file("no/out.y4m"), 8, 8, ChromaFormat::yuv420); }, ErrorKind::io,
                {"no/out.y4m", "No such file"});

    xme::Y4mWriter y4m(dir.file("out.y4m"), 8, 8, ChromaFormat::yuv420);
    check_error([&] { y4m.write(random_frame(8, 8, ChromaFormat::yuv444, rng)); },
                ErrorKind::invalid_argument, {"out.y4m", "8x8 yuv444p", "8x8 yuv420p"});
    check_error([&] { y4m.write(random_frame(9, 8, ChromaFormat::yuv420, rng)); },
                ErrorKind::invalid_argument, {"9x8"});

    xme::MotionField field = random_field(1, 1, 8, 1, rng);
    field.blocks[0].cost = 0xffffffffU;
    check_error([&] { xme::open_field_writer(dir.file("big.npy"))->write(0, field); }, ErrorKind::unsupported,
                {"big.npy", "4294967295", ".csv"});
    auto csv = xme::open_field_writer(dir.file("big.csv"));
    csv->write(0, field);
    CHECK(read_file(dir.file("big.csv")).find(",4294967295,1\n") != std::string::npos);
}

TEST_SUITE_END();
