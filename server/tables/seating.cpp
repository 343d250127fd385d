// The table's seats and watchers: joining with a buy-in, spectating, leaving and cashing out,
// sitting out and in, topping up, a player's connection lost and found, chat, and the snapshot
// sent again. The hands are in table.cpp.
#include "tables/table.h"

#include "protocol/chat.h"
#include "protocol/config_reader.h"
#include "protocol/table_messages.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace felt::server {

std::optional<Seat> Table::seat_of(std::int64_t account) const {
    for (Seat i : seats_of(limits_.seats))
        if (const Occupant* st = seat(i); st && st->account == account) return i;
    return std::nullopt;
}

std::optional<Seat> Table::seat_of_session(const std::shared_ptr<Recipient>& s) const {
    // By owner, without locking each seat's session (two atomic counts on a line that other
    // threads write): `s` is alive, so a session with its owner is `s` itself.
    for (Seat i : seats_of(limits_.seats))
        if (const Occupant* st = seat(i);
            st && !st->session.owner_before(s) && !s.owner_before(st->session))
            return i;
    return std::nullopt;
}

bool Table::in_hand(Seat seat) const {
    return (hand_ || pending_ || settling_) &&
           std::ranges::find(deal_.seats, seat) != deal_.seats.end();
}

bool Table::free(Seat seat) const {
    return !this->seat(seat) && !reserved_[seat.at()];
}

void Table::join(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (self->closed_)
            return self->refuse(s, r, "no_such_table",
                                "table " + std::to_string(self->id_) + " has closed");
        if (self->hosted_)
            return self->refuse(s, r, "tournament_table",
                                "table " + std::to_string(self->id_) +
                                    " is a tournament's: register for the tournament to play");
        const Limits& l = self->limits_;
        // A table with no chips at stake (max_buy_in 0) needs no buy-in.
        const auto asked = protocol::integer_field(r, "buy_in", l.max_buy_in == 0 ? 0 : -1);
        if (!asked.ok()) return self->refuse(s, r, asked.refusal);
        const Chips buy_in = Chips(*asked.value);
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (self->closing_ || self->closed_)
            return self->refuse(s, r, "closed", "the table is closing");
        if (self->seat_of(a.id) ||
            std::ranges::find(self->reserved_, a.id) != self->reserved_.end())
            return self->refuse(s, r, "already_seated", "you already have a seat here");
        if (buy_in < l.min_buy_in || buy_in > l.max_buy_in)
            return self->refuse(s, r, "bad_amount",
                                "the buy-in is " + to_string(l.min_buy_in) + " to " +
                                    to_string(l.max_buy_in));
        std::optional<Seat> seat;
        if (r.body.contains("seat")) {
            auto asked_seat = protocol::integer_field(r, "seat", std::nullopt, 0, l.seats - 1);
            if (!asked_seat.ok()) return self->refuse(s, r, asked_seat.refusal);
            seat = Seat(static_cast<int>(*asked_seat.value));
            if (!self->free(*seat)) return self->refuse(s, r, "seat_taken", "that seat is taken");
        } else {
            for (Seat i : seats_of(l.seats))
                if (!seat && self->free(i)) seat = i;
            if (!seat) return self->refuse(s, r, "table_full", "every seat is taken");
        }
        // The seat is held while the buy-in is written; the player sits once it is committed.
        self->reserved_[seat->at()] = a.id;
        self->ledger_.buy_in(
            seat->index(), a.id, buy_in,
            [self, s, a, r, seat = *seat, buy_in](std::optional<std::optional<Refusal>> refused) {
                self->reserved_[seat.at()] = 0;
                if (!refused || *refused) self->arm_idle(); // nobody sat down after all
                if (!refused)                               // rolled back: nothing moved
                    return self->refuse(s, r, "internal",
                                        "the server cannot store your buy-in now; nothing moved");
                if (*refused) return self->refuse(s, r, **refused);
                self->sit(s, a, r, seat, buy_in);
            });
    });
}

void Table::sit(const std::shared_ptr<Recipient>& s, const Account& a, const protocol::Request& r,
                Seat seat, Chips stack) {
    seats_[seat.at()] = Occupant{a.id, a.name, stack, s, false};
    clock_.give_bank(seat, limits_.time_bank_ms);
    ++taken_;
    services_.lobby.note_seat(a.id, id_, true);
    publisher_.watch(s);
    spdlog::info("table {}: {} sits in seat {} with {}", id_, a.name, seat.index(), stack);
    send(s, protocol::reply(r, {{"table", id_}, {"seat", seat}, {"stack", stack}}));
    broadcast(protocol::seated_json(seat.index(), a.name, stack));
    send(s, snapshot(seat));
    lobby_changed();
    if (stopping_) return cash_out(seat, "shutdown"); // the server began to stop meanwhile
    maybe_start();
}

