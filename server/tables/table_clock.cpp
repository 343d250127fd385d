#include "tables/table_clock.h"

#include <algorithm>

namespace felt::server {

bool TableClock::follow(const Clock& c) {
    if (c.key == key_) return false;
    close_bank();
    key_ = c.key;
    seat_ = c.seat;
    if (c.key != 0) return arm(Timer::clock_type::now() + std::chrono::milliseconds(c.ms));
    timer_.cancel();
    waiting_ = false;
    return false;
}

void TableClock::stop() {
    timer_.cancel();
    waiting_ = false;
    close_bank();
    key_ = 0;
}

bool TableClock::arm(TimePoint due) {
    due_ = due;
    if (waiting_ && timer_.expiry() <= due) return false; // it waits on when it fires
    // A later wait pending is cancelled by the new expiry: its handler finds operation_aborted.
    timer_.expires_at(due);
    waiting_ = true;
    return true;
}

TableClock::Fired TableClock::fired() {
    waiting_ = false;
    if (key_ == 0) return Fired::nothing;
    if (Timer::clock_type::now() < due_) return arm(due_) ? Fired::wait_on : Fired::nothing;
    return Fired::out;
}

std::optional<int> TableClock::start_bank() {
    if (banking_) { // the bank ran out too
        banking_ = false;
        banks_[bank_seat_.at()] = 0;
        return std::nullopt;
    }
    if (!seat_ || bank(*seat_) <= 0) return std::nullopt;
    banking_ = true;
    bank_seat_ = *seat_;
    bank_from_ = std::chrono::steady_clock::now();
    return bank(*seat_);
}

bool TableClock::run_bank(int ms) {
    return arm(Timer::clock_type::now() + std::chrono::milliseconds(ms));
}

void TableClock::close_bank() {
    if (!banking_) return;
    banking_ = false;
    int& bank = banks_[bank_seat_.at()];
    const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - bank_from_)
                          .count();
    bank = static_cast<int>(std::max<long>(0, bank - used));
}

long TableClock::left_ms() const {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(due_ - Timer::clock_type::now());
    return std::max<long>(0, left.count());
}

protocol::json TableClock::view() const {
    if (key_ == 0) return nullptr;
    return {{"seat", seat_ ? seat_->index() : -1},
            {"deadline_ms", left_ms()},
            {"time_bank_ms", seat_ ? bank(*seat_) : 0},
            {"banking", banking_}};
}

void TableClock::tell(protocol::Stamp& stamp) const {
    stamp.deadline_ms = left_ms();
    stamp.time_bank_ms = seat_ ? bank(*seat_) : 0;
}

} // namespace felt::server
