// xme_vulkan_forms: the peak rate of each candidate SAD formulation (shaders/sad_forms.comp) on
// vulkan:N, in pixel differences per second, to choose the fast kernel's arithmetic by measurement.
//   xme_vulkan_forms [N]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "context.hpp"
#include "instance.hpp"
#include "sad_forms_10_spv.hpp"
#include "sad_forms_11_spv.hpp"
#include "sad_forms_12_spv.hpp"
#include "sad_forms_1_spv.hpp"
#include "sad_forms_2_spv.hpp"
#include "sad_forms_3_spv.hpp"
#include "sad_forms_4_spv.hpp"
#include "sad_forms_5_spv.hpp"
#include "sad_forms_6_spv.hpp"
#include "sad_forms_7_spv.hpp"
#include "sad_forms_8_spv.hpp"
#include "sad_forms_9_spv.hpp"
#include "sad_peak.hpp"
#include "xme/error.hpp"

int main(int argc, char** argv) {
    using namespace xme::vulkan;
    const int index = argc > 1 ? std::atoi(argv[1]) : 0;
    try {
        Context context(Instance::create(), index);
        std::printf("%s: float16 %d, int16 %d\n", context.name().c_str(), context.float16(), context.int16());
        struct Form {
            const ShaderBinary& shader;
            double pixels;
            const char* name;
            bool needs_float16;
            bool needs_int16;
        };
        const Form forms[] = {
            {shaders::sad_forms_1, 1, "float: sub, abs-add (chained)", false, false},
            {shaders::sad_forms_8, 1, "float: acc += |x - o| (independent sub)", false, false},
            {shaders::sad_forms_2, 2, "f16vec2: sub, abs-add (chained)", true, false},
            {shaders::sad_forms_3, 2, "f16vec2: acc += |x - o| (independent sub)", true, false},
            {shaders::sad_forms_4, 1.5, "half f16vec2, half float chains", true, false},
            {shaders::sad_forms_5, 1, "int: abs(a - b) + acc", false, false},
            {shaders::sad_forms_6, 2, "i16vec2: abs(a - b) + acc", false, true},
            {shaders::sad_forms_7, 1, "uint: max - min + acc", false, false},
            // Pixels per chain step, averaged over the 8 chains: a SWAR word is 4 pixels.
            {shaders::sad_forms_9, 4, "uint SWAR: sum of the bytes' min", false, false},
            {shaders::sad_forms_10, (7 * 2 + 1 * 4) / 8.0, "mixed: 7 f16vec2 + 1 SWAR chains", true, false},
            {shaders::sad_forms_11, (6 * 2 + 2 * 4) / 8.0, "mixed: 6 f16vec2 + 2 SWAR chains", true, false},
            {shaders::sad_forms_12, (6 * 2 + 2 * 1) / 8.0, "mixed: 6 f16vec2 + 2 int chains", true, false},
        };
        for (const Form& form : forms) {
            if ((form.needs_float16 && !context.float16()) || (form.needs_int16 && !context.int16())) {
                std::printf("%-45s not supported\n", form.name);
                continue;
            }
            const auto peak = measure_arithmetic_peak(context, form.shader, form.pixels, form.name);
            context.check_validation(form.name);
            std::printf("%-45s %10.1f Gpx/s\n", form.name, peak.pixels_per_second * 1e-9);
        }
    } catch (const xme::Error& e) {
        std::fprintf(stderr, "xme_vulkan_forms: %s\n", e.what());
        return e.exit_code();
    }
    return 0;
}
