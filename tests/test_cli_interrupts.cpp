// `xme estimate` interrupted (SIGINT, SIGTERM) at random times and filling a disk for real, writing
// every kind of output: each path holds its previous content or a whole file, no temporary file is
// left beside it, all outputs of a run hold the same pairs, and the JSON summary is absent or says how
// the run ended (xme(1), SIGNALS). tools/interrupt_check.sh runs 200 of each.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

const std::string previous_content = "previous run\n";

struct Ending {
    int exit_code = -1;  // -1 when killed
    int signal = 0;      // the signal that ended it, 0 when it exited
};

// Runs xme with `arguments` in `dir` (stdout and stderr to files there is no need for: /dev/null),
// sending `signal` after `delay` unless it ended before.
Ending run_and_signal(const std::vector<std::string>& arguments, const fs::path& dir, int signal,
                      std::chrono::microseconds delay) {
    // Built before fork(): the child of a process with threads calls only async-signal-safe functions.
    std::vector<char*> argv{const_cast<char*>(XME_BINARY)};
    for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    const std::string dir_text = dir.string();
    const char* dir_name = dir_text.c_str();
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The test program's own handlers and mask are not the user's shell's.
        struct sigaction default_action {};
        default_action.sa_handler = SIG_DFL;
        sigaction(SIGINT, &default_action, nullptr);
        sigaction(SIGTERM, &default_action, nullptr);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        if (chdir(dir_name) != 0) _exit(126);
        const int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execv(XME_BINARY, argv.data());
        _exit(127);
    }
    if (signal != 0) {
        std::this_thread::sleep_for(delay);
        kill(child, signal);  // fails harmlessly when it has ended (it is not reaped yet)
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    if (WIFSIGNALED(status)) return {-1, WTERMSIG(status)};
    return {WEXITSTATUS(status), 0};
}

