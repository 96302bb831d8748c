#include "fake_device.hpp"

#include <chrono>
#include <deque>
#include <thread>

#include "xme/error.hpp"
#include "xme/reference.hpp"

namespace xme::test {

void FakeHangs::release() {
    std::lock_guard lock(mutex_);
    open_ = true;
    released_.notify_all();
}

void FakeHangs::wait() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    released_.wait(lock, [this] { return open_; });
    --waiting_;
}

int FakeHangs::waiting() const {
    std::lock_guard lock(mutex_);
    return waiting_;
}

namespace {

// Asynchronous, as a GPU is: submit only queues the pair; its result is computed (or its fault
// happens) when it is received.
class FakeSession final : public MotionSession {
public:
    FakeSession(std::string name, FakeFaults faults, SessionOptions options, std::shared_ptr<FakeHangs> hangs)
        : name_(std::move(name)), faults_(faults), options_(std::move(options)), hangs_(std::move(hangs)) {}

    void submit(const FramePair& pair) override { queued_.push_back(pair); }
    [[nodiscard]] std::size_t pending() const override { return queued_.size(); }

    [[nodiscard]] PairResult receive() override {
        if (queued_.empty())
            throw Error(ErrorKind::invalid_argument, "receive() called with no frame pair submitted");
        const FramePair pair = queued_.front();
        queued_.pop_front();
        const std::int64_t index = received_++;
        if (index == faults_.fail_at) {
            throw Error(ErrorKind::device,
                        name_ + ": injected failure at frame " + std::to_string(pair.current_id));
        }
        if (index == faults_.hang_at) hangs_->wait();
        if (index == 0 && faults_.first_pair_milliseconds > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(faults_.first_pair_milliseconds));
        if (faults_.slow_pair_at >= 0 && index >= faults_.slow_pair_at &&
            index < faults_.slow_pair_at + faults_.slow_pair_count)
            std::this_thread::sleep_for(std::chrono::milliseconds(faults_.slow_pair_milliseconds));
        if (faults_.milliseconds_per_pair > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(faults_.milliseconds_per_pair));
        }
        // The temporal predictor as the contract says: the given result, else this session's last.
        const MotionField* previous = pair.segment_start ? nullptr
                                      : pair.previous    ? pair.previous.get()
                                                         : &last_;
        PairResult result{pair.current_id,
                          reference::estimate(pair.reference, pair.current, options_.params, previous),
                          0.001};
        last_ = result.field;
        if (faults_.wrong_from >= 0 && index >= faults_.wrong_from) {
            result.field.blocks.front().mv_x =
                static_cast<std::int16_t>(result.field.blocks.front().mv_x + 4);
        }
        return result;
    }

private:
    std::string name_;
    FakeFaults faults_;
    SessionOptions options_;
    std::shared_ptr<FakeHangs> hangs_;
    std::deque<FramePair> queued_;
    std::int64_t received_ = 0;
    MotionField last_;
};

class FakeDevice final : public Device {
public:
    FakeDevice(const FakeDeviceSpec& spec, std::shared_ptr<FakeHangs> hangs)
        : spec_(spec), hangs_(std::move(hangs)) {
        info_.name = spec.name;
        info_.backend = "fake";
        info_.description = "fault-injecting test device";
        info_.variants = fake_variants;
        info_.on_host_cores = spec.on_host_cores;
    }
    [[nodiscard]] const DeviceInfo& info() const override { return info_; }
    // It computes with the reference, so it runs every chain.
    [[nodiscard]] Support supports(const SessionOptions&) const override { return Support::yes(); }
    [[nodiscard]] std::unique_ptr<MotionSession> open_session(const SessionOptions& options) override {
        static_cast<void>(checked_variant(info_, options));
        if (spec_.faults.fail_to_open)
            throw Error(ErrorKind::device, spec_.name + ": injected failure to open");
        if (spec_.faults.open_milliseconds > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(spec_.faults.open_milliseconds));
        if (spec_.opened_threads) *spec_.opened_threads = options.threads;
        return std::make_unique<FakeSession>(spec_.name, spec_.faults, options, hangs_);
    }
    [[nodiscard]] std::shared_ptr<PlaneMemory> plane_memory() override { return spec_.plane_memory; }

private:
    FakeDeviceSpec spec_;
    std::shared_ptr<FakeHangs> hangs_;
    DeviceInfo info_;
};

class FakeBackend final : public Backend {
public:
    FakeBackend(std::vector<FakeDeviceSpec> devices, std::shared_ptr<FakeHangs> hangs)
        : devices_(std::move(devices)), hangs_(std::move(hangs)) {}
    [[nodiscard]] std::string name() const override { return "fake"; }
    [[nodiscard]] std::vector<DeviceInfo> devices() override {
        std::vector<DeviceInfo> list;
        for (const auto& spec : devices_) list.push_back(FakeDevice(spec, hangs_).info());
        return list;
    }
    [[nodiscard]] std::unique_ptr<Device> open(std::string_view device_name) override {
        for (const auto& spec : devices_) {
            if (spec.name == device_name) return std::make_unique<FakeDevice>(spec, hangs_);
        }
        throw Error(ErrorKind::device, "no fake device " + std::string(device_name));
    }

private:
    std::vector<FakeDeviceSpec> devices_;
    std::shared_ptr<FakeHangs> hangs_;
};

}  // namespace

void add_fake_backend(Registry& registry, std::vector<FakeDeviceSpec> devices,
                      std::shared_ptr<FakeHangs> hangs) {
    registry.add(std::make_unique<FakeBackend>(std::move(devices), std::move(hangs)));
}

}  // namespace xme::test
