#include "tables/table.h"

#include "metrics.h"
#include "protocol/chat.h"
#include "protocol/config_reader.h"
#include "protocol/table_messages.h"
#include "storage/storage.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

#include <sodium.h>

namespace felt::server {

using protocol::json;

namespace {

void init_sodium() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

} // namespace

// Fisher and Yates, each index drawn as randombytes_uniform draws it (words below 2^32 mod the
// bound are thrown away, so that none is likelier), but from a ChaCha20 stream keyed with fresh
// random bytes (randombytes_buf_deterministic): one call to the system's generator a deck rather
// than one a card.
void secure_shuffle(std::span<Card> deck) {
    init_sodium();
    std::vector<std::uint32_t> words;
    std::size_t next = 0;
    auto word = [&] {
        if (next == words.size()) { // at first, and in the rare case that rejections used it up
            unsigned char key[randombytes_SEEDBYTES];
            randombytes_buf(key, sizeof key);
            words.assign(deck.size() + 8, 0);
            randombytes_buf_deterministic(words.data(), words.size() * sizeof words[0], key);
            sodium_memzero(key, sizeof key);
            next = 0;
        }
        return words[next++];
    };
    for (std::size_t i = deck.size(); i > 1; --i) {
        const auto bound = static_cast<std::uint32_t>(i);
        const std::uint32_t below = (1U + ~bound) % bound; // 2^32 mod bound
        std::uint32_t r;
        do r = word();
        while (r < below);
        std::swap(deck[i - 1], deck[r % bound]);
    }
    sodium_memzero(words.data(), words.size() * sizeof words[0]);
}

std::uint64_t random_seed() {
    init_sodium();
    std::uint64_t seed = 0;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

void Step::append(Step&& later) {
    for (Told& t : later.told) told.push_back(std::move(t));
    missed.insert(missed.end(), later.missed.begin(), later.missed.end());
    if (later.end) end = std::move(later.end);
}

Table::Table(std::int64_t id, std::unique_ptr<Game> game, Services& services)
    : id_(id), game_(std::move(game)), limits_(game_->limits()), services_(services),
      strand_(net::make_strand(services.io)), clock_(strand_), next_hand_(strand_),
      storage_retry_(strand_), idle_(strand_) {}

void Table::open() {
    net::post(strand_, [self = shared_from_this()] {
        self->arm_idle();
        self->lobby_changed();
    });
}

protocol::json Table::lobby_line() const {
    return protocol::lobby_line_json(id_, config_json(), taken_, watching_);
}

void Table::lobby_changed() {
    int spectators = 0;
    for_each_watcher([&](const std::shared_ptr<Recipient>&, int seat) { spectators += seat < 0; });
    watching_ = spectators;
    if (services_.lobby.watched()) services_.lobby.changed(lobby_line());
}

bool Table::in_hand(int seat) const {
    return (hand_ || pending_ || settling_) &&
           std::ranges::find(deal_.seats, Seat(seat)) != deal_.seats.end();
}

bool Table::empty() const {
    return taken_ == 0 && !busy() && std::ranges::all_of(reserved_, [](auto a) { return a == 0; });
}

void Table::arm_idle() {
    if (closed_ || stopping_ || !empty()) return;
    empty_ = std::chrono::steady_clock::now();
    idle_.expires_after(services_.table_idle);
    idle_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->on_idle();
    });
}

void Table::on_idle() {
    if (closed_ || stopping_ || !empty()) return; // taken meanwhile: armed again when empty
    const auto due = empty_ + services_.table_idle;
    if (std::chrono::steady_clock::now() < due) { // emptied again since: the rest of the time
        idle_.expires_at(due);
        idle_.async_wait([self = shared_from_this()](error_code ec) {
            if (!ec) self->on_idle();
        });
        return;
    }
    closed_ = true;
    spdlog::info("table {}: closed, nobody sat at it for {} s", id_, services_.table_idle.count());
    broadcast(protocol::closed_json("idle"));
    watchers_.clear();
    services_.lobby.remove(id_);
    services_.storage.write(
        [id = id_](Store& s) {
            s.close_table(id);
            return true;
        },
        strand_, [](std::optional<bool>) {}); // if it fails, the next start closes it
}

int Table::next_dealer() const {
    int d = dealer_;
    do d = (d + 1) % limits_.seats;
    while (!ready(d));
    return d;
}

