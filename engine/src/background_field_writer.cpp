// A field writer on a thread of its own (xme/field_io.hpp, write_in_background): the run's delivery
// hands it a copy of each field and goes on to the next pair while the file is written.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "xme/error.hpp"
#include "xme/field_io.hpp"

namespace xme {
namespace {

class BackgroundFieldWriter final : public SettlingFieldWriter {
public:
    BackgroundFieldWriter(std::unique_ptr<FieldWriter> writer, std::size_t depth)
        : writer_(std::move(writer)), depth_(depth == 0 ? 1 : depth), thread_([this] { drain(); }) {}

    ~BackgroundFieldWriter() override {
        {
            const std::lock_guard lock(mutex_);
            closing_ = true;
        }
        changed_.notify_all();
        thread_.join();
        // writer_ is destroyed here: unfinished, it keeps every whole frame (FieldWriter).
    }

    void write(std::int64_t frame_index, const MotionField& field) override {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return queue_.size() < depth_ || failure_; });
        if (failure_)
            throw *failure_;  // a pair the file does not hold: the run stops, as a write of its own would
        queue_.emplace_back(frame_index, field);
        changed_.notify_all();
    }

    std::int64_t settle() override {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || failure_; });
        return written_;
    }

    void finish(std::int64_t frames) override {
        const std::int64_t whole = settle();
        std::optional<Error> failure;
        {
            const std::lock_guard lock(mutex_);
            failure = failure_;
        }
        if (failure) {
            writer_->finish(frames < 0 ? whole : std::min(frames, whole));
            throw *failure;
        }
        writer_->finish(frames);
    }

private:
    void drain() {
        std::unique_lock lock(mutex_);
        for (;;) {
            changed_.wait(lock, [&] { return !queue_.empty() || closing_; });
            if (queue_.empty() || failure_) return;
            auto [frame_index, field] = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
            lock.unlock();
            std::optional<Error> failure;
            try {
                writer_->write(frame_index, field);
            } catch (const Error& error) {
                failure = error;
            } catch (const std::exception& error) {
                failure = Error(ErrorKind::io, error.what());
            }
            lock.lock();
            busy_ = false;
            if (failure) {
                failure_ = std::move(failure);
                queue_.clear();  // pairs after a failed one are not written: the file ends before it
            } else {
                ++written_;
            }
            changed_.notify_all();
        }
    }

    std::unique_ptr<FieldWriter> writer_;
    std::size_t depth_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::pair<std::int64_t, MotionField>> queue_;  // guarded by mutex_, as the fields below
    bool busy_ = false;
    bool closing_ = false;
    std::int64_t written_ = 0;
    std::optional<Error> failure_;
    std::thread thread_;  // last: it starts once the members it reads exist
};

}  // namespace

std::unique_ptr<SettlingFieldWriter> write_in_background(std::unique_ptr<FieldWriter> writer,
                                                         std::size_t depth) {
    return std::make_unique<BackgroundFieldWriter>(std::move(writer), depth);
}

}  // namespace xme
