// Outputs that name an input or each other are refused before any work (xme(1), WRITING
// OUTPUTS): through a symbolic link, a hard link or another spelling, in every command, with exit 2
// naming both and the input left as it was. And a failed write to standard output is exit 7.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

// A copy of the real clip to run on, which every refusal must leave byte for byte.
struct Input {
    fs::path dir;
    fs::path path;
    std::string bytes;
};

Input copy_clip(const std::string& name) {
    Input input;
    input.dir = scratch_dir(name);
    fs::remove_all(input.dir);
    fs::create_directories(input.dir);
    input.path = input.dir / ("in" + fs::path(real_clip()).extension().string());
    fs::copy_file(real_clip(), input.path);
    input.bytes = read_file(input.path);
    REQUIRE(!input.bytes.empty());
    return input;
}

// Runs the command line (in `input.dir`): exit 2, a message with each of `says`, the input unchanged.
void check_clash(const Input& input, const std::string& arguments, const std::vector<std::string>& says) {
    // In braces: a redirection in `arguments` takes xme's standard output alone, not its messages.
    const Run run = run_command("cd " + input.dir.string() + " && { " + XME_BINARY + " " + arguments + "; }");
    INFO(arguments, " -> ", run.output);
    CHECK(run.exit_code == 2);
    CHECK(contains(run.output, "xme: error: "));
    for (const std::string& part : says) CHECK(contains(run.output, part));
    CHECK(read_file(input.path) == input.bytes);
}

// estimate's outputs and the names each takes (empty: any), so that a pair shares a name both take.
struct OutputOption {
    std::string option;
    std::vector<std::string> suffixes;
};
const std::vector<OutputOption> estimate_outputs = {{"-o", {".npy", ".csv"}},
                                                    {"--json", {}},
                                                    {"--export-mvs", {".mvs.npy"}},
                                                    {"--prediction", {".y4m"}},
                                                    {"--residual", {".npy", ".y4m"}},
                                                    {"--coefficients", {".npy"}},
                                                    {"--draw", {".png"}}};

bool takes(const OutputOption& output, const std::string& suffix) {
    if (output.suffixes.empty()) return true;
    for (const std::string& own : output.suffixes) {
        if (suffix.ends_with(own)) return true;
    }
    return false;
}

std::string shared_suffix(const OutputOption& a, const OutputOption& b) {
    for (const char* suffix : {".mvs.npy", ".npy", ".y4m", ".csv", ".png"}) {
        if (takes(a, suffix) && takes(b, suffix)) return suffix;
    }
    return a.suffixes.front();
}