void Table::send(const std::shared_ptr<Recipient>& s, std::string text) {
    if (s) deliver(s, std::make_shared<const std::string>(std::move(text)));
}

void Table::deliver(const std::shared_ptr<Recipient>& s, Message m) {
    if (batching_)
        outbox_.emplace_back(s, std::move(m));
    else
        s->send(std::move(m));
}

void Table::flush_outbox() {
    batching_ = false;
    // By recipient, each one's messages in the order sent.
    std::ranges::stable_sort(outbox_, std::less<>(), [](const auto& e) { return e.first.get(); });
    for (auto it = outbox_.begin(); it != outbox_.end();) {
        Messages messages;
        auto run = it;
        for (; run != outbox_.end() && run->first == it->first; ++run)
            messages.push_back(std::move(run->second));
        it->first->send(std::move(messages));
        it = run;
    }
    outbox_.clear();
}

void Table::refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                   const std::string& code, const std::string& message) {
    refuse(s, r, {code, message});
}

void Table::refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                   const Refusal& why) {
    send(s, protocol::error(r.id, why));
}

void Table::publish(std::vector<Told>& told) {
    for (Told& t : told) {
        protocol::Stamp stamp{id_, ++seq_};
        tell_clock(stamp); // written where the message has a turn
        t->stamp(stamp);
        auto shared = std::make_shared<const std::string>(t->write(-1));
        for_each_watcher([&](const std::shared_ptr<Recipient>& s, int seat) {
            if (!t->own(seat)) return deliver(s, shared);
            send(s, t->write(seat));
        });
    }
}

void Table::broadcast(json m) {
    std::vector<Told> told;
    told.push_back(std::make_unique<protocol::JsonTold>(std::move(m)));
    publish(told);
}

std::optional<int> Table::seat_of(std::int64_t account) const {
    for (int i = 0; i < limits_.seats; ++i)
        if (const Occupant* st = seat(i); st && st->account == account) return i;
    return std::nullopt;
}

int Table::seat_of_session(const std::shared_ptr<Recipient>& s) const {
    // By owner, without locking each seat's session (two atomic counts on a line that other
    // threads write): `s` is alive, so a session with its owner is `s` itself.
    for (int i = 0; i < limits_.seats; ++i)
        if (const Occupant* st = seat(i);
            st && !st->session.owner_before(s) && !s.owner_before(st->session))
            return i;
    return -1;
}

bool Table::ready(int i) const {
    const Occupant* st = seat(i);
    return st && st->stack >= game_->stake_needed() && !st->leaving && !st->sitting_out &&
           !st->chose_out && !st->topping;
}

std::string Table::snapshot(int viewer) const {
    const std::optional<Seat> seen_by =
        viewer >= 0 ? std::optional<Seat>(Seat(viewer)) : std::nullopt;
    json seats = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const Occupant* st = seat(i);
        if (!st) continue;
        json j = protocol::seat_json({i, st->name, st->stack, st->sitting_out || st->chose_out,
                                      st->connected, st->time_bank_ms});
        if (hand_)
            hand_->seat_view(Seat(i), seen_by, j);
        else
            game_->idle_seat_view(Seat(i), j);
        seats.push_back(std::move(j));
    }
    json out = protocol::snapshot_json(id_, seq_, config_json(), std::move(seats), viewer);
    if (hand_) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(
            clock_due_ - net::steady_timer::clock_type::now());
        hand_->view(seen_by, static_cast<int>(std::max<long>(0, left.count())), out);
    }
    return out.dump();
}

int Table::ready_count() const {
    int n = 0;
    for (int i = 0; i < limits_.seats; ++i) n += ready(i);
    return n;
}

void Table::act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        Batch batch(*self);
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->hand_)
            return self->refuse(s, r, "no_hand",
                                std::string("no ") + self->game_->hand_noun() + " is being played");
        auto step = self->hand_->act(Seat(*seat), r.body);
        if (!step.ok()) return self->refuse(s, r, step.refusal);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->run(std::move(*step.value));
    });
}

void Table::hint(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    ask(std::move(s), a, std::move(r), &Game::hint);
}

void Table::preview(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    ask(std::move(s), a, std::move(r), &Game::preview);
}

