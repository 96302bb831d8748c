// `xme estimate --partitions all` end to end (SPEC §9): one row per partition with the chosen mode's
// marked, the mode counts in the JSON, the prediction from the chosen partitions, and the combinations
// SPEC does not define refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_helpers.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    return fields;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE(
        "estimate --partitions all: 41 rows per macroblock, the chosen ones tile it, modes in the JSON") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("partitions");
        const Run run = run_xme(
            "estimate " + real_clip() + " --frames 3 --range 4 --partitions all --subpel qpel " +
            "--qp 28 --backend cpu -o " + (dir / "p.csv").string() + " --json " + (dir / "p.json").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        const auto lines = lines_of(read_file(dir / "p.csv"));
        REQUIRE(!lines.empty());
        CHECK(lines[0] ==
              "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates,partition,part_x,part_y,width,height,"
              "chosen");
        // Per (frame, macroblock): the chosen partitions cover its 256 pixels exactly once.
        std::map<std::tuple<int, int, int>, int> rows;
        std::map<std::tuple<int, int, int>, int> chosen_area;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto f = fields_of(lines[i]);
            REQUIRE(f.size() == 15);
            CHECK(f[7] == "satd+rate");
            const auto key = std::make_tuple(std::stoi(f[0]), std::stoi(f[1]), std::stoi(f[2]));
            CHECK(std::stoi(f[9]) == rows[key]);  // SPEC §9's order, 0..40
            ++rows[key];
            if (f[14] == "1") chosen_area[key] += std::stoi(f[12]) * std::stoi(f[13]);
        }
        const auto summary = nlohmann::json::parse(read_file(dir / "p.json"));
        const int macroblocks = ((summary["video"]["width"].get<int>() + 15) / 16) *
                                ((summary["video"]["height"].get<int>() + 15) / 16);
        CHECK(rows.size() == static_cast<std::size_t>(2 * macroblocks));
        for (const auto& [key, count] : rows) {
            CHECK(count == 41);
            CHECK(chosen_area[key] == 256);
        }
        CHECK(summary["parameters"]["partitions"] == "all");
        CHECK(summary["parameters"]["algorithm"] == "fs+p41+qpel");
        for (const auto& frame : summary["frames"]) {
            int counted = 0;
            for (const auto& [mode, count] : frame["modes"]["macroblocks"].items())
                counted += count.get<int>();
            CHECK(counted == macroblocks);
            const int eights = frame["modes"]["macroblocks"]["8x8"].get<int>();
            int quadrants = 0;
            for (const auto& [mode, count] : frame["modes"]["quadrants_of_8x8"].items())
                quadrants += count.get<int>();
            CHECK(quadrants == 4 * eights);
            CHECK(frame["mc_psnr_db"].get<double>() > frame["zero_psnr_db"].get<double>());
            CHECK(frame["rate_bits"].get<int>() > 0);
        }
    }

    TEST_CASE("estimate --partitions all refuses what SPEC §9 does not define, naming it") {
        if (real_clip_missing()) return;
        const std::string common = "estimate " + real_clip() + " --frames 2 --partitions all ";
        check_refusals({{common + "--search tz", "--search fs with --partitions all"},
                        {common + "--block 8", "use --block 16 with --partitions all"},
                        {common + "--subpel hpel", "use --subpel qpel or none with --partitions all"}});
        // A device that cannot run a chain refuses it (exit 4): Vulkan's 32-bit partition keys cannot hold
        // this range with this lambda and a predictor.
        const Run gpu = run_xme("estimate " + real_clip() +
                                " --frames 2 --algo fs+p41 --range 32 --lambda 60000 --predictor temporal "
                                "--backend vulkan");
        INFO(gpu.output);
        if (gpu.output.find("unavailable") == std::string::npos &&
            gpu.output.find("no device") == std::string::npos) {
            CHECK(gpu.exit_code == 4);
            CHECK(gpu.output.find("cannot hold range 32 with lambda 60000") != std::string::npos);
        }
    }

    TEST_CASE(
        "compare with a rate term and the temporal predictor: reported costs are J, and devices agree") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("partitions_compare");
        for (const std::string chain : {"fs", "fs+p41"}) {
            // Before this was checked, every reported J was compared with the bare distortion: any
            // lambda > 0 made `compare` exit 6.
            const Run run = run_xme("compare " + real_clip() + " --frames 3 --range 4 --algo " + chain +
                                    " --qp 28 --predictor temporal --backends cpu,reference --json " +
                                    (dir / (chain + ".json")).string());
            INFO(chain, ": ", run.output);
            CHECK(run.exit_code == 0);
            CHECK(run.output.find("all devices agree") != std::string::npos);
        }
    }
}
