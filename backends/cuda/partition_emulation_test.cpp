// Checks the CUDA partition search's device code (partition_search.cuh, SPEC §9) against the reference on
// the host, without a GPU: each thread's work (fast_thread_bests, positions_thread_bests) runs for every
// thread of a macroblock's CUDA block, their keys are reduced with min (what the kernels' warp mins,
// shared atomicMin and binary reduction compute, in any order), then the decode and the mode decision.
// What this cannot check: that vabsdiff4 and the plain C++ beside it agree, and the device's scheduling
// (compute-sanitizer's racecheck does, on the GPU: tools/device/cuda_p41_check.sh).
// Random frames (noise, clipping patterns, nearly flat, a moved texture) and crops of the clip, both border
// modes, lambda 0, small and qp 51's, no predictor, the temporal one (any p the previous pair may give) or
// the spatial one (the row walk's order: each macroblock searched, refined and written before the next
// reads it), partial macroblocks; a third of them also refined (+qpel, partition_qpel.cuh) on 32 fibers as
// one warp. A fresh seed each run, printed.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "emulation_support.hpp"
#include "partition_decide.cuh"
#include "partition_qpel.cuh"
#include "partition_search.cuh"
#include "partition_tables.hpp"
#include "xme/partitions.hpp"

namespace {

using xme::cuda::SearchJob;
using namespace xme::cuda::emulation;
namespace p41 = xme::cuda::p41;

enum class Design { fast, positions };
// As partition_search.cu's CUDA blocks (its spatial kernel's 384 fast threads are not emulated).
constexpr int kFastThreads = 32;
constexpr int kPositionsThreads = 128;

struct Pair {
    xme::Plane reference, current;
    PaddedFrame padded_reference, padded_current;
    xme::cuda::PartitionTables tables;
    std::vector<std::uint32_t> column_terms;  // tables.terms as the kernels read them (terms_by_column)
    std::vector<xme::cuda::MotionRecord> predictors;  // the temporal predictor per macroblock; empty: none
    bool centred = false;                             // the window centred on round(p / 4)
    int lambda = 0;
    p41::Tables device_tables() const {
        p41::Tables t;
        t.terms = column_terms.data();
        t.offsets = tables.offsets.data();
        t.rank_bits = tables.rank_bits;
        t.key_scale = 1u << tables.rank_bits;
        t.radius = tables.radius;
        t.side = tables.side;
        if (!predictors.empty()) {
            t.temporal = reinterpret_cast<const std::uint8_t*>(predictors.data());
            t.temporal_stride = sizeof(xme::cuda::MotionRecord);
        }
        t.centred = centred;
        t.lambda = lambda;
        return t;
    }
};

struct Case {
    const Pair* pair;
    SearchJob job;
    int lambda;
    int mb;
    Design design;
    bool quarter;  // fs+p41+qpel: each partition refined (partition_qpel.cuh), then the mode decision
    // The spatial predictor: the records of this case's walk over the frame (one per job, design and
    // refinement), where the median of the macroblocks before it is read; null: the pair's predictor.
    std::vector<p41::PartitionRecord>* walk = nullptr;
    [[nodiscard]] p41::Tables tables() const {
        p41::Tables t = pair->device_tables();
        if (walk != nullptr) {
            t.spatial = reinterpret_cast<const std::uint8_t*>(walk->data());
            t.spatial_stride = sizeof(p41::PartitionRecord);
            t.blocks_x = job.blocks_x;
        }
        return t;
    }
};

// The integer search of one case, with the mode decision on its costs.
p41::PartitionRecord run_integer(const Case& c) {
    const p41::Tables t = c.tables();
    std::uint32_t bests[p41::kPartitions];
    p41::clear_bests(bests);
    std::uint32_t current_rows[64];
    for (int word = 0; word < 64; ++word) p41::current_word(c.job, c.mb, word, current_rows);
    const int threads = c.design == Design::fast ? kFastThreads : kPositionsThreads;
    for (int thread = 0; thread < threads; ++thread) {
        std::uint32_t mine[p41::kPartitions];
        if (c.design == Design::fast) {
            if (c.pair->centred) {
                p41::fast_thread_bests<true>(c.job, t, c.mb, thread, threads, current_rows, mine);
            } else {
                p41::fast_thread_bests<false>(c.job, t, c.mb, thread, threads, current_rows, mine);
            }
        } else {
            if (c.pair->centred) {
                p41::positions_thread_bests<true>(c.job, t, c.mb, thread, threads, mine);
            } else {
                p41::positions_thread_bests<false>(c.job, t, c.mb, thread, threads, mine);
            }
        }
        for (int i = 0; i < p41::kPartitions; ++i) bests[i] = p41::min_key(bests[i], mine[i]);
    }
    p41::PartitionRecord record{};
    for (int i = 0; i < p41::kPartitions; ++i)
        record.partitions[i] = p41::partition_record(c.job, t, c.mb, bests[i]);
    p41::decide_mode(record);
    return record;
}

// The quarter-pel cases among `batch` (indices into cases and records): each partition's refinement on
// one warp of 32 fibers (all of them in one run, as the qpel test does), whose lanes must agree, then the
// decision again.
void refine(const std::vector<Case>& cases, const std::vector<std::size_t>& batch,
            std::vector<p41::PartitionRecord>& records, int& lane_disagreements) {
    std::vector<std::array<std::array<xme::cuda::MotionRecord, 32>, p41::kPartitions>> lanes(batch.size());
    auto scratch = std::make_unique<p41::QpelScratch>();
    auto body = [&](FiberWarp& warp) {
        for (std::size_t b = 0; b < batch.size(); ++b) {
            const Case& c = cases[batch[b]];
            int px, py;
            p41::predictor_of(c.tables(), c.mb, px, py);
            for (int i = 0; i < p41::kPartitions; ++i) {
                lanes[b][static_cast<std::size_t>(i)][static_cast<std::size_t>(warp.lane())] =
                    p41::refine_partition(warp, *scratch, c.job, c.mb, i, records[batch[b]].partitions[i], px,
                                          py, c.lambda);
            }
        }
    };
    lane_disagreements += run_warp(body) ? 0 : 1;
    for (std::size_t b = 0; b < batch.size(); ++b) {
        p41::PartitionRecord& record = records[batch[b]];
        for (int i = 0; i < p41::kPartitions; ++i) {
            const auto& per_lane = lanes[b][static_cast<std::size_t>(i)];
            for (const auto& r : per_lane) {
                if (r.mv_x != per_lane[0].mv_x || r.mv_y != per_lane[0].mv_y || r.cost != per_lane[0].cost)
                    ++lane_disagreements;
            }
            record.partitions[i] = per_lane[0];
        }
        p41::decide_mode(record);
    }
}

// Every case: the integer search, and the refinement of the quarter-pel ones. A walk's cases (spatial)
// one at a time in the walk's order, each written to its walk before the next; the others' refinements
// together at the end.
std::vector<p41::PartitionRecord> run_all(const std::vector<Case>& cases, int& lane_disagreements) {
    lane_disagreements = 0;
    std::vector<p41::PartitionRecord> records;
    std::vector<std::size_t> later;
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const Case& c = cases[n];
        records.push_back(run_integer(c));
        if (c.walk == nullptr) {
            if (c.quarter) later.push_back(n);
            continue;
        }
        if (c.quarter) refine(cases, {n}, records, lane_disagreements);
        (*c.walk)[static_cast<std::size_t>(c.mb)] = records[n];
    }
    refine(cases, later, records, lane_disagreements);
    return records;
}