void Table::ask(std::shared_ptr<Recipient> s, Account a, protocol::Request r, Question q) {
    net::post(strand_, [self = shared_from_this(), s, a, r, q] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        auto answer = (self->game_.get()->*q)(self->hand_.get(), Seat(*seat), r);
        if (!answer.ok()) return self->refuse(s, r, answer.refusal);
        json fields = std::move(*answer.value);
        fields["table"] = self->id_;
        self->send(s, protocol::reply(r, std::move(fields)));
    });
}

void Table::choose_deck(std::shared_ptr<Recipient> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        if (!self->services_.chosen_decks)
            return self->refuse(s, r, "not_testing",
                                "choose_deck is for tests: this server was not started with "
                                "--chosen-decks");
        if (!self->watchers_.contains(s.get()))
            return self->refuse(s, r, "not_watching", "sit or spectate at this table first");
        auto it = r.body.find("cards");
        if (it == r.body.end() || !it->is_string())
            return self->refuse(s, r, "bad_request",
                                "\"choose_deck\" needs \"cards\", the cards in the order dealt");
        // Every card one of the pack's, no more often than the pack holds it (the pack for a
        // full table, the largest).
        Deal full;
        full.seats = seats_of(self->limits_.seats);
        std::vector<std::string> pack;
        for (Card c : self->game_->deck(full)) pack.push_back(self->game_->card_text(c));
        std::vector<std::string> chosen;
        std::istringstream words(it->get<std::string>());
        for (std::string w; words >> w;) {
            auto at = std::find(pack.begin(), pack.end(), w);
            if (at == pack.end())
                return self->refuse(s, r, "bad_card",
                                    w + " is not in this table's pack, or is there fewer times");
            pack.erase(at);
            chosen.push_back(std::move(w));
        }
        self->chosen_ = std::move(chosen);
        self->send(s, protocol::reply(r, {{"table", self->id_},
                                          {"cards", static_cast<int>(self->chosen_.size())}}));
    });
}

void Table::stack_chosen(std::vector<Card>& deck) {
    if (chosen_.empty()) return;
    spdlog::warn("table {}: dealing {} chosen card(s) (--chosen-decks)", id_, chosen_.size());
    for (std::size_t k = 0; k < chosen_.size() && k < deck.size(); ++k) {
        auto it = std::find_if(deck.begin() + static_cast<std::ptrdiff_t>(k), deck.end(),
                               [&](Card c) { return game_->card_text(c) == chosen_[k]; });
        if (it == deck.end()) {
            spdlog::warn("table {}: {} is not in this deal's pack; the rest is shuffled", id_,
                         chosen_[k]);
            break;
        }
        std::iter_swap(deck.begin() + static_cast<std::ptrdiff_t>(k), it);
    }
    chosen_.clear();
}

void Table::chat(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (!self->watchers_.contains(s.get()))
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
        const int seat = self->seat_of_session(s);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->broadcast(protocol::chat_json(seat, a.name, *text.value));
    });
}

void Table::resend(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        const auto seat = self->seat_of(a.id);
        if (!seat && !self->watchers_.contains(s.get()))
            return self->refuse(s, r, "not_watching", "sit or spectate at this table first");
        if (seat) self->watchers_[s.get()] = s; // a seated player on this connection
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(seat ? *seat : -1));
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
            self->broadcast(protocol::sitting_out_json(*seat, protocol::SitOut::chosen));
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
        self->broadcast(protocol::sitting_in_json(*seat));
        self->maybe_start();
    });
}

void Table::top_up(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
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
        self->services_.storage.write(
            [table = self->id_, seat = *seat, account = a.id, amount](Store& store) {
                return store.top_up(table, seat, account, amount);
            },
            self->strand_,
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
                                 seat, amount, st.stack);
                    self->send(s, protocol::reply(r, {{"table", self->id_}, {"stack", st.stack}}));
                    self->broadcast(protocol::topped_up_json(seat, st.name, amount, st.stack));
                }
                // Cash-outs that waited for it (a leave, shutdown), then the next hand.
                if (!self->busy()) self->after_hand();
            });
    });
}

