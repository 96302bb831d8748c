// The guard bytes every backend puts after its result buffers (xme/result_guard.hpp): an intact
// guard passes, any changed byte is an error that names the buffer.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>

#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/result_guard.hpp"

TEST_SUITE("reference") {
    TEST_CASE("a result guard passes intact and names its buffer when any byte changes") {
        auto rng = xme::test::rng_for("result guard");
        std::array<std::uint8_t, xme::result_guard_bytes> guard{};
        xme::fill_result_guard(guard.data());
        CHECK_NOTHROW(xme::check_result_guard(guard.data(), "the keys"));
        std::uniform_int_distribution<std::size_t> position(0, guard.size() - 1);
        std::uniform_int_distribution<int> flip(1, 255);
        for (int trial = 0; trial < 16; ++trial) {
            std::array<std::uint8_t, xme::result_guard_bytes> written = guard;
            const std::size_t at = position(rng);
            written[at] = static_cast<std::uint8_t>(written[at] ^ flip(rng));
            const std::string expected =
                "the keys was written past its end (guard byte " + std::to_string(at) + " changed)";
            CHECK_THROWS_WITH_AS(xme::check_result_guard(written.data(), "the keys"),
                                 doctest::Contains(expected.c_str()), xme::Error);
        }
        // Not a pattern a kernel writes by accident: neither zeros, nor ones, nor one repeated byte.
        std::array<std::uint8_t, xme::result_guard_bytes> zeros{};
        CHECK_THROWS_AS(xme::check_result_guard(zeros.data(), "the keys"), xme::Error);
        CHECK(guard[0] != guard[1]);
    }
}
