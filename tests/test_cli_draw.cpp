// `xme draw` end to end: random and real fields drawn over tree.avi's frames, the pictures read back
// through FFmpeg's own decoders, and their pixels checked against the vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

#ifdef XME_TEST_HAVE_FFMPEG
#include "picture_reader.hpp"
#endif

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

#ifdef XME_TEST_HAVE_FFMPEG
using xme::test::decode_pictures;
using xme::test::RgbPicture;
using Colour = std::array<int, 3>;

constexpr int clip_width = 320;  // tree.avi
constexpr int clip_height = 240;
constexpr int block = 16;
constexpr int blocks_x = clip_width / block;
constexpr int blocks_y = clip_height / block;

struct Row {
    int x, y, mv_x, mv_y, cost;
};

std::string csv_of(const std::vector<std::pair<int, std::vector<Row>>>& frames) {
    std::string text = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
    for (const auto& [frame, rows] : frames) {
        for (const Row& r : rows) {
            text += std::to_string(frame) + "," + std::to_string(r.x) + "," + std::to_string(r.y) + "," +
                    std::to_string(r.mv_x) + "," + std::to_string(r.mv_y) + "," + std::to_string(r.cost) +
                    ",1,sad,1\n";
        }
    }
    return text;
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
}

// xme(1)'s ramp (`xme draw`): green at the frame's lowest cost, yellow half way, red at its highest.
Colour expected_cost_colour(double t) {
    return t <= 0.5 ? Colour{static_cast<int>(std::lround(510 * t)), 255, 0}
                    : Colour{255, static_cast<int>(std::lround(510 * (1 - t))), 0};
}

// xme(1)'s wheel, computed here the way a reader of the man page would: HSV with value 1.
Colour expected_flow_colour(double dx, double dy, double full) {
    const double s = std::min(1.0, std::hypot(dx, dy) / full);
    double h = std::atan2(dy, dx) * 180 / std::numbers::pi;
    if (h < 0) h += 360;
    auto channel = [&](double n) {  // the standard HSV-to-RGB form f(n) = v - v s max(0, min(k, 4 - k, 1))
        const double k = std::fmod(n + h / 60, 6);
        return static_cast<int>(std::lround(255 * (1 - s * std::max(0.0, std::min({k, 4 - k, 1.0})))));
    };
    return {channel(5), channel(3), channel(1)};
}

bool near(const Colour& a, const Colour& b, int tolerance) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(a[static_cast<std::size_t>(c)] - b[static_cast<std::size_t>(c)]) > tolerance)
            return false;
    return true;
}

std::string text_of(const Colour& c) {
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

int rounded(double v) { return static_cast<int>(std::floor(v + 0.5)); }

// The CSV `xme estimate -o` wrote, as rows per frame.
std::vector<std::pair<int, std::vector<Row>>> read_estimate_csv(const fs::path& path) {
    std::vector<std::pair<int, std::vector<Row>>> frames;
    const auto lines = lines_of(read_file(path));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> f;
        std::stringstream stream(lines[i]);
        for (std::string field; std::getline(stream, field, ',');) f.push_back(field);
        const int frame = std::stoi(f[0]);
        if (frames.empty() || frames.back().first != frame) frames.push_back({frame, {}});
        frames.back().second.push_back(
            {std::stoi(f[1]), std::stoi(f[2]), std::stoi(f[3]), std::stoi(f[4]), std::stoi(f[5])});
    }
    return frames;
}
#endif

}  // namespace