void Table::join(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (self->closed_)
            return self->refuse(s, r, "no_such_table",
                                "table " + std::to_string(self->id_) + " has closed");
        const Limits& l = self->limits_;
        // A table with no chips at stake (max_buy_in 0) needs no buy-in.
        const auto asked = protocol::integer_field(r, "buy_in", l.max_buy_in == 0 ? 0 : -1);
        if (!asked.ok()) return self->refuse(s, r, asked.refusal);
        const Chips buy_in = Chips(*asked.value);
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (self->seat_of(a.id) ||
            std::ranges::find(self->reserved_, a.id) != self->reserved_.end())
            return self->refuse(s, r, "already_seated", "you already have a seat here");
        if (buy_in < l.min_buy_in || buy_in > l.max_buy_in)
            return self->refuse(s, r, "bad_amount",
                                "the buy-in is " + to_string(l.min_buy_in) + " to " +
                                    to_string(l.max_buy_in));
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
        self->services_.storage.write(
            [table = self->id_, seat, account = a.id, buy_in](Store& st) {
                return st.buy_in(table, seat, account, buy_in);
            },
            self->strand_,
            [self, s, a, r, seat, buy_in](std::optional<std::optional<Refusal>> refused) {
                self->reserved_[static_cast<std::size_t>(seat)] = 0;
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
                int seat, Chips buy_in) {
    seats_[static_cast<std::size_t>(seat)] = Occupant{a.id, a.name, buy_in, s, false};
    seats_[static_cast<std::size_t>(seat)]->time_bank_ms = limits_.time_bank_ms;
    ++taken_;
    services_.lobby.note_seat(a.id, id_, true);
    watchers_[s.get()] = s;
    spdlog::info("table {}: {} sits in seat {} with {}", id_, a.name, seat, buy_in);
    send(s, protocol::reply(r, {{"table", id_}, {"seat", seat}, {"stack", buy_in}}));
    broadcast(protocol::seated_json(seat, a.name, buy_in));
    send(s, snapshot(seat));
    lobby_changed();
    if (stopping_) return cash_out(seat, "shutdown"); // the server began to stop meanwhile
    maybe_start();
}

bool Table::free(int seat) const {
    return !this->seat(seat) && !reserved_[static_cast<std::size_t>(seat)];
}

void Table::spectate(std::shared_ptr<Recipient> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        if (self->closed_)
            return self->refuse(s, r, "no_such_table",
                                "table " + std::to_string(self->id_) + " has closed");
        self->watchers_[s.get()] = s;
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(-1));
        self->lobby_changed();
    });
}

void Table::leave(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) {
            self->watchers_.erase(s.get());
            self->send(s, protocol::reply(r, {{"table", self->id_}}));
            return self->lobby_changed();
        }
        Occupant& st = *self->seat(*seat);
        if (self->in_running(*seat) || self->pending_ || self->settling_ || st.cashing ||
            st.topping) {
            // The game acts for the seat; cashed out once the hand's end is stored.
            st.leaving = st.quit = true;
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"after_hand", true}}));
            if (self->in_running(*seat)) self->run(self->hand_->leave(Seat(*seat)));
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

void Table::attach(std::shared_ptr<Recipient> s, Account a) {
    net::post(strand_, [self = shared_from_this(), s, a] {
        auto seat = self->seat_of(a.id);
        if (!seat) return;
        Occupant& st = *self->seat(*seat);
        st.session = s;
        st.missed = 0;
        if (!st.connected) {
            st.connected = true;
            self->broadcast(protocol::connection_json(*seat, true));
        }
        if (st.sitting_out) { // a player who chose to sit out stays out until they sit in
            st.sitting_out = false;
            if (!st.chose_out) self->broadcast(protocol::sitting_in_json(*seat));
            self->maybe_start();
        }
        self->watchers_[s.get()] = s;
        self->send(s, self->snapshot(*seat));
    });
}

void Table::disconnected(Recipient* s) {
    net::post(strand_, [self = shared_from_this(), s] {
        self->watchers_.erase(s);
        // A seat whose player signed out on a live connection is held as for a closed one.
        for (int i = 0; i < self->limits_.seats; ++i) {
            Occupant* st = self->seat(i);
            if (!st) continue;
            if (auto live = st->session.lock(); live && live.get() != s) continue;
            st->session.reset();
            if (!st->connected) continue;
            st->connected = false;
            self->broadcast(protocol::connection_json(i, false));
        }
        self->lobby_changed();
    });
}

