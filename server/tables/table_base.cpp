#include "tables/table_base.h"

#include "state.h"

#include <algorithm>

#include <sodium.h>

namespace felt::server {

using protocol::json;

namespace {

std::string hex(const unsigned char* p, std::size_t n) {
    std::string out(n * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), p, n);
    out.pop_back();
    return out;
}

void init_sodium() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

} // namespace

std::string Commitment::hash() const {
    const std::string text = deck + "|" + seed + "|" + salt;
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    return hex(h, sizeof h);
}

void secure_shuffle(std::span<Card> deck) {
    init_sodium();
    for (std::size_t i = deck.size(); i > 1; --i)
        std::swap(deck[i - 1], deck[randombytes_uniform(static_cast<std::uint32_t>(i))]);
}

std::string random_salt() {
    init_sodium();
    unsigned char salt[16];
    randombytes_buf(salt, sizeof salt);
    return hex(salt, sizeof salt);
}

std::uint64_t random_seed() {
    init_sodium();
    std::uint64_t seed = 0;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

TableBase::TableBase(std::int64_t id, Limits limits, SharedState& state, net::io_context& ioc)
    : id_(id), limits_(limits), state_(state), strand_(net::make_strand(ioc)), clock_(strand_),
      next_hand_(strand_), storage_retry_(strand_) {}

int TableBase::next_dealer() const {
    int d = dealer_;
    do d = (d + 1) % limits_.seats;
    while (!ready(d));
    return d;
}

void TableBase::send(const std::shared_ptr<Recipient>& s, std::string text) {
    if (s) s->send(std::make_shared<const std::string>(std::move(text)));
}

void TableBase::refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                       const std::string& code, const std::string& message) {
    refuse(s, r, {code, message});
}

void TableBase::refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                       const Refusal& why) {
    send(s, protocol::error(r.id, why));
}

void TableBase::broadcast(json m) {
    ++seq_;
    m["type"] = "table";
    m["table"] = id_;
    m["seq"] = seq_;
    auto text = std::make_shared<const std::string>(m.dump());
    for_each_watcher([&](const std::shared_ptr<Recipient>& s, int) { s->send(text); });
}

void TableBase::broadcast(json m, const std::function<json(int seat)>& own) {
    ++seq_;
    m["type"] = "table";
    m["table"] = id_;
    m["seq"] = seq_;
    auto shared = std::make_shared<const std::string>(m.dump());
    for_each_watcher([&](const std::shared_ptr<Recipient>& s, int seat) {
        json extra = seat >= 0 ? own(seat) : json();
        if (extra.is_null() || extra.empty()) return s->send(shared);
        json copy = m;
        copy.update(extra);
        send(s, copy.dump());
    });
}

std::optional<int> TableBase::seat_of(std::int64_t account) const {
    for (int i = 0; i < limits_.seats; ++i)
        if (const Seat* st = seat(i); st && st->account == account) return i;
    return std::nullopt;
}

int TableBase::seat_of_session(const std::shared_ptr<Recipient>& s) const {
    for (int i = 0; i < limits_.seats; ++i)
        if (const Seat* st = seat(i); st && st->session.lock() == s) return i;
    return -1;
}

bool TableBase::ready(int i) const {
    const Seat* st = seat(i);
    return st && st->stack >= stake_needed() && !st->leaving && !st->sitting_out;
}

std::vector<int> TableBase::ready_seats() const {
    std::vector<int> out;
    for (int i = 0; i < limits_.seats; ++i)
        if (ready(i)) out.push_back(i);
    return out;
}

json TableBase::snapshot_head(int seat, json seats) const {
    return {{"type", "table"},
            {"table", id_},
            {"seq", seq_},
            {"kind", "snapshot"},
            {"config", config_json()},
            {"seats", std::move(seats)},
            {"your_seat", seat >= 0 ? json(seat) : json(nullptr)}};
}