// An NPY file's shape and the bytes before its data; nullopt when its header is not whole.
struct NpyShape {
    std::vector<std::int64_t> shape;
    std::size_t data_offset = 0;
};
std::optional<NpyShape> npy_shape(const std::string& bytes) {
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return std::nullopt;
    const std::size_t length = static_cast<unsigned char>(bytes[8]) |
                               (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    if (bytes.size() < 10 + length) return std::nullopt;
    const std::string header = bytes.substr(10, length);
    const std::size_t at = header.find("'shape': (");
    if (at == std::string::npos) return std::nullopt;
    NpyShape result;
    result.data_offset = 10 + length;
    for (std::size_t i = at + 10; i < header.size() && header[i] != ')';) {
        if (std::isdigit(static_cast<unsigned char>(header[i])) == 0) {
            ++i;
            continue;
        }
        std::size_t used = 0;
        result.shape.push_back(std::stoll(header.substr(i), &used));
        i += used;
    }
    return result;
}

// What the files of one run hold: pairs per output (nullopt: not whole), outputs kept as they were.
struct Outputs {
    std::map<std::string, std::optional<std::int64_t>> pairs;
    std::vector<std::string> kept;   // the previous content, or absent
    std::vector<std::string> stale;  // of kept: the previous content
    std::optional<nlohmann::json> summary;
    std::vector<std::string> problems;
};

Outputs read_outputs(const fs::path& dir, int width, int height) {
    Outputs found;
    auto problem = [&](const std::string& text) { found.problems.push_back(text); };
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().filename().string().find(".xme-") != std::string::npos)
            problem("a temporary file is left: " + entry.path().filename().string());
    }
    auto single = [&](const std::string& name) -> std::optional<std::string> {
        if (!fs::exists(dir / name)) {
            found.kept.push_back(name);
            return std::nullopt;
        }
        std::string bytes = read_file(dir / name);
        if (bytes == previous_content) {
            found.kept.push_back(name);
            found.stale.push_back(name);
            return std::nullopt;
        }
        return bytes;
    };
    if (const auto csv = single("v.csv")) {
        const auto lines = lines_of(*csv);
        std::map<std::int64_t, int> rows;
        bool whole = !csv->empty() && csv->back() == '\n' && !lines.empty() &&
                     lines.front().rfind("frame,x,y", 0) == 0;
        for (std::size_t i = 1; whole && i < lines.size(); ++i) {
            whole = std::count(lines[i].begin(), lines[i].end(), ',') == 8;
            if (whole) ++rows[std::stoll(lines[i])];
        }
        std::set<int> per_frame;
        for (const auto& [frame, count] : rows) per_frame.insert(count);
        whole = whole && per_frame.size() <= 1;
        if (!whole)
            problem("v.csv is cut: it ends '" + csv->substr(csv->size() > 40 ? csv->size() - 40 : 0) + "'");
        found.pairs["v.csv"] =
            whole ? std::optional<std::int64_t>(static_cast<std::int64_t>(rows.size())) : std::nullopt;
    }
    for (const std::string name : {"r.npy"}) {
        const auto bytes = single(name);
        if (!bytes) continue;
        const auto shape = npy_shape(*bytes);
        const bool whole =
            shape && shape->shape.size() == 3 && shape->shape[1] == height && shape->shape[2] == width &&
            bytes->size() == shape->data_offset + static_cast<std::size_t>(shape->shape[0]) *
                                                      static_cast<std::size_t>(width * height) * 2;
        if (!whole)
            problem(name + ": its header's shape is not its data's (" + std::to_string(bytes->size()) +
                    " bytes)");
        found.pairs[name] = whole ? std::optional<std::int64_t>(shape->shape[0]) : std::nullopt;
    }
    if (const auto mvs = single("m.mvs.npy")) {
        constexpr std::size_t record = 36;  // xme/mvs_io.hpp's fields, packed
        const auto shape = npy_shape(*mvs);
        const bool whole =
            shape && shape->shape.size() == 1 &&
            mvs->size() == shape->data_offset + static_cast<std::size_t>(shape->shape[0]) * record;
        std::set<std::int32_t> frames;
        for (std::size_t at = whole ? shape->data_offset : mvs->size(); at + record <= mvs->size();
             at += record) {
            std::int32_t frame = 0;
            std::memcpy(&frame, mvs->data() + at, 4);
            frames.insert(frame);
        }
        if (!whole) problem("m.mvs.npy: its header's shape is not its data's");
        found.pairs["m.mvs.npy"] =
            whole ? std::optional<std::int64_t>(static_cast<std::int64_t>(frames.size())) : std::nullopt;
    }
    if (const auto y4m = single("p.y4m")) {
        const std::size_t header = y4m->find('\n') + 1;
        const std::size_t frame = 6 + static_cast<std::size_t>(width * height);
        bool whole = y4m->rfind("YUV4MPEG2 ", 0) == 0 && header > 0 && (y4m->size() - header) % frame == 0;
        for (std::size_t at = header; whole && at < y4m->size(); at += frame)
            whole = y4m->compare(at, 6, "FRAME\n") == 0;
        if (!whole) problem("p.y4m is not whole frames");
        found.pairs["p.y4m"] =
            whole ? std::optional<std::int64_t>(static_cast<std::int64_t>((y4m->size() - header) / frame))
                  : std::nullopt;
    }
    std::int64_t pictures = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("d_") || !name.ends_with(".png")) continue;
        const std::string bytes = read_file(entry.path());
        if (bytes == previous_content) continue;
        static const std::string iend("IEND\xae\x42\x60\x82", 8);
        if (bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0 && bytes.ends_with(iend)) {
            ++pictures;
        } else {
            problem(name + " is not a whole PNG (no IEND)");
        }
    }
    found.pairs["d_%03d.png"] = pictures;
    if (const auto json = single("s.json")) {
        found.summary = nlohmann::json::parse(*json, nullptr, false);
        if (found.summary->is_discarded()) {
            problem("s.json is not JSON");
            found.summary.reset();
        } else {
            found.pairs["s.json"] = static_cast<std::int64_t>((*found.summary)["frames"].size());
        }
    }
    return found;
}

