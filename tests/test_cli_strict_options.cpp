// Every numeric option is parsed as typed (xme(1), WRITING OUTPUTS): an empty value, a sign, a value out
// of range or spelled another way is exit 2 naming the option and the range, in every command, where
// CLI11's own conversion ran '' as 0 and 0x10 as 16. And the messages that misled: a known family's
// absent device, a size beyond xme's, a raw file smaller than one frame, raw video under another name.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

// A numeric option, the range its refusal names, and a value inside it that runs.
struct NumericOption {
    std::string option;
    std::int64_t minimum;
    std::int64_t maximum;  // INT64_MAX: no upper bound
    std::string range;     // as the message says it
};

// Values a user may type by mistake for `o`: empty, below and above the range (random), and spellings
// CLI11 would have converted (a sign, hex, a space, a fraction, an exponent).
std::vector<std::string> wrong_values(const NumericOption& o, std::mt19937_64& rng) {
    std::uniform_int_distribution<std::int64_t> some(1, 1'000'000);
    std::vector<std::string> values = {"''", std::to_string(o.minimum - some(rng)), "0x10", "' 5'", "5.0",
                                       "1e2"};
    if (o.minimum >= 0) values.push_back("+" + std::to_string(o.minimum + 1));
    if (o.maximum < INT64_MAX) values.push_back(std::to_string(o.maximum + some(rng)));
    values.push_back("99999999999999999999999");  // beyond any integer type
    return values;
}

