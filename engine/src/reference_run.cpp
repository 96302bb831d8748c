// SPEC §14 on one device (xme/reference_run.hpp): each reference is an ordinary pair of the device's
// session, so every device runs §14 with the kernels it runs §1-§13 with.
#include "xme/reference_run.hpp"

#include <utility>

#include "xme/error.hpp"
#include "xme/metrics.hpp"

namespace xme {

ReferenceRun::ReferenceRun(Device& device, const SessionOptions& options, ReferenceOptions references)
    : options_(options), references_(std::move(references)) {
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

PairResult ReferenceRun::run_pair(std::int64_t reference, std::int64_t current,
                                  std::shared_ptr<const MotionField> previous) {
    FramePair pair(reference, frames_.at(reference)->luma.view(), current, frames_.at(current)->luma.view());
    pair.segment_start = previous == nullptr;
    pair.previous = std::move(previous);
    session_->submit(pair);
    return session_->receive();
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
    std::vector<std::shared_ptr<const MotionField>>
        temporal;  // each reference's scaled source, for `results`
    std::vector<ReferenceResult> results;
    for (const int d : available) {
        const auto& source = temporal.emplace_back(
            previous_ ? std::make_shared<const MotionField>(scaled_temporal_field(*previous_, d)) : nullptr);
        PairResult pair = run_pair(frame + d, frame, source);
        result.device_seconds += pair.device_seconds;
        ++result.pairs;
        results.push_back({d, frames_.at(frame + d)->luma.view(), std::move(pair.field), source.get()});
    }
    const PlaneView current = frames_.at(frame)->luma.view();
    result.decided = decide_references(results, current, options_.params, references_.distances);
    const Plane prediction = predict_decided(result.decided, current.width, current.height,
                                             [&](int d) { return frames_.at(frame + d)->luma.view(); });
    result.mc_psnr_db = luma_psnr(prediction.view(), current);
    if (references_.both_directions) {
        PairResult backward = run_pair(frame, frame - 1, previous_backward_);
        result.device_seconds += backward.device_seconds;
        ++result.pairs;
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
