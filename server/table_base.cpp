#include "table_base.h"

#include "state.h"

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

Chips number(const json& body, const char* key, Chips fallback) {
    auto it = body.find(key);
    return it != body.end() && it->is_number_integer() ? it->get<Chips>() : fallback;
}

TableBase::TableBase(std::int64_t id, Limits limits, SharedState& state, net::io_context& ioc)
    : id_(id), limits_(limits), state_(state), strand_(net::make_strand(ioc)), next_hand_(strand_),
      storage_retry_(strand_) {}

void TableBase::send(const std::shared_ptr<Recipient>& s, std::string text) {
    if (s) s->send(std::make_shared<const std::string>(std::move(text)));
}

void TableBase::refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                       const std::string& code, const std::string& message) {
    send(s, protocol::error(r.id, {code, message}));
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
        const Chips buy_in = number(r.body, "buy_in", l.max_buy_in == 0 ? 0 : -1);
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (self->seat_of(a.id))
            return self->refuse(s, r, "already_seated", "you already have a seat here");
        if (buy_in < l.min_buy_in || buy_in > l.max_buy_in)
            return self->refuse(s, r, "bad_amount",
                                "the buy-in is " + std::to_string(l.min_buy_in) + " to " +
                                    std::to_string(l.max_buy_in));
        int seat = -1;
        if (auto it = r.body.find("seat"); it != r.body.end()) {
            if (!it->is_number_integer() || it->get<int>() < 0 || it->get<int>() >= l.seats)
                return self->refuse(s, r, "bad_request", "no such seat");
            seat = it->get<int>();
            if (self->seat(seat)) return self->refuse(s, r, "seat_taken", "that seat is taken");
        } else {
            for (int i = 0; i < l.seats && seat < 0; ++i)
                if (!self->seat(i)) seat = i;
            if (seat < 0) return self->refuse(s, r, "table_full", "every seat is taken");
        }
        std::optional<Refusal> refused;
        try {
            refused = self->state_.with_db(
                [&](Accounts& acc, db::Database& db) -> std::optional<Refusal> {
                    db::Transaction t(db);
                    if (auto no = acc.move_chips(a.id, -buy_in, "buy_in")) return no;
                    db::Statement q(db, "INSERT INTO table_seats (table_id, seat, account_id, "
                                        "stack) VALUES (?, ?, ?, ?)");
                    q.bind(1, self->id_).bind(2, seat).bind(3, a.id).bind(4, buy_in).run();
                    t.commit();
                    return std::nullopt;
                },
                true);
        } catch (const std::exception&) { // rolled back: nothing moved
            return self->refuse(s, r, "internal",
                                "the server cannot store your buy-in now; nothing moved");
        }
        if (refused) return self->refuse(s, r, refused->code, refused->message);
        self->seats_[static_cast<std::size_t>(seat)] = Seat{a.id, a.name, buy_in, s, false};
        self->seats_[static_cast<std::size_t>(seat)]->time_bank_ms = l.time_bank_ms;
        ++self->taken_;
        self->state_.note_seat(a.id, self->id_, true);
        self->watchers_[s.get()] = s;
        spdlog::info("table {}: {} sits in seat {} with {}", self->id_, a.name, seat, buy_in);
        self->send(s,
                   protocol::reply(r, {{"table", self->id_}, {"seat", seat}, {"stack", buy_in}}));
        self->broadcast({{"kind", "seated"}, {"seat", seat}, {"name", a.name}, {"stack", buy_in}});
        self->send(s, self->snapshot(seat));
        self->maybe_start();
    });
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
        if (self->in_running(*seat)) {
            st.leaving = true; // the game acts for the seat; cashed out at the hand's end
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"after_hand", true}}));
            return self->leaving_in_hand(*seat);
        }
        const Chips stack = st.stack;
        if (!self->cash_out(*seat, "cash_out"))
            return self->refuse(s, r, "internal",
                                "the server cannot store your cash-out now; your seat is dealt "
                                "no more hands and is cashed out as soon as it can be");
        self->send(s, protocol::reply(r, {{"table", self->id_}, {"cashed_out", stack}}));
        self->maybe_start();
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

bool TableBase::cash_out(int seat, const char* reason) {
    Seat st = *this->seat(seat);
    try {
        state_.with_db(
            [&](Accounts& acc, db::Database& db) {
                db::Transaction t(db);
                db::Statement del(db, "DELETE FROM table_seats WHERE table_id = ? AND seat = ?");
                del.bind(1, id_).bind(2, seat).run();
                if (st.stack > 0) acc.move_chips(st.account, st.stack, reason);
                t.commit();
            },
            true);
    } catch (const std::exception&) {
        // Rolled back: the chips stay in table_seats (recovered at a restart) and in the seat,
        // which is dealt no more hands; the cash-out is tried again when storage works.
        this->seat(seat)->leaving = true;
        pause_for_storage();
        return false;
    }
    seats_[static_cast<std::size_t>(seat)].reset();
    --taken_;
    state_.note_seat(st.account, id_, false);
    spdlog::info("table {}: {} leaves seat {} with {} ({})", id_, st.name, seat, st.stack, reason);
    broadcast({{"kind", "left"}, {"seat", seat}, {"name", st.name}, {"stack", st.stack}});
    return true;
}