// One pair (--draw's one picture), every output allowed (--coefficients needs --transform).
const std::string estimate_options = " --frames 2 --backend cpu --range 4 --transform matrix -q ";

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("an output that is the input, through a link, a hard link or another spelling, is refused") {
        if (real_clip_missing()) return;
        const Input input = copy_clip("clash_input");
        const std::string in = input.path.filename().string();
        const fs::path link = input.dir / ("link" + input.path.extension().string());
        const fs::path hard = input.dir / ("hard" + input.path.extension().string());
        fs::create_symlink(in, link);
        fs::create_hard_link(input.path, hard);
        fs::create_directories(input.dir / "sub");
        for (const OutputOption& output : estimate_outputs) {
            for (const std::string& name : {link.string(), hard.string(), "./" + in, "sub/../" + in}) {
                check_clash(input, "estimate " + in + estimate_options + output.option + " " + name,
                            {output.option + " " + name + " is the input video (" + in + ")"});
            }
            check_clash(input, "estimate " + in + estimate_options + output.option + " " + in,
                        {output.option + " " + in + " is the input video: "});
        }
        // A link to the folder, and the input given as the link.
        fs::create_directory_symlink(input.dir, input.dir / "again");
        check_clash(input, "estimate " + link.string() + estimate_options + "--json again/" + in,
                    {"--json again/" + in + " is the input video"});
        // Standard input redirected from the file an output names.
        check_clash(input, "estimate -" + estimate_options + "--json " + in + " < " + in,
                    {"--json " + in + " is the input video (standard input)"});
    }

    TEST_CASE("every pair of estimate's outputs naming one file is refused before any file is made") {
        if (real_clip_missing()) return;
        const Input input = copy_clip("clash_pairs");
        for (std::size_t i = 0; i < estimate_outputs.size(); ++i) {
            for (std::size_t j = i + 1; j < estimate_outputs.size(); ++j) {
                const OutputOption& a = estimate_outputs[i];
                const OutputOption& b = estimate_outputs[j];
                const std::string name = "s" + shared_suffix(a, b);
                check_clash(
                    input,
                    "estimate in" + input.path.extension().string() + estimate_options + a.option + " " +
                        name + " " + b.option + " ./" + name,
                    {a.option + " " + name + " and " + b.option + " ./" + name + " name the same file"});
                CHECK_FALSE(fs::exists(input.dir / name));
            }
        }
        // Two names of one existing file: a hard link, and a link left dangling (writing creates its target).
        const std::string in = input.path.filename().string();
        fs::copy_file(input.path, input.dir / "old.npy");
        fs::create_hard_link(input.dir / "old.npy", input.dir / "other.npy");
        const std::string old_bytes = read_file(input.dir / "old.npy");
        check_clash(input, "estimate " + in + estimate_options + "-o old.npy --residual other.npy",
                    {"-o old.npy and --residual other.npy name the same file"});
        CHECK(read_file(input.dir / "old.npy") == old_bytes);
        fs::create_symlink("target.csv", input.dir / "dangling.csv");
        check_clash(input, "estimate " + in + estimate_options + "-o dangling.csv --json target.csv",
                    {"-o dangling.csv and --json target.csv name the same file"});
        CHECK_FALSE(fs::exists(input.dir / "target.csv"));
    }

    TEST_CASE("compare, bench and draw refuse an output on an input, and two outputs on one file") {
        if (real_clip_missing()) return;
        const Input input = copy_clip("clash_commands");
        const std::string in = input.path.filename().string();
        const std::string link = "link" + input.path.extension().string();
        fs::create_symlink(in, input.dir / link);
        check_clash(input, "compare " + in + " --backends cpu,reference --frames 2 --range 2 --json " + link,
                    {"--json " + link + " is the input video (" + in + ")"});
        check_clash(input,
                    "compare " + in +
                        " --backends cpu,reference --frames 2 --range 2 --json c.json "
                        "--disagreement ./c.json",
                    {"--json c.json and --disagreement ./c.json name the same file"});
        check_clash(input, "compare " + in + " --backends cpu,reference --frames 2 --disagreement " + in,
                    {"--disagreement " + in + " is the input video"});
        const std::string bench = "bench " + in + " --backends cpu --pairs 1 --no-sad-peak ";
        check_clash(input, bench + "--csv " + in, {"--csv " + in + " is the input video"});
        check_clash(input, bench + "--csv ./" + in, {"--csv ./" + in + " is the input video (" + in + ")"});
        check_clash(input, bench + "--csv t.csv --json t.csv",
                    {"--csv t.csv and --json t.csv name the same"});
        check_clash(input, bench + "--json b.json --chart ./b.json",
                    {"--json b.json and --chart ./b.json name the same"});

        const Run estimated = run_command("cd " + input.dir.string() + " && " + XME_BINARY + " estimate " +
                                          in + " --frames 2 --backend cpu --range 2 -q -o v.csv");
        INFO(estimated.output);
        REQUIRE(estimated.exit_code == 0);
        const std::string vectors = read_file(input.dir / "v.csv");
        check_clash(input, "draw " + in + " --vectors v.csv -o " + in, {"-o " + in + " is the input video"});
        check_clash(input, "draw " + in + " --vectors v.csv -o " + link,
                    {"-o " + link + " is the input video (" + in + ")"});
        check_clash(input, "draw " + in + " --vectors v.csv -o ./v.csv",
                    {"-o ./v.csv is the --vectors file (v.csv)"});
        CHECK(read_file(input.dir / "v.csv") == vectors);
    }

    TEST_CASE("standard output named twice is refused, however it is spelled") {
        if (real_clip_missing()) return;
        const Input input = copy_clip("clash_stdout");
        const std::string in = input.path.string();
        check_clash(input, "estimate " + in + estimate_options + "-o - --json -",
                    {"-o - and --json - would both write to standard output"});
        check_clash(input, "compare " + in + " --backends cpu,reference --frames 2 -o - --json -",
                    {"-o - and --json - would both write to standard output"});
        // /dev/stdout is the file standard output is redirected to.
        check_clash(input, "estimate " + in + estimate_options + "-o - --json /dev/stdout > out.txt",
                    {"-o - (standard output) and --json /dev/stdout name the same file"});
        // Appended to: the shell leaves the file whole for xme to refuse.
        check_clash(input, "estimate " + in + estimate_options + "-o - >> " + in,
                    {"-o - (standard output) is the input video"});
    }

    TEST_CASE("a failed write to standard output is exit 7 with a message, as a file's is") {
        if (real_clip_missing()) return;
        const std::string clip = real_clip();
        const std::vector<std::string> commands = {
            "estimate " + clip + " --frames 2 --backend cpu --range 2",
            "bench --backends cpu --sizes 32x32 --pairs 1 --no-sad-peak",
            "devices",
            "version",
            "--version",
            "--help",
            "estimate --help",
        };
        for (const std::string& arguments : commands) {
            // The braces send only xme's standard output to the full device; its messages stay with us.
            const Run run = run_command("{ " + std::string(XME_BINARY) + " " + arguments + " > /dev/full; }");
            INFO(arguments, " -> ", run.output);
            CHECK(run.exit_code == 7);
            // With the reason where stdio still has it: CLI11 flushes its help itself, and stdio drops
            // what it could not write.
            CHECK(contains(run.output, "xme: error: cannot write to standard output"));
        }
    }
}
