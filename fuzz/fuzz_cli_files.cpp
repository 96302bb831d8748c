// The whole command line on real files (issue "nothing a user types destroys their data"): each input
// is a short sequence of tokens (a command, an input file, then options, file names and values from
// the vocabulary below) run in-process as `xme` runs it, in a scratch folder holding a small Y4M video,
// a raw video, a vectors file and links to them. After every run, whatever it printed or returned:
//  - no file the command read (its input video, draw's vectors) has changed;
//  - every other file in the folder is whole for its content (a CSV of whole rows, an NPY whose shape
//    matches its size, a Y4M of whole frames, a PNG ending in IEND, a .flo of its size, JSON that
//    parses, text ending in a newline), and no temporary file is left behind.
// The fuzz preset builds the reference backend only (no FFmpeg): runs stay small and deterministic.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fuzz_support.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::array<const char*, 3> commands{"estimate", "compare", "draw"};
constexpr std::array<const char*, 3> videos{"in.y4m", "raw.yuv", "./in.y4m"};

// Names the runs may write (besides the inputs' own names, which the vocabulary also offers).
const std::vector<std::string>& vocabulary() {
    static const std::vector<std::string> words{
        // files
        "in.y4m", "./in.y4m", "link.y4m", "hard.y4m", "raw.yuv", "vectors.csv", "out.csv", "out.npy", "p.y4m",
        "r.npy", "c.npy", "s.json", "m.mvs.npy", "d_%02d.png", "d.png", "f.flo", "-", "no/such/dir/x.csv",
        // options
        "-o", "--json", "--prediction", "--residual", "--coefficients", "--export-mvs", "--draw", "--vectors",
        "--format", "--frames", "--start", "--range", "--block", "--algo", "--size", "--transform",
        "--backend", "--backends", "--style", "-q", "--qp", "--lambda", "--predictor", "--policy",
        "--pix-fmt",
        // values
        "csv", "npy", "0", "1", "2", "3", "4", "8", "16", "-1", "", "32x32", "48x32", "fs", "tz", "fs+qpel",
        "hex", "reference", "reference,reference", "temporal", "matrix", "flow", "arrows", "mirror", "gray",
        "yuv420p"};
    return words;
}

struct Scratch {
    std::string dir;
    std::map<std::string, std::string> inputs;  // name -> content, written afresh when changed
};

std::string frame_bytes(int width, int height, int frame) {
    std::string bytes(static_cast<std::size_t>(width * height * 3 / 2), '\0');
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {  // a moving ramp with texture: vectors that are not all zero
            bytes[static_cast<std::size_t>(y * width + x)] =
                static_cast<char>((x * 7 + y * 3 + frame * 5 + (x * y) % 11) & 0xFF);
        }
    }
    for (std::size_t i = static_cast<std::size_t>(width * height); i < bytes.size(); ++i) bytes[i] = '\x80';
    return bytes;
}

void write_file(const std::string& path, const std::string& bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
        xme::fuzz::finding("cannot set up the scratch file " + path);
    }
    ::close(fd);
}

// Runs in `dir` (the vocabulary's names are relative to it) and goes back: libFuzzer keeps its corpus
// and findings at paths relative to where it started.
int run_xme(const std::string& dir, std::vector<std::string> arguments) {
    const fs::path started = fs::current_path();
    fs::current_path(dir);
    struct Back {
        fs::path to;
        ~Back() { fs::current_path(to); }
    } back{started};
    arguments.insert(arguments.begin(), "xme");
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    return xme::cli::run_command_line(static_cast<int>(argv.size()), argv.data());
}

// Puts the inputs back as they were made (a run may rightly overwrite a file it did not read).
void restore_inputs(const Scratch& scratch) {
    for (const auto& [name, content] : scratch.inputs) {
        const std::string path = scratch.dir + "/" + name;
        std::error_code ignored;
        if (fs::is_regular_file(path, ignored) && xme::fuzz::read_whole_file(path) == content) continue;
        fs::remove(path, ignored);
        write_file(path, content);
    }
    const std::string video = scratch.dir + "/in.y4m";
    for (const char* link : {"link.y4m", "hard.y4m"}) {
        std::error_code ignored;
        fs::remove(scratch.dir + "/" + link, ignored);
    }
    fs::create_symlink("in.y4m", scratch.dir + "/link.y4m");
    fs::create_hard_link(video, scratch.dir + "/hard.y4m");
}

