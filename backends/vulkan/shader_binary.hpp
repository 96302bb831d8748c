// A compute shader as embedded by the build: SPIR-V words plus the layout SPIRV-Cross reflected from
// them at build time (tools/embed_spirv.cpp). No Vulkan types: the generated headers stay plain C++.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace xme::vulkan {

enum class DescriptorKind { combined_image_sampler, storage_image, storage_buffer, uniform_buffer };

struct ShaderBinding {
    std::uint32_t set;
    std::uint32_t binding;
    DescriptorKind kind;
    std::string_view name;
};

struct ShaderMember {
    std::string_view name;
    std::uint32_t offset;
};

struct ShaderSpecConstant {
    std::string_view name;  // the GLSL name; "local_size_x" etc. for the workgroup size
    std::uint32_t constant_id;
};

struct ShaderBinary {
    std::string_view name;
    std::span<const std::uint32_t> words;
    std::span<const ShaderBinding> bindings;
    std::span<const ShaderSpecConstant> spec_constants;
    std::uint32_t push_constant_bytes;  // 0: no push-constant block
    std::span<const ShaderMember> push_constant_members;
};

}  // namespace xme::vulkan
