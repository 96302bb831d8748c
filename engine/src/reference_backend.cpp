// The scalar reference as a device, so that any job can be run on the oracle itself
// (`xme estimate --backend reference`) and any backend compared with it on real video.
#include "reference_backend.hpp"

#include <chrono>

#include "xme/dct.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"
#include "xme/reference.hpp"
#include "xme/reference_ops.hpp"
#include "xme/session_support.hpp"

namespace xme {
namespace {

DeviceInfo describe_reference() {
    DeviceInfo info;
    info.name = "reference";
    info.backend = "reference";
    info.description =
        "the scalar reference of docs/SPEC.md: slow, literal, the oracle every backend is tested against";
    info.variants = {"scalar"};
    info.preference = 0;  // never chosen automatically
    info.on_host_cores = true;
    return info;
}

class ReferenceSession final : public SynchronousSession {
public:
    explicit ReferenceSession(const SessionOptions& options) : options_(options) {
        static_cast<void>(resident_frame_count(options));  // checked as every session does
    }

protected:
    PairResult compute(const FramePair& pair) override {
        const auto start = std::chrono::steady_clock::now();
        const MotionField* previous =
            previous_field_of(pair, options_.params, computed_any_ ? &last_ : nullptr, "reference");
        PairResult result{pair.current_id,
                          reference::estimate(pair.reference, pair.current, options_.params, previous), 0};
        result.frames_taken_in = 2;  // it keeps nothing: both frames are read afresh for every pair
        result.device_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        last_ = result.field;
        computed_any_ = true;
        return result;
    }

private:
    SessionOptions options_;
    MotionField last_;  // this session's last result: the previous field of its next pair (SPEC §8)
    bool computed_any_ = false;
};

class ReferenceDevice final : public Device {
public:
    [[nodiscard]] const DeviceInfo& info() const override { return info_; }
    // The reference defines every chain of the searches it has a kernel for (every row of
    // search_methods.def).
    [[nodiscard]] Support supports(const SessionOptions& options) const override {
        return search_kernel_support(info_.name, options.params.search,
                                     reference::has_search_kernel(options.params.search));
    }
    [[nodiscard]] std::unique_ptr<MotionSession> open_session(const SessionOptions& options) override {
        static_cast<void>(checked_variant(info_, options));
        require_supported(supports(options));
        return std::make_unique<ReferenceSession>(options);
    }
    // SPEC §13's transforms are defined by the reference's arithmetic.
    [[nodiscard]] Support supports_transform(TransformAlgorithm) const override { return Support::yes(); }
    void transform_blocks(TransformAlgorithm algorithm, TransformDirection direction,
                          std::span<Block8x8> blocks) override {
        if (direction == TransformDirection::forward) check_forward_inputs(blocks);
        for (Block8x8& block : blocks) {
            block = reference::transform_block(algorithm, direction, block);
        }
    }

private:
    DeviceInfo info_ = describe_reference();
};

class ReferenceBackend final : public Backend {
public:
    [[nodiscard]] std::string name() const override { return "reference"; }
    [[nodiscard]] std::vector<DeviceInfo> devices() override { return {describe_reference()}; }
    [[nodiscard]] std::unique_ptr<Device> open(std::string_view device_name) override {
        if (device_name != "reference") {
            throw Error(ErrorKind::device, "the reference backend has no device " + std::string(device_name));
        }
        return std::make_unique<ReferenceDevice>();
    }
};

}  // namespace

std::unique_ptr<Backend> make_reference_backend() { return std::make_unique<ReferenceBackend>(); }

}  // namespace xme
