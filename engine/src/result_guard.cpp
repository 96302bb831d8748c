#include "xme/result_guard.hpp"

#include <cstring>

#include "xme/error.hpp"

namespace xme {

void fill_result_guard(void* guard) {
    auto* bytes = static_cast<std::uint8_t*>(guard);
    for (std::size_t i = 0; i < result_guard_bytes; ++i) bytes[i] = result_guard_byte(i);
}

void check_result_guard(const void* guard, const std::string& buffer) {
    const auto* bytes = static_cast<const std::uint8_t*>(guard);
    for (std::size_t i = 0; i < result_guard_bytes; ++i) {
        if (bytes[i] != result_guard_byte(i)) {
            throw Error(ErrorKind::device, "internal error: " + buffer +
                                               " was written past its end (guard byte " + std::to_string(i) +
                                               " changed): please report this with the command");
        }
    }
}

}  // namespace xme
