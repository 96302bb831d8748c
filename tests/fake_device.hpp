// A fake backend for fault tests, registered in a test's own Registry (Registry::add): devices that
// compute the right answer (the reference's) and then, on purpose, fail at a given pair, hang, or
// return a wrong answer. The production backends carry no test switches.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "xme/backend.hpp"
#include "xme/registry.hpp"

namespace xme::test {

// Counted in pairs received, from 0; each fault happens when that pair's result is asked for.
struct FakeFaults {
    std::int64_t fail_at = -1;        // the k-th pair throws Error(device)
    std::int64_t hang_at = -1;        // the k-th pair blocks until FakeHangs::release
    std::int64_t wrong_from = -1;     // from the k-th pair on, block (0,0)'s vector is off by one pixel
    bool fail_to_open = false;        // open_session throws
    int open_milliseconds = 0;        // a slow open (a GPU creating its context)
    int milliseconds_per_pair = 0;    // a slow device
    int first_pair_milliseconds = 0;  // a slow first pair only (a GPU loading its kernels)
    std::int64_t slow_pair_at = -1;   // slow pairs from the k-th on (a hiccup once running)
    int slow_pair_count = 1;          // how many
    int slow_pair_milliseconds = 0;
};

// What a hung fake waits on, shared with its sessions so that it outlives the scheduler that gave up.
class FakeHangs {
public:
    void release();
    void wait();  // until released
    [[nodiscard]] int waiting() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable released_;
    bool open_ = false;
    int waiting_ = 0;
};

struct FakeDeviceSpec {
    FakeDeviceSpec() = default;
    FakeDeviceSpec(std::string device_name, FakeFaults device_faults)
        : name(std::move(device_name)), faults(device_faults) {}

    std::string name;  // "fake:0", "fake:1", ...: the family must be "fake"
    FakeFaults faults;
    std::shared_ptr<PlaneMemory> plane_memory;  // what its Device::plane_memory offers
    bool on_host_cores = false;                 // DeviceInfo::on_host_cores (a CPU-like device)
    std::shared_ptr<int> opened_threads;        // when set: SessionOptions::threads of its last session
};

// Adds backend "fake" with these devices to `registry`. `hangs` is what hung devices wait for.
void add_fake_backend(Registry& registry, std::vector<FakeDeviceSpec> devices,
                      std::shared_ptr<FakeHangs> hangs);

// Its variants: the default "exact" and "alternate", so that variant checks have something to see.
inline const std::vector<std::string> fake_variants{"exact", "alternate"};

}  // namespace xme::test
