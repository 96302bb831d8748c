#include "output_files.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "xme/error.hpp"
#include "xme/staged_file.hpp"

namespace xme::cli {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
    throw Error(ErrorKind::io, "cannot write " + what + " " + path + ": " + std::strerror(error));
}

// The reason in StagedFile's "cannot write PATH: REASON".
std::string after_path(const std::string& message, const std::string& path) {
    const std::size_t at = message.find(path + ": ");
    return at == std::string::npos ? message : message.substr(at + path.size() + 2);
}

}  // namespace

// Nothing is created at the path when it is claimed (a run killed before it writes leaves no empty
// file there); the check is StagedFile's, without changing anything.
ClaimedOutput::ClaimedOutput(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
    if (const int error = staged_write_error(path_); error != 0) fail(what_, path_, error);
}

ClaimedOutput::~ClaimedOutput() = default;

ClaimedOutput::ClaimedOutput(ClaimedOutput&& other) noexcept
    : path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      created_(other.created_),
      written_(other.written_) {}

ClaimedOutput& ClaimedOutput::operator=(ClaimedOutput&& other) noexcept {
    if (this != &other) {
        path_ = std::move(other.path_);
        what_ = std::move(other.what_);
        created_ = other.created_;
        written_ = other.written_;
    }
    return *this;
}

void ClaimedOutput::write(const std::string& text) {
    written_ = true;
    write_output_file(path_, text, what_);
}

// Written beside the path and renamed onto it (xme/staged_file.hpp): the path shows the old file or the
// whole new one, never a cut one (a full disk, an interrupted run).
void write_output_file(const std::string& path, const std::string& text, const std::string& what) {
    std::optional<StagedFile> file;
    try {
        file.emplace(path);
    } catch (const Error& e) {
        throw Error(ErrorKind::io, "cannot write " + what + " " + path + ": " + after_path(e.what(), path));
    }
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t written = ::write(file->descriptor(), text.data() + done, text.size() - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            const int error = written < 0 ? errno : ENOSPC;
            file->discard();
            fail(what, path, error);
        }
        done += static_cast<std::size_t>(written);
    }
    try {
        file->publish();
    } catch (const Error& e) {
        throw Error(ErrorKind::io, "cannot write " + what + " " + path + ": " + after_path(e.what(), path));
    }
}

}  // namespace xme::cli
