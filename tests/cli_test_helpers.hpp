// Running the `xme` program from tests, as a user would, and reading what it wrote.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace xme::test::cli {

struct Run {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

// Runs a shell command line, its standard error joined to its output.
[[nodiscard]] Run run_command(const std::string& command);

// stdout and stderr apart, for the options that send data to stdout.
struct SplitRun {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs `FEED | xme ARGUMENTS` (FEED empty: no pipe), its outputs kept in files under `dir`.
[[nodiscard]] SplitRun run_xme_split(const std::string& arguments, const std::filesystem::path& dir,
                                     const std::string& feed = "");
[[nodiscard]] bool contains(const std::string& text, const std::string& part);
// Runs `xme ARGUMENTS` (with `environment` as "NAME=value ..." prefixed to the command line).
[[nodiscard]] Run run_xme(const std::string& arguments, const std::string& environment = "");
[[nodiscard]] std::string read_file(const std::filesystem::path& path);
[[nodiscard]] std::vector<std::string> lines_of(const std::string& text);
// A command line a user may get wrong, and the words its refusal must contain.
struct Refusal {
    std::string arguments;
    std::string says;
};
// Runs each and checks exit 2 (a bad option or value) and its words in the output.
void check_refusals(const std::vector<Refusal>& refusals);
// A fresh folder for one test's files.
[[nodiscard]] std::filesystem::path scratch_dir(const std::string& name);
// The clip to run on: tree.avi, or its .y4m stand-in where this build has no FFmpeg.
[[nodiscard]] std::string real_clip();
// True, after saying the test is skipped and why, when real_clip() is not there.
[[nodiscard]] bool real_clip_missing();

}  // namespace xme::test::cli
