// The table of operations (xme/operations.hpp) and the backends' tables of search kernels
// (xme/kernel_table.hpp): a search added to the engine's table, with no kernel anywhere, is "not
// supported" on every device and variant, with a reason that names it, and no session opens for it, so
// that no backend can run it as another search (docs/engine.md).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "xme/backend.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"
#include "xme/reference.hpp"
#include "xme/session_support.hpp"

namespace {

using xme::SearchMethod;
using xme::StageKind;

// A row added for the test's duration.
class DummySearch {
public:
    static constexpr auto method = static_cast<SearchMethod>(200);
    DummySearch() {
        xme::add_search_stage({StageKind::integer_search, 200, "dummy", "§99", xme::Need::none, 8,
                               "a search no backend implements"});
    }
    ~DummySearch() { xme::remove_search_stage(method); }
    DummySearch(const DummySearch&) = delete;
    DummySearch& operator=(const DummySearch&) = delete;
};

xme::SessionOptions options_for(SearchMethod search, xme::Subpel subpel, xme::Predictor predictor) {
    xme::SessionOptions options;
    options.params.search = search;
    options.params.subpel = subpel;
    options.params.predictor = predictor;
    options.params.range = 8;
    options.width = 64;
    options.height = 48;
    return options;
}

}  // namespace

TEST_SUITE("operations") {
    TEST_CASE("search_methods.def's rows give SearchMethod's values, names and the parsers") {
        std::set<std::string> names;
        for (const xme::StageDescription& row : xme::stages_of(StageKind::integer_search)) {
            const auto search = static_cast<SearchMethod>(row.code);
            CHECK(names.insert(std::string(row.name)).second);
            CHECK(xme::to_string(search) == row.name);
            CHECK(xme::parse_search_method(row.name) == search);
            CHECK(&xme::describe(search) != nullptr);
            CHECK(xme::min_block_size(search) == row.min_block_size);
            CHECK(xme::stage_names(StageKind::integer_search).find(row.name) != std::string::npos);
        }
        CHECK(names.count("fs") == 1);
        CHECK(xme::describe(SearchMethod::ehds).min_block_size == 8);
        CHECK(has(xme::describe(SearchMethod::ehds).needs, xme::Need::mean_pyramid));
        CHECK_THROWS_AS(static_cast<void>(xme::describe(static_cast<SearchMethod>(201))), xme::Error);
    }

    TEST_CASE("a chain's needs come from its rows and its predictor") {
        xme::SearchParams params;
        CHECK_FALSE(xme::needs_previous_field(params));
        CHECK_FALSE(xme::needs_wavefront(params));
        params.predictor = xme::Predictor::temporal;
        CHECK(xme::needs_previous_field(params));
        params.predictor = xme::Predictor::spatial;
        CHECK(xme::needs_wavefront(params));
        params.predictor = xme::Predictor::none;
        params.subpel = xme::Subpel::qpel;
        CHECK(has(xme::chain_needs(params), xme::Need::half_sample_planes));
    }

    TEST_CASE("a search added to the table is derived everywhere and runs nowhere") {
        const DummySearch dummy;
        CHECK(xme::parse_search_method("dummy") == DummySearch::method);
        CHECK(xme::stage_names(StageKind::integer_search).find("dummy") != std::string::npos);
        xme::SearchParams params;
        xme::apply_chain_name(params, "dummy+qpel");
        CHECK(params.search == DummySearch::method);
        CHECK(xme::chain_name(params) == "dummy+qpel");
        params.block_size = 4;  // the row's min_block is 8
        CHECK_THROWS_WITH_AS(params.validate(), doctest::Contains("dummy is defined for blocks of 8"),
                             xme::Error);

        xme::Registry registry = xme::make_builtin_registry();
        int devices = 0;
        for (const auto& info : registry.devices()) {
            if (!info.available) {
                MESSAGE("not checked: " << info.name << " is unavailable here (" << info.unavailable_reason
                                        << ")");
                continue;
            }
            auto device = registry.open(info.name);
            ++devices;
            for (const std::string& variant : info.variants) {
                for (const auto subpel : {xme::Subpel::none, xme::Subpel::hpel, xme::Subpel::qpel}) {
                    for (const auto predictor :
                         {xme::Predictor::none, xme::Predictor::temporal, xme::Predictor::spatial}) {
                        xme::SessionOptions options = options_for(DummySearch::method, subpel, predictor);
                        options.variant = variant;
                        CAPTURE(info.name);
                        CAPTURE(variant);
                        CAPTURE(xme::chain_name(options.params));
                        const xme::Support support = device->supports(options);
                        CHECK_FALSE(support.supported);
                        CHECK(support.reason.find("dummy") != std::string::npos);
                        try {
                            static_cast<void>(device->open_session(options));
                            FAIL("a session opened for a search no backend implements");
                        } catch (const xme::Error& error) {
                            CHECK(error.kind() == xme::ErrorKind::unsupported);
                        }
                    }
                }
            }
            // The same device still runs the table's own searches: only the dummy is refused.
            CHECK(
                device->supports(options_for(SearchMethod::hexagon, xme::Subpel::none, xme::Predictor::none))
                    .supported);
        }
        CHECK(devices >= 2);  // the reference and the CPU at least
    }
}

