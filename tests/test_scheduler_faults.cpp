// Faults on purpose, through the fake backend (fake_device.hpp): devices that fail at pair k, hang,
// or return a wrong answer, and outputs that cannot be written, under single, mirror and split.
// Whatever happens, pairs come out in order, none twice, every one that could be finished is, and
// every worker thread is joined (or, hung, left behind) when the run returns.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "fake_device.hpp"
#include "test_support.hpp"
#include "xme/agreement.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"
#include "xme/scheduler.hpp"

namespace {

using xme::test::FakeDeviceSpec;
using xme::test::FakeFaults;

constexpr int pair_count = 12;
constexpr std::int64_t first_index = 50;
const xme::SearchParams params{8, 4, xme::BorderMode::pad, xme::SearchMethod::full};

struct Clip {
    std::vector<xme::Plane> planes;
    std::vector<xme::MotionField> expected;  // the reference's field of each pair
};

Clip random_clip(const std::string& test_name, int pairs = pair_count, int width = 64, int height = 48) {
    auto rng = xme::test::rng_for(test_name);
    Clip clip;
    for (int i = 0; i <= pairs; ++i) {
        clip.planes.push_back(
            xme::test::make_pair(xme::test::Content::moving_texture, width, height, rng).current);
    }
    for (int i = 1; i <= pairs; ++i) {
        clip.expected.push_back(
            xme::reference::estimate(clip.planes[i - 1].view(), clip.planes[i].view(), params));
    }
    return clip;
}

struct FaultRun {
    std::vector<xme::ScheduledPair> pairs;
    std::vector<std::string> notices;
    std::optional<xme::Error> error;
    std::vector<xme::ScheduledDevice> devices;
    double seconds = 0;
};

// `on_deliver` sees each pair as it is delivered, and may throw, as a full disk does. Reading a frame
// takes `read_milliseconds` (a job bound by its input). `pairs_in_flight` as ScheduleOptions' (0: its
// default).
FaultRun run_faults(const Clip& clip, xme::Policy policy, const std::vector<FakeDeviceSpec>& devices,
                    double timeout_seconds = 600,
                    const std::function<void(const xme::ScheduledPair&)>& on_deliver = {},
                    int read_milliseconds = 0, int pairs_in_flight = 0) {
    auto hangs = std::make_shared<xme::test::FakeHangs>();
    xme::Registry registry;
    xme::test::add_fake_backend(registry, devices, hangs);
    xme::ScheduleOptions options{
        policy, {}, {params, "", 1, clip.planes.front().width(), clip.planes.front().height()}};
    for (const auto& device : devices) options.devices.push_back(device.name);
    options.device_timeout_seconds = timeout_seconds;
    options.pairs_in_flight = pairs_in_flight;
    xme::Scheduler scheduler(registry, options);
    FaultRun run;
    std::size_t next = 0;
    auto next_frame = [&]() -> std::optional<xme::Frame> {
        if (next == clip.planes.size()) return std::nullopt;
        if (read_milliseconds > 0) std::this_thread::sleep_for(std::chrono::milliseconds(read_milliseconds));
        xme::Frame frame;
        frame.luma = clip.planes[next++];
        return frame;
    };
    auto deliver = [&](xme::ScheduledPair&& pair) {
        if (on_deliver) on_deliver(pair);
        run.pairs.push_back(std::move(pair));
    };
    const auto start = std::chrono::steady_clock::now();
    try {
        scheduler.run(next_frame, first_index, deliver,
                      [&](const std::string& text) { run.notices.push_back(text); });
    } catch (const xme::Error& e) {
        run.error = e;
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.devices = scheduler.devices();
    hangs->release();  // a hung device left behind finishes now, touching nothing of this run
    return run;
}

// The first `count` pairs, in order, none twice, each with `results` results; every result equal
// to the reference's field except those from `wrong_device`, which must differ.
void check_pairs(const FaultRun& run, const Clip& clip, std::size_t count, std::size_t results = 1,
                 std::optional<std::size_t> wrong_device = std::nullopt) {
    REQUIRE(run.pairs.size() == count);
    for (std::size_t i = 0; i < count; ++i) {
        const auto& pair = run.pairs[i];
        CHECK(pair.frame == first_index + 1 + static_cast<std::int64_t>(i));
        REQUIRE(pair.results.size() == results);
        for (const auto& result : pair.results) {
            const std::string difference = xme::test::first_difference(clip.expected[i], result.result.field);
            if (wrong_device && result.device == *wrong_device) {
                CHECK_MESSAGE(!difference.empty(), "pair ", pair.frame, " from the wrong device is right");
            } else {
                CHECK_MESSAGE(difference.empty(), "pair ", pair.frame, " device ", result.device, ": ",
                              difference);
            }
        }
    }
}

std::int64_t random_pair_index(const std::string& test_name) {
    auto rng = xme::test::rng_for(test_name + " k");
    return std::uniform_int_distribution<std::int64_t>(1, pair_count - 3)(rng);
}

// The tests whose premise is a ratio of two fakes' pair times (one over 50 times slower than the other)
// run on 16x16 frames, so that a fake's own reference computation stays well under the 1 ms a fast
// fake sleeps, even under AddressSanitizer (on 64x48 frames a fast fake's pair took ~20 ms there, and
// the ratio fell under 50). Under ThreadSanitizer it still takes several ms: there they are skipped
// (doctest counts them as skipped).
using xme::test::thread_sanitized;

FakeDeviceSpec fake(int index, FakeFaults faults = {}) {
    FakeDeviceSpec spec;
    spec.name = "fake:" + std::to_string(index);
    spec.faults = faults;
    return spec;
}

// The ratio tests' split: `pairs` pairs of 16x16 frames over `devices`, every one delivered and right;
// returns what fake:0 took (pairs it delivered, and those it computed that another finished first).
std::int64_t split_taken_by_fake0(const std::string& test_name, int pairs,
                                  const std::vector<FakeDeviceSpec>& devices, int pairs_in_flight = 0) {
    const Clip clip = random_clip(test_name, pairs, 16, 16);
    const FaultRun run = run_faults(clip, xme::Policy::split, devices, 600, {}, 0, pairs_in_flight);
    CHECK_FALSE(run.error.has_value());
    check_pairs(run, clip, static_cast<std::size_t>(pairs));
    const std::int64_t taken = run.devices[0].pairs_done + run.devices[0].pairs_discarded;
    MESSAGE("fake:0 took ", taken, " pairs (", run.devices[0].pairs_discarded, " discarded), fake:1 ",
            run.devices[1].pairs_done);
    return taken;
}

}  // namespace

TEST_SUITE("scheduler") {
    TEST_CASE("single: a device failing at pair k delivers the k pairs before it, then fails the run") {
        const Clip clip = random_clip("faults single fail");
        const std::int64_t k = random_pair_index("faults single fail");
        INFO("k = ", k);
        const FaultRun run = run_faults(clip, xme::Policy::single, {fake(0, {.fail_at = k})});
        check_pairs(run, clip, static_cast<std::size_t>(k));
        REQUIRE(run.error.has_value());
        CHECK(run.error->kind() == xme::ErrorKind::device);
        CHECK(std::string(run.error->what())
                  .find("injected failure at frame " + std::to_string(first_index + 1 + k)) !=
              std::string::npos);
        REQUIRE(run.devices.front().failure.has_value());
        CHECK(run.devices.front().pairs_done == k);
    }

    TEST_CASE("mirror: every pair a failing device finished is delivered, the others finishing it too") {
        const Clip clip = random_clip("faults mirror fail");
        const std::int64_t k = random_pair_index("faults mirror fail");
        INFO("k = ", k);
        // The failing device is fast and the other slow, so the failure comes while the slow one is
        // pairs behind: it must catch up on those, not stop at once.
        const FaultRun run = run_faults(clip, xme::Policy::mirror,
                                        {fake(0, {.fail_at = k}), fake(1, {.milliseconds_per_pair = 15})});
        check_pairs(run, clip, static_cast<std::size_t>(k), 2);
        REQUIRE(run.error.has_value());
        CHECK(std::string(run.error->what()).find("fake:0: injected failure") != std::string::npos);
        CHECK(run.devices[0].pairs_done == k);
        CHECK(run.devices[1].pairs_done >= k);
        CHECK_FALSE(run.devices[1].failure.has_value());
    }

    TEST_CASE("mirror: a device that cannot open ends the run at once, with nothing to deliver") {
        const Clip clip = random_clip("faults mirror open");
        const FaultRun run =
            run_faults(clip, xme::Policy::mirror, {fake(0), fake(1, {.fail_to_open = true})});
        check_pairs(run, clip, 0, 2);
        REQUIRE(run.error.has_value());
        CHECK(std::string(run.error->what()).find("injected failure to open") != std::string::npos);
    }

    TEST_CASE("split: a device whose first pair is slow (a GPU loading its kernels) still gets its share") {
        // fake:1 takes at least 1 ms a pair, so it cannot finish the 700 pairs while fake:0's first
        // pair takes 600 ms; fake:0's later pairs are 1,000 times faster than its first. Judged by its
        // first pair, fake:0 would look slower than the read-ahead (at most 256 pairs) takes to drain and
        // never be given a second one.
        constexpr int pairs = 700;
        const Clip clip = random_clip("split slow first pair", pairs);
        const FaultRun run =
            run_faults(clip, xme::Policy::split,
                       {fake(0, {.first_pair_milliseconds = 600}), fake(1, {.milliseconds_per_pair = 1})});
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("pairs: fake:0 ", run.devices[0].pairs_done, ", fake:1 ", run.devices[1].pairs_done);
        CHECK(run.devices[0].pairs_done >= 10);
    }

    TEST_CASE("split: one slow pair among a device's first does not starve it for the rest of the job") {
        // fake:0's second pair takes 600 ms (its first and the others none), fake:1's pairs 1 ms each.
        // Rated by that pair, fake:0 would look 600 times slower than it is and never get another (on
        // two H200s one GPU of a split computed 1 to 4 of 7,679 pairs in 5 of 12 jobs).
        constexpr int pairs = 700;
        const Clip clip = random_clip("split slow second pair", pairs);
        const FaultRun run = run_faults(clip, xme::Policy::split,
                                        {fake(0, {.slow_pair_at = 1, .slow_pair_milliseconds = 600}),
                                         fake(1, {.milliseconds_per_pair = 1})});
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("pairs: fake:0 ", run.devices[0].pairs_done, ", fake:1 ", run.devices[1].pairs_done);
        CHECK(run.devices[0].pairs_done >= 100);
    }

    TEST_CASE("split: a device whose first measured pairs were slow is measured again, not left idle") {
        // fake:0's pairs 1-4 take 40 ms (its first and the later ones no time), fake:1's 1 ms each:
        // fake:0 is rated at 40 ms a pair from three of them and not worth a pair while fake:1 drains
        // the queue; once idle long enough it is measured again and takes its share.
        constexpr int pairs = 700;
        const Clip clip = random_clip("split slow first pairs", pairs);
        const FaultRun run =
            run_faults(clip, xme::Policy::split,
                       {fake(0, {.slow_pair_at = 1, .slow_pair_count = 4, .slow_pair_milliseconds = 40}),
                        fake(1, {.milliseconds_per_pair = 1})});
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("pairs: fake:0 ", run.devices[0].pairs_done, ", fake:1 ", run.devices[1].pairs_done);
        CHECK(run.devices[0].pairs_done >= 100);
    }

    TEST_CASE("split bound by reading: a device that opens late is measured, not left to the other") {
        // fake:0 opens its session 100 ms late (a GPU creating its context), when fake:1 is measured and
        // idle between frames that arrive every 2 ms. Each new pair wakes both: fake:1 must leave it to
        // fake:0 until fake:0 is measured too (on two H200s a GPU of such a split was left with 2-3 of
        // 3,839 pairs, rated never, so given no more). Both fakes compute a 16x16 pair in well under the
        // 2 ms, so once measured they share the rest.
        constexpr int pairs = 200;
        const Clip clip = random_clip("split opens late", pairs, 16, 16);
        const FaultRun run =
            run_faults(clip, xme::Policy::split, {fake(0, {.open_milliseconds = 100}), fake(1)}, 600, {}, 2);
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("pairs: fake:0 ", run.devices[0].pairs_done, " (", run.devices[0].pairs_discarded,
                " discarded), fake:1 ", run.devices[1].pairs_done);
        // Measured takes four (its first is not rated); a pair it takes may be backed up by fake:1.
        CHECK(run.devices[0].pairs_done + run.devices[0].pairs_discarded >= 4);
    }

    TEST_CASE("split: a device that really is slow is measured again less and less often" *
              doctest::skip(thread_sanitized)) {
        // fake:0 takes 40 ms a pair, fake:1 1 ms: fake:0 is worth no pair once measured (the read-ahead
        // drains first) but within 50x, so it is measured again after 100, 200, 400, ... ms idle (three
        // pairs, one at a time, each maybe also computed by fake:1), not every 100 ms: over ~0.7 s a
        // handful of times (10 pairs taken here, 13 when measured again every 100 ms; the bound leaves
        // room for a slower machine's longer run). One pair in flight, so that the read-ahead (4 per
        // device in flight: 8) drains well within fake:0's pair wherever fake:1's pairs take 2-3 ms (under
        // AddressSanitizer on a loaded machine): with three, its 24 pairs took ~40 ms there, fake:0 was
        // worth pairs by its rate and took 26.
        CHECK(split_taken_by_fake0(
                  "split really slow", 700,
                  {fake(0, {.milliseconds_per_pair = 40}), fake(1, {.milliseconds_per_pair = 1})}, 1) <= 24);
    }

    TEST_CASE("split: a device over 50 times slower than another is not measured again" *
              doctest::skip(thread_sanitized)) {
        // fake:0 at 300 ms a pair beside fake:1 at 1 ms (not on the host's cores): measured once (its
        // first pairs, one at a time), then left idle for the rest of the job. (300 times slower: over
        // 50 even where a busy machine makes fake:1's pairs take 5 ms.)
        CHECK(split_taken_by_fake0(
                  "split far slower", 700,
                  {fake(0, {.milliseconds_per_pair = 300}), fake(1, {.milliseconds_per_pair = 1})}) <= 6);
    }

    TEST_CASE("split: a CPU-like device whose first pair took over 50 times another's takes no more" *
              doctest::skip(thread_sanitized)) {
        // fake:0 (a CPU: on the host's cores) at 300 ms a pair beside fake:1 at 1 ms (a GPU): after its
        // first pair it is left out, not measured on three more, each holding cores a GPU's pipeline needs.
        // (300 times slower: over 50 even where a busy machine makes fake:1's pairs take 5 ms.)
        FakeDeviceSpec host = fake(0, {.milliseconds_per_pair = 300});
        host.on_host_cores = true;
        CHECK(split_taken_by_fake0("split host far slower", 700,
                                   {host, fake(1, {.milliseconds_per_pair = 1})}) == 1);
    }

    TEST_CASE("split: a CPU-like device waits for the GPU-like one to be measured before its second pair" *
              doctest::skip(thread_sanitized)) {
        // fake:1 (off the host's cores) loads its kernels for 1 s on its first pair, then takes 1 ms a
        // pair; fake:0 (on them) takes 300 ms. Without the wait fake:0 would be measured on three more
        // pairs while fake:1's first runs, each holding the cores fake:1's pipeline needs.
        FakeDeviceSpec host = fake(0, {.milliseconds_per_pair = 300});
        host.on_host_cores = true;
        CHECK(split_taken_by_fake0(
                  "split host waits", 300,
                  {host, fake(1, {.milliseconds_per_pair = 1, .first_pair_milliseconds = 1000})}) == 1);
    }

    TEST_CASE("split: a CPU-like device left out takes over the job when the GPU-like one fails" *
              doctest::skip(thread_sanitized)) {
        // fake:0 (on the host's cores, 150 ms a pair) is left out after its first pair, beside fake:1 (1
        // ms, failing at its 290th, long after fake:0's first): left out, it waits for nothing but a
        // failure or the run's end, and must then finish the pairs fake:1 did not.
        constexpr int pairs = 300;
        constexpr int fails_at = 290;
        const Clip clip = random_clip("split left out takes over", pairs, 16, 16);
        FakeDeviceSpec host = fake(0, {.milliseconds_per_pair = 150});
        host.on_host_cores = true;
        const FaultRun run = run_faults(clip, xme::Policy::split,
                                        {host, fake(1, {.fail_at = fails_at, .milliseconds_per_pair = 1})});
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("pairs: fake:0 ", run.devices[0].pairs_done, ", fake:1 ", run.devices[1].pairs_done);
        CHECK(run.devices[1].failure.has_value());
        CHECK(run.devices[0].pairs_done >= pairs - fails_at);
    }

    TEST_CASE("split: a device on the host's cores beside one that is not gets half the processors") {
        // A CPU beside a GPU: the other half read frames, deliver results and feed the GPU.
        const Clip clip = random_clip("split host threads", 8);
        const int half = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
        struct Case {
            xme::Policy policy;
            bool second_on_host;
            int threads;  // the job's
            int expected;
        };
        for (const Case c : {Case{xme::Policy::split, false, 0, half}, Case{xme::Policy::split, false, 3, 3},
                             Case{xme::Policy::split, true, 0, 0}, Case{xme::Policy::mirror, false, 0, 0}}) {
            INFO("policy ", xme::to_string(c.policy), ", second on host cores ", c.second_on_host,
                 ", threads ", c.threads);
            FakeDeviceSpec host = fake(0), other = fake(1);
            host.on_host_cores = true;
            other.on_host_cores = c.second_on_host;
            host.opened_threads = std::make_shared<int>(-1);
            xme::Registry registry;
            xme::test::add_fake_backend(registry, {host, other}, std::make_shared<xme::test::FakeHangs>());
            xme::ScheduleOptions options{c.policy, {"fake:0", "fake:1"}, {params, "", c.threads, 64, 48}};
            xme::Scheduler scheduler(registry, options);
            std::size_t next = 0;
            std::size_t delivered = 0;
            scheduler.run(
                [&]() -> std::optional<xme::Frame> {
                    if (next == clip.planes.size()) return std::nullopt;
                    xme::Frame frame;
                    frame.luma = clip.planes[next++];
                    return frame;
                },
                first_index, [&](xme::ScheduledPair&&) { ++delivered; }, [](const std::string&) {});
            CHECK(delivered == clip.planes.size() - 1);
            CHECK(*host.opened_threads == c.expected);
        }
    }

    TEST_CASE("split: a pair a slow device holds is computed by an idle one too, so delivery goes on") {
        // fake:0's first pair takes 2 s, fake:1's pairs no time. Results are delivered in frame order:
        // without the backup, every pair after fake:0's would wait for it.
        constexpr int pairs = 40;
        const Clip clip = random_clip("split backup", pairs);
        const auto start = std::chrono::steady_clock::now();
        double last_delivery = 0;
        const FaultRun run = run_faults(
            clip, xme::Policy::split, {fake(0, {.first_pair_milliseconds = 2000}), fake(1)}, 600,
            [&](const xme::ScheduledPair&) {
                last_delivery =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            });
        CHECK_FALSE(run.error.has_value());
        check_pairs(run, clip, pairs);
        MESSAGE("last delivery after ", last_delivery, " s; fake:0 ", run.devices[0].pairs_done, " pairs, ",
                run.devices[0].pairs_discarded, " discarded");
        CHECK(last_delivery < 1.5);             // long before fake:0's pair ended
        CHECK(run.devices[0].pairs_done == 0);  // its one pair (if it got one) was fake:1's first
        CHECK(run.devices[0].pairs_discarded <= 1);
        CHECK(run.devices[1].pairs_done == pairs);
    }

    TEST_CASE("split: a failing device's pairs go to the others; none is lost or delivered twice") {
        const Clip clip = random_clip("faults split fail");
        for (const std::int64_t k : {std::int64_t{0}, random_pair_index("faults split fail")}) {
            INFO("k = ", k);
            const FaultRun run = run_faults(clip, xme::Policy::split, {fake(0, {.fail_at = k}), fake(1)});
            CHECK_FALSE(run.error.has_value());
            check_pairs(run, clip, pair_count);
            if (run.devices[0].failure) {  // only if it was given pair k at all
                REQUIRE(run.notices.size() == 1);
                CHECK(run.notices.front().find("device fake:0 failed") != std::string::npos);
                // Its pairs go to the others, unless one of them already finished it as a backup.
                const std::string& text = run.notices.front();
                CHECK((text.find("go to the other devices") != std::string::npos ||
                       text.find("the other devices finished its pairs") != std::string::npos));
            }
        }
    }

    TEST_CASE(
        "split: when every device has failed, the pairs finished before are delivered and the run fails") {
        const Clip clip = random_clip("faults split all fail");
        const FaultRun run =
            run_faults(clip, xme::Policy::split, {fake(0, {.fail_at = 2}), fake(1, {.fail_at = 3})});
        REQUIRE(run.error.has_value());
        CHECK(run.error->kind() == xme::ErrorKind::device);
        CHECK(run.pairs.size() <= 5);
        check_pairs(run, clip, run.pairs.size());
    }

    TEST_CASE("a hung device is abandoned after the timeout, with a message, under each policy") {
        const Clip clip = random_clip("faults hang");
        const std::int64_t k = random_pair_index("faults hang");
        INFO("k = ", k);
        const FakeFaults hang{.hang_at = k};
        SUBCASE("single") {
            const FaultRun run = run_faults(clip, xme::Policy::single, {fake(0, hang)}, 0.3);
            check_pairs(run, clip, static_cast<std::size_t>(k));
            REQUIRE(run.error.has_value());
            CHECK(run.error->kind() == xme::ErrorKind::device);
            CHECK(std::string(run.error->what()) ==
                  "device fake:0: no answer from the device in 0.3 s; it is taken as hung and abandoned");
            CHECK(run.seconds < 10);
        }
        SUBCASE("mirror") {
            const FaultRun run = run_faults(clip, xme::Policy::mirror, {fake(0), fake(1, hang)}, 0.3);
            check_pairs(run, clip, static_cast<std::size_t>(k), 2);
            REQUIRE(run.error.has_value());
            CHECK(std::string(run.error->what()).find("device fake:1: no answer") != std::string::npos);
            CHECK(run.seconds < 10);
        }
        SUBCASE("split") {
            const FaultRun run =
                // fake:1 slow enough that fake:0 surely takes a pair (and hangs on it) before fake:1
                // has done them all.
                run_faults(clip, xme::Policy::split,
                           {fake(0, {.hang_at = 0}), fake(1, {.milliseconds_per_pair = 10})}, 0.3);
            CHECK_FALSE(run.error.has_value());
            check_pairs(run, clip, pair_count);
            REQUIRE(run.notices.size() == 1);
            CHECK(run.notices.front().find("device fake:0 failed: no answer from the device in 0.3 s") !=
                  std::string::npos);
            REQUIRE(run.devices[0].failure.has_value());
        }
    }

    TEST_CASE("a device returning wrong vectors: delivered as computed, under its own name") {
        const Clip clip = random_clip("faults wrong");
        SUBCASE("mirror: the disagreement is there to find, from the first wrong pair on") {
            const std::int64_t k = random_pair_index("faults wrong");
            const FaultRun run = run_faults(clip, xme::Policy::mirror, {fake(0), fake(1, {.wrong_from = k})});
            CHECK_FALSE(run.error.has_value());
            REQUIRE(run.pairs.size() == pair_count);
            for (std::size_t i = 0; i < run.pairs.size(); ++i) {
                const auto& pair = run.pairs[i];
                const auto agreement =
                    xme::compare_fields(pair.reference->luma.view(), pair.current->luma.view(), params,
                                        pair.results[0].result.field, pair.results[1].result.field, 0);
                CHECK_MESSAGE(agreement.agrees() == (static_cast<std::int64_t>(i) < k), "pair ", pair.frame);
            }
        }
        SUBCASE("single") {
            const FaultRun run = run_faults(clip, xme::Policy::single, {fake(0, {.wrong_from = 0})});
            check_pairs(run, clip, pair_count, 1, 0);
        }
        SUBCASE("split") {
            const FaultRun run = run_faults(clip, xme::Policy::split, {fake(0), fake(1, {.wrong_from = 0})});
            check_pairs(run, clip, pair_count, 1, 1);
        }
    }

    TEST_CASE("an output that cannot be written stops the run with its error, every thread joined") {
        const Clip clip = random_clip("faults deliver");
        const std::int64_t k = random_pair_index("faults deliver");
        auto full_disk = [k](const xme::ScheduledPair& pair) {
            if (pair.frame == first_index + 1 + k)
                throw xme::Error(xme::ErrorKind::io, "cannot write out.csv: No space left on device");
        };
        for (const auto policy : {xme::Policy::single, xme::Policy::mirror, xme::Policy::split}) {
            INFO("policy ", xme::to_string(policy), ", k = ", k);
            std::vector<FakeDeviceSpec> devices{fake(0)};
            if (policy != xme::Policy::single) devices.push_back(fake(1, {.milliseconds_per_pair = 2}));
            const FaultRun run = run_faults(clip, policy, devices, 600, full_disk);
            check_pairs(run, clip, static_cast<std::size_t>(k), policy == xme::Policy::mirror ? 2 : 1);
            REQUIRE(run.error.has_value());
            CHECK(run.error->kind() == xme::ErrorKind::io);
        }
    }

    TEST_CASE("a variant no device has, a device given twice or a negative count in flight is refused") {
        xme::Registry registry;
        xme::test::add_fake_backend(registry, {fake(0), fake(1)}, std::make_shared<xme::test::FakeHangs>());
        xme::ScheduleOptions options{xme::Policy::single, {"fake:0"}, {params, "bogus", 1, 64, 48}};
        CHECK_THROWS_WITH_AS(xme::Scheduler(registry, options),
                             "device fake:0 has no variant 'bogus': use one of exact, alternate", xme::Error);
        options.policy = xme::Policy::split;
        options.devices = {"fake:0", "reference"};
        CHECK_THROWS_WITH_AS(xme::Scheduler(registry, options),
                             doctest::Contains("none of the devices has the variant 'bogus'"), xme::Error);
        options.devices = {"fake:0", "fake:0"};
        CHECK_THROWS_WITH_AS(xme::Scheduler(registry, options),
                             "device fake:0 is given twice: list each device once", xme::Error);
        options.devices = {"fake:0", "reference"};
        options.pairs_in_flight = -1;
        CHECK_THROWS_WITH_AS(xme::Scheduler(registry, options),
                             "-1 pairs in flight per device: expected 0 (automatic) or more", xme::Error);
        options.pairs_in_flight = 0;
        options.session.variant = "alternate";  // fake:0 has it; the reference runs its default
        const xme::Scheduler scheduler(registry, options);
        CHECK(scheduler.devices()[0].variant == "alternate");
        CHECK(scheduler.devices()[1].variant == scheduler.devices()[1].info.variants.front());
    }

    TEST_CASE("a job's frames live in the plane memory of the first device that offers one") {
        const auto memory = std::make_shared<xme::test::CountingPlaneMemory>();
        FakeDeviceSpec offering = fake(1);
        offering.plane_memory = memory;
        xme::Registry registry;
        xme::test::add_fake_backend(registry, {fake(0), offering}, std::make_shared<xme::test::FakeHangs>());
        xme::ScheduleOptions options{xme::Policy::split, {"fake:0", "fake:1"}, {params, "", 1, 64, 48}};
        CHECK(xme::Scheduler(registry, options).plane_memory() == memory);
        options.devices = {"fake:0", "reference"};
        CHECK(xme::Scheduler(registry, options).plane_memory() == nullptr);
    }
}
