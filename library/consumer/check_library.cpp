// Compiles every installed header (all_headers.hpp, written by CMakeLists.txt), then says which
// release the loaded libxme is and which backends it has, for install_consumer.cmake to compare with
// the build's own `xme version`.
#include <iostream>

#include "all_headers.hpp"

int main() {
    std::cout << "xme " << xme::version() << "\nbackends:";
    for (const auto& backend : xme::make_builtin_registry().backends()) {
        if (backend.absent_reason.empty()) std::cout << " " << backend.name;
    }
    std::cout << "\n";
    if (!xme::library_matches_headers()) {
        std::cerr << "check_library: libxme " << xme::version() << " was loaded for headers of "
                  << XME_VERSION_STRING << "\n";
        return 1;
    }
}
