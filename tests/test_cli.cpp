// `xme` end to end, as a user runs it: real clips in, CSV/NPY/JSON out, and a specific message and
// non-zero exit code for each kind of fault, with every frame finished before it written out.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"
#include "io_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

using xme::test::cli::lines_of;
using xme::test::cli::read_file;
using xme::test::cli::real_clip;
using xme::test::cli::real_clip_missing;
using xme::test::cli::Run;
using xme::test::cli::run_xme;
using xme::test::cli::scratch_dir;
namespace fs = std::filesystem;

TEST_SUITE("cli") {
    TEST_CASE("estimate on a real clip writes CSV and JSON that agree with each other") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("estimate");
        const Run run =
            run_xme("estimate " + real_clip() + " --backend cpu --frames 4 --block 16 --range 8 -o " +
                    (dir / "mv.csv").string() + " --json " + (dir / "summary.json").string() + " --quiet");
        REQUIRE(run.exit_code == 0);
        const auto rows = lines_of(read_file(dir / "mv.csv"));
        REQUIRE(rows.size() == 1 + 3 * 20 * 15);  // 3 pairs of 320x240 in 16x16 blocks
        CHECK(rows.front() == "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates");
        long long csv_cost = 0;
        long long csv_rate_bits = 0;  // predictor none: R(mv - 0), se(v) = 2 floor(log2(k + 1)) + 1
        const auto se_bits = [](int v) {
            const int k = v > 0 ? 2 * v - 1 : -2 * v;
            int log2 = 0;
            while ((k + 1) >> (log2 + 1)) ++log2;
            return 2 * log2 + 1;
        };
        int moving = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            int frame = 0, x = 0, y = 0, mvx = 0, mvy = 0, cost = 0, scale = 0;
            REQUIRE(std::sscanf(rows[i].c_str(), "%d,%d,%d,%d,%d,%d,%d", &frame, &x, &y, &mvx, &mvy, &cost,
                                &scale) == 7);
            CHECK((frame >= 1 && frame <= 3));
            CHECK((x % 16 == 0 && y % 16 == 0 && x < 320 && y < 240));
            CHECK((std::abs(mvx) <= 32 && std::abs(mvy) <= 32 && mvx % 4 == 0 && mvy % 4 == 0));
            CHECK(scale == 1);
            if (frame == 1) csv_cost += cost;
            csv_rate_bits += se_bits(mvx) + se_bits(mvy);
            moving += (mvx != 0 || mvy != 0) ? 1 : 0;
        }
        CHECK(moving > 0);  // real motion, not an all-zero field
        const auto summary = nlohmann::json::parse(read_file(dir / "summary.json"));
        CHECK(summary["device"]["name"] == "cpu");
        CHECK(summary["parameters"]["block"] == 16);
        CHECK(summary["parameters"]["range"] == 8);
        CHECK(summary["error"].is_null());
        REQUIRE(summary["frames"].size() == 3);
        CHECK(summary["frames"][0]["frame"] == 1);
        CHECK(summary["frames"][0]["total_cost"] == csv_cost);
        double mc = 0, zero = 0;
        for (const auto& frame : summary["frames"]) {
            mc += frame["mc_psnr_db"].get<double>();
            zero += frame["zero_psnr_db"].get<double>();
        }
        CHECK(mc > zero);  // compensating the motion predicts better than not moving
        CHECK(summary["timing"]["pairs"] == 3);
        // Where the time went: every stage ran, and none took longer than the whole run.
        const auto& stages = summary["timing"]["stages"];
        const double wall = summary["timing"]["wall_seconds"].get<double>();
        CHECK(stages["setup_seconds"].get<double>() > 0);
        CHECK(stages["setup_seconds"].get<double>() + stages["read_seconds"].get<double>() <= wall);
        CHECK(stages["read_seconds"].get<double>() > 0);
        CHECK(stages["read_seconds"].get<double>() <= wall);
        CHECK(stages["deliver_seconds"].get<double>() > 0);
        CHECK(stages["decode_seconds"].get<double>() + stages["convert_seconds"].get<double>() ==
              doctest::Approx(stages["read_seconds"].get<double>()));
        REQUIRE(stages["devices"].size() == 1);
        CHECK(stages["devices"][0]["submit_seconds"].get<double>() > 0);
        CHECK(stages["devices"][0]["submit_seconds"].get<double>() <= wall);
        // The run as one row: mean MC-PSNR, total cost, total rate bits, candidates per block.
        const auto& totals = summary["totals"];
        CHECK(totals["pairs"] == 3);
        CHECK(totals["mean_mc_psnr_db"].get<double>() == doctest::Approx(mc / 3));
        CHECK(totals["rate_bits"] == csv_rate_bits);
        CHECK(totals["candidates_per_block"].get<double>() > 200);  // full search, range 8: up to 289
        CHECK(totals["cost_kind"] == "sad");
    }

    TEST_CASE("on real video the CPU backend's vectors are the reference's, byte for byte") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("oracle");
        for (const char* border : {"pad", "restrict"}) {
            const std::string common = "estimate " + real_clip() +
                                       " --frames 3 --start 10 --block 8 --range 6 --algo fs+hpel --border " +
                                       border;
            REQUIRE(
                run_xme(common + " --backend reference -o " + (dir / "reference.csv").string()).exit_code ==
                0);
            REQUIRE(run_xme(common + " --backend cpu -o " + (dir / "cpu.csv").string()).exit_code == 0);
            const std::string expected = read_file(dir / "reference.csv");
            CHECK(expected.size() > 1000);
            CHECK(read_file(dir / "cpu.csv") == expected);
        }
    }

    TEST_CASE("each fault has its own message and exit code") {
        const fs::path dir = scratch_dir("faults");
        struct Fault {
            std::string arguments;
            int exit_code;
            std::string message;
        };
        const std::string clip = real_clip();
        const Fault faults[] = {
            {"estimate " + (dir / "missing.y4m").string(), 3, "cannot open"},
            {"estimate " + clip + " --block 7", 2, "--block: must be 4, 8, 16 or 32, not '7'"},
            {"estimate " + clip + " --range 5000", 2,
             "--range: must be a whole number from 0 to 4095, not '5000'"},
            {"estimate " + clip + " --algo tss", 2, "unknown search 'tss': use fs, dia, hex, ehds, tz"},
            {"estimate " + clip + " --border wrap", 2, "unknown border mode 'wrap'"},
            {"estimate " + clip + " --backend nosuch", 2, "unknown device 'nosuch'"},
            {"estimate " + clip + " --size 12y4", 2, "is not WIDTHxHEIGHT"},
            {"estimate " + clip + " --frames 0", 2,
             "--frames: must be a whole number of at least 1, not '0'"},
            {"estimate " + clip + " --start -2", 2,
             "--start: must be a whole number of at least 0, not '-2'"},
            {"estimate " + clip + " --read-threads 99999999999", 2,
             "--read-threads: must be a whole number from 0 to 64, not '99999999999'"},
            {"estimate " + clip + " -o " + (dir / "mv.txt").string(), 2, ".csv"},
            {"bench --backends cpu --warm-up nan", 2,
             "--warm-up: must be a number of seconds from 0 to 60, not 'nan'"},
            {"bench --backends cpu --rounds 0", 2,
             "--rounds: must be a whole number from 1 to 1000, not '0'"},
            {"bench --backends cpu --rounds 99999999999", 2,
             "--rounds: must be a whole number from 1 to 1000, not '99999999999'"},
            {"bench --backends cpu --pairs 2147483646", 2,
             "--pairs: must be a whole number from 1 to 10000, not '2147483646'"},
            // 2.5 TiB of frames: refused before any is made, with the --pairs that would fit.
            {"bench --backends cpu --sizes 16384x16384 --pairs 10000 --blocks 16", 4, "smaller sizes"},
            {"estimate", 2, "input is required"},
        };
        std::ofstream(dir / "raw.yuv") << std::string(100, 'x');
        for (const auto& fault : faults) {
            const Run run = run_xme(fault.arguments);
            INFO(fault.arguments, " -> ", run.output);
            CHECK(run.exit_code == fault.exit_code);
            CHECK(run.output.find(fault.message) != std::string::npos);
        }
        const Run raw = run_xme("estimate " + (dir / "raw.yuv").string());
        CHECK(raw.exit_code == 2);
        CHECK(raw.output.find("--size") != std::string::npos);
    }

    TEST_CASE("a truncated frame mid-video ends the run after writing every complete frame") {
        const fs::path dir = scratch_dir("truncated");
        auto rng = xme::test::rng_for("cli truncated");
        const fs::path video = dir / "cut.y4m";
        {
            xme::Y4mWriter writer(video.string(), 48, 32, xme::ChromaFormat::yuv420);
            for (int i = 0; i < 4; ++i) {
                auto frame = xme::make_frame(48, 32, xme::ChromaFormat::yuv420);
                frame.luma = xme::test::make_pair(xme::test::Content::moving_texture, 48, 32, rng).current;
                writer.write(frame);
            }
        }
        fs::resize_file(video, fs::file_size(video) - 100);  // cut into the last frame
        const Run run = run_xme("estimate " + video.string() + " --block 8 --range 4 -o " +
                                (dir / "mv.csv").string() + " --json " + (dir / "summary.json").string());
        CHECK(run.exit_code == 3);
        CHECK(run.output.find("frame 3 is truncated") != std::string::npos);
        const auto rows = lines_of(read_file(dir / "mv.csv"));
        CHECK(rows.size() == 1 + 2 * 6 * 4);  // pairs 1 and 2 complete, 6x4 blocks each
        const auto summary = nlohmann::json::parse(read_file(dir / "summary.json"));
        CHECK(summary["frames"].size() == 2);
        CHECK(summary["error"].get<std::string>().find("truncated") != std::string::npos);
    }

    TEST_CASE("estimate --read-only reads every frame as the job would and estimates nothing") {
        const fs::path dir = scratch_dir("read_only");
        auto rng = xme::test::rng_for("cli read-only");
        const fs::path video = dir / "clip.y4m";
        static_cast<void>(
            xme::test::io::write_y4m(video.string(), 48, 32, xme::ChromaFormat::yuv420, 5, rng));
        for (const std::string threads : {"0", "2"}) {
            for (const auto& [frames, expected] : {std::pair{"", 5}, std::pair{" --frames 3", 3}}) {
                const fs::path json = dir / ("read_" + threads + ".json");
                const Run run =
                    run_xme("estimate " + video.string() + " --backend cpu --read-only --read-threads " +
                            threads + frames + " --json " + json.string());
                INFO(run.output);
                REQUIRE(run.exit_code == 0);
                CHECK(run.output.find(std::to_string(expected) + " frames in") != std::string::npos);
                const auto summary = nlohmann::json::parse(read_file(json));
                const auto& figures = summary["timing"]["read_only"];
                CHECK(figures["frames"] == expected);
                CHECK(figures["luma_bytes"] == expected * 48 * 32);
                CHECK(figures["frames_per_second"].get<double>() > 0);
                CHECK(summary["frames"].empty());
            }
        }
        // A damaged file: exit 3 with its message, and the summary counts the whole frames read before it.
        const fs::path cut = dir / "cut.y4m";
        fs::copy_file(video, cut);
        fs::resize_file(cut, fs::file_size(cut) - 100);
        const Run damaged = run_xme("estimate " + cut.string() + " --backend cpu --read-only --json " +
                                    (dir / "cut.json").string());
        CHECK(damaged.exit_code == 3);
        CHECK(damaged.output.find("frame 4 is truncated") != std::string::npos);
        const auto cut_summary = nlohmann::json::parse(read_file(dir / "cut.json"));
        CHECK(cut_summary["timing"]["read_only"]["frames"] == 4);
        const std::string common = "estimate " + video.string() + " --backend cpu --read-only ";
        xme::test::cli::check_refusals(
            {{common + "-o " + (dir / "mv.csv").string(), "-o has nothing to show"},
             {common + "--prediction " + (dir / "p.y4m").string(), "--prediction"},
             {common + "--draw " + (dir / "d.png").string(), "--draw"}});
        CHECK(!fs::exists(dir / "mv.csv"));
    }

    TEST_CASE("devices lists every backend, available or with its reason") {
        const Run run = run_xme("devices");
        CHECK(run.exit_code == 0);
        for (const char* name : {"cpu", "reference", "cuda", "vulkan"})
            CHECK(run.output.find(name) != std::string::npos);
        // The CPU backend's entry says it shares the host's cores (split's notice rests on it).
        CHECK(run.output.find("computes on this machine's CPU cores") != std::string::npos);
    }

    TEST_CASE("a machine without a Vulkan driver: devices says why, with validation asked for too") {
        // The loader's own complaints while it fails are part of the reason, never a later abort.
        const Run run =
            run_xme("devices",
                    "VK_DRIVER_FILES=/nonexistent-icd.json VK_ICD_FILENAMES=/nonexistent-icd.json "
                    "XME_VULKAN_VALIDATION=1");
        INFO(run.output);
        CHECK(run.exit_code == 0);
        CHECK(run.output.find("cpu  [default]") != std::string::npos);
        CHECK(run.output.find("vulkan:0") == std::string::npos);
        CHECK(run.output.find("vulkan  [unavailable]") != std::string::npos);
    }
}

TEST_SUITE("cli") {
    TEST_CASE("the README's library example is the one the build compiles, and it runs") {
        const std::string example =
            read_file(fs::path(XME_SOURCE_DIR) / "tools/examples/estimate_two_frames.cpp");
        REQUIRE(example.size() > 500);
        CHECK_MESSAGE(read_file(fs::path(XME_SOURCE_DIR) / "README.md").find(example) != std::string::npos,
                      "README.md must contain tools/examples/estimate_two_frames.cpp verbatim");
        if (!fs::exists(real_clip())) {
            MESSAGE("skipped running the example: ", real_clip(), " is missing");
            return;
        }
        FILE* pipe = popen((std::string(XME_EXAMPLE_BINARY) + " " + real_clip() + " 2>&1").c_str(), "r");
        REQUIRE(pipe != nullptr);
        std::string output;
        char buffer[512];
        while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
        CHECK(pclose(pipe) == 0);
        CHECK(output.find("the centre block moved by (") != std::string::npos);
    }
}