void Table::spectate(std::shared_ptr<Recipient> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        if (self->closed_)
            return self->refuse(s, r, "no_such_table",
                                "table " + std::to_string(self->id_) + " has closed");
        self->publisher_.watch(s);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(std::nullopt));
        self->lobby_changed();
    });
}

void Table::leave(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) {
            self->publisher_.unwatch(s.get());
            self->send(s, protocol::reply(r, {{"table", self->id_}}));
            return self->lobby_changed();
        }
        Occupant& st = *self->seat(*seat);
        if (self->hosted_) {
            // A tournament's player is never cashed out: leaving, they are blinded away (dealt in,
            // folded at once) until they come back.
            st.chose_out = st.quit = true;
            self->publisher_.unwatch(s.get());
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"blinded_away", true}}));
            self->broadcast(protocol::sitting_out_json(seat->index(), protocol::SitOut::chosen));
            if (self->in_running(*seat)) self->run(self->hand_->leave(*seat));
            return self->lobby_changed();
        }
        if (self->in_running(*seat) || self->pending_ || self->settling_ || st.cashing ||
            st.topping) {
            // The game acts for the seat; cashed out once the hand's end is stored.
            st.leaving = st.quit = true;
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"after_hand", true}}));
            if (self->in_running(*seat)) self->run(self->hand_->leave(*seat));
            return;
        }
        const Chips stack = st.stack;
        st.quit = true;
        self->cash_out(*seat, "cash_out", [self, s, r, stack](bool ok) {
            if (!ok)
                return self->refuse(s, r, "internal",
                                    "the server cannot store your cash-out now; your seat is "
                                    "dealt no more hands and is cashed out as soon as it can be");
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"cashed_out", stack}}));
        });
    });
}

void Table::cash_out(Seat seat, const char* reason, std::function<void(bool ok)> then) {
    Occupant& st = *this->seat(seat);
    if (st.cashing) return; // already on its way
    st.cashing = true;
    st.leaving = true; // dealt no more hands
    ledger_.cash_out(seat.index(), st.account, st.stack, reason,
                     [self = shared_from_this(), seat, reason, then = std::move(then)](bool ok) {
                         Occupant& st = *self->seat(seat);
                         st.cashing = false;
                         if (!ok) {
                             // Rolled back: the chips stay in table_seats (recovered at a restart)
                             // and in the seat, which is dealt no more hands; the cash-out is tried
                             // again when storage works.
                             self->ledger_.pause(self);
                             if (then) then(false);
                             return;
                         }
                         const Occupant gone = std::move(st);
                         self->seats_[seat.at()].reset();
                         self->clock_.give_bank(seat, 0);
                         --self->taken_;
                         self->services_.lobby.note_seat(gone.account, self->id_, false);
                         spdlog::info("table {}: {} leaves seat {} with {} ({})", self->id_,
                                      gone.name, seat.index(), gone.stack, reason);
                         self->broadcast(protocol::left_json(seat.index(), gone.name, gone.stack));
                         if (auto s = gone.session.lock(); s && gone.quit)
                             self->publisher_.unwatch(s.get());
                         self->lobby_changed();
                         self->arm_idle();
                         if (then) then(true);
                         self->maybe_start();
                     });
}

void Table::sit_out(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        Occupant& st = *self->seat(*seat);
        // A player in the hand plays it out; the next hands are dealt without them.
        self->send(
            s, protocol::reply(r, {{"table", self->id_}, {"after_hand", self->in_running(*seat)}}));
        if (st.chose_out) return;
        st.chose_out = true;
        if (!st.sitting_out)
            self->broadcast(protocol::sitting_out_json(seat->index(), protocol::SitOut::chosen));
        self->seating_changed();
    });
}

void Table::sit_in(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        Occupant& st = *self->seat(*seat);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        if (!st.chose_out && !st.sitting_out) return;
        st.chose_out = st.sitting_out = false;
        st.missed = 0;
        self->broadcast(protocol::sitting_in_json(seat->index()));
        self->seating_changed();
        self->maybe_start();
    });
}