int TableBase::ready_count() const {
    int n = 0;
    for (int i = 0; i < limits_.seats; ++i) n += ready(i);
    return n;
}

void TableBase::hint(std::shared_ptr<Recipient> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        self->refuse(s, r, "no_hints", "this table's game gives no hints");
    });
}

void TableBase::chat(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (!self->watchers_.contains(s.get()))
            return self->refuse(s, r, "not_watching",
                                "sit or spectate at this table to chat at it");
        auto it = r.body.find("text");
        if (it == r.body.end() || !it->is_string())
            return self->refuse(s, r, "bad_request", "\"chat\" needs \"text\", a string");
        const std::string& text = it->get_ref<const std::string&>();
        // The parser has checked the UTF-8; count code points, not bytes.
        int chars = 0;
        for (unsigned char c : text) {
            if (c < 0x20 || c == 0x7F)
                return self->refuse(s, r, "bad_request",
                                    "chat text is one line without control characters");
            chars += (c & 0xC0) != 0x80;
        }
        if (chars < 1 || chars > kChatMaxChars)
            return self->refuse(s, r, "bad_request",
                                "chat text is 1 to " + std::to_string(kChatMaxChars) +
                                    " characters, not " + std::to_string(chars));
        auto& times = self->chat_times_[a.id];
        const auto now = std::chrono::steady_clock::now();
        while (!times.empty() && now - times.front() >= std::chrono::seconds(kChatWindowS))
            times.pop_front();
        if (static_cast<int>(times.size()) >= kChatBurst)
            return self->refuse(s, r, "rate_limited",
                                "at most " + std::to_string(kChatBurst) + " lines of chat in " +
                                    std::to_string(kChatWindowS) + " seconds");
        times.push_back(now);
        const int seat = self->seat_of_session(s);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->broadcast({{"kind", "chat"},
                         {"seat", seat >= 0 ? json(seat) : json(nullptr)},
                         {"name", a.name},
                         {"text", text}});
    });
}

void TableBase::join(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        const Limits& l = self->limits_;
        // A table with no chips at stake (max_buy_in 0) needs no buy-in.
        const auto asked = protocol::integer_field(r, "buy_in", l.max_buy_in == 0 ? 0 : -1);
        if (!asked.ok()) return self->refuse(s, r, asked.refusal);
        const Chips buy_in = *asked.value;
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (self->seat_of(a.id) ||
            std::ranges::find(self->reserved_, a.id) != self->reserved_.end())
            return self->refuse(s, r, "already_seated", "you already have a seat here");
        if (buy_in < l.min_buy_in || buy_in > l.max_buy_in)
            return self->refuse(s, r, "bad_amount",
                                "the buy-in is " + std::to_string(l.min_buy_in) + " to " +
                                    std::to_string(l.max_buy_in));
        int seat = -1;
        if (r.body.contains("seat")) {
            auto asked_seat = protocol::integer_field(r, "seat", std::nullopt, 0, l.seats - 1);
            if (!asked_seat.ok()) return self->refuse(s, r, asked_seat.refusal);
            seat = static_cast<int>(*asked_seat.value);
            if (!self->free(seat)) return self->refuse(s, r, "seat_taken", "that seat is taken");
        } else {
            for (int i = 0; i < l.seats && seat < 0; ++i)
                if (self->free(i)) seat = i;
            if (seat < 0) return self->refuse(s, r, "table_full", "every seat is taken");
        }
        // The seat is held while the buy-in is written; the player sits once it is committed.
        self->reserved_[static_cast<std::size_t>(seat)] = a.id;
        self->state_.storage().write(
            [table = self->id_, seat, account = a.id, buy_in](Store& st) {
                return st.buy_in(table, seat, account, buy_in);
            },
            self->strand_,
            [self, s, a, r, seat, buy_in](std::optional<std::optional<Refusal>> refused) {
                self->reserved_[static_cast<std::size_t>(seat)] = 0;
                if (!refused) // rolled back: nothing moved
                    return self->refuse(s, r, "internal",
                                        "the server cannot store your buy-in now; nothing moved");
                if (*refused) return self->refuse(s, r, **refused);
                self->sit(s, a, r, seat, buy_in);
            });
    });
}

