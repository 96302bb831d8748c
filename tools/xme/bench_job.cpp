#include "bench_job.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "xme/accounting.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/metrics.hpp"
#include "xme/scheduler.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

int synthetic_texture_width(int width, int count) { return width + 3 * (count - 1); }
int synthetic_texture_height(int height, int count) { return height + count - 1; }

// A textured scene panning by a few pixels per frame, with sensor noise: real-looking motion
// without an input file. Fixed seed: every device sees the same frames.
std::vector<Plane> synthetic_frames(int width, int height, int count) {
    std::mt19937 rng(12345);
    // The scene moves 3 pixels right and 1 down a frame: the texture holds what the last frame sees.
    Plane texture(synthetic_texture_width(width, count), synthetic_texture_height(height, count));
    std::uniform_int_distribution<int> pixel(0, 255);
    for (int y = 0; y < texture.height(); ++y) {
        for (int x = 0; x < texture.width(); ++x) {
            // Smooth along x (a running blend) so SAD landscapes have structure, not only noise.
            const int left = x > 0 ? texture.at(x - 1, y) : pixel(rng);
            texture.at(x, y) = static_cast<std::uint8_t>((left * 3 + pixel(rng)) / 4);
        }
    }
    std::uniform_int_distribution<int> noise(-3, 3);
    std::vector<Plane> frames;
    for (int t = 0; t < count; ++t) {
        Plane frame(width, height);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) {
                const int value = texture.at(x + 3 * t, y + t) + noise(rng);
                frame.at(x, y) = static_cast<std::uint8_t>(std::clamp(value, 0, 255));
            }
        }
        frames.push_back(std::move(frame));
    }
    return frames;
}

// The first `count` frames of the input video, tiled by edge replication to the benchmark size.
std::vector<Plane> video_frames(const std::vector<Plane>& clip, int width, int height, int count) {
    std::vector<Plane> frames;
    for (int i = 0; i < count; ++i) {
        Plane plane(width, height);
        const PlaneView luma = clip.at(static_cast<std::size_t>(i)).view();
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) plane.at(x, y) = luma.at_clamped(x, y);
        }
        frames.push_back(std::move(plane));
    }
    return frames;
}

SearchParams with_cell(SearchParams chain, int block, int range, BorderMode border) {
    chain.block_size = block;
    chain.range = range;
    chain.border = border;
    return chain;
}

// `count` frames of each size of the grid (synthetic, or the clip's), made once for every device and
// round.
std::vector<std::vector<Plane>> frames_by_size(const BenchSettings& settings, int count) {
    std::vector<std::vector<Plane>> frames;
    for (const auto& [width, height] : settings.sizes) {
        frames.push_back(settings.input.empty() ? synthetic_frames(width, height, count)
                                                : video_frames(settings.clip, width, height, count));
    }
    return frames;
}

// The grid's cells, frame size outermost (its frames from frames_by_size), then each chain at each block
// size and range.
template <typename Visit>
void for_each_cell(const BenchSettings& settings, const std::vector<std::vector<Plane>>& frames_of_size,
                   const Visit& visit) {
    for (const std::vector<Plane>& frames : frames_of_size) {
        for (const auto& chain : settings.chains) {
            for (const int block : settings.blocks) {
                for (const int range : settings.ranges)
                    visit(frames, with_cell(chain, block, range, settings.border));
            }
        }
    }
}

