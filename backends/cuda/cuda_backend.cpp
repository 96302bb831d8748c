// The CUDA backend: devices cuda:0, cuda:1, ... found through the statically linked CUDA runtime, so
// that a machine with no NVIDIA driver still runs xme and is told why the backend is unavailable.
#include "cuda_backend.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <charconv>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_session.hpp"
#include "dct_runner.hpp"
#include "device_frames.hpp"
#include "kernels.hpp"
#include "partition_runner.hpp"
#include "pinned_planes.hpp"
#include "rate_fast.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"

namespace xme {
namespace cuda {
namespace {

constexpr int kOldestSupported = 75;  // compute capability 7.5 (GeForce GTX 16xx, Turing)

const std::vector<std::string>& variant_names() {
    // The first is the default. Half-pel refinement is bit-exact in all of them (fast-texture included:
    // see hpel_texture.cu), so every one is checked with tolerance 0.
    // p41-positions runs SPEC §9's partitions alone (partition_runner.hpp).
    static const std::vector<std::string> names{"fast",   "fast-texture", "global",
                                                "shared", "candidate",    kPositionsVariant};
    return names;
}

bool driver_library_present() {
    void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (library == nullptr) return false;
    dlclose(library);
    return true;
}

// Why cudaGetDeviceCount failed, in words, with CUDA's own text.
std::string count_failure_reason(cudaError_t error) {
    const std::string detail = std::string("(cudaGetDeviceCount: ") + cudaGetErrorString(error) + ")";
    if (error == cudaErrorNoDevice) return "no NVIDIA GPU found " + detail;
    if (!driver_library_present()) return "no NVIDIA driver found " + detail;
    if (error == cudaErrorInsufficientDriver) {
        return "the NVIDIA driver is older than this build's CUDA runtime (" +
               std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) +
               ") needs: update the driver " + detail;
    }
    return "CUDA could not start " + detail;
}

DeviceInfo unavailable(const std::string& name, const std::string& reason) {
    DeviceInfo info;
    info.name = name;
    info.backend = "cuda";
    info.available = false;
    info.unavailable_reason = reason;
    return info;
}

std::string gib(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

DeviceInfo describe_device(int ordinal) {
    const std::string name = "cuda:" + std::to_string(ordinal);
    cudaDeviceProp prop{};
    const cudaError_t error = cudaGetDeviceProperties(&prop, ordinal);
    if (error != cudaSuccess) return unavailable(name, "cudaGetDeviceProperties failed: " + describe(error));
    const int capability = 10 * prop.major + prop.minor;
    DeviceInfo info;
    info.name = name;
    info.backend = "cuda";
    info.description = std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
                       gib(prop.totalGlobalMem) + ", compute capability " + std::to_string(prop.major) + "." +
                       std::to_string(prop.minor);
    info.variants = variant_names();
    info.former_variant_names = {{"p41-002", kPositionsVariant}};  // named after its design document
    info.preference = 100 + prop.multiProcessorCount;  // any GPU before the CPU (10); the larger GPU first
    if (capability < kOldestSupported) {
        info.available = false;
        info.unavailable_reason = info.description + ": compute capability " + std::to_string(prop.major) +
                                  "." + std::to_string(prop.minor) +
                                  " is older than 7.5, the oldest this build supports";
    }
    return info;
}

std::vector<DeviceInfo> list_devices() {
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        return {unavailable("cuda", count_failure_reason(error))};
    }
    if (count == 0) return {unavailable("cuda", "no NVIDIA GPU found (cudaGetDeviceCount found 0 devices)")};
    std::vector<DeviceInfo> devices;
    for (int i = 0; i < count; ++i) devices.push_back(describe_device(i));
    return devices;
}

class CudaDevice final : public Device {
public:
    CudaDevice(int ordinal, DeviceInfo info) : ordinal_(ordinal), info_(std::move(info)) {
        const CallSite site{info_.name, -1, {}};
        XME_CUDA_CHECK(cudaGetDeviceProperties(&prop_, ordinal_), site);
        // The context now, while the job is being set up: created lazily, its ~0.1 s (H100 machine)
        // fell on the first frame's pinned allocation and a job's stages counted it as reading.
        XME_CUDA_CHECK(cudaSetDevice(ordinal_), site);
        XME_CUDA_CHECK(cudaFree(nullptr), site);
    }

    [[nodiscard]] const DeviceInfo& info() const override { return info_; }

