// A session on one CUDA device: frames resident by id, three pairs in flight.
//
// Streams: `upload_` copies frames from pinned staging to the device, `compute_` pads them and runs the
// search and refinement kernels, `download_` copies the keys back. Events order them per pair, so the
// upload of the next pair and the download of the last one overlap the current pair's kernels.
// submit() copies the planes into pinned staging (they are only valid until receive()), enqueues
// everything and returns; receive() waits for the oldest pair's download.
//
// PairResult::device_seconds: CUDA events around this pair's kernels on the compute stream: padding
// of newly uploaded frames, the integer search and the refinement, and the compensation chain when the
// session computes it (device_compensation.hpp). Copies are not included.
#include "cuda_session.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "cuda_check.hpp"
#include "device_compensation.hpp"
#include "device_frames.hpp"
#include "kernels.hpp"
#include "mean_pyramid.cuh"
#include "partition_runner.hpp"
#include "pinned_planes.hpp"
#include "qpel_refine.hpp"
#include "rate_fast.hpp"
#include "rate_key.cuh"
#include "xme/accounting.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"
#include "xme/operations.hpp"
#include "xme/result_guard.hpp"
#include "xme/search_key.hpp"
#include "xme/session_support.hpp"

namespace xme::cuda {

Variant parse_variant(const std::string& name) {
    if (name == "fast-texture") return Variant::fast_texture;
    if (name == "global") return Variant::global;
    if (name == "shared") return Variant::shared;
    if (name == "candidate") return Variant::candidate;
    if (name == kPositionsVariant) return Variant::p41_positions;
    return Variant::fast;
}

bool uses_records(const SearchParams& p) {
    return p.lambda > 0 || p.predictor != Predictor::none || p.centre != WindowCentre::zero ||
           p.subpel == Subpel::qpel || p.search != SearchMethod::full;
}

namespace {

constexpr int kStages = 3;  // pairs in flight

bool uses_expanded(Variant v) {
    return v == Variant::fast || v == Variant::fast_texture || v == Variant::p41_positions;
}

// Records are downloaded straight into MotionField::blocks.
static_assert(sizeof(MotionRecord) == sizeof(BlockMotion) &&
              offsetof(MotionRecord, mv_x) == offsetof(BlockMotion, mv_x) &&
              offsetof(MotionRecord, mv_y) == offsetof(BlockMotion, mv_y) &&
              offsetof(MotionRecord, cost) == offsetof(BlockMotion, cost) &&
              offsetof(MotionRecord, candidates) == offsetof(BlockMotion, candidates));

std::size_t round_up_bytes(std::size_t n, std::size_t multiple) {
    return (n + multiple - 1) / multiple * multiple;
}

// Where a rate-term search leaves its result: MotionRecords, or the fast kernel's keys (rate_fast.hpp),
// which the host decodes and the next temporal predictor reads as they are.
enum class RateResult { records, keys };

class CudaSession final : public MotionSession {
public:
    explicit CudaSession(const SessionConfig& config)
        : config_(config),
          params_(config.options.params),
          site_{config.device_name, -1, frame_size_text(config)},
          device_selected_(select_device(config.ordinal, site_)),
          layout_(
              make_layout(config.options.width, config.options.height, params_.block_size, params_.range)),
          frames_(layout_,
                  FrameExtras{uses_expanded(config.variant), config.variant == Variant::fast_texture,
                              config.texture_alignment, has(chain_needs(params_), Need::mean_pyramid)},
                  resident_frame_count(config.options), site_) {
        blocks_x_ = blocks_across(config.options.width, params_.block_size);
        blocks_y_ = blocks_across(config.options.height, params_.block_size);
        const std::size_t raw_bytes =
            static_cast<std::size_t>(layout_.width) * static_cast<std::size_t>(layout_.height);
        const auto blocks = static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_);
        const std::size_t key_bytes = sizeof(std::uint64_t) * blocks;
        // SPEC §9's partitions write records of their own (partition_runner.hpp), never keys or records.
        partitions_ = params_.partitions == Partitions::all;
        rate_ = !partitions_ && uses_records(params_);
        const std::size_t record_bytes = rate_ ? sizeof(MotionRecord) * blocks : 0;
        if (uses_expanded(config.variant)) dy_ranks_ = make_rank_table(params_.range, site_);
        upload_ = make_stream(site_);
        compute_ = make_stream(site_);
        download_ = make_stream(site_);
        if (rate_) {
            rows_ = RateRows{rate_row_stride(params_.range), rate_rank_bits(params_.range)};
            wavefront_ = allocate_device(sizeof(int) * static_cast<std::size_t>(blocks_y_ + 1), site_);
        }
        // One pinned and one device allocation per stage: keys first (8-byte aligned), guard bytes the
        // kernels must leave alone (xme/result_guard.hpp), 2 raw frames; with a rate term then the
        // records (guarded too) and the previous pair's records when the host gives them.
        const std::size_t keys_end = key_bytes + result_guard_bytes;
        const std::size_t records_at = round_up_bytes(keys_end + 2 * raw_bytes, 8);
        const std::size_t previous_at = round_up_bytes(records_at + record_bytes + result_guard_bytes, 8);
        const std::size_t stage_bytes = rate_ ? previous_at + record_bytes : keys_end + 2 * raw_bytes;
        for (Stage& s : stages_) {
            s.host_memory = allocate_pinned(stage_bytes, site_);
            s.device_memory = allocate_device(stage_bytes, site_);
            auto* host = static_cast<std::uint8_t*>(s.host_memory.get());
            auto* device = static_cast<std::uint8_t*>(s.device_memory.get());
            s.keys_host = reinterpret_cast<std::uint64_t*>(host);
            s.keys = reinterpret_cast<std::uint64_t*>(device);
            for (std::size_t i = 0; i < 2; ++i) {
                s.staging[i] = host + keys_end + i * raw_bytes;
                s.raw[i] = device + keys_end + i * raw_bytes;
            }
            fill_result_guard(host + key_bytes);
            XME_CUDA_CHECK(
                cudaMemcpy(device + key_bytes, host + key_bytes, result_guard_bytes, cudaMemcpyHostToDevice),
                site_);
            if (rate_) {
                s.records_host = reinterpret_cast<MotionRecord*>(host + records_at);
                s.records = reinterpret_cast<MotionRecord*>(device + records_at);
                s.previous_host = reinterpret_cast<MotionRecord*>(host + previous_at);
                s.previous = reinterpret_cast<MotionRecord*>(device + previous_at);
                fill_result_guard(host + records_at + record_bytes);
                XME_CUDA_CHECK(
                    cudaMemcpy(device + records_at + record_bytes, host + records_at + record_bytes,
                               result_guard_bytes, cudaMemcpyHostToDevice),
                    site_);
            }
            s.uploaded = make_event(false, site_);
            s.computed = make_event(false, site_);
            s.done = make_event(false, site_);
            s.start = make_event(true, site_);
            s.stop = make_event(true, site_);
        }
        if (partitions_) {
            partition_runner_ = std::make_unique<PartitionRunner>(
                params_, config.variant == Variant::p41_positions, blocks_x_ * blocks_y_, kStages, site_);
        }
        // SPEC §12-§13 after the search, on the device (CudaDevice::supports_compensation says which).
        if (config.options.compensation) {
            compensation_.emplace(layout_, cost_kind_of(params_).distortion == Distortion::satd, partitions_,
                                  *config.options.compensation, kStages, site_);
        }
    }