BenchRow time_cell(Device& device, const std::string& variant, const SearchParams& params,
                   const std::vector<Plane>& frames, int threads,
                   const std::optional<CompensationRequest>& compensation, double warm_up_seconds) {
    const int width = frames.front().width();
    const int height = frames.front().height();
    auto session = open_compensating_session(device, {params, variant, threads, width, height, compensation});
    auto pair = [&](std::size_t i) {
        FramePair p{static_cast<std::int64_t>(i - 1), frames[i - 1].view(), static_cast<std::int64_t>(i),
                    frames[i].view()};
        // The temporal predictor flows from each pair to the next, across the refresh period.
        p.segment_start =
            params.refresh > 0 ? (i - 1) % static_cast<std::size_t>(params.refresh) == 0 : i == 1;
        return p;
    };
    // Warm-up: allocation, first upload, module load, then the first pair again and again (two in
    // flight, so that the device never idles) until the device has worked warm_up_seconds. Its last
    // result is the first pair's, the temporal predictor of the first timed pair.
    const auto warm_up_start = std::chrono::steady_clock::now();
    session->submit(pair(1));
    const auto warming = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - warm_up_start).count() <
               warm_up_seconds;
    };
    if (warming()) session->submit(pair(1));
    MotionField warm_up;
    int warm_up_pairs = 0;
    while (session->pending() > 0) {
        warm_up = session->receive().field;
        ++warm_up_pairs;
        if (warming()) session->submit(pair(1));
    }
    BenchRow row;
    row.warm_up_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - warm_up_start).count();
    row.warm_up_pairs = warm_up_pairs;
    row.device = device.info().name;
    row.device_description = device.info().description;
    row.variant = variant;
    row.params = params;
    row.width = width;
    row.height = height;
    row.pairs = static_cast<int>(frames.size()) - 2;
    const auto start = std::chrono::steady_clock::now();
    // Keep two pairs in flight, so asynchronous devices overlap transfers with compute.
    std::size_t next = 2;
    for (; next < frames.size() && next < 4; ++next) session->submit(pair(next));
    std::vector<MotionField> fields;
    while (session->pending() > 0) {
        PairResult result = session->receive();
        row.device_seconds += result.device_seconds;
        fields.push_back(std::move(result.field));
        if (next < frames.size()) session->submit(pair(next++));
    }
    row.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Quality and work of what was timed, measured after the clock stopped.
    std::uint64_t comparisons = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        comparisons += pixel_comparisons(fields[i], params);
        const MotionField* previous = pair(i + 2).segment_start ? nullptr
                                      : i == 0                  ? &warm_up
                                                                : &fields[i - 1];
        const FrameMetrics metrics =
            measure_frame(frames[i + 1].view(), frames[i + 2].view(), fields[i], params, previous);
        row.mc_psnr_db += metrics.mc_psnr_db / static_cast<double>(fields.size());
        row.total_cost += metrics.total_cost;
        row.rate_bits += metrics.rate_bits;
        row.candidates_per_block += static_cast<double>(metrics.candidates) /
                                    static_cast<double>(fields[i].blocks.size() * fields.size());
    }
    row.comparisons_per_pair = comparisons / std::max<std::size_t>(1, fields.size());
    return row;
}

// A whole job through the scheduler: device_seconds is its wall time too, since under split the
// devices' clocks overlap.
BenchRow time_policy(Registry& registry, Policy policy, const std::vector<std::string>& devices,
                     const SearchParams& params, std::span<const Plane> frames, int threads,
                     const std::optional<CompensationRequest>& compensation) {
    ScheduleOptions options{
        policy,
        devices,
        {params, "", threads, frames.front().width(), frames.front().height(), compensation}};
    Scheduler scheduler(registry, options);
    std::size_t next = 0;
    auto next_frame = [&]() -> std::optional<Frame> {
        if (next == frames.size()) return std::nullopt;
        Frame frame;
        frame.luma = frames[next++];
        return frame;
    };
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t comparisons = 0;
    const auto deliver = [&](ScheduledPair&& pair) {
        comparisons += pixel_comparisons(pair.results.front().result.field, params);
    };
    scheduler.run(next_frame, 0, deliver,
                  [](const std::string& text) { std::cerr << "bench: " << text << "\n"; });
    BenchRow row;
    row.policy = std::string(to_string(policy));
    for (const auto& device : scheduler.devices()) {
        row.device += (row.device.empty() ? "" : "+") + device.info.name;
        row.device_description += (row.device_description.empty() ? "" : " + ") + device.info.description;
        row.variant += (row.variant.empty() ? "" : "+") + std::to_string(device.pairs_done);
    }
    row.variant += " pairs";
    row.params = params;
    row.width = frames.front().width();
    row.height = frames.front().height();
    row.pairs = static_cast<int>(frames.size()) - 1;
    row.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    row.device_seconds = row.wall_seconds;
    row.comparisons_per_pair = comparisons / static_cast<std::uint64_t>(std::max(1, row.pairs));
    char text[160];
    std::snprintf(text, sizeof text, "read %.3f s, deliver %.3f s", scheduler.host_times().read_seconds,
                  scheduler.host_times().deliver_seconds);
    row.stages = text;
    for (const auto& device : scheduler.devices()) {
        std::snprintf(text, sizeof text, "; %s submit %.3f s, receive %.3f s", device.info.name.c_str(),
                      device.submit_seconds, device.receive_seconds);
        row.stages += text;
    }
    return row;
}