TEST_SUITE("operations") {
    TEST_CASE(
        "resident frame slots upload each frame of a stream once, a pair's two never evicting each other") {
        xme::ResidentFrameSlots slots(2);
        auto placed = slots.place(0, 1);
        CHECK(placed.reference_claimed);
        CHECK(placed.current_claimed);
        CHECK(placed.reference != placed.current);
        int uploads = 2;
        for (std::int64_t frame = 2; frame < 40; ++frame) {  // pair (f-1, f): f-1 is resident
            const int previous_current = placed.current;
            placed = slots.place(frame - 1, frame);
            CHECK_FALSE(placed.reference_claimed);
            CHECK(placed.reference == previous_current);
            CHECK(placed.current_claimed);
            CHECK(placed.current != placed.reference);
            uploads += int{placed.reference_claimed} + int{placed.current_claimed};
        }
        CHECK(uploads == 40);
        // A pair of one frame twice takes one slot; one of two new frames keeps neither old one.
        placed = slots.place(7, 7);
        CHECK(placed.reference == placed.current);
        CHECK(placed.reference_claimed);
        CHECK_FALSE(placed.current_claimed);
        placed = slots.place(100, 101);
        CHECK(placed.reference != placed.current);
        slots.forget();
        CHECK(slots.find(101) == -1);
    }

    TEST_CASE("a pair's previous field: none at a segment start or when not read, else given or the last") {
        xme::SearchParams temporal;
        temporal.predictor = xme::Predictor::temporal;
        const xme::MotionField last(32, 32, 16, xme::CostKind{});
        const auto given = std::make_shared<const xme::MotionField>(32, 32, 16, xme::CostKind{});
        xme::FramePair pair;
        pair.segment_start = true;
        CHECK(xme::previous_field_of(pair, temporal, &last, "cpu") == nullptr);
        pair.segment_start = false;
        CHECK(xme::previous_field_of(pair, xme::SearchParams{}, &last, "cpu") == nullptr);
        CHECK(xme::previous_field_of(pair, temporal, &last, "cpu") == &last);
        pair.previous = given;
        CHECK(xme::previous_field_of(pair, temporal, &last, "cpu") == given.get());
        pair.previous.reset();
        CHECK_THROWS_WITH_AS(static_cast<void>(xme::previous_field_of(pair, temporal, nullptr, "cpu")),
                             doctest::Contains("computed none"), xme::Error);
    }

    TEST_CASE("pairs in flight come back in order, each slot's pair finished before the slot is reused") {
        xme::InFlightPairs in_flight(3);
        std::vector<std::int64_t> finished;   // current ids, in the order finish() ran
        std::vector<std::size_t> busy(3, 0);  // per slot: the pair using it, 0 when free
        const auto finish = [&](std::size_t slot, std::int64_t current_id) {
            CHECK(busy[slot] == static_cast<std::size_t>(current_id));
            busy[slot] = 0;
            finished.push_back(current_id);
            xme::PairResult result;
            result.device_seconds = static_cast<double>(current_id);
            return result;
        };
        CHECK_THROWS_WITH_AS(static_cast<void>(in_flight.receive(finish)), doctest::Contains("no frame pair"),
                             xme::Error);
        std::vector<std::int64_t> received;
        for (std::int64_t id = 1; id <= 10; ++id) {
            const std::size_t slot = in_flight.next_slot(finish);
            CHECK(busy[slot] == 0);  // its previous pair was finished first
            busy[slot] = static_cast<std::size_t>(id);
            in_flight.submitted(id);
            CHECK(in_flight.pending() <= 10);
            if (id % 4 == 0) received.push_back(in_flight.receive(finish).current_id);
        }
        while (in_flight.pending() > 0) {
            const xme::PairResult result = in_flight.receive(finish);
            CHECK(result.device_seconds == static_cast<double>(result.current_id));
            received.push_back(result.current_id);
        }
        CHECK(received == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        CHECK(finished == received);  // each finished once, oldest first
    }

    TEST_CASE("a variant's former name still selects it; an unknown one is refused naming the allowed") {
        xme::DeviceInfo device;
        device.name = "gpu:0";
        device.variants = {"fast", "p41-positions"};
        device.former_variant_names = {{"p41-002", "p41-positions"}};
        xme::SessionOptions options =
            options_for(SearchMethod::full, xme::Subpel::none, xme::Predictor::none);
        CHECK(xme::checked_variant(device, options) == "fast");
        options.variant = "p41-002";
        CHECK(xme::checked_variant(device, options) == "p41-positions");
        options.variant = "p41-003";
        CHECK_THROWS_WITH_AS(static_cast<void>(xme::checked_variant(device, options)),
                             doctest::Contains("use one of fast, p41-positions"), xme::Error);
    }
}