void Table::top_up(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (self->hosted_)
            return self->refuse(s, r, "tournament_table",
                                "a tournament's stack cannot be topped up");
        const auto asked = protocol::integer_field(r, "amount", std::nullopt, 1);
        if (!asked.ok()) return self->refuse(s, r, asked.refusal);
        const Chips amount = Chips(*asked.value);
        Occupant& st = *self->seat(*seat);
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (st.leaving || st.cashing)
            return self->refuse(s, r, "leaving", "your seat is being cashed out");
        if (st.topping)
            return self->refuse(s, r, "busy", "your last top-up is still being written");
        if (self->in_hand(*seat))
            return self->refuse(s, r, "in_hand",
                                std::string("you are in the ") + self->game_->hand_noun() +
                                    " being played; top up once it ends");
        const Chips room = self->limits_.max_buy_in - st.stack;
        if (amount > room)
            return self->refuse(s, r,
                                {"bad_amount",
                                 "a stack may hold at most the maximum buy-in, " +
                                     to_string(self->limits_.max_buy_in) + ": top up by at most " +
                                     to_string(std::max(room, Chips(0))),
                                 "amount"});
        // The seat is dealt no hand, and cannot be cashed out, while the top-up is written.
        st.topping = true;
        ++self->topping_;
        self->ledger_.top_up(
            seat->index(), a.id, amount,
            [self, s, r, seat = *seat, amount](std::optional<std::optional<Refusal>> refused) {
                --self->topping_;
                Occupant& st = *self->seat(seat);
                st.topping = false;
                if (!refused)
                    self->refuse(s, r, "internal",
                                 "the server cannot store your top-up now; nothing moved");
                else if (*refused)
                    self->refuse(s, r, **refused);
                else {
                    st.stack += amount;
                    spdlog::info("table {}: {} tops up seat {} by {} to {}", self->id_, st.name,
                                 seat.index(), amount, st.stack);
                    self->send(s, protocol::reply(r, {{"table", self->id_}, {"stack", st.stack}}));
                    self->broadcast(
                        protocol::topped_up_json(seat.index(), st.name, amount, st.stack));
                }
                // Cash-outs that waited for it (a leave, shutdown), then the next hand.
                if (!self->busy()) self->after_hand();
            });
    });
}

void Table::attach(std::shared_ptr<Recipient> s, Account a) {
    net::post(strand_, [self = shared_from_this(), s, a] {
        auto seat = self->seat_of(a.id);
        if (!seat) { // a host's player whose seat is not free yet: attached once it is
            for (Arrival& arriving : self->arrivals_)
                if (arriving.account.id == a.id) arriving.sessions.push_back(s);
            return;
        }
        Occupant& st = *self->seat(*seat);
        st.session = s;
        st.missed = 0;
        if (!st.connected) {
            st.connected = true;
            self->broadcast(protocol::connection_json(seat->index(), true));
        }
        if (st.sitting_out) { // a player who chose to sit out stays out until they sit in
            st.sitting_out = false;
            if (!st.chose_out) self->broadcast(protocol::sitting_in_json(seat->index()));
            self->seating_changed();
            self->maybe_start();
        }
        self->publisher_.watch(s);
        self->send(s, self->snapshot(seat));
    });
}

void Table::disconnected(Recipient* s) {
    net::post(strand_, [self = shared_from_this(), s] {
        self->publisher_.unwatch(s);
        // A seat whose player signed out on a live connection is held as for a closed one.
        for (Seat i : seats_of(self->limits_.seats)) {
            Occupant* st = self->seat(i);
            if (!st) continue;
            if (auto live = st->session.lock(); live && live.get() != s) continue;
            st->session.reset();
            if (!st->connected) continue;
            st->connected = false;
            self->broadcast(protocol::connection_json(i.index(), false));
        }
        self->lobby_changed();
    });
}

void Table::note_missed(Seat seat, int hand) {
    Occupant* st = this->seat(seat);
    if (hosted_ && st && !st->sitting_out && !st->chose_out) {
        // A tournament's player whose time ran out is sat out at once: dealt in, and folded (or
        // checked) at once, until they act or sit in again.
        st->sitting_out = true;
        spdlog::info("table {}: {} sits out after a time-out", id_, st->name);
        broadcast(protocol::sitting_out_json(seat.index(), protocol::SitOut::missed_hands));
        return;
    }
    if (!st || !st->session.expired() || st->missed_hand == hand) return;
    st->missed_hand = hand;
    if (++st->missed >= limits_.sit_out_after && !st->sitting_out) {
        st->sitting_out = true;
        spdlog::info("table {}: {} sits out after {} missed hands", id_, st->name, st->missed);
        broadcast(protocol::sitting_out_json(seat.index(), protocol::SitOut::missed_hands));
        seating_changed();
    }
}