void TableBase::sit(const std::shared_ptr<Recipient>& s, const Account& a,
                    const protocol::Request& r, int seat, Chips buy_in) {
    seats_[static_cast<std::size_t>(seat)] = Seat{a.id, a.name, buy_in, s, false};
    seats_[static_cast<std::size_t>(seat)]->time_bank_ms = limits_.time_bank_ms;
    ++taken_;
    state_.note_seat(a.id, id_, true);
    watchers_[s.get()] = s;
    spdlog::info("table {}: {} sits in seat {} with {}", id_, a.name, seat, buy_in);
    send(s, protocol::reply(r, {{"table", id_}, {"seat", seat}, {"stack", buy_in}}));
    broadcast({{"kind", "seated"}, {"seat", seat}, {"name", a.name}, {"stack", buy_in}});
    send(s, snapshot(seat));
    if (stopping_) return cash_out(seat, "shutdown"); // the server began to stop meanwhile
    maybe_start();
}

bool TableBase::free(int seat) const {
    return !this->seat(seat) && !reserved_[static_cast<std::size_t>(seat)];
}

void TableBase::spectate(std::shared_ptr<Recipient> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        self->watchers_[s.get()] = s;
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(-1));
    });
}

void TableBase::leave(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) {
            self->watchers_.erase(s.get());
            return self->send(s, protocol::reply(r, {{"table", self->id_}}));
        }
        Seat& st = *self->seat(*seat);
        if (self->in_running(*seat) || self->opening_ || self->settling_ || st.cashing) {
            // The game acts for the seat; cashed out once the hand's end is stored.
            st.leaving = true;
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"after_hand", true}}));
            if (self->in_running(*seat)) self->leaving_in_hand(*seat);
            return;
        }
        const Chips stack = st.stack;
        self->cash_out(*seat, "cash_out", [self, s, r, stack](bool ok) {
            if (!ok)
                return self->refuse(s, r, "internal",
                                    "the server cannot store your cash-out now; your seat is "
                                    "dealt no more hands and is cashed out as soon as it can be");
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"cashed_out", stack}}));
        });
    });
}

void TableBase::attach(std::shared_ptr<Recipient> s, Account a) {
    net::post(strand_, [self = shared_from_this(), s, a] {
        auto seat = self->seat_of(a.id);
        if (!seat) return;
        Seat& st = *self->seat(*seat);
        st.session = s;
        st.missed = 0;
        if (st.sitting_out) {
            st.sitting_out = false;
            self->broadcast({{"kind", "sitting_in"}, {"seat", *seat}});
            self->maybe_start();
        }
        self->watchers_[s.get()] = s;
        self->send(s, self->snapshot(*seat));
    });
}

void TableBase::disconnected(Recipient* s) {
    net::post(strand_, [self = shared_from_this(), s] { self->watchers_.erase(s); });
}

void TableBase::note_missed(int seat, int hand) {
    Seat* st = this->seat(seat);
    if (!st || !st->session.expired() || st->missed_hand == hand) return;
    st->missed_hand = hand;
    if (++st->missed >= limits_.sit_out_after && !st->sitting_out) {
        st->sitting_out = true;
        spdlog::info("table {}: {} sits out after {} missed hands", id_, st->name, st->missed);
        broadcast({{"kind", "sitting_out"}, {"seat", seat}});
    }
}