const Scratch& scratch() {
    static const Scratch made = [] {
        Scratch s;
        s.dir = xme::fuzz::scratch_directory() + "/cli_files";
        fs::create_directories(s.dir);
        std::string y4m = "YUV4MPEG2 W48 H32 F25:1 Ip A1:1 C420jpeg\n";
        for (int frame = 0; frame < 4; ++frame) y4m += "FRAME\n" + frame_bytes(48, 32, frame);
        s.inputs["in.y4m"] = y4m;
        std::string raw;
        for (int frame = 0; frame < 3; ++frame) raw += frame_bytes(32, 32, frame);
        s.inputs["raw.yuv"] = raw;
        restore_inputs(s);
        // The vectors file draw reads: estimate's own CSV of the video.
        if (run_xme(s.dir, {"estimate", "in.y4m", "-q", "--range", "4", "-o", "vectors.csv"}) != 0) {
            xme::fuzz::finding("the set-up estimate failed");
        }
        s.inputs["vectors.csv"] = xme::fuzz::read_whole_file(s.dir + "/vectors.csv");
        // Runs print tables and fields: out of the fuzzer's way; nothing reads standard input.
        const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        ::dup2(null, STDIN_FILENO);
        ::dup2(null, STDOUT_FILENO);
        return s;
    }();
    return made;
}

std::uint64_t identity_of(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return 0;
    return (static_cast<std::uint64_t>(info.st_dev) << 40) ^ static_cast<std::uint64_t>(info.st_ino);
}

bool ends_with(const std::string& text, std::string_view tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::size_t npy_item_bytes(const std::string& descr) {
    static const std::regex type(R"('[<>|=]?[iuf](\d+)')");
    std::size_t bytes = 0;
    for (auto it = std::sregex_iterator(descr.begin(), descr.end(), type); it != std::sregex_iterator();
         ++it) {
        bytes += std::stoul((*it)[1].str());
    }
    return bytes;
}

// Why `content` (of file `name`) is not a whole file of its kind; empty when it is.
std::string cut_reason(const std::string& name, const std::string& content) {
    if (content.starts_with("\x93NUMPY")) {
        if (content.size() < 10) return "an NPY shorter than its prelude";
        const std::size_t header =
            10 + (static_cast<unsigned char>(content[8]) |
                  static_cast<std::size_t>(static_cast<unsigned char>(content[9])) << 8);
        if (content.size() < header) return "an NPY shorter than its header";
        const std::string dict = content.substr(10, header - 10);
        static const std::regex shape(R"('shape': \(([0-9, ]*)\))");
        static const std::regex descr(R"('descr': (\[.*\]|'[^']*'))");
        std::smatch s, d;
        if (!std::regex_search(dict, s, shape) || !std::regex_search(dict, d, descr))
            return "an NPY header unread";
        std::size_t count = 1;
        static const std::regex number(R"(\d+)");
        const std::string dims = s[1].str();
        for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator();
             ++it) {
            count *= std::stoul(it->str());
        }
        const std::size_t expected = header + count * npy_item_bytes(d[1].str());
        if (content.size() != expected) {
            return "an NPY of " + std::to_string(content.size()) + " bytes whose header says " +
                   std::to_string(expected);
        }
        return {};
    }
    if (content.starts_with("\x89PNG")) {
        return ends_with(content, std::string_view("IEND\xAE\x42\x60\x82", 8)) ? "" : "a PNG without IEND";
    }
    if (content.starts_with("PIEH")) {
        if (content.size() < 12) return "a .flo shorter than its header";
        std::uint32_t width = 0, height = 0;
        std::memcpy(&width, content.data() + 4, 4);
        std::memcpy(&height, content.data() + 8, 4);
        return content.size() == 12 + std::size_t{width} * height * 8 ? "" : "a .flo not of its size";
    }
    if (content.starts_with("YUV4MPEG2 ")) {
        const std::size_t end = content.find('\n');
        if (end == std::string::npos) return "a Y4M header without its end";
        const std::string header = content.substr(0, end);
        static const std::regex w(R"( W(\d+))"), h(R"( H(\d+))"), c(R"( C(\w+))");
        std::smatch mw, mh, mc;
        if (!std::regex_search(header, mw, w) || !std::regex_search(header, mh, h))
            return "a Y4M header unread";
        const std::size_t width = std::stoul(mw[1].str()), height = std::stoul(mh[1].str());
        const std::string chroma = std::regex_search(header, mc, c) ? mc[1].str() : "420jpeg";
        const std::size_t cw = (width + 1) / 2, ch = (height + 1) / 2;
        const std::size_t frame = chroma == "mono"            ? width * height
                                  : chroma.starts_with("444") ? 3 * width * height
                                  : chroma.starts_with("422") ? width * height + 2 * cw * height
                                                              : width * height + 2 * cw * ch;
        for (std::size_t at = end + 1; at < content.size();) {
            if (content.compare(at, 5, "FRAME") != 0) return "a Y4M frame without its FRAME";
            const std::size_t line = content.find('\n', at);
            if (line == std::string::npos || line + 1 + frame > content.size())
                return "a Y4M with a cut frame";
            at = line + 1 + frame;
        }
        return {};
    }
    if (content.empty()) return {};
    if (content.front() == '{' || content.front() == '[') {
        return nlohmann::json::accept(content) ? "" : "JSON that does not parse";
    }
    if (content.back() != '\n') return "text without its last newline";
    if (ends_with(name, ".csv")) {  // a field's rows: as many columns as its header
        const auto columns = [](std::string_view line) { return std::count(line.begin(), line.end(), ','); };
        const std::size_t first = content.find('\n');
        const auto expected = columns(std::string_view(content).substr(0, first));
        for (std::size_t at = first + 1; at < content.size();) {
            const std::size_t next = content.find('\n', at);
            if (columns(std::string_view(content).substr(at, next - at)) != expected)
                return "a CSV with a cut row";
            at = next + 1;
        }
    }
    return {};
}