void check_numeric_refusals(const std::string& command, const std::vector<NumericOption>& options,
                            std::mt19937_64& rng) {
    for (const NumericOption& o : options) {
        for (const std::string& value : wrong_values(o, rng)) {
            const Run run = run_xme(command + " " + o.option + " " + value);
            INFO(command, " ", o.option, " ", value, " -> ", run.output);
            CHECK(run.exit_code == 2);
            CHECK(contains(run.output, "xme: error: " + o.option + ": must be "));
            CHECK(contains(run.output, o.range));
        }
    }
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE(
        "estimate and compare refuse every numeric option's empty, signed, spelled or out-of-range value") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("strict numeric options");
        INFO("seed ", xme::test::run_seed());
        const std::vector<NumericOption> job_options = {
            {"--block", 4, 32, "4, 8, 16 or 32"},
            {"--range", 0, 4095, "from 0 to 4095"},
            {"--lambda", 0, 65535, "from 0 to 65535"},
            {"--qp", 0, 51, "from 0 to 51"},
            {"--refresh", 0, 2147483647, "from 0 to 2147483647"},
            {"--frames", 1, INT64_MAX, "of at least 1"},
            {"--start", 0, INT64_MAX, "of at least 0"},
            {"--threads", 0, 1024, "from 0 to 1024"},
            {"--read-threads", 0, 64, "from 0 to 64"},
            {"--qstep", 1, 4096, "from 1 to 4096"},
        };
        const fs::path dir = scratch_dir("strict-options");
        const std::string clip = real_clip();
        check_numeric_refusals("estimate " + clip + " -q --transform matrix -o " + (dir / "v.csv").string(),
                               job_options, rng);
        CHECK_FALSE(fs::exists(dir / "v.csv"));  // refused before any work
        check_numeric_refusals(
            "compare " + clip + " --backends cpu,reference --json " + (dir / "c.json").string(),
            {job_options[0], job_options[1], job_options[2], job_options[3]}, rng);

        // A value inside each range still runs, and runs what was typed.
        std::uniform_int_distribution<int> range(0, 6);
        const int r = range(rng);
        const Run run =
            run_xme("estimate " + clip + " --frames 2 --block 8 --range " + std::to_string(r) +
                    " --qp 30 --threads 1 --read-threads 0 --json " + (dir / "ok.json").string() + " -q");
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        const std::string json = read_file(dir / "ok.json");
        CHECK(contains(json, "\"range\": " + std::to_string(r)));
        CHECK(contains(json, "\"block\": 8"));
    }

    TEST_CASE("bench refuses empty entries and out-of-range values in its lists, and its numbers") {
        auto rng = xme::test::rng_for("strict bench lists");
        INFO("seed ", xme::test::run_seed());
        const std::string bench = "bench --backends cpu --sizes 32x32 --pairs 1 --warm-up 0 --no-sad-peak";
        std::uniform_int_distribution<int> some(1, 5000);
        const std::string r = std::to_string(some(rng) % 8);
        check_refusals({
            {bench + " --ranges ''", "--ranges: '' has an empty entry"},
            {bench + " --ranges " + r + ",," + r, "--ranges: '" + r + ",," + r + "' has an empty entry"},
            {bench + " --ranges ," + r, "has an empty entry"},
            {bench + " --ranges " + std::to_string(4095 + some(rng)),
             "--ranges: must be a whole number from 0 to 4095"},
            {bench + " --ranges 0x4", "--ranges: must be a whole number from 0 to 4095, not '0x4'"},
            {bench + " --blocks 16,", "--blocks: '16,' has an empty entry"},
            {bench + " --blocks " + std::to_string(5 + 2 * (some(rng) % 5)),
             "--blocks: must be 4, 8, 16 or 32"},
            {bench + " --sizes 32x32,", "--sizes: '32x32,' has an empty entry"},
            {bench + " --threads " + std::to_string(1024 + some(rng)),
             "--threads: must be a whole number from 0 to 1024"},
            {bench + " --threads ''",
             "--threads: must be a whole number from 0 to 1024 (0: one per processor"},
            {bench + " --lambda -" + std::to_string(some(rng)),
             "--lambda: must be a whole number from 0 to 65535"},
            {bench + " --qp ''", "--qp: must be a whole number from 0 to 51, not ''"},
        });
    }

    TEST_CASE("draw refuses an empty, zero or negative --pair and a scale that is not finite") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("strict draw options");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("strict-draw");
        const std::string draw = "draw " + real_clip() + " --vectors " + (dir / "v.csv").string() + " -o " +
                                 (dir / "d_%02d.png").string();
        std::uniform_int_distribution<int> some(1, 100000);
        check_refusals({
            {draw + " --pair ''", "--pair: must be a whole number of at least 1, not ''"},
            {draw + " --pair 0", "--pair: must be a whole number of at least 1, not '0'"},
            {draw + " --pair -" + std::to_string(some(rng)), "--pair: must be a whole number of at least 1"},
            {draw + " --pairs ''", "--pairs: must be a whole number of at least 1, not ''"},
            {draw + " --cost-max inf", "--cost-max: must be a finite number above 0, not 'inf'"},
            {draw + " --flow-max " + std::string(some(rng) % 2 ? "inf" : "nan"),
             "--flow-max: must be a finite number"},
        });
        CHECK(fs::is_empty(dir));
    }

    TEST_CASE("a known family's device that is absent is unavailable (exit 5), saying why") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("absent device index");
        INFO("seed ", xme::test::run_seed());
        std::uniform_int_distribution<int> index(64, 999);  // more devices than any machine has
        for (const std::string family : {"cuda", "vulkan"}) {
            const std::string name = family + ":" + std::to_string(index(rng));
            const Run run = run_xme("estimate " + real_clip() + " --frames 2 -q --backend " + name);
            INFO(run.output);
            CHECK(run.exit_code == 5);
            CHECK(contains(run.output, "xme: error: device " + name + " is unavailable: "));
            CHECK_FALSE(contains(run.output, "unknown device"));
        }
        // The CPU's one device has no index: cpu:N is a name xme does not know (exit 2).
        const Run cpu = run_xme("estimate " + real_clip() +
                                " --frames 2 -q --backend cpu:" + std::to_string(index(rng) % 4));
        CHECK(cpu.exit_code == 2);
        CHECK(contains(cpu.output, "unknown device 'cpu:"));
    }

    TEST_CASE("an input larger than xme handles is exit 4 naming 16384, however large its header says") {
        auto rng = xme::test::rng_for("oversized y4m");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("oversized");
        std::uniform_int_distribution<std::int64_t> beyond_io(65537, 4'000'000'000);
        std::uniform_int_distribution<int> beyond_me(16385, 65536);
        for (const std::string& width : {std::to_string(beyond_io(rng)), std::to_string(beyond_me(rng)),
                                         std::string("99999999999999999999")}) {
            const fs::path y4m = dir / "wide.y4m";
            write_bytes(y4m, "YUV4MPEG2 W" + width + " H8 F25:1 Cmono\nFRAME\n" + std::string(4096, 'x'));
            const Run run = run_xme("estimate " + y4m.string() + " -q");
            INFO(width, " -> ", run.output);
            CHECK(run.exit_code == 4);
            CHECK(contains(run.output, "16384"));
        }
    }

    TEST_CASE("raw input: a file smaller than one frame names --size; another name hints at .yuv") {
        auto rng = xme::test::rng_for("raw size hints");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("raw-hints");
        std::uniform_int_distribution<int> bytes(100, 50000);
        std::string data(static_cast<std::size_t>(bytes(rng)), '\0');
        for (char& c : data) c = static_cast<char>(rng());
        write_bytes(dir / "g.yuv", data);
        std::uniform_int_distribution<int> side(1000, 16384);
        const std::string size = std::to_string(side(rng)) + "x" + std::to_string(side(rng));
        const Run small = run_xme("estimate " + (dir / "g.yuv").string() + " --size " + size + " -q");
        INFO(small.output);
        CHECK(small.exit_code == 3);
        CHECK(contains(small.output, "holds " + std::to_string(data.size()) + " bytes, less than one " +
                                         size + " yuv420p frame"));
        CHECK(contains(small.output, "check --size"));

        if (!xme::ffmpeg_available()) return;  // without FFmpeg any other name is refused as unreadable
        // Zeros (a black clip): random bytes may look like MP3 frames to FFmpeg's probe. And an
        // extension no demuxer claims (FFmpeg reads .bin as "binary text" art).
        write_bytes(dir / "g.frames", std::string(data.size(), '\0'));
        const Run named = run_xme("estimate " + (dir / "g.frames").string() + " --size 64x48 -q");
        INFO(named.output);
        CHECK(named.exit_code == 3);
        CHECK(contains(named.output, "raw video is read from a name ending .yuv"));
        CHECK(contains(named.output, "--size WxH"));
    }
}
