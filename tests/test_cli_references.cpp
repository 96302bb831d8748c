// `xme estimate --refs LIST` and `--direction both` (SPEC §14) as a user runs them: the rows of every
// device byte for byte the reference device's on the real clip, the summary's figures, and the
// refusals of what §14 does not define or the command does not do yet.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"
#include "export_test_helpers.hpp"
#include "test_support.hpp"

#ifdef XME_TEST_HAVE_FFMPEG
#include <sstream>

#include "picture_reader.hpp"
#endif

namespace {

using namespace xme::test::cli;
using xme::test::exports::file_bytes;
namespace fs = std::filesystem;

// The rows of a §14 CSV (xme/decided_field_io.hpp's 18 columns; cost_kind and mode are words), after
// its header.
std::vector<std::vector<std::string>> decided_rows(const fs::path& path) {
    std::istringstream in(read_file(path));
    std::string line;
    std::getline(in, line);
    REQUIRE(line.ends_with(",consistency,flagged"));
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line)) {
        auto& row = rows.emplace_back();
        std::istringstream fields(line);
        for (std::string field; std::getline(fields, field, ',');) row.push_back(field);
        REQUIRE(row.size() == 18);
    }
    return rows;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("estimate --refs and --direction both: every device's rows are the reference device's") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("cli references");
        INFO("XME_TEST_SEED=", xme::test::run_seed());
        const fs::path dir = scratch_dir("references");
        const char* settings[] = {"--refs -1,-2,-3", "--refs -1,+1", "--refs=-2,+1,-1", "--direction both"};
        const char* chains[] = {"--algo hex+qpel --qp 28",
                                "--algo fs+hpel --range 6 --predictor temporal --lambda 2",
                                "--algo tz --predictor spatial --lambda 3"};
        const std::string setting = settings[std::uniform_int_distribution<int>(0, 3)(rng)];
        const std::string chain = chains[std::uniform_int_distribution<int>(0, 2)(rng)];
        const int start = std::uniform_int_distribution<int>(0, 40)(rng);
        const std::string common = "estimate " + real_clip() + " --start " + std::to_string(start) +
                                   " --frames 5 --block 16 " + setting + " " + chain + " -q";
        INFO(common);
        const Run expected = run_xme(common + " --backend reference -o " + (dir / "reference.npy").string() +
                                     " --json " + (dir / "reference.json").string());
        REQUIRE(expected.exit_code == 0);
        const std::string rows = file_bytes((dir / "reference.npy").string());
        REQUIRE(rows.size() > 128);
        CHECK(rows.substr(0, 128).find("'<i4', 'fortran_order': False, 'shape': (") != std::string::npos);
        CHECK(rows.substr(0, 128).find(", 18)") != std::string::npos);
        const std::string summary = file_bytes((dir / "reference.json").string());
        CHECK(summary.find("\"mode_shares\"") != std::string::npos);
        CHECK(summary.find("\"mean_mc_psnr_db\"") != std::string::npos);
        for (const char* device : {"cpu", "vulkan"}) {
            const Run run = run_xme(common + " --backend " + device + " -o " + (dir / "device.npy").string());
            INFO(device, ": ", run.output);
            if (run.exit_code == 5 && std::string(device) == "vulkan") continue;  // no Vulkan device here
            REQUIRE(run.exit_code == 0);
            CHECK(file_bytes((dir / "device.npy").string()) == rows);
        }
        // The CSV names the cost kind and the mode; its first nine columns are -o's.
        const Run csv = run_xme(common + " --backend cpu -o -");
        REQUIRE(csv.exit_code == 0);
        CHECK(contains(csv.output,
                       "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates,ref,mode,mv2_x,mv2_y,"
                       "ref2,back_mv_x,back_mv_y,consistency,flagged\n"));
    }

    TEST_CASE("compare --refs and --direction both: every device's decisions are the first device's") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("references/compare");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("references_compare");
        const std::vector<std::string> settings = {
            "--refs=-1,-2,-3,-4 --algo hex --lambda 2 --predictor temporal",
            "--refs=-1,+1 --algo fs+qpel --qp 28",
            "--direction both --algo tz --predictor spatial --lambda 1"};
        const std::string& setting =
            settings[std::uniform_int_distribution<std::size_t>(0, settings.size() - 1)(rng)];
        const std::string start = std::to_string(std::uniform_int_distribution<int>(0, 40)(rng));
        // Every device this machine has (lavapipe in CI), against the reference device.
        const std::string backends =
            contains(run_xme("devices").output, "vulkan:0\n") ? "reference,cpu,vulkan:0" : "reference,cpu";
        const Run run = run_xme("compare " + real_clip() + " --start " + start + " --frames 6 --backends " +
                                backends + " " + setting + " --json " + (dir / "c.json").string());
        INFO(setting, " --start ", start, ": ", run.output);
        REQUIRE(run.exit_code == 0);
        CHECK(contains(run.output, "all devices agree"));
        const auto report = nlohmann::json::parse(read_file(dir / "c.json"));
        REQUIRE(report["comparisons"].size() == (backends.ends_with("vulkan:0") ? 2u : 1u));
        for (const auto& comparison : report["comparisons"]) {
            CHECK(comparison["against"] == "reference");
            CHECK(comparison["frames"].get<int>() >= 5);
            CHECK(comparison["blocks"].get<int>() > 0);
            CHECK(comparison["mismatching_blocks"] == 0);
            CHECK(comparison["mismatching_consistency"] == 0);
            CHECK(comparison["mismatching_backward"] == 0);
        }
        const Run picture =
            run_xme("compare " + real_clip() + " --frames 3 --backends reference,cpu --refs=-1,+1 " +
                    "--disagreement " + (dir / "d.png").string());
        CHECK(picture.exit_code == 4);
        CHECK(contains(picture.output, "--disagreement with --refs"));
    }

    TEST_CASE("estimate --refs --export-mvs: a record per decided vector, FFmpeg's source sign") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("references/export-mvs");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("references_mvs");
        const std::string start = std::to_string(std::uniform_int_distribution<int>(0, 40)(rng));
        for (const std::string setting :
             {"--refs=-2,-1,+1 --algo hex+qpel --qp 28", "--direction both --algo tz"}) {
            INFO(setting, " --start ", start);
            const Run run = run_xme(
                "estimate " + real_clip() + " --start " + start + " --frames 4 --block 16 " + setting +
                " -q -o " + (dir / "rows.csv").string() + " --export-mvs " + (dir / "v.mvs.npy").string());
            INFO(run.output);
            REQUIRE(run.exit_code == 0);
            // The records the rows say there are: forward ones row by row (a `both` block's future vector
            // after its past one), then frame - 1's backward ones.
            std::vector<xme::test::exports::MvsRecord> expected;
            std::vector<xme::test::exports::MvsRecord> backward;
            int frame = -1;
            const auto flush = [&] {
                expected.insert(expected.end(), backward.begin(), backward.end());
                backward.clear();
            };
            for (const auto& c : decided_rows(dir / "rows.csv")) {
                const auto number = [&](int i) { return std::stoi(c[static_cast<std::size_t>(i)]); };
                if (number(0) != frame) flush();
                frame = number(0);
                const auto record = [&](int f, int source, int mx, int my) {
                    xme::test::exports::MvsRecord r;
                    r.frame = f;
                    r.source = source;
                    r.dst_x = static_cast<std::int16_t>(number(1) + 8);
                    r.dst_y = static_cast<std::int16_t>(number(2) + 8);
                    r.motion_x = mx;
                    r.motion_y = my;
                    return r;
                };
                expected.push_back(record(frame, number(9), number(3), number(4)));
                if (c[10] == "both") expected.push_back(record(frame, number(13), number(11), number(12)));
                if (setting.starts_with("--direction"))
                    backward.push_back(record(frame - 1, 1, number(14), number(15)));
            }
            flush();
            const auto records = xme::test::exports::read_mvs_npy((dir / "v.mvs.npy").string());
            REQUIRE(records.size() == expected.size());
            int differing = 0;
            for (std::size_t i = 0; i < records.size(); ++i) {
                const auto& r = records[i];
                const auto& e = expected[i];
                differing += r.frame != e.frame || r.source != e.source || r.dst_x != e.dst_x ||
                                     r.dst_y != e.dst_y || r.motion_x != e.motion_x ||
                                     r.motion_y != e.motion_y || r.w != 16 || r.motion_scale != 4
                                 ? 1
                                 : 0;
            }
            CHECK(differing == 0);
        }
    }

    TEST_CASE("estimate --direction both -o FLOW.flo: forward and backward flow, each block's vector") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("references/flo");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("references_flo");
        const int start = std::uniform_int_distribution<int>(0, 40)(rng);
        const std::string common = "estimate " + real_clip() + " --start " + std::to_string(start) +
                                   " --frames 3 --block 16 --direction both --algo hex+qpel --qp 28 -q ";
        const Run rows_run = run_xme(common + "-o " + (dir / "rows.csv").string());
        const Run flow_run = run_xme(common + "-o " + (dir / "f_%03d.flo").string());
        INFO(rows_run.output, flow_run.output);
        REQUIRE(rows_run.exit_code == 0);
        REQUIRE(flow_run.exit_code == 0);
        int checked = 0;
        int moving = 0;
        const auto name = [&](int frame, const char* suffix) {
            char text[32];
            std::snprintf(text, sizeof text, "f_%03d%s.flo", frame, suffix);
            return (dir / text).string();
        };
        std::map<std::string, xme::test::exports::Flow> flows;  // each file read once
        const auto flow = [&](const std::string& path) -> const xme::test::exports::Flow& {
            auto found = flows.find(path);
            if (found == flows.end()) found = flows.emplace(path, xme::test::exports::read_flo(path)).first;
            return found->second;
        };
        for (const auto& c : decided_rows(dir / "rows.csv")) {  // every block of the two frames
            const auto number = [&](int i) { return std::stoi(c[static_cast<std::size_t>(i)]); };
            const int frame = number(0);
            const int x = number(1) + 5;  // a pixel inside the block (tree.avi is 320x240: whole blocks)
            const int y = number(2) + 7;
            const auto& forward = flow(name(frame, ""));
            const auto& backward = flow(name(frame - 1, ".backward"));
            CHECK(forward.u(x, y) == static_cast<float>(number(3)) / 4);
            CHECK(forward.v(x, y) == static_cast<float>(number(4)) / 4);
            CHECK(backward.u(x, y) == static_cast<float>(number(14)) / 4);
            CHECK(backward.v(x, y) == static_cast<float>(number(15)) / 4);
            moving += number(3) != 0 || number(4) != 0 || number(14) != 0 || number(15) != 0 ? 1 : 0;
            ++checked;
        }
        CHECK(checked > 0);
        CHECK(moving > 0);
        const Run refused =
            run_xme("estimate " + real_clip() + " --frames 3 --refs=-1,+1 -o " + (dir / "x.flo").string());
        CHECK(refused.exit_code == 4);
        CHECK(contains(refused.output, "--direction both for forward and backward flow"));
    }

    TEST_CASE("estimate --refs --prediction --residual: the decided prediction, current minus it") {
        if (real_clip_missing()) return;
        const auto luma = xme::test::clip_luma("tree.avi", 4, 0, 0, 320, 240);
        if (!luma) return;
        auto rng = xme::test::rng_for("references/compensation");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("references_compensation");
        const std::vector<std::string> settings = {"--refs=-1,+1 --algo hex+qpel --qp 28",
                                                   "--refs=-1,-2 --algo fs+hpel --lambda 2"};
        const std::string& setting =
            settings[std::uniform_int_distribution<std::size_t>(0, settings.size() - 1)(rng)];
        const Run run = run_xme("estimate " + real_clip() + " --frames 4 --block 16 " + setting +
                                " -q --prediction " + (dir / "p.y4m").string() + " --residual " +
                                (dir / "r.npy").string() + " --transform loeffler --coefficients " +
                                (dir / "c.npy").string() + " --json " + (dir / "j.json").string());
        INFO(setting, ": ", run.output);
        REQUIRE(run.exit_code == 0);
        const auto summary = nlohmann::json::parse(read_file(dir / "j.json"));
        const auto& frames = summary["frames"];
        const std::string y4m = read_file(dir / "p.y4m");
        const std::string residual = read_file(dir / "r.npy");
        const std::size_t residual_header =
            10 + (static_cast<unsigned char>(residual[8]) | static_cast<unsigned char>(residual[9]) << 8);
        const std::size_t plane = 320 * 240;
        REQUIRE(residual.size() == residual_header + 2 * plane * frames.size());
        std::size_t at = y4m.find('\n') + 1;
        for (std::size_t f = 0; f < frames.size(); ++f) {
            REQUIRE(y4m.compare(at, 6, "FRAME\n") == 0);
            at += 6;
            const int index = frames[f]["frame"].get<int>();
            double squared = 0;
            int differing = 0;
            for (std::size_t i = 0; i < plane; ++i) {
                const int predicted = static_cast<unsigned char>(y4m[at + i]);
                const std::size_t r = residual_header + 2 * (f * plane + i);
                const auto value =
                    static_cast<std::int16_t>(static_cast<unsigned char>(residual[r]) |
                                              static_cast<unsigned char>(residual[r + 1]) << 8);
                const int x = static_cast<int>(i % 320);
                const int y = static_cast<int>(i / 320);
                differing +=
                    predicted + value != (*luma)[static_cast<std::size_t>(index)].view().at(x, y) ? 1 : 0;
                squared += static_cast<double>(value) * value;
            }
            at += plane;
            CHECK(differing == 0);
            const double psnr = 10 * std::log10(255.0 * 255.0 * static_cast<double>(plane) / squared);
            CHECK(psnr == doctest::Approx(frames[f]["mc_psnr_db"].get<double>()).epsilon(1e-9));
            // SPEC §13 on the decided residual: the quantised residual added back improves the prediction.
            const auto& transform = frames[f]["transform"];
            REQUIRE(transform.is_object());
            CHECK(transform["reconstruction_psnr_db"].get<double>() > psnr);
            CHECK(transform["zero_fraction"].get<double>() > 0);
            CHECK(transform["zero_fraction"].get<double>() < 1);
        }
        CHECK(fs::file_size(dir / "c.npy") == residual.size());
    }

    TEST_CASE("estimate --refs refuses what SPEC §14 does not define, and what the command does not do yet") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("references_refusals");
        const std::string common = "estimate " + real_clip() + " --frames 3 ";
        check_refusals({{common + "--refs=-1,0", "-16..-1"},
                        {common + "--refs=-1,-1", "twice"},
                        {common + "--refs=-1,x", "'x' is not a frame distance"},
                        {common + "--refs=-2 --direction both", "--refs -1 only"},
                        {common + "--direction sideways", "use forward or both"}});
        for (const std::string& more :
             std::vector<std::string>{std::string("--algo fs+p41 --refs=-1,+1"),
                                      std::string("--refs=-1,+1 --backends cpu,vulkan --policy split"),
                                      "--direction both --vector-array " + (dir / "v.npy").string()}) {
            const Run run = run_xme(common + more);
            INFO(more, ": ", run.output);
            CHECK(run.exit_code == 4);
            CHECK((contains(run.output, "not implemented yet") || contains(run.output, "not defined")));
        }
    }