    CudaSession(const CudaSession&) = delete;
    CudaSession& operator=(const CudaSession&) = delete;

    ~CudaSession() override {
        // Nothing may be freed while the device still uses it; errors here are reported by no one.
        static_cast<void>(cudaSetDevice(config_.ordinal));
        for (const Stream* s : {&upload_, &compute_, &download_}) {
            if (s->get() != nullptr) static_cast<void>(cudaStreamSynchronize(s->get()));
        }
    }

    // in_flight_'s way to finish a pair (defined before its uses: its type is deduced).
    [[nodiscard]] auto finisher() {
        return [this](std::size_t stage, std::int64_t current_id) { return finish(stage, current_id); };
    }

    void submit(const FramePair& pair) override {
        check_usable();
        check_pair_size(config_.options, pair);
        try {
            enqueue(pair);
        } catch (...) {
            broken_ = true;
            frames_.forget();
            throw;
        }
    }

    PairResult receive() override {
        in_flight_.require_pending();
        check_usable();
        try {
            return in_flight_.receive(finisher());
        } catch (...) {
            broken_ = true;
            throw;
        }
    }

    [[nodiscard]] std::size_t pending() const override { return in_flight_.pending(); }

private:
    struct Stage {
        PinnedMemory host_memory;
        DeviceMemory device_memory;
        std::array<std::uint8_t*, 2> staging{};  // raw frames, host side (in host_memory)
        std::array<std::uint8_t*, 2> raw{};      // raw frames, device side, read by the pad kernel
        std::uint64_t* keys = nullptr;           // per block, device side
        std::uint64_t* keys_host = nullptr;
        MotionRecord* records = nullptr;  // rate term: per block, device side
        MotionRecord* records_host = nullptr;
        MotionRecord* previous = nullptr;  // rate term: the previous pair's records from the host
        MotionRecord* previous_host = nullptr;
        bool rate_keys_out = false;  // search_with_rate left RateResult::keys, not records
        int frames_taken_in = 0;     // PairResult::frames_taken_in
        Event uploaded, computed, done, start, stop;
    };