std::int64_t TableBase::record_start(int number, const json& config, const std::string& commit) {
    return state_.with_db(
        [&](Accounts&, db::Database& db) {
            db::Statement q(db, "INSERT INTO hands (table_id, number, config, commitment, status) "
                                "VALUES (?, ?, ?, ?, 'running')");
            q.bind(1, id_).bind(2, number).bind(3, config.dump()).bind(4, commit);
            q.run();
            return db.last_insert_rowid();
        },
        true);
}

void TableBase::record_void(std::int64_t hand_id) {
    try {
        state_.with_db(
            [&](Accounts&, db::Database& db) {
                db::Statement q(db, "UPDATE hands SET status = 'void', ended_at = "
                                    "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
                q.bind(1, hand_id).run();
            },
            true);
    } catch (const std::exception&) {
        // The row stays 'running': written void when storage works, or at the next start.
        unwritten_voids_.push_back(hand_id);
        pause_for_storage();
    }
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
        self->retrying_ = false;
        if (ec) return;
        if (!self->state_.probe_storage()) return self->pause_for_storage();
        self->paused_ = false;
        auto voids = std::move(self->unwritten_voids_);
        self->unwritten_voids_.clear();
        for (std::int64_t id : voids) self->record_void(id);
        if (!self->running()) self->after_hand(); // cash-outs left over, then the next hand
    });
}

void TableBase::record_finish(std::int64_t hand_id, const Commitment& reveal,
                              std::span<const SeatResult> results,
                              std::span<const std::string> log) {
    state_.with_db(
        [&](Accounts&, db::Database& db) {
            db::Transaction t(db);
            db::Statement hand(db, "UPDATE hands SET status = 'finished', deck = ?, seed = ?, "
                                   "salt = ?, ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                                   "WHERE id = ?");
            hand.bind(1, reveal.deck).bind(2, reveal.seed).bind(3, reveal.salt);
            hand.bind(4, hand_id).run();
            // Each statement is prepared once and reset for every row.
            db::Statement seat(db, "INSERT INTO hand_seats (hand_id, seat, account_id, "
                                   "stack_start, stack_end) VALUES (?, ?, ?, ?, ?)");
            db::Statement stack(db, "UPDATE table_seats SET stack = ? WHERE table_id = ? AND "
                                    "seat = ?");
            for (const SeatResult& r : results) {
                seat.reset();
                seat.bind(1, hand_id).bind(2, r.seat).bind(3, this->seat(r.seat)->account);
                seat.bind(4, r.start).bind(5, r.end).run();
                stack.reset();
                stack.bind(1, r.end).bind(2, id_).bind(3, r.seat).run();
            }
            db::Statement ev(db, "INSERT INTO hand_events (hand_id, seq, body) VALUES (?, ?, ?)");
            for (std::size_t i = 0; i < log.size(); ++i) {
                ev.reset();
                ev.bind(1, hand_id).bind(2, static_cast<std::int64_t>(i)).bind(3, log[i]).run();
            }
            t.commit();
        },
        true);
    ++state_.metrics().hands_played;
    for (const SeatResult& r : results) this->seat(r.seat)->stack = r.end;
}

bool TableBase::finish_and_announce(std::int64_t hand_id, const Commitment& reveal,
                                    std::span<const SeatResult> seats,
                                    std::span<const std::string> log, json end) {
    try {
        record_finish(hand_id, reveal, seats, log);
    } catch (const std::exception&) {
        // Rolled back, and the seats keep the stacks from before the hand: it never happened.
        void_hand(hand_id, end.value("hand", 0), "storage");
        pause_for_storage();
        return false;
    }
    json stacks = json::array();
    for (int i = 0; i < limits_.seats; ++i) stacks.push_back(seat(i) ? seat(i)->stack : 0);
    end["stacks"] = std::move(stacks);
    end["deck"] = reveal.deck;
    end["seed"] = reveal.seed;
    end["salt"] = reveal.salt;
    broadcast(std::move(end));
    return true;
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
    if (running() || starting_ || stopping_ || paused_ || ready_count() < 2) return;
    starting_ = true;
    next_hand_.expires_after(std::chrono::milliseconds(limits_.hand_delay_ms));
    next_hand_.async_wait([self = shared_from_this()](beast::error_code ec) {
        self->starting_ = false;
        if (ec || self->running() || self->stopping_ || self->paused_) return;
        try {
            self->start_hand();
        } catch (const std::exception&) { // the hand's row could not be written: nothing dealt
            self->pause_for_storage();
        }
    });
}

void TableBase::after_hand() {
    for (int i = 0; i < limits_.seats; ++i) {
        const Seat* st = seat(i);
        if (st && (st->leaving || st->stack < stake_needed() || stopping_)) cash_out(i, "cash_out");
    }
    maybe_start();
}

void TableBase::stop() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        self->next_hand_.cancel();
        if (self->running()) return; // cashed out when it ends
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

void TableBase::void_and_close() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        if (self->running()) {
            // Stacks here and in table_seats are still those from before the hand: it never
            // happened.
            const std::int64_t id = self->running_id();
            self->record_void(id); // if it cannot be written, the next start voids it
            spdlog::info("table {}: hand {} void at shutdown", self->id_, id);
            self->forget_running();
        }
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

} // namespace felt::server
