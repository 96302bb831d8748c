// Input that is hostile or merely unusual: sizes that overflow, headers that promise more than the
// file holds, long header lines, control bytes in what a message quotes, --start at the end.
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"
#include "io_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/text_escape.hpp"
#include "xme/video.hpp"

namespace fs = std::filesystem;
using namespace xme::test::io;
using xme::ChromaFormat;
using xme::ErrorKind;
using xme::test::cli::Run;
using xme::test::cli::run_xme;
using xme::test::cli::scratch_dir;

namespace {

// The sanitizers reserve terabytes of address space up front.
constexpr bool sanitized = xme::test::address_sanitized || xme::test::thread_sanitized;

// While it lives, this process may map at most 1 GiB more than it has now, so that a frame of
// gigabytes fails to allocate at once instead of filling the machine's memory.
class AddressSpaceLimit {
public:
    AddressSpaceLimit() {
        std::ifstream status("/proc/self/status");
        long long kib = 0;
        for (std::string key; status >> key;) {
            if (key == "VmSize:") {
                status >> kib;
                break;
            }
        }
        REQUIRE(kib > 0);
        REQUIRE(getrlimit(RLIMIT_AS, &saved_) == 0);
        rlimit limit = saved_;
        limit.rlim_cur = static_cast<rlim_t>(kib + (1 << 20)) * 1024;
        if (saved_.rlim_max != RLIM_INFINITY && limit.rlim_cur > saved_.rlim_max)
            limit.rlim_cur = saved_.rlim_max;
        REQUIRE(setrlimit(RLIMIT_AS, &limit) == 0);
    }
    ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved_); }
    AddressSpaceLimit(const AddressSpaceLimit&) = delete;
    AddressSpaceLimit& operator=(const AddressSpaceLimit&) = delete;

private:
    rlimit saved_{};
};

bool has_control_byte(const std::string& text) {
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n') return true;
    }
    return false;
}