void Table::note_missed(int seat, int hand) {
    Occupant* st = this->seat(seat);
    if (!st || !st->session.expired() || st->missed_hand == hand) return;
    st->missed_hand = hand;
    if (++st->missed >= limits_.sit_out_after && !st->sitting_out) {
        st->sitting_out = true;
        spdlog::info("table {}: {} sits out after {} missed hands", id_, st->name, st->missed);
        broadcast(protocol::sitting_out_json(seat, protocol::SitOut::missed_hands));
    }
}

void Table::cash_out(int seat, const char* reason, std::function<void(bool ok)> then) {
    Occupant& st = *this->seat(seat);
    if (st.cashing) return; // already on its way
    st.cashing = true;
    st.leaving = true; // dealt no more hands
    services_.storage.write(
        [table = id_, seat, account = st.account, stack = st.stack,
         reason = std::string(reason)](Store& store) {
            store.cash_out(table, seat, account, stack, reason);
            return true;
        },
        strand_,
        [self = shared_from_this(), seat, reason, then = std::move(then)](std::optional<bool> ok) {
            Occupant& st = *self->seat(seat);
            st.cashing = false;
            if (!ok) {
                // Rolled back: the chips stay in table_seats (recovered at a restart) and in the
                // seat, which is dealt no more hands; the cash-out is tried again when storage
                // works.
                self->pause_for_storage();
                if (then) then(false);
                return;
            }
            const Occupant gone = std::move(st);
            self->seats_[static_cast<std::size_t>(seat)].reset();
            --self->taken_;
            self->services_.lobby.note_seat(gone.account, self->id_, false);
            spdlog::info("table {}: {} leaves seat {} with {} ({})", self->id_, gone.name, seat,
                         gone.stack, reason);
            self->broadcast(protocol::left_json(seat, gone.name, gone.stack));
            if (auto s = gone.session.lock(); s && gone.quit) self->watchers_.erase(s.get());
            self->lobby_changed();
            self->arm_idle();
            if (then) then(true);
            self->maybe_start();
        });
}

void Table::start_hand() {
    Deal d;
    for (int i = 0; i < limits_.seats; ++i)
        if (ready(i)) {
            d.seats.emplace_back(i);
            d.stacks[static_cast<std::size_t>(i)] = seat(i)->stack;
            d.names[static_cast<std::size_t>(i)] = seat(i)->name;
        }
    if (d.seats.size() < 2) return;
    d.number = hands_ + 1;
    d.dealer = Seat(next_dealer());
    // A cryptographically secure shuffle, committed to before the deal.
    std::vector<Card> deck = game_->deck(d);
    secure_shuffle(deck);
    stack_chosen(deck);
    auto started = game_->start(d, std::move(deck), random_seed());
    if (!started.ok()) { // a bug, or a configuration that cannot deal
        spdlog::error("table {}: hand cannot start: {}", id_, started.refusal.message);
        return;
    }
    ++hands_;
    sealed_ = protocol::Sealed::seal(started.value->deck, std::move(started.value->seed));
    pending_ = std::move(started.value->hand);
    deal_ = std::move(d);
    // The table's configuration, plus what this hand needs to be read or replayed alone.
    json record = config_json();
    record.update(started.value->record);
    json stacks = json::array(), names = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const auto k = static_cast<std::size_t>(i);
        stacks.push_back(deal_.stacks[k]);
        names.push_back(deal_.stacks[k] > 0 ? json(deal_.names[k]) : json(nullptr));
    }
    record["stacks"] = std::move(stacks);
    record["names"] = std::move(names);
    record["rules"] = protocol::kRules;
    // The hand's id is taken on the writer, from this node's block of ids.
    std::string commitment = sealed_.commitment(); // hashed once, for the row and the deal
    HandStart h{0, id_, deal_.number, record.dump(), commitment};
    services_.storage.write(
        [h = std::move(h), &storage = services_.storage](Store& store) mutable {
            h.id = storage.take_hand_id(store);
            store.start_hand(h);
            return h.id;
        },
        strand_,
        [self = shared_from_this(),
         commitment = std::move(commitment)](std::optional<std::int64_t> started) {
            if (!started) { // nothing was dealt
                self->pending_.reset();
                return self->pause_for_storage();
            }
            const std::int64_t id = *started;
            if (self->stopping_) { // shutdown began meanwhile: never dealt
                self->pending_.reset();
                self->record_void(id);
                return self->after_hand();
            }
            self->deal(id, commitment);
        });
}

