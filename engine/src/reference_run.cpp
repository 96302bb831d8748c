// SPEC §14 on one device (xme/reference_run.hpp): each reference is an ordinary pair of the device's
// session, so every device runs §14 with the kernels it runs §1-§13 with.
#include "xme/reference_run.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "xme/error.hpp"
#include "xme/metrics.hpp"
#include "xme/operations.hpp"

namespace xme {
namespace {

// luma_psnr's exact sum of squared differences, by bands of 16 rows.
double band_psnr(PlaneView prediction, PlaneView current, BandWorkers& workers) {
    constexpr int rows = 16;
    const int bands = (current.height + rows - 1) / rows;
    std::vector<std::uint64_t> sums(static_cast<std::size_t>(bands));
    workers.run(bands, [&](int band) {
        const int y0 = band * rows;
        const int height = std::min(rows, current.height - y0);
        const PlaneView a{prediction.data + static_cast<std::ptrdiff_t>(y0) * prediction.stride,
                          prediction.width, height, prediction.stride};
        const PlaneView b{current.data + static_cast<std::ptrdiff_t>(y0) * current.stride, current.width,
                          height, current.stride};
        sums[static_cast<std::size_t>(band)] = squared_error(a, b);
    });
    std::uint64_t total = 0;
    for (const std::uint64_t sum : sums) total += sum;
    return psnr_of_squared_error(static_cast<double>(total), current.width, current.height);
}

}  // namespace

ReferenceRun::ReferenceRun(Device& device, const SessionOptions& options, ReferenceOptions references)
    : options_(options), references_(std::move(references)) {
    options_.resident_frames = references_.resident_frames();
    options_.params.validate();
    references_.validate(options_.params);
    reads_previous_ = needs_previous_field(options_.params);
    const Support support = device.supports(options_);
    if (!support.supported) throw Error(ErrorKind::unsupported, device.info().name + ": " + support.reason);
    session_ = device.open_session(options_);
    workers_ = std::make_unique<BandWorkers>(options_.threads);
}

std::vector<DecidedFrame> ReferenceRun::feed(std::shared_ptr<const Frame> frame) {
    const std::int64_t index = last_fed_ < 0 ? first_ : last_fed_ + 1;
    frames_[index] = std::move(frame);
    last_fed_ = index;
    std::vector<DecidedFrame> decided;
    // Frame f's pairs go in flight once its furthest future reference has come (or, in finish(), the
    // run ended).
    const std::int64_t future = references_.furthest_future();
    while (next_ + future <= last_fed_) submit_frame(next_++, last_fed_, decided);
    forget_old_frames();
    return decided;
}

std::vector<DecidedFrame> ReferenceRun::finish() {
    std::vector<DecidedFrame> decided;
    while (next_ <= last_fed_) submit_frame(next_++, last_fed_, decided);
    while (!pending_.empty()) complete_oldest(decided);
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

void ReferenceRun::submit_frame(std::int64_t frame, std::int64_t last, std::vector<DecidedFrame>& decided) {
    PendingFrame pending;
    pending.frame = frame;
    for (const int d : references_.distances) {
        if (frame + d >= first_ && frame + d <= last) pending.available.push_back(d);
    }
    if (pending.available.empty()) return;  // no reference in the run: not estimated (§14)
    // A chain that reads the frame before's result needs its decision before its pairs go: then each
    // frame is decided before the next is submitted. Otherwise the next frame's pairs run on the device
    // while the host decides this one.
    if (reads_previous_) {
        while (!pending_.empty()) complete_oldest(decided);
    }
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
    const std::vector<int>& available = pending.available;
    pending.order.resize(available.size());  // indices into `available`
    std::iota(pending.order.begin(), pending.order.end(), std::size_t{0});
    std::sort(pending.order.begin(), pending.order.end(),
              [&](std::size_t a, std::size_t b) { return available[a] < available[b]; });
    pending.temporal.resize(available.size());  // alive until received
    for (const std::size_t r : pending.order) {
        if (reads_previous_ && previous_)
            pending.temporal[r] =
                std::make_shared<const MotionField>(scaled_temporal_field(*previous_, available[r]));
        submit_pair(frame + available[r], frame, pending.temporal[r]);
    }
    if (references_.both_directions)
        submit_pair(frame, frame - 1, reads_previous_ ? previous_backward_ : nullptr);
    pending_.push_back(std::move(pending));
    while (pending_.size() > 1) complete_oldest(decided);
}

void ReferenceRun::complete_oldest(std::vector<DecidedFrame>& decided) {
    const PendingFrame pending = std::move(pending_.front());
    pending_.pop_front();
    const std::int64_t frame = pending.frame;
    DecidedFrame result;
    result.frame = frame;
    result.current = frames_.at(frame);
    const auto receive = [&] {
        PairResult pair = session_->receive();
        result.device_seconds += pair.device_seconds;
        result.frames_taken_in += pair.frames_taken_in;
        ++result.pairs;
        return pair;
    };
    std::vector<ReferenceResult> results(pending.available.size());
    for (const std::size_t r : pending.order) {
        const int d = pending.available[r];
        results[r] = {d, frames_.at(frame + d)->luma.view(), receive().field, pending.temporal[r].get()};
    }
    const PlaneView current = frames_.at(frame)->luma.view();
    result.decided =
        decide_references(results, current, options_.params, references_.distances, workers_.get());
    auto prediction = std::make_shared<const Plane>(predict_decided(
        result.decided, current.width, current.height,
        [&](int d) { return frames_.at(frame + d)->luma.view(); }, workers_.get()));
    result.mc_psnr_db = band_psnr(prediction->view(), current, *workers_);
    result.prediction = std::move(prediction);
    if (references_.both_directions) {
        PairResult backward = receive();
        result.consistency = consistency(results.front().field, backward.field);
        result.backward = std::make_shared<const MotionField>(std::move(backward.field));
        previous_backward_ = result.backward;  // the next pair's temporal predictor reads it as it is
    }
    previous_ = result.decided;
    decided.push_back(std::move(result));
}

void ReferenceRun::forget_old_frames() {
    // The frames no pending or later frame can reference (the backward pair reads frame - 1 as its
    // current).
    const std::int64_t oldest_open = pending_.empty() ? next_ : pending_.front().frame;
    const std::int64_t oldest = oldest_open - std::max(references_.furthest_past(), 1);
    while (!frames_.empty() && frames_.begin()->first < oldest) frames_.erase(frames_.begin());
}

}  // namespace xme
