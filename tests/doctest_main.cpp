// doctest's main, plus one rule: a test run aimed at one device (XME_TEST_DEVICE) that is not available
// here exits with 77, which CTest reports as skipped, after printing why. It never counts as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <iostream>

#include "test_support.hpp"
#include "xme/builtin_backends.hpp"

namespace {

constexpr int skipped_exit_code = 77;

// Empty when the device is usable, else the reason it is not.
std::string unavailable_reason(const std::string& wanted) {
    xme::Registry registry = xme::make_builtin_registry();
    std::string reason = "no device named " + wanted + " in this build";
    for (const auto& info : registry.devices()) {
        if (info.name != wanted && info.backend != wanted) continue;
        if (info.available) return {};
        reason = info.name + ": " + info.unavailable_reason;
    }
    return reason;
}

}  // namespace

int main(int argc, char** argv) {
    if (const char* device = std::getenv("XME_TEST_DEVICE")) {
        const std::string reason = unavailable_reason(device);
        if (!reason.empty()) {
            std::cout << "SKIPPED: tests for " << device << " cannot run here: " << reason << "\n";
            return skipped_exit_code;
        }
        if (std::getenv("XME_TEST_VARIANTS") != nullptr && xme::test::devices_under_test().empty()) {
            std::cout << "SKIPPED: " << device << " has none of the variants XME_TEST_VARIANTS="
                      << std::getenv("XME_TEST_VARIANTS") << " names on this machine\n";
            return skipped_exit_code;
        }
    }
    static_cast<void>(xme::test::run_seed());  // print the seed before any test
    doctest::Context context(argc, argv);
    const int result = context.run();
    xme::test::release_devices_under_test();
    return result;
}