// Checks one run's files: `pairs` is how many the whole run has, `signal` the one sent (0: none).
void check_outputs(const Outputs& found, const Ending& ending, int signal, std::int64_t pairs) {
    for (const auto& problem : found.problems) FAIL_CHECK(problem);
    std::set<std::int64_t> held;
    std::string counts;
    for (const auto& [name, count] : found.pairs) {
        if (count) held.insert(*count);
        counts += name + ": " + (count ? std::to_string(*count) : "cut") + "  ";
    }
    INFO("pairs held: ", counts);
    CHECK(held.size() <= 1);  // every output holds the same pairs
    const std::int64_t kept_pairs = held.empty() ? 0 : *held.rbegin();
    const bool killed = ending.exit_code < 0;
    if (killed) {
        CHECK(ending.signal == signal);
    } else if (ending.exit_code == 0) {
        CHECK(kept_pairs == pairs);
    } else {
        CHECK(ending.exit_code == 7);  // a full disk
    }
    // All the single files new, or none (a run that could not start: a full disk at its first byte).
    const std::size_t single_files = 5;  // v.csv, r.npy, m.mvs.npy, p.y4m, s.json
    const std::size_t kept = found.kept.size();
    if (kept > 0 && kept < single_files) {
        // The summary alone may be missing (it could not be written, or the run was killed as it was);
        // never the previous run's beside new files.
        const bool summary_only = kept == 1 && found.kept.front() == "s.json" && found.stale.empty();
        CHECK_MESSAGE((summary_only || (ending.exit_code == 7 && kept_pairs == 0)),
                      "some outputs are new and some as they were");
        CHECK_MESSAGE(std::find(found.stale.begin(), found.stale.end(), "s.json") == found.stale.end(),
                      "the previous run's summary beside new files");
    }
    if (found.summary) {
        const auto& summary = *found.summary;
        const bool complete =
            static_cast<std::int64_t>(summary["frames"].size()) == pairs && summary["error"].is_null();
        if (!summary["interrupted"].is_null()) {
            CHECK(summary["interrupted"] == (signal == SIGINT ? "SIGINT" : "SIGTERM"));
        } else {
            CHECK((complete || !summary["error"].is_null()));  // a summary says how the run ended
        }
        if (ending.exit_code == 7) CHECK(!summary["error"].is_null());
    }
}

// `estimate` writing every kind of output: vectors, prediction, residual, exported vectors, summary,
// pictures.
std::vector<std::string> every_output(const std::string& clip, int frames) {
    std::vector<std::string> arguments{"estimate", clip, "--frames", std::to_string(frames)};
    std::istringstream rest(
        "--range 2 --backend cpu -q --read-threads 0 -o v.csv --prediction p.y4m --residual r.npy "
        "--export-mvs m.mvs.npy --json s.json --draw d_%03d.png");
    for (std::string word; rest >> word;) arguments.push_back(word);
    return arguments;
}

