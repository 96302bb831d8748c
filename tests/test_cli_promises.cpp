// What xme(1) promises about `xme` as a command: exit 2 for every bad option, --version,
// '-' for standard output, notices for deep samples and damaged input, an honest progress total.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/version.hpp"
#include "xme/video.hpp"

using xme::test::cli::contains;
using xme::test::cli::lines_of;
using xme::test::cli::read_file;
using xme::test::cli::real_clip;
using xme::test::cli::real_clip_missing;
using xme::test::cli::Run;
using xme::test::cli::run_xme;
using xme::test::cli::run_xme_split;
using xme::test::cli::scratch_dir;
using xme::test::cli::SplitRun;
namespace fs = std::filesystem;

namespace {

bool have_program(const std::string& check) {
    return std::system((check + " > /dev/null 2>&1").c_str()) == 0;
}

// Frames of moving random texture (pairs 1 and 3 move by a random vector), as an 8-bit Y4M.
void write_moving_y4m(const fs::path& path, std::mt19937_64& rng) {
    xme::Y4mWriter writer(path.string(), 64, 48, xme::ChromaFormat::yuv420);
    for (int i = 0; i < 2; ++i) {
        auto pair = xme::test::make_pair(xme::test::Content::moving_texture, 64, 48, rng);
        for (xme::Plane* luma : {&pair.reference, &pair.current}) {
            auto frame = xme::make_frame(64, 48, xme::ChromaFormat::yuv420);
            frame.luma = std::move(*luma);
            writer.write(frame);
        }
    }
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("every bad option or value exits 2 with xme's message, CLI11's own checks included") {
        const std::string clip = real_clip();
        const char* const usage_errors[] = {
            "estimate CLIP --block abc",       // not a number (CLI11 exited 104)
            "estimate",                        // no INPUT (106)
            "estimate CLIP --no-such-option",  // unknown option (109)
            "estimate CLIP --frames 0",        // a range check (CLI11's exited 105)
            "",                                // no subcommand
            "no-such-command",                 // unknown subcommand
            "devices --bogus",                 // an option the subcommand lacks
            "bench --pairs many",              // bench's own options go through CLI11 too
            "estimate CLIP -o - --json -",     // both to standard output
            "compare CLIP --backends cpu,reference -o - --json -",
        };
        for (std::string arguments : usage_errors) {
            if (const auto at = arguments.find("CLIP"); at != std::string::npos)
                arguments.replace(at, 4, clip);
            const Run run = run_xme(arguments);
            INFO("xme ", arguments, " -> ", run.output);
            CHECK(run.exit_code == 2);
            CHECK(contains(run.output, "xme: error: "));
        }
        for (const char* help : {"--help", "estimate --help", "bench --help"}) {
            const Run run = run_xme(help);
            INFO("xme ", help, " -> ", run.output);
            CHECK(run.exit_code == 0);
            CHECK(contains(run.output, "Usage:"));
        }
    }

    TEST_CASE("--version and the version command print the version, the licence and the backends built in") {
        xme::Registry registry = xme::make_builtin_registry();
        const auto backends = registry.backends();
        REQUIRE(backends.size() >= 4);  // cpu, cuda, vulkan (each built or absent) and the reference
        for (const char* arguments : {"--version", "version"}) {
            const Run run = run_xme(arguments);
            INFO("xme ", arguments, " -> ", run.output);
            CHECK(run.exit_code == 0);
            CHECK(lines_of(run.output).at(0) == std::string("xme ") + XME_VERSION_STRING);
            CHECK(lines_of(run.output).back() == "licence: Apache-2.0");
            const std::string built = lines_of(run.output).at(1);
            for (const auto& backend : backends) {
                if (backend.absent_reason.empty()) {
                    CHECK(contains(built, " " + backend.name));
                } else {
                    CHECK_FALSE(contains(built, " " + backend.name));
                    CHECK(contains(run.output, backend.name + ": " + backend.absent_reason));
                }
            }
        }
    }

    TEST_CASE("-o - and --json - write to standard output, and the table stays out of it") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("stdout");
        const std::string common =
            "estimate " + real_clip() + " --backend cpu --frames 4 --block 16 --range 4";
        REQUIRE(run_xme(common + " -q -o " + (dir / "mv.csv").string()).exit_code == 0);
        const std::string csv = read_file(dir / "mv.csv");
        REQUIRE(lines_of(csv).size() == 1 + 3 * 20 * 15);

        const SplitRun vectors =
            run_xme_split(common + " -o - --json " + (dir / "summary.json").string(), dir);
        CHECK(vectors.exit_code == 0);
        CHECK(vectors.out == csv);  // the same bytes as the file, and nothing else
        CHECK_FALSE(fs::exists(fs::current_path() / "-"));
        const auto file_summary = nlohmann::json::parse(read_file(dir / "summary.json"));

        const SplitRun summary = run_xme_split(common + " --json -", dir);
        CHECK(summary.exit_code == 0);
        const auto json = nlohmann::json::parse(summary.out);  // stdout is the JSON alone
        CHECK(json["timing"]["pairs"] == 3);
        REQUIRE(json["frames"].size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(json["frames"][i]["total_cost"] == file_summary["frames"][i]["total_cost"]);
        }
        CHECK(contains(summary.err, "frame pairs in"));  // the table went to stderr
        CHECK_FALSE(fs::exists(fs::current_path() / "-"));

        const SplitRun both = run_xme_split(common + " -o - --json -", dir);
        CHECK(both.exit_code == 2);
        CHECK(both.out.empty());
        CHECK(contains(both.err, "standard output"));
    }