xme::MacroblockResult search_reference(const Case& c, xme::MotionVector predictor) {
    xme::reference::BlockSearch search;
    const Pair& p = *c.pair;
    search.reference = {p.reference.data(), p.reference.width(), p.reference.height(), p.reference.width()};
    search.current = {p.current.data(), p.current.width(), p.current.height(), p.current.width()};
    search.x = c.mb % c.job.blocks_x * 16;
    search.y = c.mb / c.job.blocks_x * 16;
    search.range = c.job.range;
    search.border = c.job.restrict_border ? xme::BorderMode::restrict : xme::BorderMode::pad;
    search.lambda = c.lambda;
    search.predictor = predictor;
    if (p.centred) search.centre = xme::round_quarter_to_pel(search.predictor);
    return xme::reference::partition_search(search, c.quarter);
}

// The reference's own walk for each device walk: its medians of its own finished macroblocks, so that a
// device walk that read a wrong neighbour (or an unrefined one) mismatches.
struct ReferenceWalk {
    std::vector<xme::MotionVector> finals;  // row-major; the first `done` are set
    int done = 0;
};
std::map<const std::vector<p41::PartitionRecord>*, ReferenceWalk> reference_walks;

xme::MacroblockResult expected(const Case& c) {
    if (c.walk == nullptr) {
        xme::MotionVector p;
        p41::predictor_of(c.pair->device_tables(), c.mb, p.x, p.y);
        return search_reference(c, p);
    }
    ReferenceWalk& walk = reference_walks[c.walk];
    walk.finals.resize(c.walk->size());
    const auto predictor = [&](int mb) {
        return xme::reference::spatial_predictor(walk.finals, c.job.blocks_x, c.job.blocks_y,
                                                 mb % c.job.blocks_x, mb / c.job.blocks_x);
    };
    for (; walk.done < c.mb; ++walk.done) {
        Case earlier = c;
        earlier.mb = walk.done;
        walk.finals[static_cast<std::size_t>(walk.done)] =
            search_reference(earlier, predictor(walk.done)).partitions[0].mv;
    }
    return search_reference(c, predictor(c.mb));
}