// Each cell's median round: `rows` holds `rounds` rounds of the same cells in the same order (the loops
// and what each device supports do not change between rounds).
std::vector<BenchRow> median_rounds(std::vector<BenchRow> rows, int rounds) {
    const std::size_t cells = rows.size() / static_cast<std::size_t>(rounds);
    if (cells * static_cast<std::size_t>(rounds) != rows.size())
        throw std::logic_error("bench: the rounds measured different cells");
    std::vector<BenchRow> medians;
    for (std::size_t cell = 0; cell < cells; ++cell) {
        std::vector<const BenchRow*> runs;
        std::vector<double> by_round;
        for (std::size_t round = 0; round < static_cast<std::size_t>(rounds); ++round) {
            runs.push_back(&rows[round * cells + cell]);
            by_round.push_back(runs.back()->device_fps());
        }
        std::sort(runs.begin(), runs.end(),
                  [](const BenchRow* a, const BenchRow* b) { return a->device_fps() < b->device_fps(); });
        BenchRow median = *runs[runs.size() / 2];
        median.rounds = rounds;
        median.device_fps_by_round = std::move(by_round);
        medians.push_back(std::move(median));
    }
    return medians;
}

std::optional<std::uint64_t> read_number(const char* path) {
    std::ifstream in(path);
    std::uint64_t value = 0;
    if (in >> value) return value;
    return std::nullopt;  // no such file, or "max" (no limit)
}

// A container's memory limit less what it uses, or nothing where no limit is set: the machine's free
// memory is not the container's. The process's own memory cgroup (/proc/self/cgroup: v2's "0::PATH", v1's
// "N:...memory...:PATH"; a container sees "/"), then the hierarchies' roots.
std::optional<std::uint64_t> cgroup_headroom_bytes() {
    std::vector<std::pair<std::string, std::string>> files;  // (limit, usage)
    std::ifstream self("/proc/self/cgroup");
    for (std::string line; std::getline(self, line);) {
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
        // Without a cgroup namespace the path is the host's, and the mount's root may be one of its
        // ancestors: the path, then each shorter suffix of it.
        for (std::string path = line.substr(second + 1); !path.empty();) {
            if (controllers == ",,") {
                files.emplace_back("/sys/fs/cgroup" + path + "/memory.max",
                                   "/sys/fs/cgroup" + path + "/memory.current");
            } else if (controllers.find(",memory,") != std::string::npos) {
                files.emplace_back("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes",
                                   "/sys/fs/cgroup/memory" + path + "/memory.usage_in_bytes");
            }
            const std::size_t next = path.find('/', 1);
            path = next == std::string::npos ? std::string() : path.substr(next);
        }
    }
    files.emplace_back("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current");
    files.emplace_back("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                       "/sys/fs/cgroup/memory/memory.usage_in_bytes");
    for (const auto& [limit_file, usage_file] : files) {
        const auto limit = read_number(limit_file.c_str());
        const auto usage = read_number(usage_file.c_str());
        if (limit && usage) return *limit > *usage ? *limit - *usage : 0;
    }
    return std::nullopt;
}

// What this process may still take without swapping (Linux: MemAvailable, or less under a container's
// limit), or nothing where unknown.
std::optional<std::uint64_t> available_memory_bytes() {
    std::optional<std::uint64_t> available;
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") {
            available = kib * 1024;
            break;
        }
    }
    if (const auto headroom = cgroup_headroom_bytes(); headroom && (!available || *headroom < *available))
        available = headroom;
    return available;
}