void Table::deal(std::int64_t hand_id, const std::string& commitment) {
    Batch batch(*this);
    hand_ = std::move(pending_);
    hand_id_ = hand_id;
    dealer_ = deal_.dealer.index();
    run(hand_->deal(hand_id, commitment));
    // Players who asked to leave while the row was written: the game acts for them.
    for (int i = 0; i < limits_.seats; ++i)
        if (const Occupant* st = seat(i); st && st->leaving && in_running(i))
            run(hand_->leave(Seat(i)));
}

void Table::run(Step step) {
    Batch batch(*this);
    for (Seat seat : step.missed) note_missed(seat.index(), deal_.number);
    if (step.end) {
        stop_clock();
        bank_close();
        clock_key_ = 0;
        publish(step.told);
        return end_hand(std::move(*step.end));
    }
    const Clock c = hand_->clock();
    if (c.key != clock_key_) {
        bank_close();
        clock_key_ = c.key;
        clock_seat_ = c.seat ? c.seat->index() : -1;
        if (c.key == 0)
            stop_clock();
        else
            arm_clock(net::steady_timer::clock_type::now() + std::chrono::milliseconds(c.ms));
    }
    publish(step.told);
}

void Table::arm_clock(net::steady_timer::time_point due) {
    clock_due_ = due;
    if (clock_waiting_ && clock_.expiry() <= due) return; // it waits on when it fires
    // A later wait pending is cancelled by the new expiry: its handler finds operation_aborted.
    clock_.expires_at(due);
    clock_waiting_ = true;
    clock_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->on_clock_timer();
    });
}

void Table::on_clock_timer() {
    clock_waiting_ = false;
    if (clock_key_ == 0) return;
    if (net::steady_timer::clock_type::now() < clock_due_) return arm_clock(clock_due_);
    on_clock(clock_key_);
}

void Table::stop_clock() {
    clock_.cancel();
    clock_waiting_ = false;
}

void Table::on_clock(long key) {
    if (!hand_ || key != clock_key_) return;
    if (clock_seat_ >= 0 && bank_start(clock_seat_)) return;
    spdlog::info("table {}: time is up in hand {} (seat {})", id_, deal_.number, clock_seat_);
    run(hand_->time_out());
}

void Table::tell_clock(protocol::Stamp& stamp) const {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(
        clock_due_ - net::steady_timer::clock_type::now());
    stamp.deadline_ms = std::max<long>(0, left.count());
    const Occupant* st = clock_seat_ >= 0 ? seat(clock_seat_) : nullptr;
    stamp.time_bank_ms = st ? st->time_bank_ms : 0;
}