TEST_SUITE("cli") {
#ifdef XME_TEST_HAVE_FFMPEG
    TEST_CASE("draw: a random field's arrows start at each block's centre and point along its vector") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-arrows");
        auto rng = xme::test::rng_for("draw arrows");
        INFO("seed ", xme::test::run_seed());
        constexpr int frame = 3;
        const auto luma = xme::test::clip_luma("tree.avi", frame + 1, 0, 0, clip_width, clip_height);
        REQUIRE(luma.has_value());
        // Arrows on a lattice four blocks apart (at most 14 pixels long: none reaches another's block);
        // the blocks between them have zero vectors and must be left as the frame is.
        std::uniform_int_distribution<int> cost(0, 5000);
        std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi);
        std::uniform_real_distribution<double> length(6, 14);
        std::vector<Row> rows;
        for (int by = 0; by < blocks_y; ++by) {
            for (int bx = 0; bx < blocks_x; ++bx) {
                Row row{bx * block, by * block, 0, 0, cost(rng)};
                if (bx % 4 == 1 && by % 4 == 1) {
                    const double a = angle(rng), l = length(rng);
                    row.mv_x = static_cast<int>(std::lround(4 * l * std::cos(a)));
                    row.mv_y = static_cast<int>(std::lround(4 * l * std::sin(a)));
                }
                rows.push_back(row);
            }
        }
        write_text(dir / "v.csv", csv_of({{frame, rows}}));
        const Run run = run_xme("draw " + real_clip() + " --vectors " + (dir / "v.csv").string() + " -o " +
                                (dir / "a.png").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        const auto pictures = decode_pictures((dir / "a.png").string());
        REQUIRE(pictures.size() == 1);
        const RgbPicture& picture = pictures.front();
        REQUIRE(picture.width == clip_width);
        REQUIRE(picture.height == clip_height);
        const xme::Plane& y = (*luma)[frame];
        auto frame_colour = [&](int px, int py) {
            const int v = y.view().at(px, py);
            return Colour{v, v, v};
        };
        int lowest = 5000, highest = 0;
        for (const Row& row : rows)
            lowest = std::min(lowest, row.cost), highest = std::max(highest, row.cost);
        int arrows = 0;
        for (const Row& row : rows) {
            const int bx = row.x / block, by = row.y / block;
            if (row.mv_x == 0 && row.mv_y == 0) {
                if (bx % 4 != 3 || by % 4 != 3) continue;  // far from every arrow
                for (int py = row.y; py < row.y + block; ++py)
                    for (int px = row.x; px < row.x + block; ++px) {
                        INFO("zero-vector block at ", row.x, ",", row.y, " pixel ", px, ",", py);
                        REQUIRE(picture.at(px, py) == frame_colour(px, py));
                    }
                continue;
            }
            ++arrows;
            const double cx = row.x + block / 2, cy = row.y + block / 2;
            const double dx = row.mv_x / 4.0, dy = row.mv_y / 4.0;
            const Colour colour = expected_cost_colour(double(row.cost - lowest) / (highest - lowest));
            INFO("block at ", row.x, ",", row.y, " vector ", row.mv_x, ",", row.mv_y, " (quarter-pel) cost ",
                 row.cost);
            // Along the vector from the centre: the arrow (a pixel within one of each point on it).
            for (int step = 0; step <= 10; ++step) {
                const double t = step / 10.0;
                const double px = cx + t * dx, py = cy + t * dy;
                bool drawn = false;
                for (int oy = -1; oy <= 1; ++oy)
                    for (int ox = -1; ox <= 1; ++ox)
                        drawn = drawn || near(picture.at(rounded(px) + ox, rounded(py) + oy), colour, 1);
                CHECK_MESSAGE(drawn, "no arrow pixel near t=", t, " (", px, ",", py, ")");
            }
            // Every changed pixel around it is on the shaft, or on the head at the tip.
            for (int py = row.y - block; py < row.y + 2 * block; ++py) {
                for (int px = row.x - block; px < row.x + 2 * block; ++px) {
                    if (picture.at(px, py) == frame_colour(px, py)) continue;
                    const double length2 = dx * dx + dy * dy;
                    const double t = std::clamp(((px - cx) * dx + (py - cy) * dy) / length2, 0.0, 1.0);
                    const double off_shaft = std::hypot(px - (cx + t * dx), py - (cy + t * dy));
                    const double off_tip = std::hypot(px - (cx + dx), py - (cy + dy));
                    CHECK_MESSAGE((off_shaft <= 1.0 || off_tip <= 7.0), "pixel ", px, ",", py, " changed to ",
                                  text_of(picture.at(px, py)));
                }
            }
            // The other way from the centre: the frame.
            const int bx_back = rounded(cx - 0.6 * dx), by_back = rounded(cy - 0.6 * dy);
            CHECK(picture.at(bx_back, by_back) == frame_colour(bx_back, by_back));
        }
        CHECK(arrows == 20);
    }

    TEST_CASE("draw --style flow: each block has the colour wheel's colour of its vector, white for zero") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-flow");
        auto rng = xme::test::rng_for("draw flow");
        INFO("seed ", xme::test::run_seed());
        std::uniform_int_distribution<int> component(-80, 80);
        std::bernoulli_distribution zero(0.1);
        std::vector<std::pair<int, std::vector<Row>>> frames;
        for (const int frame : {1, 2}) {
            frames.push_back({frame, {}});
            for (int by = 0; by < blocks_y; ++by)
                for (int bx = 0; bx < blocks_x; ++bx)
                    frames.back().second.push_back({bx * block, by * block, zero(rng) ? 0 : component(rng),
                                                    zero(rng) ? 0 : component(rng), 7});
        }
        write_text(dir / "v.csv", csv_of(frames));
        const Run run = run_xme("draw " + real_clip() + " --vectors " + (dir / "v.csv").string() +
                                " --style flow --flow-max 16 -o " + (dir / "f_%03d.png").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        for (const auto& [frame, rows] : frames) {
            const auto pictures = decode_pictures((dir / ("f_00" + std::to_string(frame) + ".png")).string());
            REQUIRE(pictures.size() == 1);
            for (const Row& row : rows) {
                const Colour expected = expected_flow_colour(row.mv_x / 4.0, row.mv_y / 4.0, 16);
                const Colour got = pictures.front().at(row.x + 5, row.y + 11);
                INFO("frame ", frame, " block ", row.x, ",", row.y, " vector ", row.mv_x, ",", row.mv_y);
                CHECK_MESSAGE(near(got, expected, 2), text_of(got), " not ", text_of(expected));
                if (row.mv_x == 0 && row.mv_y == 0) CHECK(got == Colour{255, 255, 255});
            }
        }
    }

    TEST_CASE("draw: a real field's arrows and flow, and an mp4 with one frame per pair") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-real");
        const Run estimate =
            run_xme("estimate " + real_clip() + " --frames 4 --block 16 --range 12 --backend cpu " +
                    "--quiet -o " + (dir / "v.csv").string());
        INFO(estimate.output);
        REQUIRE(estimate.exit_code == 0);
        REQUIRE(run_xme("estimate " + real_clip() +
                        " --frames 4 --block 16 --range 12 --backend cpu --quiet -o " +
                        (dir / "v.npy").string())
                    .exit_code == 0);
        const auto frames = read_estimate_csv(dir / "v.csv");
        REQUIRE(frames.size() == 3);

        const Run video = run_xme("draw " + real_clip() + " --vectors " + (dir / "v.npy").string() + " -o " +
                                  (dir / "v.mp4").string());
        INFO(video.output);
        REQUIRE(video.exit_code == 0);
        const auto decoded = decode_pictures((dir / "v.mp4").string());
        CHECK(decoded.size() == 3);
        for (const auto& picture : decoded)
            CHECK((picture.width == clip_width && picture.height == clip_height));
        // ffprobe counts what a player shows (after the container's edit list), not just the packets.
        if (std::system("ffprobe -version > /dev/null 2>&1") == 0) {
            const std::string probe =
                "ffprobe -v error -count_frames -select_streams v -show_entries "
                "stream=nb_read_frames -of csv=p=0 " +
                (dir / "v.mp4").string() + " > " + (dir / "probe.txt").string();
            REQUIRE(std::system(probe.c_str()) == 0);
            CHECK(read_file(dir / "probe.txt") == "3\n");
        } else {
            MESSAGE("ffprobe is not installed: the mp4's frames were counted by decoding only");
        }

        // The frame's longest vectors: their arrows' middles are coloured (every ramp colour is).
        const auto& [frame, rows] = frames.back();
        const Run arrows = run_xme("draw " + real_clip() + " --vectors " + (dir / "v.csv").string() +
                                   " --pair " + std::to_string(frame) + " -o " + (dir / "a.png").string());
        INFO(arrows.output);
        REQUIRE(arrows.exit_code == 0);
        const RgbPicture picture = decode_pictures((dir / "a.png").string()).front();
        std::vector<Row> longest = rows;
        std::sort(longest.begin(), longest.end(), [](const Row& a, const Row& b) {
            return std::hypot(a.mv_x, a.mv_y) > std::hypot(b.mv_x, b.mv_y);
        });
        longest.resize(5);
        for (const Row& row : longest) {
            REQUIRE(std::hypot(row.mv_x, row.mv_y) >= 4);  // a pixel: the arrow has two at least
            const int cx = row.x + 8, cy = row.y + 8;
            const int tx = rounded(cx + row.mv_x / 4.0), ty = rounded(cy + row.mv_y / 4.0);
            INFO("block ", row.x, ",", row.y, " vector ", row.mv_x, ",", row.mv_y);
            for (const Colour& got : {picture.at(cx, cy), picture.at(tx, ty)}) {
                INFO("pixel ", text_of(got));
                CHECK((got[0] != got[1] || got[1] != got[2]));  // not gray: an arrow's
            }
        }

        const Run flow =
            run_xme("draw " + real_clip() + " --vectors " + (dir / "v.csv").string() + " --pair " +
                    std::to_string(frame) + " --style flow -o " + (dir / "f.png").string());
        REQUIRE(flow.exit_code == 0);
        const RgbPicture wheel = decode_pictures((dir / "f.png").string()).front();
        double largest = 0;
        for (const Row& row : rows) largest = std::max(largest, std::hypot(row.mv_x / 4.0, row.mv_y / 4.0));
        for (const Row& row : rows) {
            const Colour expected = expected_flow_colour(row.mv_x / 4.0, row.mv_y / 4.0, largest);
            INFO("block ", row.x, ",", row.y, " vector ", row.mv_x, ",", row.mv_y);
            CHECK(near(wheel.at(row.x + 8, row.y + 8), expected, 2));
        }
    }

    TEST_CASE("draw --partitions outlines the chosen partitions in their shape's colour") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-partitions");
        REQUIRE(run_xme("estimate " + real_clip() +
                        " --frames 2 --range 4 --partitions all --qp 28 --backend cpu "
                        "--quiet -o " +
                        (dir / "p.csv").string())
                    .exit_code == 0);
        const Run run = run_xme("draw " + real_clip() + " --vectors " + (dir / "p.csv").string() +
                                " --partitions -o " + (dir / "p.png").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        const RgbPicture picture = decode_pictures((dir / "p.png").string()).front();
        const std::map<std::pair<int, int>, Colour> colours = {
            {{16, 16}, {255, 0, 0}}, {{16, 8}, {255, 128, 0}}, {{8, 16}, {255, 255, 0}},
            {{8, 8}, {0, 255, 0}},   {{8, 4}, {0, 255, 255}},  {{4, 8}, {0, 64, 255}},
            {{4, 4}, {255, 0, 255}}};
        int chosen = 0, matching = 0;
        for (const std::string& line : lines_of(read_file(dir / "p.csv"))) {
            std::vector<int> f;
            std::stringstream stream(line);
            for (std::string field; std::getline(stream, field, ',');)
                f.push_back(std::atoi(field.c_str()));  // cost_kind reads as 0
            if (f.size() != 15 || f[14] != 1) continue;
            ++chosen;
            // Its top-left corner, unless an arrow crosses it.
            matching += picture.at(f[10], f[11]) == colours.at({f[12], f[13]}) ? 1 : 0;
        }
        CHECK(chosen >= 300);  // 20x15 macroblocks tiled by their chosen partitions
        CHECK(matching >= chosen * 9 / 10);
        // The same field as NPY draws the same picture.
        REQUIRE(run_xme("estimate " + real_clip() +
                        " --frames 2 --range 4 --partitions all --qp 28 --backend cpu "
                        "--quiet -o " +
                        (dir / "p.npy").string())
                    .exit_code == 0);
        REQUIRE(run_xme("draw " + real_clip() + " --vectors " + (dir / "p.npy").string() +
                        " --partitions -q -o " + (dir / "n.png").string())
                    .exit_code == 0);
        CHECK(decode_pictures((dir / "n.png").string()).front().rgb == picture.rgb);
    }

    TEST_CASE("draw refuses what it cannot draw, naming the fix") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-refusals");
        REQUIRE(run_xme("estimate " + real_clip() +
                        " --frames 3 --block 16 --range 4 --backend cpu --quiet -o " +
                        (dir / "v.csv").string())
                    .exit_code == 0);
        const std::string draw = "draw " + real_clip() + " --vectors " + (dir / "v.csv").string();
        check_refusals({{draw + " -o " + (dir / "one.png").string(), "--pair"},
                        {draw + " -o " + (dir / "f_%s.png").string(), "%d"},
                        {draw + " -o " + (dir / "f_%d_%d.png").string(), "two conversions"},
                        {draw + " -o " + (dir / "f_%04d.mp4").string(), "pattern"},
                        {draw + " --pair 9 -o " + (dir / "one.png").string(), "frames 1 to 2"},
                        {draw + " --partitions -o " + (dir / "f_%d.png").string(), "--partitions all"}});
        CHECK(!fs::exists(dir / "one.png"));

        // Vectors of a 160x120 video over the 320x240 clip: the grid does not fit.
        std::vector<Row> small;
        for (int by = 0; by < 8; ++by)
            for (int bx = 0; bx < 10; ++bx) small.push_back({bx * 16, by * 16, 4, -4, 10});
        write_text(dir / "small.csv", csv_of({{1, small}}));
        const Run other = run_xme("draw " + real_clip() + " --vectors " + (dir / "small.csv").string() +
                                  " -o " + (dir / "s.png").string());
        INFO(other.output);
        CHECK(other.exit_code == 3);
        CHECK(other.output.find("does not fit") != std::string::npos);
        CHECK(!fs::exists(dir / "s.png"));

        const Run unwritable = run_xme(draw + " --pair 2 -o " + (dir / "missing" / "a.png").string());
        CHECK(unwritable.exit_code == 7);
        CHECK(unwritable.output.find("cannot write") != std::string::npos);
        const Run unwritable_video = run_xme(draw + " -o " + (dir / "missing" / "a.mp4").string());
        CHECK(unwritable_video.exit_code == 7);
        CHECK(unwritable_video.output.find("a.mp4") != std::string::npos);

        write_text(dir / "bad.csv", "frame,x,y\n1,2,3\n");
        const Run bad = run_xme("draw " + real_clip() + " --vectors " + (dir / "bad.csv").string() + " -o " +
                                (dir / "b.png").string());
        CHECK(bad.exit_code == 3);
        CHECK(bad.output.find("xme estimate -o") != std::string::npos);
    }

    TEST_CASE("estimate --draw writes the pictures draw makes of its -o file") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-estimate");
        const Run run =
            run_xme("estimate " + real_clip() + " --frames 3 --range 6 --backend cpu --quiet -o " +
                    (dir / "v.npy").string() + " --draw " + (dir / "e_%d.png").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        REQUIRE(run_xme("draw " + real_clip() + " --vectors " + (dir / "v.npy").string() + " -q -o " +
                        (dir / "d_%d.png").string())
                    .exit_code == 0);
        for (const char* frame : {"1", "2"}) {
            const auto drawn = decode_pictures((dir / ("d_" + std::string(frame) + ".png")).string());
            const auto estimated = decode_pictures((dir / ("e_" + std::string(frame) + ".png")).string());
            REQUIRE((drawn.size() == 1 && estimated.size() == 1));
            CHECK(drawn.front().rgb == estimated.front().rgb);
        }
        check_refusals(
            {{"estimate " + real_clip() + " --frames 3 --backend cpu --draw " + (dir / "one.png").string(),
              "--frames 2"}});
    }

    TEST_CASE("compare --disagreement: devices that agree leave the frame unmarked") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("draw-disagreement");
        const std::string common = "compare " + real_clip() +
                                   " --start 2 --frames 2 --block 8 --range 4 --json " +
                                   (dir / "c.json").string() + " --backends cpu,reference --disagreement ";
        const Run run = run_xme(common + (dir / "d.png").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        CHECK(run.output.find("frame 3, unmarked") != std::string::npos);
        const auto luma = xme::test::clip_luma("tree.avi", 4, 0, 0, clip_width, clip_height);
        REQUIRE(luma.has_value());
        const RgbPicture picture = decode_pictures((dir / "d.png").string()).front();
        int differing = 0;
        for (int y = 0; y < clip_height; ++y)
            for (int x = 0; x < clip_width; ++x) {
                const int v = (*luma)[3].view().at(x, y);
                differing += picture.at(x, y) == Colour{v, v, v} ? 0 : 1;
            }
        CHECK(differing == 0);
        // Devices that disagree are provoked only at the scheduler's level (test_scheduler_faults.cpp):
        // no device the CLI reaches disagrees, so the red marks are not checked here.
        check_refusals({{common + (dir / "d_%d.png").string(), "name one .png file"}});
    }
#else
    TEST_CASE("draw says it needs FFmpeg in a build without it") {
        const Run run = run_xme("draw in.y4m --vectors v.csv -o out.png");
        CHECK(run.exit_code == 4);
        CHECK(run.output.find("needs FFmpeg") != std::string::npos);
    }
#endif
}