#ifdef XME_TEST_HAVE_FFMPEG
    TEST_CASE("estimate --direction both --draw and xme draw: the flagged blocks outlined in red") {
        const std::string clip = xme::test::clip_path("vtest.avi");  // walkers: occlusions in most frames
        if (!fs::exists(clip)) {
            MESSAGE("skipped: ", clip, " is missing");
            return;
        }
        auto rng = xme::test::rng_for("references/draw");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = scratch_dir("references_draw");
        int flagged = 0;
        for (int attempt = 0; attempt < 6 && flagged == 0; ++attempt) {
            const int start = std::uniform_int_distribution<int>(0, 300)(rng);
            const Run run = run_xme("estimate " + clip + " --start " + std::to_string(start) +
                                    " --frames 2 --block 16 --algo hex --direction both --draw " +
                                    (dir / "d.png").string() + " -o " + (dir / "rows.csv").string());
            INFO("start ", start, ": ", run.output);
            REQUIRE(run.exit_code == 0);
            const auto pictures = xme::test::decode_pictures((dir / "d.png").string());
            REQUIRE(pictures.size() == 1);
            for (const auto& columns : decided_rows(dir / "rows.csv")) {
                if (columns[17] == "0") continue;
                ++flagged;
                const int bx = std::stoi(columns[1]);
                const int by = std::stoi(columns[2]);
                int red = 0;  // of the block's top edge: arrows may cross a few of its pixels
                for (int x = bx; x < bx + 16; ++x)
                    red += pictures[0].at(x, by) == std::array<int, 3>{255, 0, 0} ? 1 : 0;
                CHECK(red >= 8);
            }
            MESSAGE(flagged, " flagged block(s) drawn at frame ", start + 1);
            // `xme draw` of the -o rows draws the same picture.
            const Run drawn = run_xme("draw " + clip + " --vectors " + (dir / "rows.csv").string() + " -o " +
                                      (dir / "x.png").string());
            INFO(drawn.output);
            REQUIRE(drawn.exit_code == 0);
            const auto again = xme::test::decode_pictures((dir / "x.png").string());
            REQUIRE(again.size() == 1);
            CHECK(again[0].rgb == pictures[0].rgb);
        }
        CHECK(flagged > 0);
        const Run flow = run_xme("draw " + clip + " --vectors " + (dir / "rows.csv").string() +
                                 " --style flow -o " + (dir / "f.png").string());
        CHECK(flow.exit_code == 4);
        CHECK(contains(flow.output, "SPEC §14's decided blocks"));
        // One PNG holds one frame.
        const Run many =
            run_xme("estimate " + clip + " --frames 3 --direction both --draw " + (dir / "m.png").string());
        CHECK(many.exit_code == 2);
        CHECK(contains(many.output, "holds one picture"));
    }
#endif
}
