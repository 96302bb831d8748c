#include "sad_peak.hpp"

#include <chrono>

#include "push_constants.hpp"
#include "sad_peak_half_pairs_spv.hpp"
#include "sad_peak_spv.hpp"

namespace xme::vulkan {

SadPeak measure_sad_peak(Context& context, bool half_pairs) {
    constexpr std::uint32_t groups = 2048;
    constexpr std::uint32_t invocations = groups * 256;
    constexpr double chains = 8;
    Buffer sink(context, invocations * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::device,
                "the SAD peak's results");
    const Pipeline& pipeline = context.pipeline(half_pairs ? shaders::sad_peak_half_pairs : shaders::sad_peak, {},
                                                push_constant_layout<SadPeakParams>());
    DescriptorSets sets(context, pipeline, 1);
    sets.write(0, {{"SadPeakResult", {}, {}, sink.get()}});
    // Grow the run until it is long enough to time with the host clock around submit and wait.
    double seconds = 0;
    SadPeakParams params;
    params.iterations = 16;
    for (;;) {
        CommandBuffer commands(context);
        commands.begin("the SAD peak");
        pipeline.bind_and_push(commands.get(), sets[0], params);
        context.api().vkCmdDispatch(commands.get(), groups, 1, 1);
        commands.end("the SAD peak");
        const auto start = std::chrono::steady_clock::now();
        commands.submit("the SAD peak");
        commands.wait("the SAD peak");
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds >= 0.1 || params.iterations >= (1 << 24)) break;
        params.iterations *= seconds < 0.01 ? 8 : 2;
    }
    const double pixels = invocations * chains * params.iterations * (half_pairs ? 2.0 : 1.0);
    return {half_pairs ? "f16vec2 sub + abs-add (no packed SAD in GLSL)" : "float sub + abs-add (no packed SAD in GLSL)",
            pixels / seconds};
}

}  // namespace xme::vulkan