void Table::chat(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (!self->publisher_.watching(s.get()))
            return self->refuse(s, r, "not_watching",
                                "sit or spectate at this table to chat at it");
        auto it = r.body.find("text");
        if (it == r.body.end() || !it->is_string())
            return self->refuse(s, r, "bad_request", "\"chat\" needs \"text\", a string");
        auto text = protocol::clean_chat(it->get_ref<const std::string&>(), kChatMaxChars);
        if (!text.ok()) return self->refuse(s, r, text.refusal);
        auto& times = self->chat_times_[a.id];
        const auto now = std::chrono::steady_clock::now();
        while (!times.empty() && now - times.front() >= std::chrono::seconds(kChatWindowS))
            times.pop_front();
        if (static_cast<int>(times.size()) >= kChatBurst)
            return self->refuse(s, r, "rate_limited",
                                "at most " + std::to_string(kChatBurst) + " lines of chat in " +
                                    std::to_string(kChatWindowS) + " seconds");
        times.push_back(now);
        const auto seat = self->seat_of_session(s);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->broadcast(protocol::chat_json(seat ? seat->index() : -1, a.name, *text.value));
    });
}

void Table::resend(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        const auto seat = self->seat_of(a.id);
        if (!seat && !self->publisher_.watching(s.get()))
            return self->refuse(s, r, "not_watching", "sit or spectate at this table first");
        if (seat) self->publisher_.watch(s); // a seated player on this connection
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(seat));
    });
}

void Table::seat_entrant(Account a, Seat seat, Chips stack) {
    net::post(strand_, [self = shared_from_this(), a, seat, stack] {
        if (self->closed_) {
            spdlog::error("table {}: closed, cannot seat {}", self->id_, a.name);
            return;
        }
        self->arrivals_.push_back({a, seat, stack, {}});
        self->host_changes();
    });
}

void Table::let_go(std::int64_t account, const char* reason) {
    net::post(strand_, [self = shared_from_this(), account, reason] {
        self->departures_.emplace_back(account, reason);
        self->host_changes();
    });
}

void Table::host_changes() {
    if (closed_) return;
    if (!busy()) {
        for (const auto& [account, reason] : departures_)
            if (const auto at = seat_of(account)) {
                const auto session = seat(*at)->session.lock();
                free_seat(*at, reason);
                if (session) publisher_.unwatch(session.get());
            }
        departures_.clear();
        if (end_reason_) {
            spdlog::info("table {}: closed ({})", id_, end_reason_);
            arrivals_.clear();
            return close_now(end_reason_);
        }
    }
    const std::size_t before = arrivals_.size();
    std::vector<Arrival> waiting;
    for (Arrival& a : arrivals_) {
        if (seat(a.seat))
            waiting.push_back(std::move(a));
        else
            sit_entrant(std::move(a));
    }
    arrivals_ = std::move(waiting);
    if (arrivals_.size() < before) maybe_start();
}

void Table::sit_entrant(Arrival a) {
    Occupant o;
    o.account = a.account.id;
    o.name = a.account.name;
    o.stack = a.stack;
    o.connected = false; // until a connection attaches
    seats_[a.seat.at()] = std::move(o);
    clock_.give_bank(a.seat, limits_.time_bank_ms);
    ++taken_;
    services_.lobby.note_seat(a.account.id, id_, true);
    spdlog::info("table {}: {} sits in seat {} with {}", id_, a.account.name, a.seat.index(),
                 a.stack);
    broadcast(protocol::seated_json(a.seat.index(), a.account.name, a.stack));
    lobby_changed();
    // Connections that attached while the seat was taken.
    Occupant& st = *seat(a.seat);
    for (const auto& weak : a.sessions)
        if (auto s = weak.lock()) {
            st.session = s;
            st.connected = true;
            publisher_.watch(s);
            send(s, snapshot(a.seat));
        }
    if (st.connected) broadcast(protocol::connection_json(a.seat.index(), true));
}

void Table::free_seat(Seat seat, const char* reason) {
    const Occupant gone = std::move(*seats_[seat.at()]);
    seats_[seat.at()].reset();
    clock_.give_bank(seat, 0);
    --taken_;
    services_.lobby.note_seat(gone.account, id_, false);
    spdlog::info("table {}: {} leaves seat {} ({})", id_, gone.name, seat.index(), reason);
    broadcast(protocol::left_json(seat.index(), gone.name, gone.stack));
    lobby_changed();
}

} // namespace felt::server