bool known_name(const std::string& name) {
    static const std::regex drawn(R"(d_\d+\.png)");
    for (const auto& word : vocabulary()) {
        if (name == word || "./" + name == word) return true;
    }
    return std::regex_match(name, drawn);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 24) return 0;  // a command line, not a file
    const Scratch& s = scratch();
    restore_inputs(s);
    std::vector<std::string> arguments{commands[data[0] % commands.size()], videos[data[1] % videos.size()]};
    for (std::size_t i = 2; i < size; ++i) arguments.push_back(vocabulary()[data[i] % vocabulary().size()]);
    if (arguments[0] == "draw") arguments.insert(arguments.begin() + 2, {"--vectors", "vectors.csv"});
    arguments.push_back("-q");  // no progress lines

    // What the command reads: its video and draw's vectors, by identity (links included).
    std::vector<std::uint64_t> read;
    for (std::size_t i = 1; i < arguments.size(); ++i) {
        if (i == 1 || arguments[i - 1] == "--vectors")
            read.push_back(identity_of(s.dir + "/" + arguments[i]));
    }
    // By name, before the run: an output renamed over an input gives that name another inode.
    std::map<std::string, std::string> read_before;
    for (const auto& entry : fs::directory_iterator(s.dir)) {
        if (entry.is_regular_file() &&
            std::find(read.begin(), read.end(), identity_of(entry.path())) != read.end()) {
            read_before[entry.path().filename()] = xme::fuzz::read_whole_file(entry.path());
        }
    }

    const int code = run_xme(s.dir, arguments);

    std::string line;
    for (const auto& argument : arguments) line += " '" + argument + "'";
    for (const auto& entry : fs::directory_iterator(s.dir)) {
        const std::string name = entry.path().filename();
        if (entry.is_directory()) continue;
        if (!known_name(name))
            xme::fuzz::finding("xme" + line + " (exit " + std::to_string(code) + ") left " + name);
        if (!entry.is_regular_file()) continue;
        const std::string content = xme::fuzz::read_whole_file(entry.path());
        if (read_before.contains(name) && content != read_before[name]) {
            xme::fuzz::finding("xme" + line + " (exit " + std::to_string(code) + ") changed its input " +
                               name);
        }
        // The inputs as made, and raw video (no header to check it against), are not outputs' formats.
        const auto made = s.inputs.find(name == "link.y4m" || name == "hard.y4m" ? "in.y4m" : name);
        if ((made != s.inputs.end() && made->second == content) || name.ends_with(".yuv")) continue;
        const std::string reason = cut_reason(name, content);
        if (!reason.empty()) {
            xme::fuzz::finding("xme" + line + " (exit " + std::to_string(code) + ") left " + name +
                               " cut: " + reason);
        }
    }
    for (const auto& [name, content] : read_before) {
        if (!fs::exists(s.dir + "/" + name)) {
            xme::fuzz::finding("xme" + line + " (exit " + std::to_string(code) + ") removed its input " +
                               name);
        }
    }
    return 0;
}