    TEST_CASE("input deeper than 8 bits is estimated on its high byte, with a notice, or refused") {
        if (!xme::ffmpeg_available() || !have_program("ffmpeg -version")) {
            MESSAGE("skipped: needs FFmpeg in this build and the ffmpeg program to make a 10-bit clip");
            return;
        }
        const fs::path dir = scratch_dir("deep");
        auto rng = xme::test::rng_for("cli deep samples");
        const fs::path eight = dir / "eight.y4m";
        write_moving_y4m(eight, rng);
        // FFmpeg widens 8-bit samples to 10 bits as (v << 2) | (v >> 6): the high byte is v again.
        const fs::path ten = dir / "ten.mkv";
        REQUIRE(have_program("ffmpeg -y -v error -i " + eight.string() + " -c:v ffv1 -pix_fmt yuv420p10le " +
                             ten.string()));
        const std::string options = " --backend cpu --block 8 --range 4 -q";
        REQUIRE(run_xme("estimate " + eight.string() + options + " -o " + (dir / "eight.csv").string())
                    .exit_code == 0);
        const Run deep = run_xme("estimate " + ten.string() + options + " -o " + (dir / "ten.csv").string() +
                                 " --json " + (dir / "ten.json").string());
        INFO(deep.output);
        CHECK(deep.exit_code == 0);
        CHECK(contains(deep.output, "xme: notice: " + ten.string() + " has 10-bit samples (yuv420p10le)"));
        const std::string expected = read_file(dir / "eight.csv");
        CHECK(lines_of(expected).size() == 1 + 3 * 8 * 6);
        CHECK(read_file(dir / "ten.csv") == expected);
        const auto summary = nlohmann::json::parse(read_file(dir / "ten.json"));
        CHECK(summary["video"]["bit_depth"] == 10);
        REQUIRE(summary["notices"].size() == 1);
        CHECK(contains(summary["notices"][0].get<std::string>(), "high 8 bits"));

        // The Y4M reader does not convert: a 10-bit Y4M is refused with exit 4, naming its depth.
        const fs::path ten_y4m = dir / "ten.y4m";
        REQUIRE(have_program("ffmpeg -y -v error -i " + eight.string() + " -strict -1 -pix_fmt yuv420p10le " +
                             ten_y4m.string()));
        const Run refused = run_xme("estimate " + ten_y4m.string() + options);
        INFO(refused.output);
        CHECK(refused.exit_code == 4);
        CHECK(contains(refused.output, "C420p10 is not supported: xme reads 8-bit"));
    }