// The bytes of frames a run holds at once for `pairs` timed pairs: the clip's first frames, each size's
// pairs + 2 frames (--split's jobs take the first pairs + 1 of them), and the synthetic scene's texture
// while a size's frames are made.
std::uint64_t bench_frame_bytes(const BenchSettings& settings, int clip_width, int clip_height, int pairs) {
    const auto area = [](std::int64_t width, std::int64_t height) {
        return static_cast<std::uint64_t>(width * height);
    };
    const std::uint64_t count = static_cast<std::uint64_t>(pairs) + 2;
    std::uint64_t bytes = area(clip_width, clip_height) * count;
    std::uint64_t texture = 0;
    for (const auto& [width, height] : settings.sizes) {
        bytes += area(width, height) * count;
        if (settings.input.empty()) {
            const int frames = pairs + 2;
            texture = std::max(texture, area(synthetic_texture_width(width, frames),
                                             synthetic_texture_height(height, frames)));
        }
    }
    return bytes + texture;
}

std::string gibibytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

}  // namespace

void check_bench_memory(const BenchSettings& settings, int clip_width, int clip_height) {
    const std::optional<std::uint64_t> available = available_memory_bytes();
    if (!available) return;
    // A quarter is left to the devices' own buffers, the decoder and everything else on the machine.
    const std::uint64_t budget = *available / 4 * 3;
    const std::uint64_t needed = bench_frame_bytes(settings, clip_width, clip_height, settings.pairs);
    if (needed <= budget) return;
    int fitting = 0;  // the most pairs that fit, found by bisection (the bytes grow with the pairs)
    for (int low = 1, high = settings.pairs - 1; low <= high;) {
        const int middle = low + (high - low) / 2;
        if (bench_frame_bytes(settings, clip_width, clip_height, middle) <= budget) {
            fitting = middle;
            low = middle + 1;
        } else {
            high = middle - 1;
        }
    }
    std::string sizes;
    for (const auto& [width, height] : settings.sizes)
        sizes += (sizes.empty() ? "" : ",") + std::to_string(width) + "x" + std::to_string(height);
    throw Error(ErrorKind::unsupported,
                "bench holds every frame it times in memory: --pairs " + std::to_string(settings.pairs) +
                    " at " + sizes + " takes " + gibibytes(needed) + ", more than the " + gibibytes(budget) +
                    " it may use of the " + gibibytes(*available) + " available; " +
                    (fitting > 0 ? "use --pairs " + std::to_string(fitting) + " or fewer, or smaller sizes"
                                 : "use smaller sizes"));
}

std::vector<Plane> read_clip(VideoReader& reader, const std::string& name, int count) {
    std::vector<Plane> frames;
    while (static_cast<int>(frames.size()) < count) {
        auto frame = reader.read_frame();
        if (!frame)
            throw Error(ErrorKind::bad_input, name + " has fewer than " + std::to_string(count) + " frames");
        frames.push_back(std::move(frame->luma));
    }
    return frames;
}