bool same(const p41::PartitionRecord& got, const xme::MacroblockResult& want) {
    for (int i = 0; i < p41::kPartitions; ++i) {
        const auto& r = want.partitions[static_cast<std::size_t>(i)];
        const auto& g = got.partitions[i];
        if (g.mv_x != r.mv.x || g.mv_y != r.mv.y || g.cost != r.cost || g.candidates != r.candidates)
            return false;
    }
    std::uint32_t modes = static_cast<std::uint32_t>(want.decision.mode);
    for (int q = 0; q < 4; ++q)
        modes |= static_cast<std::uint32_t>(want.decision.sub_modes[static_cast<std::size_t>(q)])
                 << (8 + 2 * q);
    return got.modes == modes && got.cost == want.decision.cost;
}

void describe(const Case& c, const p41::PartitionRecord& got) {
    const xme::MacroblockResult want = expected(c);
    int px, py;
    p41::predictor_of(c.tables(), c.mb, px, py);  // the device walk's
    std::printf(
        "%s%s frame %dx%d range %d %s lambda %d p (%d,%d) macroblock %d: modes %08x J %llu, reference mode "
        "%d J "
        "%llu\n",
        c.design == Design::fast ? "fast" : "p41-positions", c.quarter ? " +qpel" : "", c.job.layout.width,
        c.job.layout.height, c.job.range, c.job.restrict_border ? "restrict" : "pad", c.lambda, px, py, c.mb,
        got.modes, static_cast<unsigned long long>(got.cost), static_cast<int>(want.decision.mode),
        static_cast<unsigned long long>(want.decision.cost));
    for (int i = 0; i < p41::kPartitions; ++i) {
        const auto& r = want.partitions[static_cast<std::size_t>(i)];
        const auto& g = got.partitions[i];
        if (g.mv_x == r.mv.x && g.mv_y == r.mv.y && g.cost == r.cost && g.candidates == r.candidates)
            continue;
        std::printf("  partition %d: got (%d,%d) J %u n %u, reference (%d,%d) J %llu n %u\n", i, g.mv_x,
                    g.mv_y, g.cost, g.candidates, r.mv.x, r.mv.y, static_cast<unsigned long long>(r.cost),
                    r.candidates);
    }
}

