// xme/band_workers.hpp: every band once, on several threads, the first exception back to the caller,
// and the workers reusable after it.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "xme/band_workers.hpp"

TEST_SUITE("scheduler") {
    TEST_CASE("band workers: every band once, side by side, failures rethrown to the caller") {
        auto rng = xme::test::rng_for("band-workers");
        INFO("seed ", xme::test::run_seed());
        xme::BandWorkers workers(4);
        CHECK(workers.threads() == 4);
        for (int round = 0; round < 20; ++round) {
            const int bands = std::uniform_int_distribution<int>(1, 300)(rng);
            std::vector<std::atomic<int>> taken(static_cast<std::size_t>(bands));
            std::mutex mutex;
            std::set<std::thread::id> threads;
            workers.run(bands, [&](int band) {
                taken[static_cast<std::size_t>(band)].fetch_add(1);
                // Long enough for the other threads to wake and take bands too.
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                const std::lock_guard<std::mutex> lock(mutex);
                threads.insert(std::this_thread::get_id());
            });
            int once = 0;
            for (const auto& count : taken) once += count.load() == 1 ? 1 : 0;
            CHECK(once == bands);
            if (bands >= 100) CHECK(threads.size() > 1);
        }
        const int failing = std::uniform_int_distribution<int>(0, 99)(rng);
        CHECK_THROWS_WITH(workers.run(100,
                                      [&](int band) {
                                          if (band == failing) throw std::runtime_error("band failed");
                                      }),
                          "band failed");
        std::atomic<int> after{0};
        workers.run(50, [&](int) { after.fetch_add(1); });
        CHECK(after.load() == 50);
        xme::BandWorkers alone(1);
        int inline_sum = 0;
        alone.run(10, [&](int band) { inline_sum += band; });  // the caller's thread only: no race
        CHECK(inline_sum == 45);
    }
}
