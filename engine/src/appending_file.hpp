// A file written frame by frame with plain POSIX calls, so that a failed write can be undone exactly, and
// the NPY header every array file shares. Internal to the engine (field_io.cpp, plane_io.cpp).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "xme/error.hpp"
#include "xme/staged_file.hpp"

namespace xme {

// Frames are appended to a temporary file beside the path (xme/staged_file.hpp), which is renamed onto
// the path when the writer finishes or is destroyed: the path shows the previous file or a whole new
// one. A failed write cuts the file back to the end of the last whole frame (no stdio buffer holds a
// half-written row), and finish() can keep fewer frames, so that the files of one run agree.
class AppendingFile {
public:
    explicit AppendingFile(const std::string& path) : path_(path), file_(path) {}
    // A writer that was not finished keeps every whole frame.
    virtual ~AppendingFile() {
        if (file_.descriptor() < 0) return;
        if (pending_ != 0 && ::ftruncate(file_.descriptor(), whole_size()) != 0) {  // best effort
        }
        try {
            file_.publish();
        } catch (const Error&) {  // a destructor reports nothing: finish() is where this is reported
        }
    }
    AppendingFile(const AppendingFile&) = delete;
    AppendingFile& operator=(const AppendingFile&) = delete;

protected:
    // Writes all of `bytes` at `offset`; a full disk or a file-size limit is reported here, with the
    // OS's reason, after the file has been cut back to its last whole frame.
    void put(std::string_view bytes, off_t offset) {
        if (file_.descriptor() < 0)
            throw Error(ErrorKind::invalid_argument, "cannot write " + path_ + ": it was already finished");
        while (!bytes.empty()) {
            const ssize_t written = ::pwrite(file_.descriptor(), bytes.data(), bytes.size(), offset);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) fail(written < 0 ? errno : ENOSPC);
            bytes.remove_prefix(static_cast<std::size_t>(written));
            offset += written;
        }
    }
    // Appends, after the last whole frame.
    void append(std::string_view bytes) {
        put(bytes, whole_size() + static_cast<off_t>(pending_));
        pending_ += bytes.size();
    }
    // Everything appended so far belongs to whole frames: the header at the first call, then a frame
    // of `rows` rows at each.
    void commit(std::int64_t rows = 0) {
        ends_.push_back(whole_size() + static_cast<off_t>(pending_));
        rows_.push_back(rows_.empty() ? 0 : rows_.back() + rows);
        pending_ = 0;
    }
    // The rows of the whole frames.
    [[nodiscard]] std::int64_t whole_rows() const { return rows_.empty() ? 0 : rows_.back(); }
    // Keeps the first `frames` frames (every frame when negative or more than were written), puts
    // back the header that counts their rows, and renames the file onto its path.
    void finish_frames(std::int64_t frames) {
        const auto written = static_cast<std::int64_t>(ends_.empty() ? 0 : ends_.size() - 1);
        if (frames >= 0 && frames < written && file_.descriptor() >= 0) {
            const auto kept = static_cast<std::size_t>(frames);
            // A device written in place (/dev/null) has no length to cut: it took every frame.
            if (::ftruncate(file_.descriptor(), ends_[kept]) != 0 && !file_.in_place()) fail(errno);
            ends_.resize(kept + 1);
            rows_.resize(kept + 1);
            if (const std::string text = header(whole_rows()); !text.empty()) put(text, 0);
        }
        file_.publish();
    }
    // The header of a file of `rows` rows, for the formats whose header counts them (NPY); empty for
    // those whose header does not change.
    [[nodiscard]] virtual std::string header(std::int64_t rows) const {
        static_cast<void>(rows);
        return {};
    }

    [[noreturn]] void fail(int error) {
        // Keep only whole frames; on a full disk, cutting the file frees space rather than needing it.
        if (!failing_) {
            failing_ = true;
            if (::ftruncate(file_.descriptor(), whole_size()) != 0) {  // best effort: the write's error is
            }                                                          // what we report
            pending_ = 0;
            // The header may have been half rewritten: write the row count of the whole frames again.
            try {
                if (const std::string text = header(whole_rows()); !text.empty()) put(text, 0);
            } catch (const Error&) {  // already failing: the first error is the one reported
            }
            failing_ = false;
        }
        throw Error(ErrorKind::io, "cannot write " + path_ + ": " + std::strerror(error) +
                                       "; it keeps the frames written before");
    }

    std::string path_;

private:
    // The end of the last whole frame (or of the header).
    [[nodiscard]] off_t whole_size() const { return ends_.empty() ? 0 : ends_.back(); }

    StagedFile file_;
    std::vector<off_t> ends_;         // the end of the header, then of each whole frame
    std::vector<std::int64_t> rows_;  // the rows up to each of them
    std::size_t pending_ = 0;         // bytes appended since the last whole frame
    bool failing_ = false;            // inside fail(): a rollback that fails too is not rolled back again
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
