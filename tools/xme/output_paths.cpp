#include "output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "xme/error.hpp"

namespace xme::cli {
namespace {

namespace fs = std::filesystem;

enum class Stream { none, input, output };

struct Identity {
    Stream stream = Stream::none;
    std::optional<std::pair<dev_t, ino_t>> regular;  // an existing regular file, links followed
    bool special = false;                            // an existing file of another kind
    std::string spelling;                            // a path's, resolved; empty for a stream
};

// A '%' that is not "%%": the path names one file per frame.
bool has_pattern_field(const std::string& path) {
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') continue;
        if (i + 1 < path.size() && path[i + 1] == '%') {
            ++i;
        } else {
            return true;
        }
    }
    return false;
}

// Absolute and normalised, with every link resolved, a dangling last one included: writing through
// it creates its target.
std::string resolved_spelling(const std::string& path) {
    std::error_code error;
    fs::path current = fs::absolute(path, error);
    if (error) current = path;
    for (int links = 0; links < 40; ++links) {  // Linux's own limit on a chain of links
        const fs::path canonical = fs::weakly_canonical(current, error);
        if (error) break;
        if (!fs::is_symlink(fs::symlink_status(canonical, error))) return canonical.string();
        const fs::path target = fs::read_symlink(canonical, error);
        if (error) return canonical.string();
        current = target.is_absolute() ? target : canonical.parent_path() / target;
    }
    return current.lexically_normal().string();
}

void take_status(Identity& identity, const struct stat& info) {
    if (S_ISREG(info.st_mode)) {
        identity.regular = std::pair{info.st_dev, info.st_ino};
    } else {
        identity.special = true;
    }
}

Identity identify(const NamedPath& named, Stream stream) {
    Identity identity;
    struct stat info {};
    if (named.dash_is_stream && named.path == "-") {
        // A stream redirected from or to a file is that file (`-o - >> in.y4m`).
        identity.stream = stream;
        if (::fstat(stream == Stream::input ? STDIN_FILENO : STDOUT_FILENO, &info) == 0 &&
            S_ISREG(info.st_mode))
            identity.regular = std::pair{info.st_dev, info.st_ino};
        return identity;
    }
    identity.spelling = resolved_spelling(named.path);
    if (!has_pattern_field(named.path) && ::stat(named.path.c_str(), &info) == 0) take_status(identity, info);
    return identity;
}

bool same_file(const Identity& a, const Identity& b) {
    if (a.stream != Stream::none && a.stream == b.stream) return true;
    if (a.regular && b.regular) return *a.regular == *b.regular;
    if (a.special || b.special || a.spelling.empty()) return false;
    return a.spelling == b.spelling;
}

std::string shown(const NamedPath& named, const Identity& identity) {
    if (identity.stream == Stream::output) return named.name + " - (standard output)";
    return named.name + " " + named.path;
}

}  // namespace

void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
    std::vector<std::pair<const NamedPath*, Identity>> read;
    for (const NamedPath& input : inputs) {
        if (!input.path.empty()) read.emplace_back(&input, identify(input, Stream::input));
    }
    std::vector<std::pair<const NamedPath*, Identity>> written;
    for (const NamedPath& output : outputs) {
        if (output.path.empty()) continue;
        Identity identity = identify(output, Stream::output);
        for (const auto& [input, input_identity] : read) {
            if (!same_file(identity, input_identity)) continue;
            const std::string where = input_identity.stream == Stream::input ? "standard input" : input->path;
            throw Error(ErrorKind::invalid_argument,
                        shown(output, identity) + " is " + input->name +
                            (where == output.path ? "" : " (" + where + ")") +
                            ": writing it would destroy the input; name another file");
        }
        for (const auto& [other, other_identity] : written) {
            if (!same_file(identity, other_identity)) continue;
            if (identity.stream == Stream::output && other_identity.stream == Stream::output) {
                throw Error(ErrorKind::invalid_argument,
                            other->name + " - and " + output.name +
                                " - would both write to standard output: send one of them to a file");
            }
            throw Error(ErrorKind::invalid_argument,
                        shown(*other, other_identity) + " and " + shown(output, identity) +
                            " name the same file: one would overwrite the other; give two files");
        }
        written.emplace_back(&output, std::move(identity));
    }
}

}  // namespace xme::cli