// The fast design's low-word row addresses (row_pointer<true>) against plain pointer arithmetic, on
// synthetic addresses (compared, never read): equal wherever crosses_4gib says the rows stay inside one
// 4 GiB window, and crosses_4gib exactly where the low word would wrap. Returns the failures.
int address_failures(unsigned seed) {
    std::mt19937_64 random(seed);
    const auto pointer = [](std::uint64_t address) {
        return reinterpret_cast<const std::uint32_t*>(address);
    };
    int failures = 0;
    for (int i = 0; i < 100000; ++i) {
        // Addresses near a boundary half the time, anywhere in 48 bits otherwise; offsets up to 16 Mi words.
        const std::uint64_t boundary = (random() & 0xFFFFu) << 32;
        const std::uint64_t address =
            (i % 2 == 0 ? boundary - (random() & 0x3FFFFFFu) : random() & 0xFFFFFFFFFFFCu) &
            ~std::uint64_t{3};
        const int offset = static_cast<int>(random() & 0xFFFFFFu);
        const std::uint32_t reach = 4u * static_cast<std::uint32_t>(offset) + 3u;
        const bool crosses = p41::crosses_4gib(pointer(address), reach);
        if (crosses != ((address & 0xFFFFFFFFu) + reach > 0xFFFFFFFFu)) ++failures;
        if (!crosses && p41::row_pointer<true>(pointer(address), offset) !=
                            p41::row_pointer<false>(pointer(address), offset))
            ++failures;
    }
    std::printf("100000 low-word row addresses: %d failures\n", failures);
    return failures;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string clip = usable_clip(argc > 1 ? argv[1] : "");
    const unsigned seed =
        argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : std::random_device{}();
    std::printf("seed %u (rerun: xme_cuda_partition_emulation '%s' %u)\n", seed, clip.c_str(), seed);
    std::mt19937 rng(seed);
    std::vector<std::unique_ptr<Pair>> pairs;
    std::vector<Case> cases;
    std::vector<std::unique_ptr<std::vector<p41::PartitionRecord>>> walks;
    int clip_pairs = 0;
    for (int f = 0; f < 24; ++f) {
        const int range = f % 12 == 0 ? 32 : std::uniform_int_distribution<int>(0, 12)(rng);
        std::uniform_int_distribution<int> size(f % 3 == 0 ? 1 : 16, 41);
        int width = size(rng);
        int height = size(rng);
        std::optional<std::pair<xme::Plane, xme::Plane>> planes;
        if (f % 4 == 1 && !clip.empty()) {
            width = 48;
            height = 32;
            planes = clip_crop(clip, 2, 300 + 16 * f, 200, width, height);
            clip_pairs += planes ? 1 : 0;
        }
        if (!planes && f % 2 == 0) planes = moved_texture(width, height, rng, range + 2);
        if (!planes)
            planes =
                std::pair{make_plane(width, height, f % 5, rng), make_plane(width, height, (f + 1) % 5, rng)};
        const int lambda = f % 3 == 0 ? 0 : (f % 3 == 1 ? 91 : std::uniform_int_distribution<int>(1, 8)(rng));
        auto pair = std::make_unique<Pair>();
        pair->reference = std::move(planes->first);
        pair->current = std::move(planes->second);
        const xme::cuda::FrameLayout layout = make_layout(width, height, 16, range, 0);
        pair->padded_reference = pad(pair->reference, layout);
        pair->padded_current = pad(pair->current, layout);
        // Every other pair with the temporal predictor: per macroblock 0, an integer vector, a quarter-pel
        // one, or one at the bound of the previous pair's window.
        // Every other one of those with the window centred on it, p then also far outside the frame.
        // Every fourth pair with the spatial predictor instead, every other one of those centred on it.
        const bool temporal = f % 2 == 1;
        const bool spatial = f % 4 == 2;
        pair->centred = f % 4 == 3 || f % 8 == 6;
        pair->lambda = lambda;
        pair->tables = xme::cuda::make_partition_tables(range, lambda, temporal || spatial, pair->centred);
        pair->column_terms = p41::terms_by_column(pair->tables.terms, pair->tables.side);
        if (temporal) {
            const int bound =
                pair->centred ? 4 * (range + 60) + 3 : xme::cuda::partition_predictor_bound(range);
            std::uniform_int_distribution<int> quarter(-bound, bound);
            std::uniform_int_distribution<int> whole(-range, range);
            for (int mb = 0; mb < layout.padded_width / 16 * (layout.padded_height / 16); ++mb) {
                const int kind = mb % 4;
                const int px =
                    kind == 0 ? 0 : (kind == 1 ? 4 * whole(rng) : (kind == 2 ? quarter(rng) : -bound));
                const int py =
                    kind == 0 ? 0 : (kind == 1 ? 4 * whole(rng) : (kind == 2 ? quarter(rng) : bound));
                pair->predictors.push_back(
                    {static_cast<std::int16_t>(px), static_cast<std::int16_t>(py), 0, 1});
            }
        }
        if (!pair->tables.fits) {
            std::printf("internal: range %d lambda %d does not fit the keys\n", range, lambda);
            return 1;
        }
        for (int restrict_mode = 0; restrict_mode < 2; ++restrict_mode) {
            SearchJob job;
            job.layout = layout;
            job.current = pair->padded_current.origin();
            job.reference = pair->padded_reference.origin();
            job.reference_words = pair->padded_reference.words_origin();
            job.block_size = 16;
            job.range = range;
            job.restrict_border = restrict_mode == 1;
            job.blocks_x = layout.padded_width / 16;
            job.blocks_y = layout.padded_height / 16;
            const int macroblocks = job.blocks_x * job.blocks_y;
            // A walk per design, and one refined (spatial: each case reads its own walk's records).
            std::array<std::vector<p41::PartitionRecord>*, 3> walk{};
            for (auto*& w : walk) {
                if (!spatial) continue;
                walks.push_back(std::make_unique<std::vector<p41::PartitionRecord>>(
                    static_cast<std::size_t>(macroblocks)));
                w = walks.back().get();
            }
            for (int mb = 0; mb < macroblocks; ++mb) {
                cases.push_back({pair.get(), job, lambda, mb, Design::fast, false, walk[0]});
                cases.push_back({pair.get(), job, lambda, mb, Design::positions, false, walk[1]});
                // The refinement runs after either design's integer search: once per macroblock, on every
                // third pair (the reference refines 41 partitions, 17 candidates each).
                if (f % 3 == 2) cases.push_back({pair.get(), job, lambda, mb, Design::fast, true, walk[2]});
            }
        }
        pairs.push_back(std::move(pair));
    }
    int lane_disagreements = 0;
    const std::vector<p41::PartitionRecord> records = run_all(cases, lane_disagreements);
    const auto result = [&](const Case& c) { return records[static_cast<std::size_t>(&c - cases.data())]; };
    const int mismatches = count_mismatches(cases, result, expected, same, describe);
    const auto quarter = std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.quarter; });
    const auto walked = std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.walk; });
    std::printf(
        "%zu macroblock searches (both designs, %ld with +qpel, %ld with the spatial predictor, %d clip "
        "pairs), %d mismatches, %d lane disagreements\n",
        cases.size(), static_cast<long>(quarter), static_cast<long>(walked), clip_pairs, mismatches,
        lane_disagreements);
    const int address_errors = address_failures(seed);
    return mismatches == 0 && lane_disagreements == 0 && address_errors == 0 ? 0 : 1;
}