    static std::string frame_size_text(const SessionConfig& c) {
        return "a " + std::to_string(c.options.width) + "x" + std::to_string(c.options.height) +
               " frame, block " + std::to_string(c.options.params.block_size) + ", range " +
               std::to_string(c.options.params.range) + " (variant " +
               (c.options.variant.empty() ? std::string("default") : c.options.variant) + ")";
    }

    static bool select_device(int ordinal, const CallSite& site) {
        XME_CUDA_CHECK(cudaSetDevice(ordinal), site);
        return true;
    }

    void check_usable() const {
        if (broken_) {
            throw Error(ErrorKind::device,
                        config_.device_name + ": this session stopped after an earlier device error");
        }
    }

    void enqueue(const FramePair& pair) {
        CallSite site = site_;
        site.frame = pair.current_id;
        static_cast<void>(select_device(config_.ordinal, site));
        const int stage_index = static_cast<int>(in_flight_.next_slot(finisher()));
        Stage& s = stages_[static_cast<std::size_t>(stage_index)];

        // A frame already resident is never evicted for the other frame of the same pair.
        struct Upload {
            int slot;
            PlaneView plane;
        };
        std::vector<Upload> uploads;
        const ResidentFrameSlots::PairSlots placed = frames_.place(pair.reference_id, pair.current_id);
        const int reference = placed.reference;
        const int current = placed.current;
        if (placed.reference_claimed) uploads.push_back({reference, pair.reference});
        if (placed.current_claimed) uploads.push_back({current, pair.current});
        s.frames_taken_in = frames_taken_in(placed);

        const std::size_t raw_bytes =
            static_cast<std::size_t>(layout_.width) * static_cast<std::size_t>(layout_.height);
        for (std::size_t u = 0; u < uploads.size(); ++u) {
            std::uint8_t* staging = s.staging[u];
            const PlaneView& plane = uploads[u].plane;
            // A tightly packed pinned plane (a reader filled Device::plane_memory) goes up as it is:
            // FramePair's planes stay valid until the pair's result is received, after its upload.
            if (plane.stride == plane.width && is_pinned(plane.data)) {
                XME_CUDA_CHECK(
                    cudaMemcpyAsync(s.raw[u], plane.data, raw_bytes, cudaMemcpyHostToDevice, upload_.get()),
                    site);
                continue;
            }
            for (int y = 0; y < plane.height; ++y) {
                std::memcpy(staging + static_cast<std::size_t>(y) * static_cast<std::size_t>(plane.width),
                            plane.row(y), static_cast<std::size_t>(plane.width));
            }
            XME_CUDA_CHECK(
                cudaMemcpyAsync(s.raw[u], staging, raw_bytes, cudaMemcpyHostToDevice, upload_.get()), site);
        }
        if (!uploads.empty()) {
            XME_CUDA_CHECK(cudaEventRecord(s.uploaded.get(), upload_.get()), site);
            XME_CUDA_CHECK(cudaStreamWaitEvent(compute_.get(), s.uploaded.get(), 0), site);
        }

        XME_CUDA_CHECK(cudaEventRecord(s.start.get(), compute_.get()), site);
        for (std::size_t u = 0; u < uploads.size(); ++u) {
            check_launch(launch_pad_frame(s.raw[u], layout_, frames_.frame(uploads[u].slot), compute_.get()),
                         "pad_frame_kernel<<<>>>", site);
            if (has(chain_needs(params_), Need::mean_pyramid)) {
                check_launch(
                    launch_mean_pyramid(s.raw[u], layout_, frames_.frame(uploads[u].slot), compute_.get()),
                    "mean_pyramid_kernel<<<>>>", site);
            }
        }
        SearchJob job = make_job(frames_.frame(reference), frames_.frame(current), s.keys);
        const std::size_t key_bytes = sizeof(std::uint64_t) * static_cast<std::size_t>(blocks_x_ * blocks_y_);
        if (partitions_) {
            partition_runner_->launch(job, pair, stage_index, compute_.get(), site);
        } else if (rate_) {
            job.records = s.records;
            job.rate = rate_term(pair, s, site);
            s.rate_keys_out = search_with_rate(job, key_bytes, site) == RateResult::keys;
        } else {
            search(job, key_bytes, site);
        }
        if (compensation_ && partitions_) {
            compensation_->enqueue_partitions(
                stage_index, job, partition_runner_->device_records(stage_index), compute_.get(), site);
        } else if (compensation_) {
            compensation_->enqueue(stage_index, job, rate_ ? s.records : nullptr, compute_.get(), site);
        }
        XME_CUDA_CHECK(cudaEventRecord(s.stop.get(), compute_.get()), site);
        XME_CUDA_CHECK(cudaEventRecord(s.computed.get(), compute_.get()), site);
        XME_CUDA_CHECK(cudaStreamWaitEvent(download_.get(), s.computed.get(), 0), site);
        if (partitions_) {
            partition_runner_->download(stage_index, download_.get(), site);
        } else if (rate_ && !s.rate_keys_out) {
            const std::size_t record_bytes =
                sizeof(MotionRecord) * static_cast<std::size_t>(blocks_x_ * blocks_y_);
            XME_CUDA_CHECK(cudaMemcpyAsync(s.records_host, s.records, record_bytes + result_guard_bytes,
                                           cudaMemcpyDeviceToHost, download_.get()),
                           site);
            last_records_ = s.records;
            last_keys_ = nullptr;
        } else {
            XME_CUDA_CHECK(cudaMemcpyAsync(s.keys_host, s.keys, key_bytes + result_guard_bytes,
                                           cudaMemcpyDeviceToHost, download_.get()),
                           site);
            if (rate_) last_keys_ = s.keys, last_records_ = nullptr;
        }
        if (compensation_) compensation_->enqueue_download(stage_index, download_.get(), site);
        XME_CUDA_CHECK(cudaEventRecord(s.done.get(), download_.get()), site);

        in_flight_.submitted(pair.current_id);
    }

