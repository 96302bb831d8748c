#include "output_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "xme/error.hpp"

namespace xme::cli {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
    throw Error(ErrorKind::io, "cannot write " + what + " " + path + ": " + std::strerror(error));
}

}  // namespace

ClaimedOutput::ClaimedOutput(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
    int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        created_ = fd >= 0;
    }
    if (fd < 0) fail(what_, path_, errno);
    ::close(fd);
}

ClaimedOutput::~ClaimedOutput() {
    if (created_ && !written_) ::unlink(path_.c_str());
}

ClaimedOutput::ClaimedOutput(ClaimedOutput&& other) noexcept
    : path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      created_(other.created_),
      written_(other.written_) {
    other.created_ = false;
}

ClaimedOutput& ClaimedOutput::operator=(ClaimedOutput&& other) noexcept {
    if (this != &other) {
        if (created_ && !written_) ::unlink(path_.c_str());
        path_ = std::move(other.path_);
        what_ = std::move(other.what_);
        created_ = other.created_;
        written_ = other.written_;
        other.created_ = false;
    }
    return *this;
}

void ClaimedOutput::write(const std::string& text) {
    written_ = true;  // even a failed write leaves what it wrote: the message says so
    write_output_file(path_, text, what_);
}

void write_output_file(const std::string& path, const std::string& text, const std::string& what) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fail(what, path, errno);
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            const int error = written < 0 ? errno : ENOSPC;
            ::close(fd);
            fail(what, path, error);
        }
        done += static_cast<std::size_t>(written);
    }
    if (::close(fd) != 0) fail(what, path, errno);
}

}  // namespace xme::cli