// A Y4M of `count` random 16x8 4:2:0 frames whose FRAME lines carry a parameter, so that the
// reader cannot know the count from the file's size.
std::string write_y4m_with_frame_params(const std::string& path, int count, std::mt19937_64& rng) {
    std::string bytes = "YUV4MPEG2 W16 H8 F25:1 C420jpeg\n";
    for (int i = 0; i < count; ++i)
        bytes += "FRAME Ip\n" + planes_bytes(random_frame(16, 8, ChromaFormat::yuv420, rng));
    write_file(path, bytes);
    return bytes;
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE("escape_text writes control bytes and broken UTF-8 as \\xNN and keeps text") {
    CHECK(xme::escape_text("C420\x1b[2J\x07") == "C420\\x1b[2J\\x07");
    CHECK(xme::escape_text("a\tb\nc\rd\x7f") == "a\\x09b\\x0ac\\x0dd\\x7f");
    CHECK(xme::escape_text("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x8e\xa5") ==
          "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x8e\xa5");
    CHECK(xme::escape_text("\xc2\x9b"
                           "31m") == "\\xc2\\x9b31m");  // C1 CSI
    CHECK(xme::escape_text("\x9b\xff\xc3") == "\\x9b\\xff\\xc3");
    CHECK(xme::escape_text("\xe0\x80\xaf \xed\xa0\x80") ==
          "\\xe0\\x80\\xaf \\xed\\xa0\\x80");  // overlong, surrogate
    CHECK(xme::escape_text(std::string("a\0b", 3)) == "a\\x00b");
    SEEDED_RNG(rng, "io/escape_text");
    std::string noise(4096, '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    const std::string escaped = xme::escape_text(noise);
    CHECK_FALSE(has_control_byte(escaped));
    CHECK(escaped.find('\n') == std::string::npos);
    CHECK(xme::escape_text(escaped) == escaped);  // escaping twice changes nothing
}

TEST_CASE("messages quoting a Y4M tag or a file name carry no control byte") {
    TempDir dir;
    const std::string path = dir.file("tag.y4m");
    write_file(path, "YUV4MPEG2 W16 H8 C420\x1b[2J\x1b[31m\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::unsupported, {"C420\\x1b[2J\\x1b[31m"});
    try {
        (void)xme::open_video(path);
    } catch (const xme::Error& error) {
        CHECK_FALSE(has_control_byte(error.what()));
    }
    write_file(path, "YUV4MPEG2 W16 H8 F\x1b]0;pwned\x07:1\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {"F\\x1b]0;pwned\\x07:1"});

    const std::string odd_name = dir.file("clip\x1b[2J.y4m");
    check_error([&] { (void)xme::open_video(odd_name); }, ErrorKind::bad_input,
                {"clip\\x1b[2J.y4m", "cannot open"});
    const std::string utf8_name = dir.file("f\xc3\xa9te.y4m");
    check_error([&] { (void)xme::open_video(utf8_name); }, ErrorKind::bad_input, {"f\xc3\xa9te.y4m"});
}

TEST_CASE("Y4M: a FRAME line or header of any length up to 1 MiB is read; longer is named") {
    SEEDED_RNG(rng, "io/y4m long lines");
    TempDir dir;
    const std::string path = dir.file("long.y4m");
    const xme::Frame first = random_frame(16, 8, ChromaFormat::yuv420, rng);
    const xme::Frame second = random_frame(16, 8, ChromaFormat::yuv420, rng);
    const std::string comment = " X" + std::string(100000, 'c');
    const std::string params = " X" + std::string(5000, 'p');  // past the 4096 bytes of the old limit
    write_file(path, "YUV4MPEG2 W16 H8 C420jpeg" + comment + "\nFRAME" + params + "\n" + planes_bytes(first) +
                         "FRAME" + std::string(300000, ' ') + "\n" + planes_bytes(second));
    auto reader = xme::open_video(path);
    auto frame = reader->read_frame();
    REQUIRE(frame);
    CHECK(same_frame(*frame, first));
    frame = reader->read_frame();
    REQUIRE(frame);
    CHECK(same_frame(*frame, second));
    CHECK_FALSE(reader->read_frame());
    reader = xme::open_video(path);
    CHECK(reader->skip_frames(5) == 2);

    write_file(path, "YUV4MPEG2 W16 H8\nFRAME X" + std::string(1 << 20, 'p') + "\n" + planes_bytes(first));
    reader = xme::open_video(path);
    check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input,
                {path, "FRAME line of frame 0 is longer than 1 MiB"});
    write_file(path, "YUV4MPEG2 W16 H8 X" + std::string(1 << 20, 'c') + "\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input,
                {path, "header line is longer than 1 MiB"});
}

TEST_CASE("Y4M: W and H that overflow an int are refused, not wrapped") {
    TempDir dir;
    const std::string path = dir.file("wide.y4m");
    for (const std::string width : {"4294967616", "2147483648", "99999999999999999999", "65537"}) {
        CAPTURE(width);
        write_file(path, "YUV4MPEG2 W" + width + " H1 C420jpeg\nFRAME\n" + std::string(480, 'x'));
        // Larger than xme handles, as xme(1)'s INPUT says: unsupported (exit 4), not damaged input.
        check_error([&] { (void)xme::open_video(path); }, ErrorKind::unsupported,
                    {path, "W" + width + " is larger than the frames xme reads (up to 65536)", "16384"});
    }
    write_file(path, "YUV4MPEG2 W0 H1 C420jpeg\nFRAME\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {path, "W0 is outside 1..65536"});
    write_file(path, "YUV4MPEG2 W16 H-8\n");
    check_error([&] { (void)xme::open_video(path); }, ErrorKind::bad_input, {path, "malformed H"});
}

TEST_CASE("a header promising a frame larger than the file fails at once, without allocating it") {
    if (sanitized) {
        MESSAGE("skipped: a sanitizer's shadow memory does not fit under an address-space limit");
        return;
    }
    SEEDED_RNG(rng, "io/huge header");
    TempDir dir;
    std::string payload(460 * 1024, '\0');
    for (char& c : payload) c = static_cast<char>(rng());
    const std::int64_t frame_bytes = std::int64_t{65536} * 65536 * 3;  // 4:4:4: 12 GiB
    const std::string y4m = dir.file("huge.y4m");
    write_file(y4m, "YUV4MPEG2 W65536 H65536 C444\nFRAME\n" + payload);
    const std::string raw = dir.file("huge.yuv");
    write_file(raw, payload);

    const auto started = std::chrono::steady_clock::now();
    {
        const AddressSpaceLimit limit;  // without the check, the frame's allocation fails here
        auto reader = xme::open_video(y4m);
        check_error([&] { (void)reader->read_frame(); }, ErrorKind::bad_input,
                    {y4m, "frame 0 is truncated (got " + std::to_string(payload.size()) + " of " +
                              std::to_string(frame_bytes) + " bytes)"});
        // A raw file of less than one frame is refused as it is opened: --size is the likelier mistake.
        check_error(
            [&] {
                (void)xme::open_video(raw, {65536, 65536, ChromaFormat::yuv444});
            },
            ErrorKind::bad_input,
            {raw,
             "holds " + std::to_string(payload.size()) + " bytes, less than one 65536x65536 yuv444p frame",
             "check --size"});

        // Where nothing says the frame cannot fit (a pipe), a failed allocation is a clear error.
        check_error([&] { (void)xme::make_frame(65536, 65536, ChromaFormat::yuv444); },
                    ErrorKind::unsupported,
                    {"65536x65536 yuv444p frame (" + std::to_string(frame_bytes) + " bytes) is too large"});
    }
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("cli");

TEST_CASE("--threads has a bound: past 1024 it is exit 2, not a crash in OpenMP") {
    const fs::path dir = scratch_dir("threads");
    SEEDED_RNG(rng, "cli/threads");
    const std::string clip = (dir / "clip.y4m").string();
    (void)write_y4m(clip, 48, 32, ChromaFormat::yuv420, 3, rng);
    for (const std::string threads : {"100000", "1025", "2147483647"}) {
        for (const std::string& command : std::vector<std::string>{
                 "estimate " + clip + " --backend cpu", "compare " + clip + " --backends cpu,reference",
                 "bench --backends cpu --sizes 64x48 --no-sad-peak"}) {
            const Run run = run_xme(command + " --threads " + threads);
            INFO(command, " --threads ", threads, " -> ", run.output);
            CHECK(run.exit_code == 2);
            CHECK(run.output.find("--threads: must be a whole number from 0 to 1024 (0: one per processor") !=
                  std::string::npos);
        }
    }
    const Run run = run_xme("estimate " + clip + " --backend cpu --block 8 --range 2 -q --threads 1024");
    INFO(run.output);
    CHECK(run.exit_code == 0);
}

TEST_CASE("WIDTHxHEIGHT past an int or past xme's largest frame is exit 2, never wrapped") {
    const fs::path dir = scratch_dir("sizes");
    const std::string raw = (dir / "raw.yuv").string();
    std::ofstream(raw) << std::string(320 * 3 / 2 * 4, 'x');
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"4294967616x1", "width 4294967616 is outside 1..16384"},  // 2^32 + 320
        {"320x4294967297", "height 4294967297 is outside 1..16384"},
        {"16385x1", "width 16385 is outside 1..16384"},
        {"0x1", "width 0 is outside 1..16384"},
        {"-320x1", "is not WIDTHxHEIGHT"},
        {"+320x1", "is not WIDTHxHEIGHT"},
        {" 320x1", "is not WIDTHxHEIGHT"},
        {"320x1x1", "is not WIDTHxHEIGHT"},
        {"320x", "is not WIDTHxHEIGHT"},
    };
    for (const auto& [size, message] : cases) {
        const Run estimate = run_xme("estimate " + raw + " --backend cpu -q --size '" + size + "'");
        INFO(size, " -> ", estimate.output);
        CHECK(estimate.exit_code == 2);
        CHECK(estimate.output.find(message) != std::string::npos);
        const Run bench = run_xme("bench --backends cpu --no-sad-peak --pairs 1 --sizes '" + size + "'");
        INFO("bench: ", bench.output);
        CHECK(bench.exit_code == 2);
        CHECK(bench.output.find(message) != std::string::npos);
    }
    const Run bench =
        run_xme("bench --backends cpu --no-sad-peak --pairs 1 --sizes 4294967360x48");  // 2^32 + 64
    CHECK(bench.exit_code == 2);
    CHECK(bench.output.find("64x48") == std::string::npos);
}

TEST_CASE("a run with no frame pair is exit 3 naming the frame count, wherever it is found") {
    const fs::path dir = scratch_dir("start");
    SEEDED_RNG(rng, "cli/start");
    const std::string counted = (dir / "counted.y4m").string();  // count known from the file's size
    (void)write_y4m(counted, 16, 8, ChromaFormat::yuv420, 4, rng);
    const std::string uncounted = (dir / "uncounted.y4m").string();  // count known only by reading
    (void)write_y4m_with_frame_params(uncounted, 4, rng);
    for (const std::string& clip : {counted, uncounted}) {
        const std::string run_on =
            "estimate " + clip + " --backend cpu --block 8 --range 2 -q -o " + (dir / "mv.csv").string();
        const Run last_pair = run_xme(run_on + " --start 2");
        INFO(last_pair.output);
        CHECK(last_pair.exit_code == 0);
        CHECK(xme::test::cli::lines_of(xme::test::cli::read_file(dir / "mv.csv")).size() ==
              1 + 2);  // frame 3's 2 blocks
        for (int start = 3; start <= 6; ++start) {
            const Run run = run_xme(run_on + " --start " + std::to_string(start));
            INFO(clip, " --start ", start, " -> ", run.output);
            CHECK(run.exit_code == 3);
            CHECK(run.output.find("has 4 frame(s) and --start " + std::to_string(start) + " leaves " +
                                  std::to_string(std::max(0, 4 - start))) != std::string::npos);
            CHECK(run.output.find("use --start 2 or less") != std::string::npos);
        }
    }
    const std::string single = (dir / "single.y4m").string();
    (void)write_y4m(single, 16, 8, ChromaFormat::yuv420, 1, rng);
    Run run = run_xme("estimate " + single + " --backend cpu -q");
    CHECK(run.exit_code == 3);
    CHECK(run.output.find("has 1 frame(s): a frame pair needs two frames") != std::string::npos);
    run = run_xme("estimate " + counted + " --backend cpu -q --frames 1");
    CHECK(run.exit_code == 2);
    CHECK(run.output.find("--frames 1 gives no frame pair") != std::string::npos);
}

TEST_CASE("a Y4M header larger than its file is exit 3 at once; control bytes are not echoed") {
    const fs::path dir = scratch_dir("hostile");
    const std::string huge = (dir / "huge.y4m").string();
    std::ofstream(huge) << "YUV4MPEG2 W16384 H16384 C444\nFRAME\n" << std::string(460 * 1024, 'x');
    const auto started = std::chrono::steady_clock::now();
    Run run = run_xme("estimate " + huge + " --backend cpu -q");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    INFO(run.output);
    CHECK(run.exit_code == 3);
    CHECK(run.output.find("frame 0 is truncated (got " + std::to_string(460 * 1024) +
                          " of 805306368 bytes)") != std::string::npos);

    const std::string wide = (dir / "wide.y4m").string();
    std::ofstream(wide) << "YUV4MPEG2 W65536 H65536 C444\nFRAME\n" << std::string(460 * 1024, 'x');
    for (const std::string& command : {"estimate " + wide + " --backend cpu -q",
                                       "bench " + wide + " --backends cpu --pairs 1 --no-sad-peak"}) {
        run = run_xme(command);
        INFO(command, "\n", run.output);
        CHECK(run.exit_code == 4);
        CHECK(run.output.find("is 65536x65536: xme handles frames up to 16384") != std::string::npos);
    }

    const std::string tagged = (dir / "tag.y4m").string();
    std::ofstream(tagged) << "YUV4MPEG2 W16 H8 C420\x1b[2J\x1b[H\x07\n";
    run = run_xme("estimate " + tagged + " --backend cpu -q");
    CHECK(run.exit_code == 4);
    CHECK(run.output.find("C420\\x1b[2J\\x1b[H\\x07") != std::string::npos);
    CHECK_FALSE(has_control_byte(run.output));
}

TEST_SUITE_END();
