// `xme` faced with outputs it cannot write, options that make no sense together, and devices or
// variants that do not exist: a specific message and exit code, found before any work, and
// whole frames only in what it wrote.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_helpers.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

// The shell prefix that runs xme with files limited to `blocks` 512-byte blocks, SIGXFSZ ignored:
// a write past the limit fails as it does on a full disk (dash's ulimit counts 512-byte blocks).
std::string file_size_limit(int blocks) { return "ulimit -f " + std::to_string(blocks) + "; trap '' XFSZ;"; }

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("a full disk mid-run: exit 7 naming the file and the reason, whole frames kept, JSON written") {
        const fs::path dir = scratch_dir("full-disk");
        const std::string common =
            "estimate " + real_clip() + " --frames 40 --block 8 --range 2 --backend cpu -q ";
        for (const std::string extension : {".csv", ".npy"}) {
            const fs::path vectors = dir / ("mv" + extension);
            const fs::path summary = dir / ("summary" + extension + ".json");
            const Run run = run_xme(common + "-o " + vectors.string() + " --json " + summary.string(),
                                    file_size_limit(100));
            INFO(extension, ": ", run.output);
            CHECK(run.exit_code == 7);
            CHECK(contains(run.output, "xme: error: cannot write " + vectors.string() + ": File too large"));
            CHECK_FALSE(contains(run.output, "terminate"));
            const auto report = nlohmann::json::parse(read_file(summary));
            CHECK(contains(report["error"].get<std::string>(), "File too large"));
            const int width = report["video"]["width"];
            const int height = report["video"]["height"];
            const std::size_t blocks = static_cast<std::size_t>(((width + 7) / 8) * ((height + 7) / 8));
            const std::size_t frames = report["frames"].size();
            CHECK(frames > 0);
            CHECK(frames < 39);
            const std::string written = read_file(vectors);
            CHECK(written.size() <= 100 * 512);
            if (extension == ".csv") {
                const auto lines = lines_of(written);
                CHECK(lines.size() == 1 + frames * blocks);  // the header, then whole frames only
                CHECK(written.back() == '\n');
                CHECK(lines.back().rfind(std::to_string(frames) + ",", 0) == 0);
            } else {
                CHECK(written.size() == 128 + frames * blocks * 9 * 4);
                CHECK(contains(written.substr(0, 128),
                               "'shape': (" + std::to_string(frames * blocks) + ", 9)"));
            }
        }
    }

    TEST_CASE("a full disk while writing the prediction or the residual: exit 7, whole frames kept") {
        const fs::path dir = scratch_dir("full-disk-planes");
        for (const std::string option : {"--prediction", "--residual"}) {
            for (const std::string extension : {".y4m", ".npy"}) {
                if (option == "--prediction" && extension == ".npy") continue;
                const fs::path planes = dir / ("planes" + option + extension);
                const fs::path summary = dir / ("summary" + option + extension + ".json");
                const Run run =
                    run_xme("estimate " + real_clip() + " --frames 12 --range 2 --backend cpu -q " + option +
                                " " + planes.string() + " --json " + summary.string(),
                            file_size_limit(400));
                INFO(option, " ", extension, ": ", run.output);
                CHECK(run.exit_code == 7);
                CHECK(
                    contains(run.output, "xme: error: cannot write " + planes.string() + ": File too large"));
                const auto report = nlohmann::json::parse(read_file(summary));
                const auto pixels = static_cast<std::size_t>(report["video"]["width"].get<int>()) *
                                    report["video"]["height"].get<std::size_t>();
                const std::size_t frames = report["frames"].size();
                CHECK(frames > 0);
                const std::string written = read_file(planes);
                if (extension == ".y4m") {
                    const std::size_t header = written.find('\n') + 1;
                    CHECK(written.size() == header + frames * (6 + pixels));  // "FRAME\n" and the luma
                } else {
                    CHECK(written.size() == 128 + frames * pixels * 2);
                }
            }
        }
    }

    TEST_CASE("an unknown variant is refused with the device's variants") {
        const Run estimate =
            run_xme("estimate " + real_clip() + " --frames 3 --backend cpu --variant bogus -q");
        INFO(estimate.output);
        CHECK(estimate.exit_code == 2);
        CHECK(contains(estimate.output, "xme: error: device cpu has no variant 'bogus': use one of "));
        const Run bench =
            run_xme("bench --backends cpu --variants portable,bogus --sizes 32x32 --pairs 1 --no-sad-peak");
        INFO(bench.output);
        CHECK(bench.exit_code == 2);
        CHECK(contains(bench.output,
                       "none of the chosen devices has the variant 'bogus'; their variants: cpu: "));
        CHECK_FALSE(contains(bench.output, "bench: cpu"));  // refused before any measurement
    }

    TEST_CASE("unwritable outputs and unknown devices are found before any work") {
        const fs::path dir = scratch_dir("early-checks");
        const std::string missing = (dir / "no" / "such" / "dir").string();
        const Run estimate = run_xme("estimate " + real_clip() + " --backend cpu -q -o " +
                                     (dir / "mv.csv").string() + " --json " + missing + "/summary.json");
        INFO(estimate.output);
        CHECK(estimate.exit_code == 7);
        CHECK(contains(estimate.output, "xme: error: cannot write the JSON summary " + missing +
                                            "/summary.json: No such file or directory"));
        CHECK_FALSE(fs::exists(dir / "mv.csv"));  // nothing was done
        for (const std::string option : {"--csv", "--json", "--chart"}) {
            const Run bench = run_xme("bench --backends cpu --sizes 32x32 --pairs 1 --no-sad-peak " + option +
                                      " " + missing + "/out");
            INFO(option, ": ", bench.output);
            CHECK(bench.exit_code == 7);
            CHECK(contains(bench.output, missing + "/out: No such file or directory"));
            CHECK_FALSE(contains(bench.output, "bench: cpu"));
        }
        const fs::path csv = dir / "bench.csv";
        const Run unknown = run_xme(
            "bench --backends cpu,cuda:7 --sizes 32x32 --pairs 1 --no-sad-peak --csv " + csv.string());
        INFO(unknown.output);
        CHECK((unknown.exit_code == 2 || unknown.exit_code == 5));
        CHECK(contains(unknown.output, "cuda"));
        CHECK_FALSE(contains(unknown.output, "bench: cpu"));
        CHECK_FALSE(fs::exists(csv));  // claimed, then removed again: the run never wrote it
    }

    TEST_CASE("options that cannot mean what they say are refused, or noted") {
        const fs::path dir = scratch_dir("accepted");
        const std::string clip = real_clip();
        const std::string same = (dir / "same.csv").string();
        struct Refused {
            std::string arguments;
            std::string message;
        };
        const Refused refused[] = {
            {"estimate " + clip + " --backend cpu -o " + same + " --json " + same,
             "-o " + same + " and --json " + same + " name the same file"},
            {"estimate " + clip + " --backend cpu -o ''", "-o is given an empty value"},
            {"estimate " + clip + " --backend '' -q", "--backend is given an empty value"},
            {"estimate " + clip + " --policy split --backends , -q --json " + (dir / "x.json").string(),
             "--backends ',' has an empty entry"},
            {"bench --backends , --pairs 1 --sizes 32x32", "--backends ',' has an empty entry"},
            {"compare --backends cpu,,reference " + clip, "--backends 'cpu,,reference' has an empty entry"},
            {"compare " + clip + " --frames 3 --backends cpu,cpu --json " + (dir / "c.json").string(),
             "device cpu is given twice"},
            {"bench --backends cpu,cpu --pairs 1 --sizes 32x32 --no-sad-peak", "device cpu is given twice"},
        };
        for (const auto& r : refused) {
            const Run run = run_xme(r.arguments);
            INFO(r.arguments, " -> ", run.output);
            CHECK(run.exit_code == 2);
            CHECK(contains(run.output, "xme: error: " + r.message));
        }
        CHECK_FALSE(fs::exists(same));
        const Run raw_options =
            run_xme("estimate " + clip +
                    " --frames 3 --block 16 --range 2 --backend cpu -q --size 64x48 --pix-fmt gray");
        INFO(raw_options.output);
        CHECK(raw_options.exit_code == 0);
        CHECK(contains(raw_options.output, "xme: notice: --size and --pix-fmt apply to raw video only"));
    }
}
