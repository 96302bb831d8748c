#include "sad_peak.hpp"

#include <algorithm>
#include <chrono>

#include "push_constants.hpp"
#include "sad_forms_3_spv.hpp"
#include "sad_forms_8_spv.hpp"

namespace xme::vulkan {

SadPeak measure_sad_peak(Context& context, bool half_pairs) {
    return measure_arithmetic_peak(context, half_pairs ? shaders::sad_forms_3 : shaders::sad_forms_8,
                                   half_pairs ? 2.0 : 1.0,
                                   half_pairs ? "f16vec2 acc += |c - r| (no packed SAD in GLSL)"
                                              : "float acc += |c - r| (no packed SAD in GLSL)");
}

SadPeak measure_arithmetic_peak(Context& context, const ShaderBinary& shader, double pixels_per_step,
                                const std::string& name) {
    constexpr std::uint32_t groups = 2048;
    constexpr std::uint32_t invocations = groups * 256;
    constexpr double chains = 8;
    Buffer sink(context, invocations * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::device,
                "the SAD peak's results");
    const Pipeline& pipeline = context.pipeline(shader, {}, push_constant_layout<SadPeakParams>());
    DescriptorSets sets(context, pipeline, 1);
    sets.write(0, {{"SadPeakResult", {}, {}, sink.get()}});
    SadPeakParams params;
    params.iterations = 16;
    const auto timed_run = [&] {
        CommandBuffer commands(context);
        commands.begin("the SAD peak");
        pipeline.bind_and_push(commands.get(), sets[0], params);
        context.api().vkCmdDispatch(commands.get(), groups, 1, 1);
        commands.end("the SAD peak");
        const auto start = std::chrono::steady_clock::now();
        commands.submit("the SAD peak");
        commands.wait("the SAD peak");
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    // Grow the run until it is long enough to time with the host clock around submit and wait, then
    // keep the best of a few more: an idle GPU is still raising its clocks during the first ones.
    double seconds = timed_run();
    while (seconds < 0.1 && params.iterations < (1 << 24)) {
        params.iterations *= seconds < 0.01 ? 8 : 2;
        seconds = timed_run();
    }
    for (int run = 0; run < 3; ++run) seconds = std::min(seconds, timed_run());
    const double pixels = invocations * chains * params.iterations * pixels_per_step;
    return {name, pixels / seconds};
}

}  // namespace xme::vulkan