void write_previous(const fs::path& dir) {
    for (const std::string name : {"v.csv", "r.npy", "m.mvs.npy", "p.y4m", "s.json", "d_007.png"}) {
        std::ofstream(dir / name) << previous_content;
    }
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("SIGINT and SIGTERM at random times: every output whole, all agreeing, the summary says so") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("cli/interrupts");
        const int frames = 16;
        const fs::path root = scratch_dir("interrupts");
        // A whole run first: its pairs, its frame size and how long it takes.
        const fs::path whole = root / "whole";
        fs::create_directories(whole);
        const auto start = std::chrono::steady_clock::now();
        const Ending completed = run_and_signal(every_output(real_clip(), frames), whole, 0, {});
        const auto took =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
        REQUIRE(completed.exit_code == 0);
        const auto summary = nlohmann::json::parse(read_file(whole / "s.json"));
        const int width = summary["video"]["width"];
        const int height = summary["video"]["height"];
        const auto pairs = static_cast<std::int64_t>(summary["frames"].size());
        check_outputs(read_outputs(whole, width, height), completed, 0, pairs);
        std::map<std::string, int> endings;
        for (int run = 0; run < 20; ++run) {
            const fs::path dir = root / ("run" + std::to_string(run));
            fs::create_directories(dir);
            const bool previous = (rng() & 1) != 0;
            if (previous) write_previous(dir);
            const int signal = (rng() & 1) != 0 ? SIGINT : SIGTERM;
            const auto delay = std::chrono::microseconds(
                std::uniform_int_distribution<std::int64_t>(0, took.count() * 11 / 10)(rng));
            const Ending ending = run_and_signal(every_output(real_clip(), frames), dir, signal, delay);
            INFO("run ", run, ": ", signal == SIGINT ? "SIGINT" : "SIGTERM", " after ", delay.count(),
                 " us, previous content ", previous, "; exit ", ending.exit_code, " signal ", ending.signal,
                 " (XME_TEST_SEED=", xme::test::run_seed(), " replays it)");
            check_outputs(read_outputs(dir, width, height), ending, signal, pairs);
            ++endings[ending.exit_code == 0 ? "complete" : "by the signal"];
        }
        MESSAGE("20 interrupted runs: ", endings["by the signal"], " ended by the signal, ",
                endings["complete"], " complete before it");
        fs::remove_all(root);
    }

    TEST_CASE("SPEC §14's job interrupted at random times: its outputs agree, the summary says so") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("cli/interrupts/references");
        const fs::path root = scratch_dir("interrupts_references");
        const std::vector<std::string> arguments{
            "estimate", real_clip(), "--frames",     "60",        "--refs=-1,+1", "--algo", "fs+qpel",
            "--qp",     "28",        "-q",           "--backend", "cpu",          "-o",     "v.csv",
            "--json",   "s.json",    "--export-mvs", "m.mvs.npy", "--prediction", "p.y4m"};
        const fs::path whole = root / "whole";
        fs::create_directories(whole);
        const auto start = std::chrono::steady_clock::now();
        REQUIRE(run_and_signal(arguments, whole, 0, {}).exit_code == 0);
        const auto took =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
        const auto complete = nlohmann::json::parse(read_file(whole / "s.json"));
        CHECK(complete["interrupted"].is_null());
        const auto all_frames = static_cast<std::int64_t>(complete["frames"].size());
        std::map<std::string, int> endings;
        for (int run = 0; run < 10; ++run) {
            const fs::path dir = root / ("run" + std::to_string(run));
            fs::create_directories(dir);
            const int signal = (rng() & 1) != 0 ? SIGINT : SIGTERM;
            const auto delay = std::chrono::microseconds(
                std::uniform_int_distribution<std::int64_t>(0, took.count() * 11 / 10)(rng));
            const Ending ending = run_and_signal(arguments, dir, signal, delay);
            INFO("run ", run, ": signal ", signal, " after ", delay.count(), " us; exit ", ending.exit_code,
                 " signal ", ending.signal, " (XME_TEST_SEED=", xme::test::run_seed(), " replays it)");
            for (const auto& entry : fs::directory_iterator(dir))  // no temporary file is left
                CHECK(entry.path().filename().string().find(".xme-") == std::string::npos);
            // Interrupted, xme ends by the signal itself (its shell sees 128 + n), its outputs whole.
            const bool by_signal = ending.exit_code == -1;
            if (by_signal) {
                CHECK(ending.signal == signal);
            } else {
                CHECK(ending.exit_code == 0);
            }
            if (!fs::exists(dir / "s.json")) {  // before the job began: nothing written
                CHECK(by_signal);
                CHECK(!fs::exists(dir / "v.csv"));
                ++endings["before the job"];
                continue;
            }
            const auto summary = nlohmann::json::parse(read_file(dir / "s.json"));
            const auto frames = static_cast<std::int64_t>(summary["frames"].size());
            if (summary["interrupted"].is_null()) {
                CHECK(frames == all_frames);
                ++endings["complete"];
            } else {
                CHECK(by_signal);
                CHECK(summary["interrupted"] == (signal == SIGINT ? "SIGINT" : "SIGTERM"));
                CHECK(frames <= all_frames);
                ++endings["by the signal"];
            }
            // The rows, the vectors and the predictions hold the frames the summary counts.
            std::set<std::string> row_frames;
            for (const auto& line : lines_of(read_file(dir / "v.csv"))) {
                if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) != 0)
                    row_frames.insert(line.substr(0, line.find(',')));
            }
            CHECK(static_cast<std::int64_t>(row_frames.size()) == frames);
            const std::string predictions = read_file(dir / "p.y4m");  // gray: "FRAME\n" and W x H a picture
            const std::size_t picture = 6 + static_cast<std::size_t>(complete["video"]["width"].get<int>()) *
                                                complete["video"]["height"].get<std::size_t>();
            const std::size_t header = predictions.find('\n') + 1;
            CHECK((predictions.size() - header) % picture == 0);
            CHECK(static_cast<std::int64_t>((predictions.size() - header) / picture) == frames);
        }
        MESSAGE("10 interrupted §14 runs: ", endings["by the signal"], " ended by the signal, ",
                endings["complete"], " complete before it, ", endings["before the job"],
                " before the job began");
        fs::remove_all(root);
    }

    TEST_CASE("a disk that fills up during the run: exit 7, every output whole and agreeing") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("cli/full tmpfs");
        const fs::path root = scratch_dir("full-tmpfs");
        // The clip's frame size, from a run of one pair.
        REQUIRE(run_xme("estimate " + real_clip() + " --frames 2 --range 2 --backend cpu -q --json " +
                        (root / "size.json").string())
                    .exit_code == 0);
        const auto size = nlohmann::json::parse(read_file(root / "size.json"));
        const int width = size["video"]["width"];
        const int height = size["video"]["height"];
        const fs::path disk = root / "disk";
        fs::create_directories(disk);
        // A real file system of 1500 KiB where this test may mount one (root); else each file limited
        // to 1500 KiB (RLIMIT_FSIZE, as the other full-disk tests), a limit per file, not for the run.
        const bool mounted =
            geteuid() == 0 &&
            std::system(
                ("mount -t tmpfs -o size=1500k xme-test " + disk.string() + " 2>/dev/null").c_str()) == 0;
        if (!mounted) {
            MESSAGE(
                "no tmpfs could be mounted (not root, or no permission): each file is limited to 1500 KiB "
                "with RLIMIT_FSIZE instead, and no signal is sent");
        }
        const int frames = 16;
        for (int run = 0; run < 4; ++run) {
            for (const auto& entry : fs::directory_iterator(disk)) fs::remove_all(entry.path());
            if (run % 2 == 1) write_previous(disk);
            const int signal = mounted && run >= 2 ? ((rng() & 1) != 0 ? SIGINT : SIGTERM) : 0;
            const auto delay =
                std::chrono::microseconds(std::uniform_int_distribution<std::int64_t>(0, 400000)(rng));
            Ending ending;
            if (mounted) {
                ending = run_and_signal(every_output(real_clip(), frames), disk, signal, delay);
            } else {
                std::string command = "cd " + disk.string() + " && ulimit -f 3000 && trap '' XFSZ && exec " +
                                      std::string(XME_BINARY);
                for (const auto& argument : every_output(real_clip(), frames))
                    command += " '" + argument + "'";
                ending = {run_command(command).exit_code, 0};
            }
            INFO("run ", run,
                 (signal != 0 ? " with a signal after " + std::to_string(delay.count()) + " us" : ""),
                 ": exit ", ending.exit_code, " signal ", ending.signal);
            CHECK((ending.exit_code == 7 || (signal != 0 && ending.exit_code < 0)));
            check_outputs(read_outputs(disk, width, height), ending, signal, frames - 1);
        }
        if (mounted) CHECK(std::system(("umount " + disk.string()).c_str()) == 0);
        fs::remove_all(root);
    }
}
