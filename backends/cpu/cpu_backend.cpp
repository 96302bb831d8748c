// The CPU backend: OpenMP threads over groups of blocks, SIMD inside each group (full_search_*.cpp).
#include <omp.h>

#include <array>
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "chain_estimate.hpp"
#include "cpu_features.hpp"
#include "full_search.hpp"
#include "full_search_hpel.hpp"
#include "integer_search.hpp"
#include "padded_frame.hpp"
#include "xme/accounting.hpp"
#include "xme/backend.hpp"
#include "xme/dct.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"
#include "xme/operations.hpp"
#include "xme/result_guard.hpp"
#include "xme/search_key.hpp"
#include "xme/session_support.hpp"

namespace xme {
namespace cpu {
namespace {

std::string processor_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown processor";
}

DeviceInfo describe_cpu() {
    DeviceInfo info;
    info.name = "cpu";
    info.backend = "cpu";
    info.variants = supported_kernels();
    info.description = processor_name() + ", " + std::to_string(omp_get_max_threads()) +
                       " threads, SAD kernel " + info.variants.front();
    info.preference = 10;  // below any GPU
    info.on_host_cores = true;
    return info;
}

// Keeps the padded copies of the last SessionOptions::resident_frames frames by id, so that a frame that
// is the current frame of one pair and the reference of the next (or of SPEC §14's next references) is
// padded once.
class PaddedFrameCache {
public:
    explicit PaddedFrameCache(std::size_t resident_frames)
        : slots_(resident_frames), frames_(resident_frames) {}

