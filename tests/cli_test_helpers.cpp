#include "cli_test_helpers.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "test_support.hpp"
#include "xme/video.hpp"

namespace xme::test::cli {

namespace fs = std::filesystem;

Run run_xme(const std::string& arguments, const std::string& environment) {
    return run_command(environment + (environment.empty() ? "" : " ") + XME_BINARY + " " + arguments);
}

SplitRun run_xme_split(const std::string& arguments, const fs::path& dir, const std::string& feed) {
    const fs::path out = dir / "stdout.txt";
    const fs::path err = dir / "stderr.txt";
    const std::string command = (feed.empty() ? "" : feed + " | ") + XME_BINARY + " " + arguments + " > " +
                                out.string() + " 2> " + err.string();
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

Run run_command(const std::string& command) {
    Run run;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) run.output += buffer;
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

fs::path scratch_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("xme-cli-" + name + "-" + std::to_string(run_seed()));
    fs::create_directories(dir);
    return dir;
}

std::string real_clip() {
    const std::string avi = clip_path("tree.avi");
    return ffmpeg_available() ? avi : fs::path(avi).replace_extension(".y4m").string();
}

bool real_clip_missing() {
    if (fs::exists(real_clip())) return false;
    MESSAGE("skipped: ", real_clip(), " is missing");
    return true;
}

void check_refusals(const std::vector<Refusal>& refusals) {
    for (const auto& [arguments, says] : refusals) {
        const Run run = run_xme(arguments);
        INFO(arguments, " -> ", run.output);
        CHECK(run.exit_code == 2);
        CHECK(run.output.find(says) != std::string::npos);
    }
}

}  // namespace xme::test::cli