    void search(const SearchJob& job, std::size_t key_bytes, const CallSite& site) {
        switch (config_.variant) {
            case Variant::global:
                check_launch(launch_full_search_global(job, compute_.get()),
                             "full_search_global_kernel<<<>>>", site);
                break;
            case Variant::shared:
                check_launch(launch_full_search_shared(job, compute_.get()),
                             "full_search_shared_kernel<<<>>>", site);
                break;
            case Variant::candidate:
                check_launch(launch_full_search_candidate(job, compute_.get()),
                             "full_search_candidate_kernel<<<>>>", site);
                break;
            case Variant::fast:
            case Variant::fast_texture:
            case Variant::p41_positions:  // runs partitions only (partition_support): never here
                XME_CUDA_CHECK(cudaMemsetAsync(job.keys, 0xFF, key_bytes, compute_.get()), site);
                check_launch(launch_full_search_fast(job, compute_.get()), "full_search_fast_kernel<<<>>>",
                             site);
                break;
        }
        if (params_.subpel != Subpel::hpel) return;
        if (config_.variant == Variant::fast_texture) {
            check_launch(launch_hpel_texture(job, compute_.get()), "hpel_texture_kernel<<<>>>", site);
        } else {
            check_launch(launch_hpel_exact(job, compute_.get()), "hpel_exact_kernel<<<>>>", site);
        }
    }