    struct Pair {
        const PaddedFrame* reference;
        const PaddedFrame* current;
        int frames_taken_in;
    };
    Pair get(const FramePair& pair, int margin, int width, int height) {
        const ResidentFrameSlots::PairSlots slots = slots_.place(pair.reference_id, pair.current_id);
        try {
            // The slot's memory again: no fresh pages a pair.
            if (slots.reference_claimed) frame(slots.reference).assign(pair.reference, margin, width, height);
            if (slots.current_claimed) frame(slots.current).assign(pair.current, margin, width, height);
        } catch (...) {
            slots_.forget();
            throw;
        }
        return {&frame(slots.reference), &frame(slots.current), frames_taken_in(slots)};
    }

private:
    PaddedFrame& frame(int slot) { return frames_[static_cast<std::size_t>(slot)]; }
    ResidentFrameSlots slots_;
    std::vector<PaddedFrame> frames_;
};

// The fast full search's SIMD kernels cover the integer search of fs without a rate term or predictor;
// every other chain runs on the operations path (chain_estimate.hpp).
bool fast_full_search(const SearchParams& params) {
    return params.search == SearchMethod::full && params.lambda == 0 && params.predictor == Predictor::none &&
           params.partitions == Partitions::none;
}

class CpuSession final : public SynchronousSession {
public:
    CpuSession(const SessionOptions& options, const std::string& kernel_name)
        : options_(options),
          kernel_(find_kernel(kernel_name)),
          threads_(options.threads > 0 ? options.threads : omp_get_max_threads()),
          chain_(options.params, kernel_name, threads_, resident_frame_count(options)),
          frames_(resident_frame_count(options)) {
        const int b = options.params.block_size;
        blocks_x_ = blocks_across(options.width, b);
        blocks_y_ = blocks_across(options.height, b);
        const int width = group_width(kernel_, b);
        groups_ = (blocks_x_ * b + width - 1) / width;
        scratch_words_ = scratch_words(kernel_, options.params.range);
        scratch_.resize(scratch_words_ * static_cast<std::size_t>(threads_));
        // The keys, then guard words the kernels must leave alone (xme/result_guard.hpp).
        const std::size_t blocks = static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_);
        keys_.resize(blocks + result_guard_bytes / sizeof(std::uint64_t));
        fill_result_guard(keys_.data() + blocks);
        // Start the thread pool now, so that its start-up is not charged to the first pair.
#pragma omp parallel num_threads(threads_)
        static_cast<void>(omp_get_thread_num());
    }

protected:
    PairResult compute(const FramePair& pair) override {
        check_pair_size(options_, pair);
        const auto start = std::chrono::steady_clock::now();
        if (!fast_full_search(options_.params)) return compute_chain(pair, start);
        int taken_in = 0;
        const SearchFrames frames = pad(pair, taken_in);
        const bool refine = options_.params.subpel == Subpel::hpel;
        PairResult result{pair.current_id,
                          MotionField(options_.width, options_.height, options_.params.block_size,
                                      cost_kind_of(options_.params)),
                          0};
        const int blocks = blocks_x_ * blocks_y_;
#pragma omp parallel num_threads(threads_)
        {
            std::uint64_t* scratch =
                scratch_.data() + scratch_words_ * static_cast<std::size_t>(omp_get_thread_num());
#pragma omp for schedule(dynamic) collapse(2)
            for (int row = 0; row < blocks_y_; ++row) {
                for (int group = 0; group < groups_; ++group) {
                    kernel_.search_group(frames, row, group, keys_.data(), scratch);
                }
            }
#pragma omp for schedule(static)
            for (int i = 0; i < blocks; ++i) {
                const std::uint64_t key = keys_[static_cast<std::size_t>(i)];
                result.field.blocks[static_cast<std::size_t>(i)] =
                    refine ? refine_full_search_hpel(frames, options_.width, options_.height, i % blocks_x_,
                                                     i / blocks_x_, key)
                           : motion_of_search_key<BlockMotion>(key);
            }
        }
        check_result_guard(keys_.data() + blocks, "the CPU backend's block keys");
        if (options_.params.subpel == Subpel::qpel) {
            chain_.refine(
                pair, result.field,
                {frames.current, frames.reference, frames.stride, padding_margin(options_.params.range)});
        }
        set_full_search_candidates(result.field, options_.width, options_.height, options_.params);
        result.frames_taken_in = taken_in;
        result.device_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

private:
    PairResult compute_chain(const FramePair& pair, std::chrono::steady_clock::time_point start) {
        const MotionField* previous = previous_field_of(pair, options_.params, last_.get(), "cpu");
        PairResult result{pair.current_id, chain_.estimate(pair, previous), 0};
        result.frames_taken_in = chain_.frames_taken_in();
        if (needs_previous_field(options_.params)) last_ = std::make_shared<MotionField>(result.field);
        result.device_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    SearchFrames pad(const FramePair& pair, int& taken_in) {
        const int b = options_.params.block_size;
        const int margin = padding_margin(options_.params.range);
        const int width = groups_ * group_width(kernel_, b);
        const int height = blocks_y_ * b;
        const auto [reference_frame, current_frame, frames_taken_in] =
            frames_.get(pair, margin, width, height);
        taken_in = frames_taken_in;
        const PaddedFrame& current = *current_frame;
        const PaddedFrame& reference = *reference_frame;
        return {current.origin(), reference.origin(), current.stride(), blocks_x_ * b,
                height,           blocks_x_,          blocks_y_,        options_.params};
    }

    SessionOptions options_;
    SearchKernel kernel_;
    int threads_ = 1;
    ChainEstimator chain_;
    std::shared_ptr<const MotionField> last_;
    int blocks_x_ = 0;
    int blocks_y_ = 0;
    int groups_ = 0;
    std::size_t scratch_words_ = 0;
    std::vector<std::uint64_t> scratch_;
    std::vector<std::uint64_t> keys_;
    PaddedFrameCache frames_;
};

const char* sad_instruction(const std::string& kernel) {
    if (kernel == "avx512bw") return "vpsadbw zmm";
    if (kernel == "avx2") return "vpsadbw ymm";
    if (kernel == "sse2") return "psadbw xmm";
    return "portable 8-byte SAD";
}

// Every thread runs independent chains of the default kernel's SAD instruction for a fixed time.
SadPeak measure_kernel_sad_peak(const std::string& kernel_name) {
    const SearchKernel kernel = find_kernel(kernel_name);
    std::uint8_t seed[128];
    for (int i = 0; i < 128; ++i) seed[i] = static_cast<std::uint8_t>(i * 37 + 11);
    std::uint64_t iterations = 1 << 16;
    double seconds = 0;
    std::uint64_t instructions = 0;
    while (seconds < 0.2) {  // grow the run until it is long enough to time
        iterations *= 2;
        instructions = 0;
        const auto start = std::chrono::steady_clock::now();
#pragma omp parallel reduction(+ : instructions)
        instructions += kernel.run_sad_chains(iterations, seed);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return {sad_instruction(kernel_name), static_cast<double>(instructions) * kernel.vector_bytes / seconds};
}

class CpuDevice final : public Device {
public:
    [[nodiscard]] const DeviceInfo& info() const override { return info_; }
    [[nodiscard]] std::optional<SadPeak> measure_sad_peak() override {
        return measure_kernel_sad_peak(info_.variants.front());
    }
    [[nodiscard]] Support supports(const SessionOptions& options) const override {
        // Every chain of SPEC §8-§11 whose search has a kernel in searches/, partitions (§9) included,
        // bit-exact with the reference.
        return search_kernel_support(info_.name, options.params.search,
                                     find_search_kernel(options.params.search) != nullptr);
    }
    [[nodiscard]] std::unique_ptr<MotionSession> open_session(const SessionOptions& options) override {
        require_supported(supports(options));
        return std::make_unique<CpuSession>(options, checked_variant(info_, options));
    }
    // SPEC §13: each variant's arithmetic as the engine writes it down, over every core (blocks are
    // independent); not yet vectorised (docs/cpu.md, "Transforms").
    [[nodiscard]] Support supports_transform(TransformAlgorithm) const override { return Support::yes(); }
    void transform_blocks(TransformAlgorithm algorithm, TransformDirection direction,
                          std::span<Block8x8> blocks) override {
        if (direction == TransformDirection::forward) check_forward_inputs(blocks);  // no throw inside OpenMP
        const auto count = static_cast<std::ptrdiff_t>(blocks.size());
#pragma omp parallel for schedule(static) if (count >= 256)
        for (std::ptrdiff_t b = 0; b < count; ++b) {
            Block8x8& block = blocks[static_cast<std::size_t>(b)];
            block = reference::transform_block(algorithm, direction, block);
        }
    }

private:
    DeviceInfo info_ = describe_cpu();
};

class CpuBackend final : public Backend {
public:
    [[nodiscard]] std::string name() const override { return "cpu"; }
    [[nodiscard]] std::vector<DeviceInfo> devices() override { return {describe_cpu()}; }
    [[nodiscard]] std::unique_ptr<Device> open(std::string_view device_name) override {
        if (device_name != "cpu")
            throw Error(ErrorKind::device, "the CPU backend has no device " + std::string(device_name));
        return std::make_unique<CpuDevice>();
    }
};

}  // namespace
}  // namespace cpu

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<cpu::CpuBackend>(); }

}  // namespace xme