    TEST_CASE("a truncated container file is reported: FFmpeg's log through xme, notices, exit 3") {
        const std::string vtest = xme::test::clip_path("vtest.avi");
        if (!xme::ffmpeg_available() || !fs::exists(vtest)) {
            MESSAGE("skipped: needs FFmpeg in this build and ", vtest, " (Debian package opencv-doc)");
            return;
        }
        const fs::path dir = scratch_dir("cut-container");
        const fs::path cut = dir / "cut.avi";
        {
            // Its header declares 795 frames; the first 100 KiB hold 3, the last of them cut short.
            std::string head(102400, '\0');
            std::ifstream(vtest, std::ios::binary)
                .read(head.data(), static_cast<std::streamsize>(head.size()));
            std::ofstream(cut, std::ios::binary) << head;
        }
        const Run run = run_xme("estimate " + cut.string() + " --backend cpu --block 16 --range 2 -o " +
                                (dir / "mv.csv").string() + " --json " + (dir / "summary.json").string());
        INFO(run.output);
        CHECK(run.exit_code == 3);
        for (const auto& line : lines_of(run.output)) {
            CHECK_MESSAGE(line.rfind("xme: ", 0) == 0, "every line goes through xme: ", line);
        }
        CHECK(contains(run.output, "xme: ffmpeg: "));
        CHECK(contains(run.output, "xme: notice: " + cut.string() + ": frame 2 was decoded with errors"));
        CHECK(contains(run.output, "ends at frame 3 of the 795 its container declares"));
        CHECK(contains(run.output, "xme: error: " + cut.string() + " is damaged"));
        // Both decoded pairs are kept: 768x576 in 16x16 blocks.
        CHECK(lines_of(read_file(dir / "mv.csv")).size() == 1 + 2 * 48 * 36);
        const auto summary = nlohmann::json::parse(read_file(dir / "summary.json"));
        CHECK(summary["frames"].size() == 2);
        CHECK(summary["notices"].size() >= 2);
        REQUIRE(summary["error"].is_string());
        CHECK(contains(summary["error"].get<std::string>(), "damaged"));

        // An intact file whose header also claims more frames than it stores is not damaged:
        // tree.avi declares 444, stores 68, and its timestamps span all 444.
        const std::string tree = xme::test::clip_path("tree.avi");
        if (!fs::exists(tree)) return;
        const Run intact = run_xme("estimate " + tree + " --backend cpu --block 16 --range 1 -q --json " +
                                   (dir / "tree.json").string());
        INFO(intact.output);
        CHECK(intact.exit_code == 0);
        CHECK(intact.output.empty());
        const auto tree_summary = nlohmann::json::parse(read_file(dir / "tree.json"));
        CHECK(tree_summary["notices"].empty());
        CHECK(tree_summary["frames"].size() == 67);
    }

    TEST_CASE("the progress total is marked as an estimate when it is a container's claim") {
        if (!have_program("script --version")) {
            MESSAGE("skipped: needs script(1) (bsdutils) to give xme a terminal");
            return;
        }
        const fs::path dir = scratch_dir("progress");
        auto rng = xme::test::rng_for("cli progress");
        const fs::path y4m = dir / "exact.y4m";
        write_moving_y4m(y4m, rng);
        // On a terminal (script(1) gives one), as a user sees it; -o keeps the table away.
        auto on_terminal = [&](const std::string& input) {
            const std::string command = "script -qec '" + std::string(XME_BINARY) + " estimate " + input +
                                        " --backend cpu --block 16 --range 1 -o " +
                                        (dir / "mv.csv").string() + "' /dev/null";
            FILE* pipe = popen(command.c_str(), "r");
            REQUIRE(pipe != nullptr);
            std::string output;
            char buffer[4096];
            while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
            CHECK(pclose(pipe) == 0);
            return output;
        };
        const std::string exact = on_terminal(y4m.string());
        INFO(exact);
        CHECK(contains(exact, "frames 3/3 "));  // a Y4M's count comes from its size: exact
        CHECK_FALSE(contains(exact, "~"));

        const std::string tree = xme::test::clip_path("tree.avi");
        if (!xme::ffmpeg_available() || !fs::exists(tree)) {
            MESSAGE("skipped the container case: needs FFmpeg in this build and ", tree);
            return;
        }
        const std::string claimed = on_terminal(tree);
        INFO(claimed);
        CHECK(contains(claimed, "/~443 "));  // the header's claim, as such
        // Never "frames N/M" as a fact (std::regex is avoided: GCC 12 warns inside it at -O1).
        const auto count_as_fact = [](const std::string& text) {
            for (std::size_t at = text.find("frames "); at != std::string::npos;
                 at = text.find("frames ", at + 1)) {
                std::size_t end = at + 7;
                while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
                if (end > at + 7 && end + 1 < text.size() && text[end] == '/' &&
                    std::isdigit(static_cast<unsigned char>(text[end + 1])) != 0) {
                    return true;
                }
            }
            return false;
        };
        CHECK_FALSE(count_as_fact(claimed));
        CHECK(contains(claimed, "frames 67 "));  // and what was read
    }
}