    // SPEC §8 for this pair: p (the temporal predictor from the previous pair's result, none at a
    // segment's start), the wavefront of the spatial predictor and of the predictor set, and the set's
    // previous field (T, none at a segment's start). The previous pair's result is resident when this
    // session computed that pair, uploaded when the host gives it.
    RateTerm rate_term(const FramePair& pair, Stage& s, const CallSite& site) {
        RateTerm rate;
        rate.active = true;
        rate.lambda = params_.lambda;
        rate.spatial = params_.predictor == Predictor::spatial;
        rate.wavefront_order = needs_wavefront(params_);
        rate.predictor_set = has(chain_needs(params_), Need::predictor_set);
        rate.centre_on_predictor = params_.centre == WindowCentre::predictor;
        rate.wavefront = static_cast<int*>(wavefront_.get());
        predictor_bound_ = 4 * params_.range + 3;  // |p| of any result of these options centred on 0
        if (!needs_previous_field(params_) || pair.segment_start) return rate;
        const bool temporal = params_.predictor == Predictor::temporal;
        const MotionRecord* previous = nullptr;
        if (pair.previous) {
            const MotionField& field = *pair.previous;
            if (field.blocks.size() !=
                static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_)) {
                throw Error(ErrorKind::invalid_argument,
                            config_.device_name + ": the previous pair's result has " +
                                std::to_string(field.blocks.size()) + " blocks, this session's frames " +
                                std::to_string(blocks_x_ * blocks_y_));
            }
            if (temporal) {
                int largest = 0;
                for (const BlockMotion& b : field.blocks)
                    largest = std::max({largest, std::abs(b.mv_x), std::abs(b.mv_y)});
                predictor_bound_ = largest;
            }
            std::memcpy(s.previous_host, field.blocks.data(), sizeof(MotionRecord) * field.blocks.size());
            XME_CUDA_CHECK(
                cudaMemcpyAsync(s.previous, s.previous_host, sizeof(MotionRecord) * field.blocks.size(),
                                cudaMemcpyHostToDevice, compute_.get()),
                site);
            previous = s.previous;
        } else if (last_keys_ != nullptr) {  // the last pair's result stayed in keys (search_with_rate)
            // Only fs chains leave keys, and none of them reads the predictor set.
            if (rate.predictor_set) {
                throw Error(ErrorKind::device, config_.device_name + ", frame " +
                                                   std::to_string(pair.current_id) +
                                                   ": internal error: the previous pair's result is in keys");
            }
            if (temporal) {
                rate.temporal_keys = last_keys_;
                rate.key_range = params_.range;
            }
            return rate;
        } else if (last_records_ != nullptr) {
            previous = last_records_;
        } else {
            throw Error(ErrorKind::invalid_argument,
                        config_.device_name + ", frame " + std::to_string(pair.current_id) + ": " +
                            (temporal ? "the temporal predictor" : "SPEC §8's predictor set") +
                            " needs the previous pair's result, and this session has computed none: give "
                            "FramePair::previous, or mark the pair as a segment start");
        }
        if (temporal) rate.temporal = previous;
        if (rate.predictor_set) rate.previous = previous;
        return rate;
    }

