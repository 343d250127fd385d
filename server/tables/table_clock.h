// A table's clock: the running hand's one clock (a decision, a turn or the whole deal), and each
// seat's time bank, spent as used. The table starts the waits, so that their handlers keep it
// alive; this keeps the times.
//
// One wait at most is pending on the timer, and a clock that moves later does not touch it: most
// decisions come long before their time, and a clock set again for every action (a cancelled
// wait, its handler run, a new wait) cost more than the action's own work on the table. The wait,
// when it fires, waits on to the due time if that moved later.
#pragma once

#include "io.h"
#include "protocol/told.h"
#include "tables/game.h"

#include <array>
#include <chrono>
#include <optional>

namespace felt::server {

class TableClock {
  public:
    using Timer = net::steady_timer;
    using TimePoint = Timer::time_point;

    template <class Executor>
    explicit TableClock(const Executor& strand) : timer_(strand) {}

    // The timer to wait on when a call below says to start a wait.
    Timer& timer() { return timer_; }

    // The hand's clock is now `c`. A new key closes the bank in use and runs a fresh clock (key
    // 0: none). True: start a wait.
    [[nodiscard]] bool follow(const Clock& c);
    // No clock: the hand ended, or is void.
    void stop();

    // The pending wait fired: nothing to do, wait on (the clock moved later), or the clock is out.
    enum class Fired { nothing, wait_on, out };
    Fired fired();
    // The clock ran out for its seat. If the seat has bank left, the clock goes on to run on it:
    // the bank, in ms (the table announces it, then calls run_bank). On the second expiry, or
    // with no bank, nothing, and the bank is empty.
    std::optional<int> start_bank();
    // The clock runs on for `ms` from now. True: start a wait.
    [[nodiscard]] bool run_bank(int ms);

    long key() const { return key_; }
    // The seat on the clock, if any.
    std::optional<Seat> seat() const { return seat_; }
    // The time left, in ms, never below 0.
    long left_ms() const;
    // The clock runs on its seat's time bank.
    bool banking() const { return banking_; }
    // For a snapshot: the running clock (its seat, the time left, the seat's bank and whether
    // the clock runs on it); null when no clock runs.
    protocol::json view() const;
    // The time left, and the bank of the seat on the clock, into a message's stamp.
    void tell(protocol::Stamp& stamp) const;

    // A seat's time bank, given as a player sits down (0 when the seat is freed).
    int bank(Seat seat) const { return banks_[seat.at()]; }
    void give_bank(Seat seat, int ms) { banks_[seat.at()] = ms; }

  private:
    // The clock runs until `due`. True: start a wait.
    [[nodiscard]] bool arm(TimePoint due);
    // The decision was made: charges the bank in use, if any, with the time spent from it.
    void close_bank();

    Timer timer_;
    TimePoint due_;            // when the clock runs out (the timer may fire earlier)
    bool waiting_ = false;     // a wait is pending on the timer
    long key_ = 0;             // the hand's Clock::key it runs for (0: none)
    std::optional<Seat> seat_; // the seat on it, if any
    bool banking_ = false;     // the clock runs on bank_seat_'s time bank since bank_from_
    Seat bank_seat_{0};
    std::chrono::steady_clock::time_point bank_from_;
    std::array<int, kMaxTableSeats> banks_{};
};

} // namespace felt::server
