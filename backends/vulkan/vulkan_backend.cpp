// The Vulkan backend: devices listed as vulkan:N, opened into a Context, sessions per variant.
#include "xme/vulkan_backend.hpp"

#include <charconv>
#include <cstdio>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "context.hpp"
#include "dct_transform.hpp"
#include "device_compensation.hpp"
#include "filter_probe.hpp"
#include "instance.hpp"
#include "sad_peak.hpp"
#include "search_plan.hpp"
#include "session.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"

namespace xme {
namespace vulkan {
namespace {

class VulkanDevice final : public Device {
public:
    VulkanDevice(const std::shared_ptr<Instance>& instance, int index)
        : context_(std::make_shared<Context>(instance, index)), info_(describe_device(*instance, index)) {
        // The legacy variant's half-pel samples come from the sampler; tested bit-exactly where exact.
        filter_error_ = measure_filter_error(*context_);
        if (filter_error_ == 0) {
            info_.description += ", exact half-pel filtering";
        } else {
            char grey[32];
            std::snprintf(grey, sizeof grey, "%g",
                          filter_error_ / 4.0);  // cost4 units are quarter grey levels
            info_.description += std::string(", half-pel filtering off by up to ") + grey + " grey level";
        }
        context_->check_validation("while probing the filtering of " + context_->name());
    }

    [[nodiscard]] const DeviceInfo& info() const override { return info_; }

    // SPEC §6: the legacy variant's half-pel samples come from the sampler, off by at most the probe's
    // error per pixel (cost4 units), so its fs+hpel vectors may cost that much more per pixel.
    // SPEC §8 (rate term, predictors, centred window), §10's quarter-pel refinement and §11's fast
    // searches in the fast variant only (rate_search.comp, or the strip kernel's rate key); legacy is SPEC
    // §5's distortion-only design.
    [[nodiscard]] Support supports(const SessionOptions& options) const override {
        // A search without a shader in shaders/searches/ runs on no variant.
        if (!has_search_kernel(options.params.search))
            return search_kernel_support(info_.name, options.params.search, false);
        const bool legacy = options.variant == "legacy";
        const int b = options.params.block_size;
        if (legacy) {
            if (uses_rate_search(options.params)) {
                return Support::no(info_.name +
                                   "'s legacy variant (SPEC §5) has no rate term or predictor (SPEC §8): "
                                   "use variant fast, or --backend cpu");
            }
            return full_search_chains_only(info_, options, static_cast<std::uint32_t>(filter_error_ * b * b),
                                           "fast");
        }
        // The fast variant: every search of its table (shaders/searches/), alone, +hpel or +qpel, with every
        // SPEC §8 setting; and the partitions (gpu_partition_support).
        if (options.params.partitions != Partitions::all) return Support::yes();
        return gpu_partition_support(info_.name, options.params);
    }

    // SPEC §12-§13 after the search, in the same command buffer (device_compensation.hpp), for every
    // chain and variant this device runs, where the frame's tile planes fit a storage buffer; after
    // SPEC §9's partitions from a block-4 grid of the chosen partitions' vectors.
    [[nodiscard]] Support supports_compensation(const SessionOptions& options) const override {
        const Support support = supports(options);
        if (!support.supported) return support;
        return compensation_support(*context_, options);
    }

    // SPEC §13, both variants (shaders/dct.comp).
    [[nodiscard]] Support supports_transform(TransformAlgorithm /*variant*/) const override {
        return Support::yes();
    }
    void transform_blocks(TransformAlgorithm algorithm, TransformDirection direction,
                          std::span<Block8x8> blocks) override {
        if (direction == TransformDirection::forward) check_forward_inputs(blocks);
        transforms_.run(algorithm, direction, blocks);
    }

    [[nodiscard]] std::unique_ptr<MotionSession> open_session(const SessionOptions& options) override {
        require_supported(supports(options));
        return open(options, {});
    }

    // The arithmetic of the default (fast) variant, in the form its search uses on this device.
    [[nodiscard]] std::optional<SadPeak> measure_sad_peak() override {
        const SadPeak peak = vulkan::measure_sad_peak(
            *context_, context_->float16() && context_->type() != VK_PHYSICAL_DEVICE_TYPE_CPU);
        context_->check_validation("while measuring the SAD peak of " + context_->name());
        return peak;
    }

    [[nodiscard]] std::unique_ptr<MotionSession> open(const SessionOptions& options,
                                                      const SessionTuning& tuning) {
        // A compensation this device does not compute is left to open_compensating_session's host path.
        SessionOptions own = options;
        if (own.compensation && !supports_compensation(own).supported) own.compensation.reset();
        return std::make_unique<VulkanSession>(context_, own, checked_variant(info_, own), tuning);
    }

private:
    std::shared_ptr<Context> context_;
    DeviceInfo info_;
    int filter_error_ = 0;  // the filter probe's largest error, cost4 units per pixel
    DctTransform transforms_{context_};
};

class VulkanBackend final : public Backend {
public:
    [[nodiscard]] std::string name() const override { return "vulkan"; }

    [[nodiscard]] std::vector<DeviceInfo> devices() override {
        std::vector<DeviceInfo> listing;
        try {
            const auto& vulkan = instance();
            for (std::size_t i = 0; i < vulkan->physical_devices().size(); ++i) {
                listing.push_back(describe_device(*vulkan, static_cast<int>(i)));
            }
        } catch (const Error& e) {
            DeviceInfo info;
            info.name = "vulkan";
            info.backend = "vulkan";
            info.available = false;
            info.unavailable_reason = e.what();
            listing = {info};
        }
        return listing;
    }

    [[nodiscard]] std::unique_ptr<Device> open(std::string_view device_name) override {
        const std::string_view prefix = "vulkan:";
        int index = -1;
        if (device_name.substr(0, prefix.size()) == prefix) {
            const auto digits = device_name.substr(prefix.size());
            const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
            if (error != std::errc() || end != digits.data() + digits.size()) index = -1;
        }
        const auto& vulkan = instance();
        if (index < 0 || static_cast<std::size_t>(index) >= vulkan->physical_devices().size()) {
            throw Error(ErrorKind::device, "the Vulkan backend has no device " + std::string(device_name) +
                                               ": it has vulkan:0.." + "vulkan:" +
                                               std::to_string(vulkan->physical_devices().size() - 1));
        }
        return std::make_unique<VulkanDevice>(vulkan, index);
    }

private:
    // Under a lock: the scheduler opens a job's devices from several threads at once.
    std::shared_ptr<Instance> instance() {
        const std::lock_guard lock(instance_mutex_);
        if (!instance_) instance_ = Instance::create();
        return instance_;
    }

    std::mutex instance_mutex_;
    std::shared_ptr<Instance> instance_;
};

}  // namespace

std::unique_ptr<MotionSession> open_tuned_session(Device& device, const SessionOptions& options,
                                                  const SessionTuning& tuning) {
    auto* vulkan_device = dynamic_cast<VulkanDevice*>(&device);
    if (vulkan_device == nullptr) {
        throw Error(ErrorKind::invalid_argument,
                    device.info().name + " is not a device of the Vulkan backend");
    }
    return vulkan_device->open(options, tuning);
}

bool fast_variant_uses_strip_kernel(const SearchParams& params) { return !uses_block_search(params); }

}  // namespace vulkan

std::unique_ptr<Backend> make_vulkan_backend() { return std::make_unique<vulkan::VulkanBackend>(); }

}  // namespace xme