    // The rate-constrained chains (rate_fast.hpp says which kernel takes which). Returns whether the
    // result is in job.records; else it is the fast kernel's keys (no refinement), which the host decodes
    // and the next pair's temporal predictor reads: a keys-to-records launch less per pair (3 µs, H100).
    RateResult search_with_rate(const SearchJob& job, std::size_t key_bytes, const CallSite& site) {
        const bool half_pel = params_.subpel == Subpel::hpel;
        const Refinement refinement = half_pel                         ? Refinement::half
                                      : params_.subpel == Subpel::qpel ? Refinement::quarter
                                                                       : Refinement::none;
        // The wavefront's row counters and ticket start at 0 (rate_common.cuh).
        if (job.rate.wavefront_order) {
            XME_CUDA_CHECK(
                cudaMemsetAsync(job.rate.wavefront, 0, sizeof(int) * static_cast<std::size_t>(blocks_y_ + 1),
                                compute_.get()),
                site);
        }
        if (params_.search != SearchMethod::full) {
            // CudaDevice::supports refused a search without a walk before the session opened.
            const SearchLauncher* launch = find_search_launcher(params_.search);
            if (launch == nullptr)
                require_supported(search_kernel_support(config_.device_name, params_.search, false));
            check_launch((*launch)(job, refinement, compute_.get()), "walk_search_kernel<<<>>>", site);
            return RateResult::records;
        }
        const bool fast = !job.rate.wavefront_order && !job.rate.centre_on_predictor &&
                          fast_rate_fits(params_.block_size, params_.range, params_.lambda, predictor_bound_);
        if (!fast) {
            check_launch(launch_full_search_block(job, refinement, compute_.get()),
                         "full_search_block_kernel<<<>>>", site);
            return RateResult::records;
        }
        XME_CUDA_CHECK(cudaMemsetAsync(job.keys, 0xFF, key_bytes, compute_.get()), site);
        if (refinement == Refinement::quarter && params_.lambda == 0 &&
            params_.predictor == Predictor::none) {
            // (J, |mv - p|, y, x) with J = SAD and p = 0 is the plain key's order: its kernel, without the
            // rate rows, then the refinement from its keys (fs+qpel 4-5 µs less per 1080p frame, H100).
            check_launch(launch_full_search_fast(job, compute_.get()), "full_search_fast_kernel<<<>>>", site);
            check_launch(launch_qpel_refine_plain_keys(job, compute_.get()), "qpel_refine_kernel<<<>>>",
                         site);
            return RateResult::records;
        }
        check_launch(launch_full_search_fast_rate(job, rows_, compute_.get()),
                     "full_search_fast_kernel<<<>>>", site);
        if (refinement == Refinement::quarter) {  // reads the keys itself: no records kernel
            check_launch(launch_qpel_refine_keys(job, compute_.get()), "qpel_refine_kernel<<<>>>", site);
            return RateResult::records;
        }
        // Keys alone serve the host and the next temporal predictor; compensation reads records.
        if (!half_pel && !compensation_) return RateResult::keys;
        check_launch(launch_rate_records(job, compute_.get()), "rate_records_kernel<<<>>>", site);
        if (!half_pel) return RateResult::records;
        if (config_.variant == Variant::fast_texture) {
            check_launch(launch_hpel_texture(job, compute_.get()), "hpel_texture_kernel<<<>>>", site);
        } else {
            check_launch(launch_hpel_exact(job, compute_.get()), "hpel_exact_kernel<<<>>>", site);
        }
        return RateResult::records;
    }

    static void check_launch(cudaError_t error, const char* kernel, const CallSite& site) {
        check(error, kernel, site);
    }

    SearchJob make_job(const DeviceFrame& reference, const DeviceFrame& current, std::uint64_t* keys) const {
        const std::ptrdiff_t origin =
            static_cast<std::ptrdiff_t>(layout_.margin_y) * layout_.pitch + layout_.margin_x;
        SearchJob job;
        job.layout = layout_;
        job.current = current.pixels + origin;
        job.reference = reference.pixels + origin;
        job.reference_words = reference.expanded != nullptr ? reference.expanded + origin : nullptr;
        job.reference_texture = reference.texture;
        job.dy_ranks = dy_ranks_.get() != nullptr
                           ? static_cast<const std::uint32_t*>(dy_ranks_.get()) + params_.range
                           : nullptr;
        job.block_size = params_.block_size;
        job.range = params_.range;
        job.restrict_border = params_.border == BorderMode::restrict;
        job.blocks_x = blocks_x_;
        job.blocks_y = blocks_y_;
        job.keys = keys;
        for (int level = 0; level < 2; ++level) {  // ehds's pyramid (null otherwise)
            job.pyramid.current[level] = current.levels[level];
            job.pyramid.reference[level] = reference.levels[level];
            job.pyramid.width[level] = pyramid_side(layout_.width, level + 1);
            job.pyramid.height[level] = pyramid_side(layout_.height, level + 1);
        }
        return job;
    }

