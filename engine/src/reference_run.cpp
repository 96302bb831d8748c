// SPEC §14 on one device (xme/reference_run.hpp): each reference is an ordinary pair of the device's
// session, so every device runs §14 with the kernels it runs §1-§13 with.
#include "xme/reference_run.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "xme/error.hpp"
#include "xme/metrics.hpp"

namespace xme {

ReferenceRun::ReferenceRun(Device& device, const SessionOptions& options, ReferenceOptions references)
    : options_(options), references_(std::move(references)) {
    options_.resident_frames = references_.resident_frames();
    options_.params.validate();
    references_.validate(options_.params);
    const Support support = device.supports(options_);
    if (!support.supported) throw Error(ErrorKind::unsupported, device.info().name + ": " + support.reason);
    session_ = device.open_session(options_);
}

std::vector<DecidedFrame> ReferenceRun::feed(std::shared_ptr<const Frame> frame) {
    const std::int64_t index = last_fed_ < 0 ? first_ : last_fed_ + 1;
    frames_[index] = std::move(frame);
    last_fed_ = index;
    std::vector<DecidedFrame> decided;
    // Frame f is decided once its furthest future reference has come (or, in finish(), the run ended).
    const std::int64_t future = references_.furthest_future();
    while (next_ + future <= last_fed_) {
        const std::int64_t frame_index = next_++;
        DecidedFrame result = decide(frame_index, last_fed_);
        if (result.pairs > 0) decided.push_back(std::move(result));
        forget_old_frames();
    }
    return decided;
}

std::vector<DecidedFrame> ReferenceRun::finish() {
    std::vector<DecidedFrame> decided;
    while (next_ <= last_fed_) {
        DecidedFrame result = decide(next_++, last_fed_);
        if (result.pairs > 0) decided.push_back(std::move(result));
    }
    frames_.clear();
    return decided;
}

void ReferenceRun::submit_pair(std::int64_t reference, std::int64_t current,
                               std::shared_ptr<const MotionField> previous) {
    FramePair pair(reference, frames_.at(reference)->luma.view(), current, frames_.at(current)->luma.view());
    pair.segment_start = previous == nullptr;
    pair.previous = std::move(previous);
    session_->submit(pair);
}

DecidedFrame ReferenceRun::decide(std::int64_t frame, std::int64_t last) {
    DecidedFrame result;
    result.frame = frame;
    std::vector<int> available;
    for (const int d : references_.distances) {
        if (frame + d >= first_ && frame + d <= last) available.push_back(d);
    }
    if (available.empty()) return result;  // no reference in the run: not estimated (§14)
    const std::int64_t refresh = options_.params.refresh;
    const bool segment_start = refresh > 0 ? estimated_ % refresh == 0 : estimated_ == 0;
    ++estimated_;
    if (segment_start) {
        previous_.reset();
        previous_backward_.reset();
    }
    // Every pair of the frame in flight at once, the oldest reference first: with the session's least
    // recently used slot given up first, the frame it gives up for the next frame is then the one no
    // later frame references (ReferenceOptions::resident_frames).
    std::vector<std::size_t> order(available.size());  // indices into `available`
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return available[a] < available[b]; });
    std::vector<std::shared_ptr<const MotionField>> temporal(available.size());  // alive until received
    for (const std::size_t r : order) {
        if (previous_)
            temporal[r] =
                std::make_shared<const MotionField>(scaled_temporal_field(*previous_, available[r]));
        submit_pair(frame + available[r], frame, temporal[r]);
    }
    if (references_.both_directions) submit_pair(frame, frame - 1, previous_backward_);
    const auto receive = [&] {
        PairResult pair = session_->receive();
        result.device_seconds += pair.device_seconds;
        result.frames_taken_in += pair.frames_taken_in;
        ++result.pairs;
        return pair;
    };
    std::vector<ReferenceResult> results(available.size());
    for (const std::size_t r : order) {
        const int d = available[r];
        results[r] = {d, frames_.at(frame + d)->luma.view(), receive().field, temporal[r].get()};
    }
    const PlaneView current = frames_.at(frame)->luma.view();
    result.decided = decide_references(results, current, options_.params, references_.distances);
    const Plane prediction = predict_decided(result.decided, current.width, current.height,
                                             [&](int d) { return frames_.at(frame + d)->luma.view(); });
    result.mc_psnr_db = luma_psnr(prediction.view(), current);
    if (references_.both_directions) {
        PairResult backward = receive();
        result.consistency = consistency(results.front().field, backward.field);
        result.backward = std::make_shared<const MotionField>(std::move(backward.field));
        previous_backward_ = result.backward;  // the next pair's temporal predictor reads it as it is
    }
    previous_ = result.decided;
    return result;
}

void ReferenceRun::forget_old_frames() {
    // The frames no undecided frame can reference (the backward pair reads frame - 1 as its current).
    const std::int64_t oldest = next_ - std::max(references_.furthest_past(), 1);
    while (!frames_.empty() && frames_.begin()->first < oldest) frames_.erase(frames_.begin());
}

}  // namespace xme
