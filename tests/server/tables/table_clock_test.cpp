// The table's clock alone (tables/table_clock.h): one wait at a time, a clock that moves later
// waits on, the time bank runs after the decision's time and is charged with what was used, and
// runs out on the second expiry. Against the real steady clock, with small times.
#include "tables/table_clock.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace felt::server;

namespace {

Clock on(long key, int ms, int seat) {
    return {key, ms, Seat(seat)};
}

} // namespace

TEST_CASE(
    "table clock: one wait at a time; a clock that moves later waits on when the wait fires") {
    net::io_context io;
    TableClock clock(net::make_strand(io));
    CHECK(clock.follow(on(1, 5, 2)));       // a fresh clock: start a wait
    CHECK_FALSE(clock.follow(on(1, 5, 2))); // the same key: the same clock
    CHECK(clock.seat() == Seat(2));
    // A new key later than the pending wait: no new wait; when it fires, it waits on.
    CHECK_FALSE(clock.follow(on(2, 60000, 3)));
    CHECK(clock.fired() == TableClock::Fired::wait_on);
    felt::protocol::Stamp stamp;
    clock.tell(stamp);
    CHECK(stamp.deadline_ms > 50000);
    CHECK(stamp.deadline_ms <= 60000);
    // An earlier one than the pending wait: a new wait.
    CHECK(clock.follow(on(3, 1, 3)));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(clock.fired() == TableClock::Fired::out);
    clock.stop();
    CHECK(clock.fired() == TableClock::Fired::nothing);
    CHECK(clock.left_ms() == 0);
}

TEST_CASE("table clock: the time bank runs after the decision's time, is charged with the time "
          "used, and is empty after its own expiry") {
    net::io_context io;
    TableClock clock(net::make_strand(io));
    auto runs_out = [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        return clock.fired() == TableClock::Fired::out;
    };
    CHECK(clock.follow(on(1, 1, 4)));
    CHECK(runs_out());
    CHECK_FALSE(clock.start_bank()); // seat 4 has no bank
    clock.give_bank(Seat(4), 5000);
    CHECK(clock.follow(on(2, 1, 4)));
    CHECK(runs_out());
    const auto bank = clock.start_bank();
    REQUIRE(bank.has_value());
    CHECK(*bank == 5000);
    CHECK(clock.run_bank(*bank));
    felt::protocol::Stamp stamp;
    clock.tell(stamp);
    CHECK(stamp.time_bank_ms == 5000);
    CHECK(stamp.deadline_ms > 4000);
    // The seat acts after some 30 ms of its bank: the next clock charges it.
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(clock.follow(on(3, 1000, 5)));
    CHECK(clock.bank(Seat(4)) <= 4970);
    CHECK(clock.bank(Seat(4)) > 4000);
    CHECK(clock.bank(Seat(5)) == 0);
    // On its next decision it runs out of time, and then of bank: the second expiry empties it.
    CHECK(clock.follow(on(4, 1, 4)));
    CHECK(runs_out());
    REQUIRE(clock.start_bank().has_value());
    CHECK_FALSE(clock.start_bank());
    CHECK(clock.bank(Seat(4)) == 0);
}