    // Waits for the pair in `stage` and turns its records or keys into its result.
    PairResult finish(std::size_t stage, std::int64_t current_id) {
        CallSite site = site_;
        site.frame = current_id;
        static_cast<void>(select_device(config_.ordinal, site));
        Stage& s = stages_[stage];
        XME_CUDA_CHECK(cudaEventSynchronize(s.done.get()), site);
        float milliseconds = 0;
        XME_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, s.start.get(), s.stop.get()), site);
        PairResult result;
        result.field = field_of(static_cast<int>(stage), current_id);
        result.device_seconds = static_cast<double>(milliseconds) * 1e-3;
        result.frames_taken_in = s.frames_taken_in;
        if (compensation_) result.compensation = compensation_->result(static_cast<int>(stage));
        return result;
    }

    MotionField field_of(int stage, std::int64_t current_id) {
        const Stage& s = stages_[static_cast<std::size_t>(stage)];
        MotionField field(config_.options.width, config_.options.height, params_.block_size,
                          cost_kind_of(params_));
        const auto no_result = [&](std::size_t block) {
            return Error(ErrorKind::device, config_.device_name + ", frame " + std::to_string(current_id) +
                                                ": internal error: block " + std::to_string(block) +
                                                " got no result");
        };
        if (partitions_) {
            partition_runner_->fill(stage, field, config_.device_name);
            return field;
        }
        if (rate_ && !s.rate_keys_out) {
            std::memcpy(static_cast<void*>(field.blocks.data()), s.records_host,
                        sizeof(MotionRecord) * field.blocks.size());
            for (std::size_t i = 0; i < field.blocks.size(); ++i) {
                if (field.blocks[i].candidates == 0) throw no_result(i);
            }
            check_result_guard(s.records_host + field.blocks.size(),
                               config_.device_name + "'s block records");
            return field;
        }
        const std::uint64_t* keys = s.keys_host;
        for (std::size_t i = 0; i < field.blocks.size(); ++i) {
            const std::uint64_t key = keys[i];
            if (key == ~std::uint64_t{0}) throw no_result(i);
            if (rate_) {  // the fast rate kernel's packed winner (rate_key.cuh)
                field.blocks[i] = motion_of_fast_rate_key<BlockMotion>(key, params_.range);
            } else {
                field.blocks[i] = motion_of_search_key<BlockMotion>(key);
            }
        }
        check_result_guard(keys + field.blocks.size(), config_.device_name + "'s block keys");
        set_full_search_candidates(field, config_.options.width, config_.options.height, params_);
        return field;
    }

    SessionConfig config_;
    SearchParams params_;
    CallSite site_;
    bool device_selected_;  // cudaSetDevice before the first allocation
    FrameLayout layout_;
    ResidentFrames frames_;
    DeviceMemory dy_ranks_;
    bool rate_ = false;        // SPEC §8's chains: records instead of keys
    bool partitions_ = false;  // SPEC §9: the partition runner's records
    std::unique_ptr<PartitionRunner> partition_runner_;
    RateRows rows_;                               // the fast path's key layout
    DeviceMemory wavefront_;                      // SPEC §8's wavefront: row counters, ticket
    const MotionRecord* last_records_ = nullptr;  // the last pair's results on the device
    const std::uint64_t* last_keys_ = nullptr;    // or its fast rate keys (Stage::rate_keys_out)
    int predictor_bound_ = 0;                     // largest |p| component of this pair (quarter-pel)
    int blocks_x_ = 0;
    int blocks_y_ = 0;
    Stream upload_, compute_, download_;
    std::array<Stage, kStages> stages_;
    std::optional<DeviceCompensation> compensation_;  // SessionOptions::compensation on the device
    InFlightPairs in_flight_{kStages};
    bool broken_ = false;
};

}  // namespace

std::unique_ptr<MotionSession> open_cuda_session(const SessionConfig& config) {
    return std::make_unique<CudaSession>(config);
}

}  // namespace xme::cuda
