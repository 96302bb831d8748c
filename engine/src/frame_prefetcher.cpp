#include "frame_prefetcher.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "xme/error.hpp"

namespace xme::detail {

int default_read_threads() {
    const unsigned cores = std::thread::hardware_concurrency();
    return cores >= 8 ? static_cast<int>(std::min(8U, cores / 2)) : 0;
}

FramePrefetcher::FramePrefetcher(FrameLayoutInFile layout, int threads)
    : layout_(std::move(layout)), depth_(2 * threads + 2) {
    threads_.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

FramePrefetcher::~FramePrefetcher() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    for (std::thread& thread : threads_) thread.join();
}

std::int64_t FramePrefetcher::offset_of(std::int64_t j) const {
    return layout_.start_offset +
           j * (static_cast<std::int64_t>(layout_.marker.size()) + layout_.frame_bytes);
}

std::int64_t FramePrefetcher::stop_offset() const { return offset_of(next_take_); }

void FramePrefetcher::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        room_.wait(lock, [&] { return stop_ || (next_claim_ < end_ && next_claim_ - next_take_ < depth_); });
        if (stop_) return;
        const std::int64_t j = next_claim_++;
        lock.unlock();
        Result result = read(j);
        lock.lock();
        if (!std::holds_alternative<Frame>(result)) end_ = std::min(end_, j + 1);
        results_.emplace(j, std::move(result));
        ready_.notify_all();
    }
}

std::optional<Frame> FramePrefetcher::next() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return results_.contains(next_take_); });
    auto found = results_.find(next_take_);
    Result result = std::move(found->second);
    results_.erase(found);
    if (std::holds_alternative<Frame>(result)) {
        ++next_take_;
        lock.unlock();
        room_.notify_all();
        return std::get<Frame>(std::move(result));
    }
    // The end or an error stays the answer: nothing after it is read.
    results_.emplace(next_take_, result);
    if (std::holds_alternative<End>(result)) return std::nullopt;
    std::rethrow_exception(std::get<std::exception_ptr>(result));
}

FramePrefetcher::Result FramePrefetcher::read(std::int64_t j) const {
    try {
        std::int64_t offset = offset_of(j);
        // Reads up to `size` bytes at `offset`; returns how many there were (fewer only at the end).
        const auto read_at = [&](void* data, std::size_t size) {
            std::size_t got = 0;
            while (got < size) {
                const ssize_t n = ::pread(layout_.descriptor, static_cast<char*>(data) + got, size - got,
                                          static_cast<off_t>(offset) + static_cast<off_t>(got));
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) {
                    throw Error(ErrorKind::bad_input,
                                "cannot read " + layout_.path + ": " + std::strerror(errno));
                }
                if (n == 0) break;
                got += static_cast<std::size_t>(n);
            }
            offset += static_cast<std::int64_t>(got);
            return got;
        };
        // Allocate only what the file holds (a mistyped raw --size must not cost gigabytes first).
        struct stat status {};
        if (::fstat(layout_.descriptor, &status) != 0) throw ReadSequentially();
        if (status.st_size <= offset) return End{};
        if (status.st_size < offset_of(j + 1)) throw ReadSequentially();  // truncated: its reader says how
        if (!layout_.marker.empty()) {
            std::string marker(layout_.marker.size(), '\0');
            const std::size_t got = read_at(marker.data(), marker.size());
            if (got == 0) return End{};
            if (marker != layout_.marker) throw ReadSequentially();
        }
        Frame frame = make_frame(layout_.width, layout_.height, layout_.chroma, layout_.overwrite);
        std::int64_t got = 0;
        for (Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
            if (plane->empty()) continue;
            const std::size_t n = read_at(plane->data(), plane->size_bytes());
            if (n != plane->size_bytes()) throw ReadSequentially();
            got += static_cast<std::int64_t>(n);
        }
        // A luma-only frame passes over the chroma, which must be there all the same.
        if (got < layout_.frame_bytes) {
            offset = offset_of(j + 1) - 1;
            char last = 0;
            if (read_at(&last, 1) != 1) throw ReadSequentially();
        }
        return frame;
    } catch (...) {
        return std::current_exception();
    }
}

bool Prefetching::next(std::FILE* file, const FrameLayoutInFile& shape, std::optional<Frame>& frame) {
    if (!prefetcher_) {
        if (given_up_ || threads_ <= 0) return false;
        FrameLayoutInFile layout = shape;
        layout.descriptor = fileno(file);
        layout.start_offset = static_cast<std::int64_t>(ftello(file));
        path_ = layout.path;
        prefetcher_ = std::make_unique<FramePrefetcher>(std::move(layout), threads_);
    }
    try {
        frame = prefetcher_->next();
        return true;
    } catch (const ReadSequentially&) {
        stop(file);
        given_up_ = true;
        return false;
    }
}

void Prefetching::stop(std::FILE* file) {
    if (!prefetcher_) return;
    const std::int64_t offset = prefetcher_->stop_offset();
    prefetcher_.reset();
    if (fseeko(file, static_cast<off_t>(offset), SEEK_SET) != 0) {
        throw Error(ErrorKind::bad_input, "cannot seek in " + path_ + ": " + std::strerror(errno));
    }
}

}  // namespace xme::detail