void Table::record_void(std::int64_t hand_id) {
    services_.storage.write(
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

void Table::void_hand(std::int64_t hand_id, int number, const char* reason) {
    record_void(hand_id);
    ++services_.metrics.hands_void;
    std::vector<Chips> stacks;
    for (int i = 0; i < limits_.seats; ++i) stacks.push_back(seat(i) ? seat(i)->stack : 0);
    broadcast(protocol::hand_void_json(number, hand_id, reason, stacks));
}

void Table::pause_for_storage() {
    paused_ = true;
    if (retrying_) return;
    retrying_ = true;
    storage_retry_.expires_after(kStorageRetry);
    storage_retry_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) {
            self->retrying_ = false;
            return;
        }
        self->services_.storage.write(
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

void Table::end_hand(End end) {
    hand_.reset();
    const std::int64_t hand_id = hand_id_;
    if (end.void_reason) { // a bug, but nobody loses a chip
        spdlog::error("table {}: hand {} cannot go on ({}); it is void", id_, hand_id,
                      end.void_reason);
        void_hand(hand_id, deal_.number, end.void_reason);
        return after_hand();
    }
    std::string deck;
    for (const std::string& card : sealed_.cards) deck += (deck.empty() ? "" : " ") + card;
    HandEnd h{hand_id,
              id_,
              std::move(deck),
              sealed_.seed,
              protocol::opened_record(sealed_, end.seen, end.seed_used),
              {},
              std::move(end.log)};
    for (const SeatResult& r : end.results)
        h.seats.push_back({r.seat.index(), seat(r.seat.index())->account, r.start, r.end});
    settling_ = true;
    // No hand starts before this one is settled: its seal goes with it.
    std::vector<HandSeat> seats = h.seats;
    services_.storage.write(
        [h = std::move(h)](Store& store) {
            store.finish_hand(h);
            return true;
        },
        strand_,
        [self = shared_from_this(), id = hand_id, seats = std::move(seats),
         sealed = std::move(sealed_), seen = std::move(end.seen), seed_used = end.seed_used,
         number = deal_.number, message = std::move(end.message)](std::optional<bool> ok) mutable {
            self->settling_ = false;
            if (!ok) {
                // Rolled back, and the seats keep the stacks from before the hand: it never
                // happened.
                self->void_hand(id, number, "storage");
                self->pause_for_storage();
                return self->after_hand();
            }
            ++self->services_.metrics.hands_played;
            for (const HandSeat& r : seats) self->seat(r.seat)->stack = r.end;
            std::vector<Chips> stacks;
            for (int i = 0; i < self->limits_.seats; ++i)
                stacks.push_back(self->seat(i) ? self->seat(i)->stack : 0);
            // Everyone gets what everyone saw; each seat dealt in, its own cards too. (The
            // leaves are hashed again rather than kept from the deal: kept, they cost a table
            // about 6 KB for the whole hand, to save 0.7 % of feltd's time.)
            const std::vector<std::string> leaves = sealed.leaves();
            protocol::add_reveal(message, stacks, sealed, leaves, seen, seed_used);
            auto end = std::make_unique<protocol::JsonTold>(std::move(message));
            for (const HandSeat& r : seats)
                end->with_own(r.seat, protocol::own_reveal(sealed, seen, r.seat));
            std::vector<Told> told;
            told.push_back(std::move(end));
            self->publish(told);
            self->after_hand();
        });
}

bool Table::bank_start(int seat) {
    if (banking_) { // the bank ran out too
        banking_ = false;
        if (Occupant* st = this->seat(bank_seat_)) st->time_bank_ms = 0;
        return false;
    }
    Occupant* st = this->seat(seat);
    if (!st || st->time_bank_ms <= 0) return false;
    banking_ = true;
    bank_seat_ = seat;
    bank_from_ = std::chrono::steady_clock::now();
    broadcast(protocol::time_bank_json(deal_.number, seat, st->time_bank_ms));
    arm_clock(net::steady_timer::clock_type::now() + std::chrono::milliseconds(st->time_bank_ms));
    return true;
}

void Table::bank_close() {
    if (!banking_) return;
    banking_ = false;
    Occupant* st = seat(bank_seat_);
    if (!st) return;
    const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - bank_from_)
                          .count();
    st->time_bank_ms = static_cast<int>(std::max<long>(0, st->time_bank_ms - used));
}

void Table::maybe_start() {
    if (busy() || starting_ || stopping_ || paused_ || ready_count() < 2) return;
    starting_ = true;
    next_hand_.expires_after(std::chrono::milliseconds(limits_.hand_delay_ms));
    next_hand_.async_wait([self = shared_from_this()](error_code ec) {
        self->starting_ = false;
        if (ec || self->busy() || self->stopping_ || self->paused_) return;
        self->start_hand();
    });
}

void Table::after_hand() {
    for (int i = 0; i < limits_.seats; ++i) {
        const Occupant* st = seat(i);
        if (st && !st->cashing && !st->topping &&
            (st->leaving || st->stack < game_->stake_needed() || stopping_))
            cash_out(i, "cash_out");
    }
    maybe_start();
}

void Table::stop() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        self->next_hand_.cancel();
        self->idle_.cancel();
        if (self->busy()) return; // cashed out when it ends
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

void Table::void_and_close() {
    net::post(strand_, [self = shared_from_this()] {
        Batch batch(*self);
        self->stopping_ = true;
        // A hand's start or end, or a top-up, is being stored; everyone is cashed out after it.
        if (self->pending_ || self->settling_ || self->topping_ > 0) return;
        if (self->hand_) {
            // Stacks here and in table_seats are still those from before the hand: it never
            // happened.
            self->record_void(self->hand_id_); // if it cannot be written, the next start voids it
            spdlog::info("table {}: hand {} void at shutdown", self->id_, self->hand_id_);
            self->stop_clock();
            self->bank_close();
            self->clock_key_ = 0;
            self->hand_.reset();
        }
        for (int i = 0; i < self->limits_.seats; ++i)
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

} // namespace felt::server
