// Build-time tool: reads one SPIR-V module, reflects its layout with SPIRV-Cross's C API and writes a
// C++ header holding the words and that layout (shader_binary.hpp). Running it at build time keeps
// SPIRV-Cross out of the programs that use the backend.
//   xme_embed_spirv INPUT.spv NAME OUTPUT.hpp
#include <spirv_cross_c.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<SpvId> read_words(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty() || bytes.size() % 4 != 0) throw std::runtime_error(path + " is not a SPIR-V module");
    std::vector<SpvId> words(bytes.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::uint32_t word = 0;
        for (int b = 3; b >= 0; --b) word = (word << 8) | static_cast<unsigned char>(bytes[4 * i + b]);
        words[i] = word;
    }
    return words;
}

void check(spvc_result result, spvc_context context, const char* what) {
    if (result != SPVC_SUCCESS) {
        throw std::runtime_error(std::string(what) + ": " + spvc_context_get_last_error_string(context));
    }
}

class Reflection {
public:
    Reflection(spvc_context context, spvc_compiler compiler) : context_(context), compiler_(compiler) {
        check(spvc_compiler_create_shader_resources(compiler, &resources_), context,
              "listing shader resources");
    }

    // Descriptor bindings as initialisers of ShaderBinding.
    std::string bindings() {
        std::ostringstream out;
        const std::pair<spvc_resource_type, const char*> kinds[] = {
            {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, "combined_image_sampler"},
            {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, "storage_image"},
            {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, "storage_buffer"},
            {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, "uniform_buffer"}};
        for (const auto& [type, kind] : kinds) {
            for (const auto& resource : list(type)) {
                out << "    {"
                    << spvc_compiler_get_decoration(compiler_, resource.id, SpvDecorationDescriptorSet)
                    << ", " << spvc_compiler_get_decoration(compiler_, resource.id, SpvDecorationBinding)
                    << ", DescriptorKind::" << kind << ", \"" << resource.name << "\"},\n";
            }
        }
        for (auto type : {SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS,
                          SPVC_RESOURCE_TYPE_SUBPASS_INPUT, SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE}) {
            if (!list(type).empty()) throw std::runtime_error("a resource kind the backend does not bind");
        }
        return out.str();
    }

    // Size of the push-constant block and its members, or 0 and nothing.
    std::size_t push_constants(std::string& members) {
        const auto blocks = list(SPVC_RESOURCE_TYPE_PUSH_CONSTANT);
        if (blocks.empty()) return 0;
        const spvc_type type = spvc_compiler_get_type_handle(compiler_, blocks.front().base_type_id);
        std::size_t size = 0;
        check(spvc_compiler_get_declared_struct_size(compiler_, type, &size), context_, "push-constant size");
        std::ostringstream out;
        for (unsigned i = 0; i < spvc_type_get_num_member_types(type); ++i) {
            unsigned offset = 0;
            check(spvc_compiler_type_struct_member_offset(compiler_, type, i, &offset), context_,
                  "member offset");
            out << "    {\"" << spvc_compiler_get_member_name(compiler_, blocks.front().base_type_id, i)
                << "\", " << offset << "},\n";
        }
        members = out.str();
        return size;
    }

    // Specialization constants by name, the workgroup size's included.
    std::string spec_constants() {
        std::ostringstream out;
        spvc_specialization_constant size[3];
        spvc_compiler_get_work_group_size_specialization_constants(compiler_, &size[0], &size[1], &size[2]);
        const char* size_names[] = {"local_size_x", "local_size_y", "local_size_z"};
        const spvc_specialization_constant* constants = nullptr;
        std::size_t count = 0;
        check(spvc_compiler_get_specialization_constants(compiler_, &constants, &count), context_,
              "spec constants");
        for (std::size_t i = 0; i < count; ++i) {
            std::string name = spvc_compiler_get_name(compiler_, constants[i].id);
            for (int axis = 0; axis < 3; ++axis) {
                if (size[axis].id != 0 && size[axis].id == constants[i].id) name = size_names[axis];
            }
            if (name.empty()) throw std::runtime_error("a specialization constant without a name");
            out << "    {\"" << name << "\", " << constants[i].constant_id << "},\n";
        }
        return out.str();
    }

private:
    std::vector<spvc_reflected_resource> list(spvc_resource_type type) {
        const spvc_reflected_resource* items = nullptr;
        std::size_t count = 0;
        check(spvc_resources_get_resource_list_for_type(resources_, type, &items, &count), context_,
              "resource list");
        return {items, items + count};
    }

