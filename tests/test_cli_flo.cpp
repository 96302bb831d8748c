// `xme estimate -o flow_%04d.flo` end to end: every pixel of each .flo against the vectors of the same
// parameters' .npy (the CPU backend is deterministic), on the real clip and on random frames whose
// known motion shows the sign convention; and the refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>

#include "cli_test_helpers.hpp"
#include "export_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
using xme::test::exports::Flow;
using xme::test::exports::read_flo;
using xme::test::exports::read_vectors_npy;
namespace fs = std::filesystem;

constexpr float unpainted = -1e9F;

// Runs `options` twice, -o v.npy and -o f_%03d.flo, and checks every pixel of every pair's .flo against
// the .npy's rows: each row's block (or, with partitions, each chosen partition) painted with its vector
// / 4, cropped to the frame. Returns each frame's .flo.
std::map<int, Flow> check_flo_against_npy(const std::string& options, const fs::path& dir, int width,
                                          int height, int block, bool partitions) {
    for (const std::string output : {"v.npy", "f_%03d.flo"}) {
        const Run run = run_xme(options + " -o " + (dir / output).string());
        INFO(options, " -o ", output, ": ", run.output);
        REQUIRE(run.exit_code == 0);
    }
    const auto rows = read_vectors_npy((dir / "v.npy").string(), partitions ? 15 : 9);
    REQUIRE(!rows.empty());
    std::map<int, std::vector<float>> expected;  // by frame: (u, v) per pixel
    for (const auto& row : rows) {
        if (partitions && row[14] == 0) continue;
        auto& uv = expected
                       .try_emplace(row[0], std::vector<float>(2 * static_cast<std::size_t>(width * height),
                                                               unpainted))
                       .first->second;
        const int x0 = partitions ? row[10] : row[1];
        const int y0 = partitions ? row[11] : row[2];
        const int x1 = std::min(width, x0 + (partitions ? row[12] : block));
        const int y1 = std::min(height, y0 + (partitions ? row[13] : block));
        for (int y = y0; y < y1; ++y) {
            for (int x = x0; x < x1; ++x) {
                uv[2 * static_cast<std::size_t>(y * width + x)] = static_cast<float>(row[3]) / 4;
                uv[2 * static_cast<std::size_t>(y * width + x) + 1] = static_cast<float>(row[4]) / 4;
            }
        }
    }
    std::map<int, Flow> flows;
    for (const auto& [frame_index, uv] : expected) {
        const int frame = frame_index;  // a copy: INFO's lambda cannot capture a structured binding
        char name[32];
        std::snprintf(name, sizeof name, "f_%03d.flo", frame);
        INFO("frame ", frame);
        const Flow flow = read_flo((dir / name).string());
        REQUIRE(flow.width == width);
        REQUIRE(flow.height == height);
        CHECK(std::count(uv.begin(), uv.end(), unpainted) == 0);  // the rows tile the frame
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < uv.size(); ++i) wrong += flow.uv[i] != uv[i] ? 1 : 0;
        CHECK(wrong == 0);
        flows.emplace(frame, flow);
    }
    // Exactly one file per pair, none for frame 0.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) files += entry.path().extension() == ".flo" ? 1 : 0;
    CHECK(files == expected.size());
    return flows;
}

