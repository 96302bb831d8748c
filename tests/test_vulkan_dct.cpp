// SPEC §13 on Vulkan beyond the conformance rows (which check the results): the compiled DCT shader
// forbids fused multiply-add. GLSL has no -ffp-contract=off; `precise` is what makes a SPIR-V
// consumer keep each float operation separately rounded (the NoContraction decoration), so every
// float addition, subtraction and multiplication of the embedded words must carry it. A missing
// `precise` may pass on a driver that happens not to fuse, then fail on one that does.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <string>

#include "xme/vulkan_backend.hpp"

namespace {

// SPIR-V opcodes and enumerants (SPIR-V specification 1.6, section 3).
constexpr std::uint32_t magic = 0x07230203;
constexpr std::uint32_t op_ext_inst = 12;
constexpr std::uint32_t op_decorate = 71;
constexpr std::uint32_t op_fadd = 129;
constexpr std::uint32_t op_fsub = 131;
constexpr std::uint32_t op_fmul = 133;
constexpr std::uint32_t op_fdiv = 136;
constexpr std::uint32_t op_vector_times_scalar = 142;
constexpr std::uint32_t op_dot = 148;
constexpr std::uint32_t decoration_no_contraction = 42;
constexpr std::uint32_t glsl_std_450_fma = 50;

struct FloatArithmetic {
    int operations = 0;
    int contractible = 0;  // operations without NoContraction
    int fma = 0;           // explicit fma() calls (GLSL.std.450 Fma)
    std::string first_contractible;
};

FloatArithmetic scan(std::span<const std::uint32_t> words) {
    REQUIRE(words.size() > 5);
    REQUIRE(words[0] == magic);
    std::set<std::uint32_t> no_contraction;
    std::set<std::uint32_t> arithmetic;  // result ids
    FloatArithmetic found;
    for (std::size_t i = 5; i < words.size();) {
        const std::uint32_t count = words[i] >> 16;
        const std::uint32_t opcode = words[i] & 0xFFFFu;
        REQUIRE_MESSAGE(count > 0, "malformed SPIR-V at word ", i);
        REQUIRE(i + count <= words.size());
        if (opcode == op_decorate && count >= 3 && words[i + 2] == decoration_no_contraction)
            no_contraction.insert(words[i + 1]);
        const bool float_op = opcode == op_fadd || opcode == op_fsub || opcode == op_fmul ||
                              opcode == op_fdiv || opcode == op_vector_times_scalar || opcode == op_dot;
        if (float_op) arithmetic.insert(words[i + 2]);
        if (opcode == op_ext_inst && count >= 5 && words[i + 4] == glsl_std_450_fma) ++found.fma;
        i += count;
    }
    for (const std::uint32_t id : arithmetic) {
        ++found.operations;
        if (no_contraction.count(id) == 0) {
            if (found.contractible++ == 0) found.first_contractible = "%" + std::to_string(id);
        }
    }
    return found;
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("vulkan: every float operation of the DCT shader carries NoContraction") {
        const FloatArithmetic found = scan(xme::vulkan::dct_shader_words());
        MESSAGE("dct.comp: ", found.operations, " float operations, ", found.contractible,
                " without NoContraction, ", found.fma, " fma");
        CHECK(found.operations > 50);  // both variants' 1-D transforms are in the module
        CHECK_MESSAGE(found.contractible == 0, "the first is the result ", found.first_contractible,
                      ": declare the variable it feeds `precise` in shaders/dct.comp");
        CHECK(found.fma == 0);
    }
}