std::vector<BenchRow> run_bench(const BenchSettings& settings) {
    Registry registry = make_builtin_registry();
    std::vector<std::string> names = settings.devices;
    if (names.empty()) {
        for (const auto& info : registry.devices()) {
            if (info.available && info.backend != "reference") names.push_back(info.name);
        }
    }
    // Every device opened, and every requested variant found, before the first measurement.
    std::vector<std::unique_ptr<Device>> devices;
    for (const auto& name : names) {
        devices.push_back(registry.open(name));
        for (std::size_t i = 0; i + 1 < devices.size(); ++i) {
            if (devices[i]->info().name == devices.back()->info().name) {
                throw Error(ErrorKind::invalid_argument,
                            "device " + devices.back()->info().name +
                                " is given twice in --backends: list each device once");
            }
        }
    }
    for (const auto& wanted : settings.variants) {
        std::string offered;
        bool found = false;
        for (const auto& device : devices) {
            const auto& variants = device->info().variants;
            found = found || std::find(variants.begin(), variants.end(), wanted) != variants.end();
            std::string listed;
            for (const auto& variant : variants) listed += (listed.empty() ? "" : ", ") + variant;
            offered += (offered.empty() ? "" : "; ") + device->info().name + ": " + listed;
        }
        if (!found) {
            throw Error(ErrorKind::invalid_argument, "none of the chosen devices has the variant '" + wanted +
                                                         "'; their variants: " + offered);
        }
    }
    // Per device: its SAD peak, measured once, and the variants it runs.
    std::vector<std::optional<SadPeak>> peaks;
    std::vector<std::vector<std::string>> variants_of;
    for (const auto& device : devices) {
        peaks.push_back(settings.sad_peak ? device->measure_sad_peak() : std::nullopt);
        // --variants picks among each device's own variants; a device with none of them runs its default.
        std::vector<std::string> variants;
        for (const auto& variant : device->info().variants) {
            if (settings.variants.empty() || std::find(settings.variants.begin(), settings.variants.end(),
                                                       variant) != settings.variants.end()) {
                variants.push_back(variant);
            }
        }
        if (variants.empty()) variants.push_back(device->info().variants.front());
        variants_of.push_back(std::move(variants));
    }
    std::vector<std::vector<Plane>> device_frames;
    try {
        device_frames = frames_by_size(settings, settings.pairs + 2);
    } catch (const std::bad_alloc&) {
        // check_bench_memory's estimate passed, but the memory was not there (another process, a limit).
        throw Error(ErrorKind::unsupported, "bench ran out of memory making the frames of --pairs " +
                                                std::to_string(settings.pairs) +
                                                ": use fewer --pairs or smaller sizes");
    }
    std::vector<BenchRow> rows;  // every round's, each round's in the same order
    for (int round = 0; round < settings.rounds; ++round) {
        const std::string round_text = settings.rounds > 1 ? " (round " + std::to_string(round + 1) + "/" +
                                                                 std::to_string(settings.rounds) + ")"
                                                           : "";
        for (std::size_t d = 0; d < devices.size(); ++d) {
            Device* device = devices[d].get();
            const std::string& name = names[d];
            const auto time_each_variant = [&](const std::vector<Plane>& frames, const SearchParams& params) {
                const int width = frames.front().width();
                const int height = frames.front().height();
                for (const auto& variant : variants_of[d]) {
                    const Support support = device->supports(
                        {params, variant, settings.threads, width, height, settings.compensation});
                    if (!support.supported) {
                        if (round == 0) {
                            std::cerr << "bench: " << name << " " << variant << " " << chain_name(params)
                                      << ": not supported (" << support.reason << ")\n";
                        }
                        continue;
                    }
                    std::cerr << "bench: " << name << " " << variant << " " << chain_name(params) << " block "
                              << params.block_size << " range " << params.range << " " << width << "x"
                              << height << round_text << "\n";
                    rows.push_back(time_cell(*device, variant, params, frames, settings.threads,
                                             settings.compensation, settings.warm_up_seconds));
                    rows.back().sad_peak = peaks[d];
                }
            };
            for_each_cell(settings, device_frames, time_each_variant);
        }
        // Whole jobs: each device alone, then (with two or more) all of them under split.
        if (settings.split) {
            // The devices' frames without the last: a job of --pairs pairs (a device cell's warm-up pair
            // is its first).
            const auto time_whole_jobs = [&](const std::vector<Plane>& cell_frames,
                                             const SearchParams& params) {
                const std::span<const Plane> frames(cell_frames.data(), cell_frames.size() - 1);
                for (const auto& name : names)
                    rows.push_back(time_policy(registry, Policy::single, {name}, params, frames,
                                               settings.threads, settings.compensation));
                if (names.size() < 2) return;
                std::cerr << "bench: split over all devices, block " << params.block_size << " range "
                          << params.range << round_text << "\n";
                rows.push_back(time_policy(registry, Policy::split, names, params, frames, settings.threads,
                                           settings.compensation));
            };
            for_each_cell(settings, device_frames, time_whole_jobs);
        }
    }
    rows = median_rounds(std::move(rows), settings.rounds);
    // Speed-up over the CPU backend's default variant on the same cell, where the CPU ran.
    std::string cpu_default;
    for (const auto& info : registry.devices()) {
        if (info.name == "cpu" && info.available) cpu_default = info.variants.front();
    }
    for (auto& row : rows) {
        for (const auto& cpu : rows) {
            const bool same_kind =
                cpu.policy.empty() ? row.policy.empty() : (cpu.policy == "single" && !row.policy.empty());
            if (same_kind && cpu.device == "cpu" && (cpu.variant == cpu_default || !cpu.policy.empty()) &&
                cpu.params.block_size == row.params.block_size && cpu.params.range == row.params.range &&
                chain_name(cpu.params) == chain_name(row.params) && cpu.width == row.width &&
                cpu.height == row.height) {
                row.cpu_speedup = row.device_fps() / cpu.device_fps();
            }
        }
    }
    return rows;
}

}  // namespace xme::cli