bool any_motion(const std::map<int, Flow>& flows) {
    return std::any_of(flows.begin(), flows.end(), [](const auto& entry) {
        const auto& uv = entry.second.uv;
        return std::any_of(uv.begin(), uv.end(), [](float value) { return value != 0; });
    });
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE(
        "estimate -o flow_%03d.flo: the real clip, every pixel its block's vector, partial blocks too") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("flo_clip");
        // 320x240 in blocks of 32: the bottom row of blocks is half outside the frame.
        const auto flows = check_flo_against_npy(
            "estimate " + real_clip() + " --frames 4 --range 4 --block 32 --subpel qpel --backend cpu -q",
            dir, 320, 240, 32, false);
        CHECK(flows.size() == 3);
        CHECK(any_motion(flows));
        // Quarter-pel vectors arrive as quarters of a pixel, not rounded.
        bool fractional = false;
        for (const auto& [frame, flow] : flows)
            for (const float value : flow.uv) fractional = fractional || value != std::floor(value);
        CHECK(fractional);
    }

    TEST_CASE("estimate --partitions all -o f.flo: each pixel the chosen partition's vector") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("flo_partitions");
        const auto flows = check_flo_against_npy(
            "estimate " + real_clip() +
                " --start 4 --frames 2 --range 4 --algo fs+p41+qpel --qp 28 --backend cpu -q",
            dir, 320, 240, 16, true);
        CHECK(flows.size() == 1);
        CHECK(any_motion(flows));
    }

    TEST_CASE(
        "estimate -o .flo on random frames moving by a known vector: the flow leads into the reference") {
        auto rng = xme::test::rng_for("cli flo random");
        INFO("XME_TEST_SEED=", xme::test::run_seed());
        const fs::path dir = scratch_dir("flo_random");
        // Sizes that no block size divides; the content moves by (sx, sy) each frame:
        // current(x, y) = reference(x - sx, y - sy).
        const int width = std::uniform_int_distribution<int>(40, 60)(rng) | 1;
        const int height = std::uniform_int_distribution<int>(30, 50)(rng) | 1;
        std::uniform_int_distribution<int> shift(-3, 3);
        const int sx = shift(rng);
        const int sy = shift(rng);
        INFO(width, "x", height, ", moving by ", sx, ",", sy);
        std::uniform_int_distribution<int> byte(0, 255);
        std::vector<std::uint8_t> world(static_cast<std::size_t>((width + 20) * (height + 20)));
        for (auto& sample : world) sample = static_cast<std::uint8_t>(byte(rng));
        const std::string clip = (dir / "moving.y4m").string();
        {
            xme::Y4mWriter writer(clip, width, height, xme::ChromaFormat::mono);
            for (int t = 0; t < 3; ++t) {
                xme::Frame frame = xme::make_frame(width, height, xme::ChromaFormat::mono);
                for (int y = 0; y < height; ++y)
                    for (int x = 0; x < width; ++x)
                        frame.luma.at(x, y) = world[static_cast<std::size_t>(
                            (y + 10 - t * sy) * (width + 20) + x + 10 - t * sx)];
                writer.write(frame);
            }
        }
        const fs::path out = dir / "out";
        fs::create_directories(out);
        const auto flows = check_flo_against_npy("estimate " + clip + " --block 8 --range 4 --backend cpu -q",
                                                 out, width, height, 8, false);
        REQUIRE(flows.size() == 2);
        // A block well inside the frame finds the motion exactly (noise: one zero-SAD candidate): the pixel
        // (x, y) of the current frame is at (x + u, y + v) in the reference, so (u, v) = (-sx, -sy).
        for (const auto& [frame_index, flow] : flows) {
            const int frame = frame_index;  // a copy: INFO's lambda cannot capture a structured binding
            INFO("frame ", frame);
            for (int y = 8; y + 8 <= height - 8; y += 8) {
                for (int x = 8; x + 8 <= width - 8; x += 8) {
                    INFO("pixel ", x, ",", y);
                    CHECK(flow.u(x, y) == static_cast<float>(-sx));
                    CHECK(flow.v(x, y) == static_cast<float>(-sy));
                }
            }
        }
        // A file of exactly two frames is one pair: a single .flo needs no --frames 2.
        const Run two = run_xme("estimate " + clip + " --frames 2 -q -o " + (dir / "one.flo").string());
        INFO(two.output);
        CHECK(two.exit_code == 0);
        CHECK(read_flo((dir / "one.flo").string()).width == width);
    }

    TEST_CASE("estimate -o .flo refuses several pairs in one file and bad patterns, naming the fix") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("flo_refusals");
        const std::string common = "estimate " + real_clip() + " --frames 3 -o " + dir.string();
        check_refusals(
            {{common + "/v.flo", "name one file per pair with a frame number, as in -o flow_%04d.flo"},
             {common + "/v.flo", "--frames 2"},
             {common + "/v%s.flo", "'%s' is not a frame number"},
             {common + "/v%d_%d.flo", "more than one frame number"}});
        CHECK(!fs::exists(dir / "v.flo"));
        const Run folder = run_xme(common + "/no/such/f_%d.flo");
        INFO(folder.output);
        CHECK(folder.exit_code == 7);
        CHECK(folder.output.find("No such file") != std::string::npos);
    }
}