    spvc_context context_;
    spvc_compiler compiler_;
    spvc_resources resources_ = nullptr;
};

// An array initialiser, or a placeholder element so that the array is never empty.
std::string array(const std::string& type, const std::string& name, const std::string& items,
                  const std::string& placeholder) {
    return "inline constexpr " + type + " " + name + "[] = {\n" +
           (items.empty() ? "    " + placeholder + ",\n" : items) + "};\n";
}

std::string header(const std::string& name, const std::vector<SpvId>& words, spvc_context context) {
    spvc_parsed_ir ir = nullptr;
    check(spvc_context_parse_spirv(context, words.data(), words.size(), &ir), context, "parsing");
    spvc_compiler compiler = nullptr;
    check(spvc_context_create_compiler(context, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                       &compiler),
          context, "reflecting");
    Reflection reflection(context, compiler);
    std::string members;
    const std::size_t push_bytes = reflection.push_constants(members);
    const std::string bindings = reflection.bindings();
    const std::string constants = reflection.spec_constants();

    std::ostringstream out;
    out << "// Generated by xme_embed_spirv from " << name << ".spv; do not edit.\n#pragma once\n\n"
        << "#include \"shader_binary.hpp\"\n\nnamespace xme::vulkan::shaders::" << name << "_detail {\n\n"
        << "inline constexpr std::uint32_t words[] = {";
    for (std::size_t i = 0; i < words.size(); ++i) out << (i % 8 == 0 ? "\n    " : " ") << words[i] << "u,";
    out << "\n};\n"
        << array("ShaderBinding", "bindings", bindings, "{0, 0, DescriptorKind::storage_buffer, \"\"}")
        << array("ShaderSpecConstant", "spec_constants", constants, "{\"\", 0}")
        << array("ShaderMember", "push_constant_members", members, "{\"\", 0}")
        << "\n}  // namespace xme::vulkan::shaders::" << name
        << "_detail\n\nnamespace xme::vulkan::shaders {\n\n"
        << "inline constexpr ShaderBinary " << name << "{\n    \"" << name << "\",\n    " << name
        << "_detail::words,\n    "
        << "std::span(" << name << "_detail::bindings, "
        << (bindings.empty() ? "0" : "std::size(" + name + "_detail::bindings)") << "),\n    std::span("
        << name << "_detail::spec_constants, "
        << (constants.empty() ? "0" : "std::size(" + name + "_detail::spec_constants)") << "),\n    "
        << push_bytes << ",\n    std::span(" << name << "_detail::push_constant_members, "
        << (members.empty() ? "0" : "std::size(" + name + "_detail::push_constant_members)")
        << ")};\n\n}  // namespace xme::vulkan::shaders\n";
    return out.str();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s INPUT.spv NAME OUTPUT.hpp\n", argv[0]);
        return 2;
    }
    spvc_context context = nullptr;
    if (spvc_context_create(&context) != SPVC_SUCCESS) return 1;
    try {
        const std::string text = header(argv[2], read_words(argv[1]), context);
        std::ofstream out(argv[3]);
        out << text;
        if (!out) throw std::runtime_error(std::string("cannot write ") + argv[3]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "xme_embed_spirv: %s: %s\n", argv[1], e.what());
        spvc_context_destroy(context);
        return 1;
    }
    spvc_context_destroy(context);
    return 0;
}
