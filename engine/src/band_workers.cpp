// xme/band_workers.hpp: the threads wait for a run, take bands one by one under the mutex (a band is a
// block row of a frame: microseconds to milliseconds of work, so the lock is not the cost), and the
// caller takes bands too.
#include "xme/band_workers.hpp"

#include <algorithm>
#include <utility>

namespace xme {

BandWorkers::BandWorkers(int threads) {
    const int total =
        threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    for (int t = 1; t < total; ++t) threads_.emplace_back([this] { serve(); });
}

BandWorkers::~BandWorkers() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
}

void BandWorkers::run(int bands, const std::function<void(int band)>& work) {
    if (bands <= 0) return;
    std::unique_lock<std::mutex> lock(mutex_);
    work_ = &work;
    bands_ = bands;
    next_band_ = 0;
    failure_ = nullptr;
    ++generation_;
    ++busy_;  // the caller
    lock.unlock();
    wake_.notify_all();
    take_bands();
    lock.lock();
    --busy_;
    done_.wait(lock, [&] { return busy_ == 0; });
    work_ = nullptr;
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void BandWorkers::serve() {
    std::size_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && work_ != nullptr); });
        if (stopping_) return;
        seen = generation_;
        ++busy_;
        lock.unlock();
        take_bands();
        lock.lock();
        if (--busy_ == 0) done_.notify_all();
    }
}

void BandWorkers::take_bands() {
    for (;;) {
        int band = 0;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (next_band_ >= bands_ || failure_) return;
            band = next_band_++;
        }
        try {
            (*work_)(band);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
    }
}

}  // namespace xme