    [[nodiscard]] Support supports(const SessionOptions& options) const override {
        const SearchParams& p = options.params;
        const std::string variant = variant_named(info_, options);
        if (p.partitions == Partitions::all || variant == kPositionsVariant)
            return partition_support(info_, variant, options);
        // A fast search runs only through its row of the table of search kernels (search_kernels.cpp).
        if (p.search != SearchMethod::full && find_search_launcher(p.search) == nullptr)
            return search_kernel_support(info_.name, p.search, false);
        if (!uses_records(p)) return full_search_chains_only(info_, options);
        // SPEC §8's rate term, predictors and centre, §10's quarter-pel: the fast variants' kernels
        // (rate_fast.hpp, qpel_refine.hpp).
        SessionOptions without_rate = options;
        without_rate.params.lambda = 0;
        without_rate.params.predictor = Predictor::none;
        without_rate.params.centre = WindowCentre::zero;
        if (p.subpel == Subpel::qpel) without_rate.params.subpel = Subpel::none;
        without_rate.params.search = SearchMethod::full;
        Support support = full_search_chains_only(info_, without_rate);
        if (!support.supported) return support;
        if (variant != "fast" && variant != "fast-texture") {
            return Support::no(
                info_.name + " variant " + variant +
                " is a seed's kernel for SPEC §3's cost alone; the rate term, predictors and "
                "window centre of SPEC §8, the quarter-pel refinement of §10 and the fast searches "
                "of §11 (every search but fs) run on variants fast and fast-texture");
        }
        return support;
    }

    // SPEC §12-§13 after the search (device_compensation.hpp), for every chain this device runs; after
    // SPEC §9's partitions too, from a block-4 grid of the chosen partitions' vectors.
    [[nodiscard]] Support supports_compensation(const SessionOptions& options) const override {
        return supports(options);
    }

    [[nodiscard]] std::unique_ptr<MotionSession> open_session(const SessionOptions& options) override {
        require_supported(supports(options));
        SessionConfig config;
        config.ordinal = ordinal_;
        config.device_name = info_.name;
        config.variant = parse_variant(checked_variant(info_, options));
        config.options = options;
        config.texture_alignment = prop_.textureAlignment > 0 ? prop_.textureAlignment : 512;
        if (config.variant == Variant::fast_texture) check_texture_size(options);
        return open_cuda_session(config);
    }

    [[nodiscard]] std::optional<SadPeak> measure_sad_peak() override {
        cudaError_t error = cudaSuccess;
        const char* call = "";
        const double rate = measure_vabsdiff4_per_second(ordinal_, &error, &call);
        check(error, call, CallSite{info_.name, -1, {}});
        return SadPeak{"vabsdiff4", 4.0 * rate};
    }

    // SPEC §13: both variants, bit-identical with the reference (dct_1d.cuh, dct_kernels.cu).
    [[nodiscard]] Support supports_transform(TransformAlgorithm) const override { return Support::yes(); }
    void transform_blocks(TransformAlgorithm algorithm, TransformDirection direction,
                          std::span<Block8x8> blocks) override {
        if (direction == TransformDirection::forward) check_forward_inputs(blocks);
        transforms_.run(algorithm, direction, blocks);
    }

    // One pool for every CUDA device of the process: pinned portable memory is every GPU's.
    [[nodiscard]] std::shared_ptr<PlaneMemory> plane_memory() override {
        static const std::shared_ptr<PinnedPlanes> shared = std::make_shared<PinnedPlanes>();
        return shared;
    }

private:
    void check_texture_size(const SessionOptions& options) const {
        const FrameLayout layout =
            make_layout(options.width, options.height, options.params.block_size, options.params.range);
        const int max_width = prop_.maxTexture2DLinear[0];
        const int max_height = prop_.maxTexture2DLinear[1];
        if (layout.pitch > max_width || layout.rows > max_height) {
            throw Error(ErrorKind::unsupported,
                        info_.name + ": variant fast-texture binds the padded frame (" +
                            std::to_string(layout.pitch) + "x" + std::to_string(layout.rows) +
                            ") as a texture, larger than this GPU's " + std::to_string(max_width) + "x" +
                            std::to_string(max_height) +
                            " limit: use variant fast, or a smaller frame or range");
        }
    }

    int ordinal_;
    DeviceInfo info_;
    cudaDeviceProp prop_{};
    DctRunner transforms_{ordinal_, info_.name};  // after ordinal_ and info_, which it copies
};

class CudaBackend final : public Backend {
public:
    [[nodiscard]] std::string name() const override { return "cuda"; }
    [[nodiscard]] std::vector<DeviceInfo> devices() override { return list_devices(); }

    [[nodiscard]] std::unique_ptr<Device> open(std::string_view device_name) override {
        for (auto& info : list_devices()) {
            if (info.name != device_name) continue;
            if (!info.available)
                throw Error(ErrorKind::device, info.name + " is unavailable: " + info.unavailable_reason);
            int ordinal = 0;
            const std::string_view digits = device_name.substr(device_name.find(':') + 1);
            std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
            return std::make_unique<CudaDevice>(ordinal, std::move(info));
        }
        throw Error(ErrorKind::device, "the CUDA backend has no device " + std::string(device_name));
    }
};

}  // namespace
}  // namespace cuda

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<cuda::CudaBackend>(); }

}  // namespace xme
