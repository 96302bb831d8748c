// The operation kernels with SSE2 (operation_kernels_simd.hpp).
#include "operation_kernels_simd.hpp"
#include "operation_kernels_x86.hpp"

namespace xme::cpu {
namespace {

struct Sse2OperationOps : X86Common {
    static constexpr int tile_columns = 8;
    static std::uint32_t hadamard_tiles(const std::uint8_t* current, std::ptrdiff_t current_stride,
                                        const std::uint8_t* p, std::ptrdiff_t p_stride, const std::uint8_t* q,
                                        std::ptrdiff_t q_stride) {
        return hadamard_tiles8(current, current_stride, p, p_stride, q, q_stride, 8);
    }
};

}  // namespace

OperationKernels sse2_operation_kernels() { return make_operation_kernels<Sse2OperationOps>(); }

}  // namespace xme::cpu
