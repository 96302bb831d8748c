// SPEC §9 in a CUDA session: what runs (partition_support) and the buffers around the kernels.
#include "partition_runner.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "partition_tables.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/result_guard.hpp"

namespace xme::cuda {

Support partition_support(const DeviceInfo& device, const std::string& variant,
                          const SessionOptions& options) {
    const SearchParams& p = options.params;
    const std::string name = device.name + " variant " + variant;
    if (p.partitions != Partitions::all) {
        return Support::no(
            name +
            " is SPEC §9's partition search, one search position per thread, and runs only the 41 partitions "
            "(--algo fs+p41 or fs+p41+qpel): use variant fast for every other chain");
    }
    if (variant != "fast" && variant != kPositionsVariant) {
        return Support::no(name +
                           " does not run the 41 partitions of SPEC §9: variants fast (the default) and " +
                           kPositionsVariant + " do");
    }
    return gpu_partition_support(name, p);
}

namespace {

std::size_t record_bytes(int macroblocks) {
    return sizeof(p41::PartitionRecord) * static_cast<std::size_t>(macroblocks);
}

DeviceMemory upload(const std::vector<std::uint32_t>& table, const CallSite& site) {
    const std::size_t bytes = sizeof(std::uint32_t) * table.size();
    DeviceMemory memory = allocate_device(bytes, site);
    XME_CUDA_CHECK(cudaMemcpy(memory.get(), table.data(), bytes, cudaMemcpyHostToDevice), site);
    return memory;
}

}  // namespace

PartitionRunner::PartitionRunner(const SearchParams& params, bool positions_design, int macroblocks,
                                 int stages, const CallSite& site)
    : positions_design_(positions_design),
      quarter_pel_(params.subpel == Subpel::qpel),
      temporal_(params.predictor == Predictor::temporal),
      spatial_(params.predictor == Predictor::spatial),
      centred_((temporal_ || spatial_) && params.centre == WindowCentre::predictor),
      lambda_(params.lambda),
      range_(params.range),
      macroblocks_(macroblocks) {
    const PartitionTables tables =
        make_partition_tables(params.range, params.lambda, temporal_ || spatial_, centred_);
    if (!tables.fits || stages > static_cast<int>(buffers_.size())) {
        throw Error(ErrorKind::unsupported,
                    site.device + ": partition search opened for options it does not run");
    }
    terms_ = upload(p41::terms_by_column(tables.terms, tables.side), site);
    offsets_ = upload(tables.offsets, site);
    tables_.terms = static_cast<const std::uint32_t*>(terms_.get());
    tables_.offsets = static_cast<const std::uint32_t*>(offsets_.get());
    tables_.rank_bits = tables.rank_bits;
    tables_.key_scale = 1u << tables.rank_bits;
    tables_.radius = tables.radius;
    tables_.side = tables.side;
    tables_.centred = centred_;
    tables_.lambda = params.lambda;
    // The row walk's counters: a frame has at most `macroblocks` rows, and one ticket.
    if (spatial_) rows_done_ = allocate_device(sizeof(int) * static_cast<std::size_t>(macroblocks + 1), site);
    const std::size_t bytes = record_bytes(macroblocks) + result_guard_bytes;
    for (int s = 0; s < stages; ++s) {
        Buffers& b = buffers_[static_cast<std::size_t>(s)];
        b.host = allocate_pinned(bytes, site);
        b.device = allocate_device(bytes, site);
        auto* guard = static_cast<std::uint8_t*>(b.host.get()) + record_bytes(macroblocks);
        fill_result_guard(guard);
        XME_CUDA_CHECK(cudaMemcpy(static_cast<std::uint8_t*>(b.device.get()) + record_bytes(macroblocks),
                                  guard, result_guard_bytes, cudaMemcpyHostToDevice),
                       site);
        if (temporal_) {
            const std::size_t previous_bytes = sizeof(MotionRecord) * static_cast<std::size_t>(macroblocks);
            b.previous_host = allocate_pinned(previous_bytes, site);
            b.previous = allocate_device(previous_bytes, site);
        }
    }
}

p41::Tables PartitionRunner::predictors(const FramePair& pair, int stage, cudaStream_t stream,
                                        const CallSite& site) {
    p41::Tables t = tables_;
    if (!temporal_ || pair.segment_start) return t;
    const Buffers& b = buffers_[static_cast<std::size_t>(stage)];
    if (pair.previous) {
        const MotionField& previous = *pair.previous;
        if (previous.blocks.size() != static_cast<std::size_t>(macroblocks_)) {
            throw Error(ErrorKind::invalid_argument, site.device + ": the previous pair's result has " +
                                                         std::to_string(previous.blocks.size()) +
                                                         " blocks, this session's frames " +
                                                         std::to_string(macroblocks_) + " macroblocks");
        }
        // The tables take the vectors of a window of this range centred on 0, as the chain's results are
        // (a centred window's tables take any p).
        const int bound = centred_ ? 32768 : partition_predictor_bound(range_);
        auto* host = static_cast<MotionRecord*>(b.previous_host.get());
        for (std::size_t i = 0; i < previous.blocks.size(); ++i) {
            const BlockMotion& m = previous.blocks[i];
            if (std::abs(m.mv_x) > bound || std::abs(m.mv_y) > bound) {
                throw Error(
                    ErrorKind::unsupported,
                    site.device + ": the temporal predictor of macroblock " + std::to_string(i) + ", (" +
                        std::to_string(m.mv_x) + "," + std::to_string(m.mv_y) +
                        ") quarter pel, lies outside the window of range " + std::to_string(range_) +
                        " that the partition kernels' tables cover: run this chain with --backend cpu");
            }
            host[i] = {m.mv_x, m.mv_y, m.cost, m.candidates};
        }
        XME_CUDA_CHECK(cudaMemcpyAsync(b.previous.get(), host, sizeof(MotionRecord) * previous.blocks.size(),
                                       cudaMemcpyHostToDevice, stream),
                       site);
        t.temporal = static_cast<const std::uint8_t*>(b.previous.get());
        t.temporal_stride = sizeof(MotionRecord);
        return t;
    }
    if (last_stage_ < 0) {
        throw Error(
            ErrorKind::invalid_argument,
            site.device + ", frame " + std::to_string(pair.current_id) +
                ": the temporal predictor needs the previous pair's result, and this session has computed "
                "none: give FramePair::previous, or mark the pair as a segment start");
    }
    // The last pair's records, written earlier on the same stream: each starts with its 16x16 partition's.
    t.temporal =
        static_cast<const std::uint8_t*>(buffers_[static_cast<std::size_t>(last_stage_)].device.get()) +
        offsetof(p41::PartitionRecord, partitions);
    t.temporal_stride = sizeof(p41::PartitionRecord);
    return t;
}

void PartitionRunner::launch(const SearchJob& job, const FramePair& pair, int stage, cudaStream_t stream,
                             const CallSite& site) {
    p41::Tables tables = predictors(pair, stage, stream, site);
    last_stage_ = stage;
    auto* records =
        static_cast<p41::PartitionRecord*>(buffers_[static_cast<std::size_t>(stage)].device.get());
    if (spatial_) {
        tables.spatial = reinterpret_cast<const std::uint8_t*>(records);
        tables.spatial_stride = sizeof(p41::PartitionRecord);
        tables.blocks_x = job.blocks_x;
        auto* rows_done = static_cast<int*>(rows_done_.get());
        XME_CUDA_CHECK(
            cudaMemsetAsync(rows_done, 0, sizeof(int) * static_cast<std::size_t>(job.blocks_y + 1), stream),
            site);
        check(launch_partitions_spatial(job, tables, lambda_, quarter_pel_, positions_design_, records,
                                        rows_done, stream),
              "partitions_spatial_kernel<<<>>>", site);
        return;
    }
    if (positions_design_) {
        check(launch_partitions_positions(job, tables, records, stream), "partitions_positions_kernel<<<>>>",
              site);
    } else {
        check(launch_partitions_fast(job, tables, records, stream), "partitions_fast_kernel<<<>>>", site);
    }
    if (quarter_pel_)
        check(launch_partitions_qpel(job, tables, lambda_, records, stream), "partitions_qpel_kernel<<<>>>",
              site);
}

void PartitionRunner::download(int stage, cudaStream_t stream, const CallSite& site) {
    const Buffers& b = buffers_[static_cast<std::size_t>(stage)];
    XME_CUDA_CHECK(
        cudaMemcpyAsync(b.host.get(), b.device.get(), record_bytes(macroblocks_) + result_guard_bytes,
                        cudaMemcpyDeviceToHost, stream),
        site);
}

void PartitionRunner::fill(int stage, MotionField& field, const std::string& device_name) const {
    const auto* records =
        static_cast<const p41::PartitionRecord*>(buffers_[static_cast<std::size_t>(stage)].host.get());
    field.macroblocks.resize(static_cast<std::size_t>(macroblocks_));
    for (std::size_t i = 0; i < field.macroblocks.size(); ++i) {
        const p41::PartitionRecord& r = records[i];
        MacroblockMotion& m = field.macroblocks[i];
        static_assert(sizeof(r.partitions) == sizeof(m.partitions));
        std::memcpy(static_cast<void*>(m.partitions.data()), r.partitions, sizeof(r.partitions));
        if (m.partitions[0].candidates == 0 || (r.modes & ~0xFF03u) != 0) {
            throw Error(ErrorKind::device, device_name + ": internal error: macroblock " + std::to_string(i) +
                                               " got no partition result (16x16 candidates " +
                                               std::to_string(m.partitions[0].candidates) + ", modes " +
                                               std::to_string(r.modes) + ")");
        }
        m.decision.mode = static_cast<MacroblockMode>(r.modes & 3u);
        for (std::size_t q = 0; q < 4; ++q)
            m.decision.sub_modes[q] = static_cast<SubMode>((r.modes >> (8 + 2 * q)) & 3u);
        m.decision.cost = r.cost;
        field.blocks[i] = m.partitions[0];  // SPEC §8: the predictors read the 16x16 partition
    }
    check_result_guard(records + macroblocks_, device_name + "'s partition records");
}

}  // namespace xme::cuda
