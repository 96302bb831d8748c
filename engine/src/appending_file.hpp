// A file written frame by frame with plain POSIX calls, so that a failed write can be undone exactly, and
// the NPY header every array file shares. Internal to the engine (field_io.cpp, plane_io.cpp).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "xme/error.hpp"

namespace xme {

// The file is cut back to the end of the last whole frame (no stdio buffer holds a half-written row).
class AppendingFile {
public:
    explicit AppendingFile(const std::string& path)
        : path_(path), fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) {
        if (fd_ < 0) throw Error(ErrorKind::io, "cannot create " + path + ": " + std::strerror(errno));
    }
    virtual ~AppendingFile() { ::close(fd_); }
    AppendingFile(const AppendingFile&) = delete;
    AppendingFile& operator=(const AppendingFile&) = delete;

protected:
    // Writes all of `bytes` at `offset`; a full disk or a file-size limit is reported here, with the
    // OS's reason, after the file has been cut back to its last whole frame.
    void put(std::string_view bytes, off_t offset) {
        while (!bytes.empty()) {
            const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), offset);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) fail(written < 0 ? errno : ENOSPC);
            bytes.remove_prefix(static_cast<std::size_t>(written));
            offset += written;
        }
    }
    // Appends, after the last whole frame.
    void append(std::string_view bytes) {
        put(bytes, whole_size_ + static_cast<off_t>(pending_));
        pending_ += bytes.size();
    }
    // Everything appended so far belongs to whole frames.
    void commit() {
        whole_size_ += static_cast<off_t>(pending_);
        pending_ = 0;
    }

    [[noreturn]] void fail(int error) {
        // Keep only whole frames; on a full disk, cutting the file frees space rather than needing it.
        if (!failing_) {
            failing_ = true;
            if (::ftruncate(fd_, whole_size_) != 0) {  // best effort: the write's error is what we report
            }
            pending_ = 0;
            rollback();
            failing_ = false;
        }
        throw Error(ErrorKind::io, "cannot write " + path_ + ": " + std::strerror(error) +
                                       "; it keeps the frames written before");
    }
    // Puts back what the format keeps besides whole frames (the NPY header's row count).
    virtual void rollback() {}

    std::string path_;

private:
    int fd_;
    off_t whole_size_ = 0;     // the end of the last whole frame (or of the header)
    std::size_t pending_ = 0;  // bytes appended since
    bool failing_ = false;     // inside fail(): a rollback that fails too is not rolled back again
};

// NPY format 1.0: magic, version, a little-endian uint16 header length, then a Python dict literal
// padded with spaces and ending in '\n'. A fixed 128-byte header leaves room for any shape, so it can be
// rewritten in place after every frame. `descr` is numpy's type ("<i4"), `shape` a tuple "(3, 9)";
// a structured type's `descr` is its list of fields ("[('x', '<i4'), ...]"), unquoted, and needs a
// larger `header_size` (a multiple of 64).
inline std::string npy_header(std::string_view descr, const std::string& shape,
                              std::size_t header_size = 128) {
    const std::string type = descr.starts_with('[') ? std::string(descr) : "'" + std::string(descr) + "'";
    std::string dict = "{'descr': " + type + ", 'fortran_order': False, 'shape': " + shape + ", }";
    static constexpr char prelude[] = "\x93NUMPY\x01\x00";
    constexpr std::size_t prelude_size = sizeof prelude - 1 + 2;  // + the uint16 length
    if (dict.size() >= header_size - prelude_size)
        throw std::logic_error("npy_header: header_size too small");
    dict.resize(header_size - prelude_size - 1, ' ');
    dict += '\n';
    std::string text(prelude, sizeof prelude - 1);
    text += static_cast<char>(dict.size() & 0xff);
    text += static_cast<char>(dict.size() >> 8);
    text += dict;
    return text;
}

}  // namespace xme