void TableBase::cash_out(int seat, const char* reason, std::function<void(bool ok)> then) {
    Seat& st = *this->seat(seat);
    if (st.cashing) return; // already on its way
    st.cashing = true;
    st.leaving = true; // dealt no more hands
    state_.storage().write(
        [table = id_, seat, account = st.account, stack = st.stack,
         reason = std::string(reason)](Store& store) {
            store.cash_out(table, seat, account, stack, reason);
            return true;
        },
        strand_,
        [self = shared_from_this(), seat, reason, then = std::move(then)](std::optional<bool> ok) {
            Seat& st = *self->seat(seat);
            st.cashing = false;
            if (!ok) {
                // Rolled back: the chips stay in table_seats (recovered at a restart) and in the
                // seat, which is dealt no more hands; the cash-out is tried again when storage
                // works.
                self->pause_for_storage();
                if (then) then(false);
                return;
            }
            const Seat gone = std::move(st);
            self->seats_[static_cast<std::size_t>(seat)].reset();
            --self->taken_;
            self->state_.note_seat(gone.account, self->id_, false);
            spdlog::info("table {}: {} leaves seat {} with {} ({})", self->id_, gone.name, seat,
                         gone.stack, reason);
            self->broadcast(
                {{"kind", "left"}, {"seat", seat}, {"name", gone.name}, {"stack", gone.stack}});
            if (then) then(true);
            self->maybe_start();
        });
}

void TableBase::open_hand(int number, const json& config, const std::string& commit,
                          std::function<void(std::int64_t id)> deal) {
    HandStart h{state_.storage().next_hand_id(), id_, number, config.dump(), commit};
    const std::int64_t id = h.id;
    opening_ = true;
    state_.storage().write(
        [h = std::move(h)](Store& store) {
            store.start_hand(h);
            return true;
        },
        strand_,
        [self = shared_from_this(), id, deal = std::move(deal)](std::optional<bool> ok) {
            self->opening_ = false;
            if (!ok) return self->pause_for_storage(); // nothing was dealt
            if (self->stopping_) {                     // shutdown began meanwhile: never dealt
                self->record_void(id);
                return self->after_hand();
            }
            deal(id);
            // Players who asked to leave while the row was written: the game acts for them.
            for (int i = 0; i < self->limits_.seats; ++i)
                if (const Seat* st = self->seat(i);
                    st && st->leaving && self->running() && self->in_running(i))
                    self->leaving_in_hand(i);
        });
}

void TableBase::record_void(std::int64_t hand_id) {
    state_.storage().write(
        [hand_id](Store& store) {
            store.void_hand(hand_id);
            return true;
        },
        strand_,
        [self = shared_from_this(), hand_id](std::optional<bool> ok) {
            if (ok) return;
            // The row stays 'running': written void when storage works, or at the next start.
            self->unwritten_voids_.push_back(hand_id);
            self->pause_for_storage();
        });
}

void TableBase::void_hand(std::int64_t hand_id, int number, const char* reason) {
    record_void(hand_id);
    ++state_.metrics().hands_void;
    json stacks = json::array();
    for (int i = 0; i < limits_.seats; ++i) stacks.push_back(seat(i) ? seat(i)->stack : 0);
    broadcast({{"kind", "hand_void"},
               {"hand", number},
               {"hand_id", hand_id},
               {"reason", reason},
               {"stacks", std::move(stacks)}});
}

void TableBase::pause_for_storage() {
    paused_ = true;
    if (retrying_) return;
    retrying_ = true;
    storage_retry_.expires_after(kStorageRetry);
    storage_retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec) {
            self->retrying_ = false;
            return;
        }
        self->state_.storage().write(
            [](Store& store) {
                store.probe();
                return true;
            },
            self->strand_,
            [self](std::optional<bool> ok) {
                self->retrying_ = false;
                if (!ok) return self->pause_for_storage();
                self->paused_ = false;
                auto voids = std::move(self->unwritten_voids_);
                self->unwritten_voids_.clear();
                for (std::int64_t id : voids) self->record_void(id);
                if (!self->busy()) self->after_hand(); // cash-outs left over, then the next hand
            });
    });
}

