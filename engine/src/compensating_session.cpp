// open_compensating_session: SessionOptions::compensation on any device. A device that computes it
// itself gets the request; for any other, the pair's planes are kept with the pair (they stay valid
// until its result is received: FramePair's contract) and compensate() runs on the host as the result
// comes back, on the caller's thread (under the scheduler: the device's worker, so devices overlap).
#include <deque>
#include <utility>

#include "xme/compensation.hpp"
#include "xme/device.hpp"
#include "xme/error.hpp"
#include "xme/session_support.hpp"

namespace xme {
namespace {

class HostCompensationSession final : public MotionSession {
public:
    HostCompensationSession(std::unique_ptr<MotionSession> inner, CompensationRequest request)
        : inner_(std::move(inner)), request_(std::move(request)) {}

    void submit(const FramePair& pair) override {
        inner_->submit(pair);
        planes_.push_back({pair.reference, pair.current});
    }

    PairResult receive() override {
        PairResult result = inner_->receive();
        if (planes_.empty()) {  // the inner session answered a receive without a pair: it threw above
            throw no_pair_submitted();
        }
        const Planes planes = planes_.front();
        planes_.pop_front();
        result.compensation = compensate(planes.reference, planes.current, result.field, request_);
        return result;
    }

    [[nodiscard]] std::size_t pending() const override { return inner_->pending(); }

private:
    struct Planes {
        PlaneView reference;
        PlaneView current;
    };
    std::unique_ptr<MotionSession> inner_;
    CompensationRequest request_;
    std::deque<Planes> planes_;
};

}  // namespace

std::unique_ptr<MotionSession> open_compensating_session(Device& device, const SessionOptions& options) {
    // A quantiser step out of range is refused now, not at the first result.
    if (options.compensation && options.compensation->transform)
        static_cast<void>(reference::quantise_dequantise(0, options.compensation->transform->quantiser_step));
    if (!options.compensation || device.supports_compensation(options).supported)
        return device.open_session(options);
    SessionOptions search_only = options;
    search_only.compensation.reset();
    return std::make_unique<HostCompensationSession>(device.open_session(search_only), *options.compensation);
}

}  // namespace xme
