// Motion between the first two frames of a video, on the best device this machine has.
#include <iostream>

#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: estimate_two_frames VIDEO\n";
        return 2;
    }
    try {
        auto video = xme::open_video(argv[1]);
        const auto reference = video->read_frame();
        const auto current = video->read_frame();
        if (!reference || !current) throw xme::Error(xme::ErrorKind::bad_input, "the video needs two frames");

        xme::Registry registry = xme::make_builtin_registry();
        auto device = registry.open("auto");  // or "cpu", "cuda:0", "vulkan:0"
        xme::SessionOptions options;
        options.params = {.block_size = 16, .range = 16, .subpel = xme::Subpel::hpel};
        options.width = current->width();
        options.height = current->height();
        const xme::MotionField field =
            xme::estimate_pair(*device, options, reference->luma.view(), current->luma.view());

        const xme::BlockMotion& centre = field.at(field.blocks_x / 2, field.blocks_y / 2);
        std::cout << device->info().name << ": the centre block moved by (" << centre.mv_x / 4.0 << ", "
                  << centre.mv_y / 4.0 << ") pixels; SAD " << centre.cost / double(field.cost_scale()) << "\n";
    } catch (const xme::Error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return e.exit_code();
    }
}