void TableBase::end_hand(std::int64_t hand_id, const Commitment& reveal,
                         std::span<const SeatResult> results, std::vector<std::string> log,
                         json end) {
    HandEnd h{hand_id, id_, reveal.deck, reveal.seed, reveal.salt, {}, std::move(log)};
    for (const SeatResult& r : results)
        h.seats.push_back({r.seat, seat(r.seat)->account, r.start, r.end});
    settling_ = true;
    state_.storage().write(
        [h](Store& store) {
            store.finish_hand(h);
            return true;
        },
        strand_,
        [self = shared_from_this(), h, reveal,
         end = std::move(end)](std::optional<bool> ok) mutable {
            self->settling_ = false;
            if (!ok) {
                // Rolled back, and the seats keep the stacks from before the hand: it never
                // happened.
                self->void_hand(h.id, end.value("hand", 0), "storage");
                self->pause_for_storage();
                return self->after_hand();
            }
            ++self->state_.metrics().hands_played;
            for (const HandSeat& r : h.seats) self->seat(r.seat)->stack = r.end;
            json stacks = json::array();
            for (int i = 0; i < self->limits_.seats; ++i)
                stacks.push_back(self->seat(i) ? self->seat(i)->stack : 0);
            end["stacks"] = std::move(stacks);
            end["deck"] = reveal.deck;
            end["seed"] = reveal.seed;
            end["salt"] = reveal.salt;
            self->broadcast(std::move(end));
            self->after_hand();
        });
}

bool TableBase::bank_start(int seat, int hand, net::steady_timer& clock,
                           std::function<void()> again) {
    if (banking_) { // the bank ran out too
        banking_ = false;
        if (Seat* st = this->seat(bank_seat_)) st->time_bank_ms = 0;
        return false;
    }
    Seat* st = this->seat(seat);
    if (!st || st->time_bank_ms <= 0) return false;
    banking_ = true;
    bank_seat_ = seat;
    bank_from_ = std::chrono::steady_clock::now();
    broadcast(
        {{"kind", "time_bank"}, {"hand", hand}, {"seat", seat}, {"bank_ms", st->time_bank_ms}});
    clock.expires_after(std::chrono::milliseconds(st->time_bank_ms));
    clock.async_wait([again = std::move(again)](beast::error_code ec) {
        if (!ec) again();
    });
    return true;
}

void TableBase::bank_close() {
    if (!banking_) return;
    banking_ = false;
    Seat* st = seat(bank_seat_);
    if (!st) return;
    const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - bank_from_)
                          .count();
    st->time_bank_ms = static_cast<int>(std::max<long>(0, st->time_bank_ms - used));
}

void TableBase::maybe_start() {
    if (busy() || starting_ || stopping_ || paused_ || ready_count() < 2) return;
    starting_ = true;
    next_hand_.expires_after(std::chrono::milliseconds(limits_.hand_delay_ms));
    next_hand_.async_wait([self = shared_from_this()](beast::error_code ec) {
        self->starting_ = false;
        if (ec || self->busy() || self->stopping_ || self->paused_) return;
        self->start_hand();
    });
}

void TableBase::after_hand() {
    for (int i = 0; i < limits_.seats; ++i) {
        const Seat* st = seat(i);
        if (st && !st->cashing && (st->leaving || st->stack < stake_needed() || stopping_))
            cash_out(i, "cash_out");
    }
    maybe_start();
}

void TableBase::stop() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        self->next_hand_.cancel();
        if (self->busy()) return; // cashed out when it ends
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

void TableBase::void_and_close() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        // A hand's start or end is being stored; everyone is cashed out after it.
        if (self->opening_ || self->settling_) return;
        if (self->running()) {
            // Stacks here and in table_seats are still those from before the hand: it never
            // happened.
            const std::int64_t id = self->running_id();
            self->record_void(id); // if it cannot be written, the next start voids it
            spdlog::info("table {}: hand {} void at shutdown", self->id_, id);
            self->clock_.cancel();
            self->bank_close();
            self->forget_running();
        }
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

} // namespace felt::server
