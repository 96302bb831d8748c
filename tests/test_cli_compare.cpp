// `xme compare`, `xme estimate --policy split` and `xme bench` end to end.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <vector>
#include <nlohmann/json.hpp>

#include "cli_test_helpers.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

// The devices CI has: the CPU backend, and lavapipe where the Vulkan backend is built; the
// reference where there is no second device.
std::string second_device() {
    const Run devices = run_xme("devices");
    return devices.output.find("vulkan:0\n") != std::string::npos ? "vulkan:0" : "reference";
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("compare: devices that agree exit 0, with every pair of devices compared") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("compare");
        const std::string common = "compare " + real_clip() +
                                   " --frames 4 --block 8 --range 6 --algo fs+hpel --backends cpu," +
                                   second_device() + " --json ";
        const Run agree = run_xme(common + (dir / "agree.json").string());
        INFO(agree.output);
        CHECK(agree.exit_code == 0);
        CHECK(agree.output.find("all devices agree") != std::string::npos);
        const auto agreed = nlohmann::json::parse(read_file(dir / "agree.json"));
        for (const auto& pair : agreed["agreement"]) CHECK(pair["mismatch_count"] == 0);

        // Devices that disagree (exit 6, every mismatch in the report) are provoked with the test-only
        // fake backend, at the scheduler's level: test_scheduler_faults.cpp.
    }

    TEST_CASE("estimate --policy split writes what --policy single writes") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("split");
        const std::string common = "estimate " + real_clip() + " --frames 8 --block 16 --range 8 --quiet ";
        REQUIRE(run_xme(common + "--backend cpu -o " + (dir / "single.csv").string()).exit_code == 0);
        const Run split = run_xme(common + "--policy split --backends cpu," + second_device() + " -o " +
                                  (dir / "split.csv").string() + " --json " + (dir / "split.json").string());
        INFO(split.output);
        REQUIRE(split.exit_code == 0);
        CHECK(read_file(dir / "split.csv") == read_file(dir / "single.csv"));
        const auto summary = nlohmann::json::parse(read_file(dir / "split.json"));
        CHECK(summary["parameters"]["policy"] == "split");
        CHECK(summary["devices"].size() == 2);
        CHECK(summary["devices"][0]["pairs"].get<int>() + summary["devices"][1]["pairs"].get<int>() == 7);
    }

    TEST_CASE("bench on a tiny matrix writes CSV and JSON that parse") {
        const fs::path dir = scratch_dir("bench");
        const Run bench = run_xme(
            "bench --backends cpu --blocks 8,16 --ranges 4 --sizes 96x64,33x17 --pairs 2 --warm-up 0.05 "
            "--csv " +
            (dir / "bench.csv").string() + " --json " + (dir / "bench.json").string() + " --chart " +
            (dir / "bench.svg").string());
        INFO(bench.output);
        REQUIRE(bench.exit_code == 0);
        const auto rows = nlohmann::json::parse(read_file(dir / "bench.json"))["rows"];
        const auto csv = lines_of(read_file(dir / "bench.csv"));
        CHECK(rows.size() >= 4);  // 2 blocks x 2 sizes, per CPU variant
        CHECK(csv.size() == rows.size() + 1);
        CHECK(csv.front().find("device_fps") != std::string::npos);
        // What measured the rows, for a table that quotes them (tools/perf_table.py).
        const auto json = nlohmann::json::parse(read_file(dir / "bench.json"));
        CHECK(json["command"].at(0) == "xme");
        CHECK(json["command"].at(1) == "bench");
        CHECK(json["input"].is_null());  // the synthetic scene
        CHECK(json["xme_version"] == XME_VERSION);
        CHECK(!rows.at(0)["device_description"].get<std::string>().empty());
        const std::string chart = read_file(dir / "bench.svg");
        CHECK(chart.rfind("<svg", 0) == 0);
        CHECK(chart.find("</svg>") != std::string::npos);
        for (const auto& row : rows) {
            CHECK(row["device_fps"].get<double>() > 0);
            CHECK(row["warm_up_seconds"].get<double>() >= 0.05);  // the device worked before it was timed
            CHECK(row["warm_up_pairs"].get<int>() >= 1);
            CHECK(row["device_gpx_per_second"].get<double>() > 0);
            CHECK(row["sad_peak_gpx_per_second"].get<double>() > 0);
        }
    }

    TEST_CASE("bench --rounds measures every cell each round and reports its median round") {
        const fs::path dir = scratch_dir("bench_rounds");
        const Run bench = run_xme(
            "bench --backends cpu --variants portable --search fs,dia --blocks 8 --ranges 4 --sizes 64x48 "
            "--pairs 2 --warm-up 0 --no-sad-peak --rounds 3 --json " +
            (dir / "bench.json").string());
        INFO(bench.output);
        REQUIRE(bench.exit_code == 0);
        const auto rows = nlohmann::json::parse(read_file(dir / "bench.json"))["rows"];
        REQUIRE(rows.size() == 2);  // one per cell, not per round
        for (const auto& row : rows) {
            CHECK(row["rounds"] == 3);
            const double slowest = row["device_fps_slowest_round"].get<double>();
            CHECK(slowest > 0);
            CHECK(slowest <= row["device_fps"].get<double>());
            CHECK(row["device_fps"].get<double>() <= row["device_fps_fastest_round"].get<double>());
            // Every round's figure in the order measured, so that two cells can be compared round by round.
            const auto by_round = row["device_fps_by_round"].get<std::vector<double>>();
            REQUIRE(by_round.size() == 3);
            CHECK(std::ranges::count(by_round, row["device_fps"].get<double>()) >= 1);
            CHECK(*std::ranges::min_element(by_round) == slowest);
            CHECK(*std::ranges::max_element(by_round) == row["device_fps_fastest_round"].get<double>());
        }
        for (const char* chain : {"fs block 8", "dia block 8"}) {
            for (const char* round : {"(round 1/3)", "(round 2/3)", "(round 3/3)"}) {
                const std::string line = std::string(chain) + " range 4 64x48 " + round;
                CHECK_MESSAGE(bench.output.find(line) != std::string::npos, line);
            }
        }
        CHECK(bench.output.find("3 rounds: each row is its cell's median round") != std::string::npos);
        // One round (the default): the row's own figure at both ends.
        const Run once = run_xme(
            "bench --backends cpu --variants portable --algos fs --blocks 8 --ranges 4 --sizes 64x48 "
            "--pairs 2 --warm-up 0 --no-sad-peak --json " +
            (dir / "once.json").string());
        REQUIRE(once.exit_code == 0);
        const auto row = nlohmann::json::parse(read_file(dir / "once.json"))["rows"][0];
        CHECK(row["rounds"] == 1);
        CHECK(row["device_fps_slowest_round"] == row["device_fps"]);
        CHECK(row["device_fps_fastest_round"] == row["device_fps"]);
        CHECK(row["device_fps_by_round"] == nlohmann::json::array({row["device_fps"]}));
    }

    TEST_CASE("compare with fewer than two devices says so in its own words, not as --policy mirror") {
        // Refused before the input is opened: the file need not exist.
        check_refusals({{"compare clip.y4m --backends cpu", "give at least two in --backends"},
                        {"compare clip.y4m --backend cpu", "give at least two in --backends"},
                        {"compare clip.y4m", "give at least two in --backends"}});
    }

    TEST_CASE("bench with the partitions and no --blocks measures block 16, and refuses a block 8 given") {
        const fs::path dir = scratch_dir("bench_partitions");
        // The default --blocks list holds 8, which SPEC §9's macroblock partitions do not take.
        const Run bench = run_xme(
            "bench --backends cpu --variants portable --algos fs,fs+p41 --ranges 2 "
            "--sizes 32x32 --pairs 1 --no-sad-peak --json " +
            (dir / "bench.json").string());
        INFO(bench.output);
        REQUIRE(bench.exit_code == 0);
        const auto rows = nlohmann::json::parse(read_file(dir / "bench.json"))["rows"];
        REQUIRE(rows.size() == 2);
        for (const auto& row : rows) CHECK(row["block"] == 16);
        const Run given = run_xme(
            "bench --backends cpu --variants portable --algos fs+p41 --blocks 8 --ranges 2 "
            "--sizes 32x32 --pairs 1 --no-sad-peak");
        CHECK(given.exit_code != 0);
        CHECK_MESSAGE(given.output.find("block 8 given") != std::string::npos, given.output);
    }

    TEST_CASE("bench on a clip measures it at its own size unless --sizes says otherwise") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("bench_clip");
        const Run own =
            run_xme("bench " + real_clip() + " --backends cpu --variants portable --algos fs --blocks 16 " +
                    "--ranges 2 --pairs 1 --no-sad-peak --json " + (dir / "own.json").string());
        INFO(own.output);
        REQUIRE(own.exit_code == 0);
        const auto rows = nlohmann::json::parse(read_file(dir / "own.json"))["rows"];
        REQUIRE(rows.size() == 1);
        CHECK(rows[0]["width"] == 320);  // tree.avi and its .y4m stand-in: 320x240
        CHECK(rows[0]["height"] == 240);
        const Run given = run_xme(
            "bench " + real_clip() + " --backends cpu --variants portable --algos fs --blocks 16 " +
            "--ranges 2 --pairs 1 --no-sad-peak --sizes 64x48 --json " + (dir / "given.json").string());
        REQUIRE(given.exit_code == 0);
        CHECK(nlohmann::json::parse(read_file(dir / "given.json"))["rows"][0]["width"] == 64);
    }
}
