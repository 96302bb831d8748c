// A fixed set of host threads that share out the bands of one piece of work (block rows, say): the
// host's part of SPEC §14 (the decision, the prediction, MC-PSNR) runs on the host's cores while the
// device works (docs/engine.md, "Several references and both directions").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace xme {

class BandWorkers {
public:
    // `threads` in all, the caller's included (0: the host's hardware threads); 1 runs every band on the
    // caller's thread.
    explicit BandWorkers(int threads);
    ~BandWorkers();
    BandWorkers(const BandWorkers&) = delete;
    BandWorkers& operator=(const BandWorkers&) = delete;

    // Calls work(band) once for every band in 0..bands-1, spread over the threads, and returns when all
    // have returned; the first exception one threw is rethrown here (the bands not yet begun are skipped).
    void run(int bands, const std::function<void(int band)>& work);
    [[nodiscard]] int threads() const { return static_cast<int>(threads_.size()) + 1; }

private:
    void serve();
    void take_bands();

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(int)>* work_ = nullptr;
    int bands_ = 0;
    int next_band_ = 0;
    int busy_ = 0;                // threads inside the current run
    std::size_t generation_ = 0;  // counts run() calls, so that a thread takes each run once
    bool stopping_ = false;
    std::exception_ptr failure_;
};

}  // namespace xme
