// The table's hands: from the deal's shuffle and commitment, through its steps and its clock, to
// its end, stored and revealed, or void; the next hand; the lobby's line and the idle close;
// shutdown. Seats and watchers are in seating.cpp.
#include "tables/table.h"

#include "metrics.h"
#include "protocol/config_reader.h"
#include "protocol/table_messages.h"
#include "storage/storage.h"
#include "tables/poker_game.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

namespace felt::server {

using protocol::json;

void Step::append(Step&& later) {
    for (Told& t : later.told) told.push_back(std::move(t));
    missed.insert(missed.end(), later.missed.begin(), later.missed.end());
    if (later.end) end = std::move(later.end);
    for (Paced& p : later.paced) paced.push_back(std::move(p));
    if (later.odds) odds = std::move(later.odds);
}

std::string seat_words(const std::string& message,
                       const std::function<std::optional<Seat>(int player)>& seat_of,
                       std::span<const std::string> names) {
    std::string out;
    const auto digit = [&](std::size_t i) {
        return i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]));
    };
    for (std::size_t i = 0; i < message.size();) {
        if (message.compare(i, 5, "seat ") != 0 || !digit(i + 5)) {
            out += message[i++];
            continue;
        }
        std::size_t end = i + 5;
        while (digit(end)) ++end;
        const std::optional<Seat> at =
            end - i - 5 > 2 ? std::nullopt : seat_of(std::stoi(message.substr(i + 5, end - i - 5)));
        if (at && at->at() < names.size())
            out += names[at->at()] + " (seat " + std::to_string(at->index() + 1) + ")";
        else
            out += message.substr(i, end - i);
        i = end;
    }
    return out;
}

Table::Table(std::int64_t id, std::unique_ptr<Game> game, Services& services)
    : id_(id), game_(std::move(game)), limits_(game_->limits()), services_(services),
      strand_(net::make_strand(services.io)), publisher_(id), clock_(strand_),
      ledger_(
          id, services.storage, strand_,
          [this] {
              if (!busy()) after_hand(); // cash-outs left over, then the next hand
          },
          services.balance_changed),
      pace_(strand_), next_hand_(strand_), idle_(strand_),
      wants_bots_(game_->config().contains("bots")) {}

void Table::open() {
    net::post(strand_, [self = shared_from_this()] {
        self->arm_idle();
        self->lobby_changed();
    });
}

protocol::json Table::lobby_line() const {
    json line = protocol::lobby_line_json(id_, config_json(), taken_, watching_);
    if (!creator_name_.empty()) line["creator"] = creator_name_;
    if (hosted_) line["tournament"] = tournament_;
    return line;
}

void Table::lobby_changed() {
    int spectators = 0;
    publisher_.for_each(
        [&](const std::shared_ptr<Recipient>& s) { spectators += !seat_of_session(s); });
    watching_ = spectators;
    if (services_.lobby.watched()) services_.lobby.changed(lobby_line());
    seating_changed();
}

void Table::seating_changed() {
    if (wants_bots_ && services_.seating && !hosted_) tell_seating();
}

void Table::tell_seating() {
    const json config = config_json();
    const auto bots = config.find("bots");
    if (bots == config.end() || !bots->is_object()) return;
    TableSeating s;
    s.table = id_;
    s.game = config.value("game", "poker");
    s.handle = weak_from_this();
    s.seats = config.value("seats", 0);
    for (const auto& o : seats_) {
        if (o && !o->leaving) s.seated.push_back(o->account);
        if (o && !o->leaving && (o->sitting_out || o->chose_out)) s.away.push_back(o->account);
    }
    for (std::int64_t a : reserved_)
        if (a) s.seated.push_back(a);
    s.bots = bots->value("seats", 0);
    s.level = bots->value("level", "fair");
    s.leave_for_people = bots->value("leave_for_people", true);
    s.min_buy_in = config.value("min_buy_in", std::int64_t{0});
    s.max_buy_in = config.value("max_buy_in", std::int64_t{0});
    s.decision_ms = config.value("decision_ms", 0);
    s.closed = closed_ || stopping_;
    services_.seating(std::move(s));
}

bool Table::empty() const {
    return taken_ == 0 && !busy() && std::ranges::all_of(reserved_, [](auto a) { return a == 0; });
}

void Table::arm_idle() {
    if (closed_ || stopping_ || hosted_ || !empty()) return; // a host closes its own tables
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
    spdlog::info("table {}: closed, nobody sat at it for {} s", id_, services_.table_idle.count());
    close_now("idle");
}

void Table::close_now(const char* reason) {
    closed_ = true;
    idle_.cancel();
    next_hand_.cancel();
    // Gone from the lobby before anyone hears of it: a client told `closed` that asks the lobby
    // next does not find it there.
    services_.lobby.remove(id_);
    broadcast(protocol::closed_json(reason));
    publisher_.unwatch_all();
    ledger_.close_table();
}

void Table::close(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        if (self->creator_ == 0 || a.id != self->creator_)
            return self->refuse(s, r, "not_creator",
                                "only the table's creator" +
                                    (self->creator_name_.empty()
                                         ? std::string()
                                         : ", " + self->creator_name_ + ",") +
                                    " may close it");
        if (self->closed_ || self->stopping_)
            return self->refuse(s, r, "closed", "the table is closing already");
        const bool now = self->empty();
        spdlog::info("table {}: {} closes it{}", self->id_, a.name,
                     now ? "" : ", once the running hand ends");
        self->closing_ = true;
        self->next_hand_.cancel();
        self->closing_step();
        // Answered once it is done (an empty table is gone from the lobby already): a client
        // that asks the lobby next does not find it there.
        self->send(s, protocol::reply(r, {{"table", self->id_}, {"at_once", now}}));
    });
}

void Table::closing_step() {
    if (!closing_ || closed_) return;
    if (empty()) return close_now("host");
    if (busy()) return; // after_hand comes back here
    for (Seat i : seats_of(limits_.seats))
        if (const Occupant* st = seat(i); st && !st->cashing)
            cash_out(i, "closed", [self = shared_from_this()](bool ok) {
                if (ok) self->closing_step(); // else after storage works again (after_hand)
            });
}

Seat Table::next_dealer() const {
    int d = dealer_ ? dealer_->index() : -1;
    do d = (d + 1) % limits_.seats;
    while (!ready(Seat(d)));
    return Seat(d);
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
    publisher_.publish(
        told, [this](protocol::Stamp& stamp) { clock_.tell(stamp); },
        [this](const std::shared_ptr<Recipient>& s) {
            const auto seat = seat_of_session(s);
            return seat ? seat->index() : -1;
        });
}

void Table::broadcast(json m) {
    std::vector<Told> told;
    told.push_back(std::make_unique<protocol::JsonTold>(std::move(m)));
    publish(told);
}

bool Table::ready(Seat i) const {
    const Occupant* st = seat(i);
    if (hosted_) return st && st->stack > 0 && !st->cashing; // the host decides who is dealt in
    return st && st->stack >= game_->stake_needed() && !st->leaving && !st->sitting_out &&
           !st->chose_out && !st->topping;
}

int Table::ready_count() const {
    int n = 0;
    for (Seat i : seats_of(limits_.seats)) n += ready(i);
    return n;
}

std::string Table::snapshot(std::optional<Seat> viewer) const {
    json seats = json::array();
    for (Seat i : seats_of(limits_.seats)) {
        const Occupant* st = seat(i);
        if (!st) continue;
        json j =
            protocol::seat_json({i.index(), st->name, st->stack, st->sitting_out || st->chose_out,
                                 st->connected, clock_.bank(i)});
        if (hand_)
            hand_->seat_view(i, viewer, j);
        else
            game_->idle_seat_view(i, j);
        seats.push_back(std::move(j));
    }
    json out = protocol::snapshot_json(id_, publisher_.seq(), config_json(), std::move(seats),
                                       viewer ? viewer->index() : -1);
    if (hosted_) out["tournament"] = tournament_;
    if (hand_) {
        hand_->view(viewer, static_cast<int>(clock_.left_ms()), out);
        if (json clock = clock_.view(); !clock.is_null()) out["clock"] = std::move(clock);
    }
    return out.dump();
}

void Table::act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        Publisher::Batch batch(self->publisher_);
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->hand_)
            return self->refuse(s, r, "no_hand",
                                std::string("no ") + self->game_->hand_noun() + " is being played");
        auto step = self->hand_->act(*seat, r.body);
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
        auto answer = (self->game_.get()->*q)(self->hand_.get(), *seat, r);
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
        if (!self->publisher_.watching(s.get()))
            return self->refuse(s, r, "not_watching", "sit or spectate at this table first");
        auto it = r.body.find("cards");
        if (it == r.body.end() || !it->is_string())
            return self->refuse(s, r, "bad_request",
                                "\"choose_deck\" needs \"cards\", the cards in the order dealt");
        if (auto refused =
                self->chosen_.choose(*self->game_, self->limits_.seats, it->get<std::string>()))
            return self->refuse(s, r, *refused);
        self->send(s, protocol::reply(r, {{"table", self->id_}, {"cards", self->chosen_.size()}}));
    });
}

void Table::start_hand() {
    Deal d;
    std::optional<std::uint64_t> deck_seed; // a host's, for tests
    if (hosted_) {
        // The host's hand: who is in, the button and the blinds, the level's stakes.
        auto host = host_.lock();
        auto hd = host ? host->next_deal(id_, hands_ + 1) : std::nullopt;
        if (!hd) return; // the host pokes the table when it may deal
        host_dealt_ = true;
        for (Seat i : seats_of(limits_.seats)) {
            if (hd->stacks[i.at()] == 0) continue;
            const Occupant* st = seat(i);
            // A player moved here whose seat is not free yet: the hand waits for them (their
            // arrival starts it).
            if (!st || st->account != hd->accounts[i.at()]) return not_dealt();
            d.seats.push_back(i);
            d.stacks[i.at()] = hd->stacks[i.at()];
            d.names[i.at()] = st->name;
        }
        d.dealer = Seat(hd->button);
        d.tournament = hd->tournament;
        deck_seed = hd->deck_seed;
        if (d.seats.size() < 2) return not_dealt();
    } else {
        for (Seat i : seats_of(limits_.seats))
            if (ready(i)) {
                d.seats.push_back(i);
                d.stacks[i.at()] = seat(i)->stack;
                d.names[i.at()] = seat(i)->name;
            }
        if (d.seats.size() < 2) return;
        d.dealer = hold_button_ && dealer_ && ready(*dealer_) ? *dealer_ : next_dealer();
    }
    d.number = hands_ + 1;
    d.carry = carry_;
    // A cryptographically secure shuffle, committed to before the deal (a seeded one in tests).
    std::vector<Card> deck = game_->deck(d);
    const std::optional<std::uint64_t> seed =
        deck_seed ? std::optional(mix_seed(*deck_seed, static_cast<std::uint64_t>(d.number)))
                  : std::nullopt;
    if (seed)
        seeded_shuffle(deck, *seed);
    else
        secure_shuffle(deck);
    chosen_.stack(*game_, id_, deck);
    auto started = game_->start(d, std::move(deck), seed ? mix_seed(*seed, 1) : random_seed());
    if (!started.ok()) { // a bug, or a configuration that cannot deal
        spdlog::error("table {}: hand cannot start: {}", id_, started.refusal.message);
        return not_dealt();
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
    std::string commitment = sealed_.commitment(); // hashed once, for the row and the deal
    HandStart h{0, id_, deal_.number, record.dump(), commitment};
    ledger_.start_hand(std::move(h),
                       [self = shared_from_this(),
                        commitment = std::move(commitment)](std::optional<std::int64_t> started) {
                           if (!started) { // nothing was dealt
                               self->pending_.reset();
                               self->not_dealt();
                               return self->ledger_.pause(self);
                           }
                           const std::int64_t id = *started;
                           if (self->stopping_) { // shutdown began meanwhile: never dealt
                               self->pending_.reset();
                               self->not_dealt();
                               self->ledger_.record_void(id, self);
                               return self->after_hand();
                           }
                           self->deal(id, commitment);
                       });
}

void Table::deal(std::int64_t hand_id, const std::string& commitment) {
    Publisher::Batch batch(publisher_);
    hand_ = std::move(pending_);
    hand_id_ = hand_id;
    dealer_ = deal_.dealer;
    run(hand_->deal(hand_id, commitment));
    // Players who asked to leave while the row was written: the game acts for them. At a
    // tournament's table, so it does for a player sitting out, who is dealt in all the same.
    for (Seat i : seats_of(limits_.seats))
        if (const Occupant* st = seat(i);
            st && in_running(i) && (st->leaving || (hosted_ && (st->sitting_out || st->chose_out))))
            run(hand_->leave(i));
}

void Table::run(Step step) {
    Publisher::Batch batch(publisher_);
    for (Seat seat : step.missed) note_missed(seat, deal_.number);
    if (step.end) {
        clock_.stop();
        publish(step.told);
        if (step.odds && services_.odds) start_odds(std::move(*step.odds));
        if (step.paced.empty()) return finish_run_out(std::move(*step.end));
        paced_.assign(std::make_move_iterator(step.paced.begin()),
                      std::make_move_iterator(step.paced.end()));
        paced_end_ = std::move(step.end);
        return tell_paced();
    }
    if (clock_.follow(hand_->clock())) wait_clock();
    publish(step.told);
}

void Table::tell_paced() {
    pace_.expires_after(std::chrono::milliseconds(paced_.front().ms));
    pace_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec || self->paced_.empty()) return; // the hand was voided meanwhile
        Publisher::Batch batch(self->publisher_);
        Paced p = std::move(self->paced_.front());
        self->paced_.pop_front();
        self->publish(p.told);
        self->tell_odds(self->parts_told_++);
        if (self->told_now_) *self->told_now_ = self->parts_told_;
        if (!self->paced_.empty()) return self->tell_paced();
        End end = std::move(*self->paced_end_);
        self->paced_end_.reset();
        self->finish_run_out(std::move(end));
    });
}

void Table::start_odds(RunOutOdds job) {
    const std::uint64_t id = ++run_out_;
    odds_pending_ = true;
    odds_.assign(job.parts, nullptr);
    all_in_ev_.clear();
    parts_told_ = 1; // the update that showed the hands
    told_now_ = std::make_shared<std::atomic<std::size_t>>(1);
    net::post(*services_.odds,
              [self = shared_from_this(), job = std::move(job), id, told = told_now_] {
                  const auto part = [&](std::size_t k) {
                      if (k + 1 < told->load()) return; // the table has dealt past it meanwhile
                      net::post(self->strand_, [self, id, k, odds = job.part(k)]() mutable {
                          self->odds_known(id, k, std::move(odds));
                      });
                  };
                  // The first street, then the EV the hand's end waits for (which uses it), then
                  // the rest.
                  if (job.parts > 0) part(0);
                  if (told->load() == kAbandoned) return; // the table stopped waiting
                  net::post(self->strand_, [self, id, ev = job.all_in_ev()]() mutable {
                      self->ev_known(id, std::move(ev));
                  });
                  for (std::size_t k = 1; k < job.parts; ++k) part(k);
              });
}

void Table::odds_known(std::uint64_t run_out, std::size_t part, json odds) {
    if (run_out != run_out_ || part >= odds_.size()) return; // the hand was voided meanwhile
    odds_[part] = std::move(odds);
    if (part + 1 == parts_told_) tell_odds(part); // its part is on the table now
}

void Table::ev_known(std::uint64_t run_out, std::string all_in_ev) {
    if (run_out != run_out_ || !odds_pending_) return;
    odds_pending_ = false;
    all_in_ev_ = std::move(all_in_ev);
    if (!odds_end_) return;
    End end = std::move(*odds_end_);
    odds_end_.reset();
    finish_run_out(std::move(end));
}

void Table::tell_odds(std::size_t part) {
    if (part < odds_.size() && !odds_[part].is_null()) {
        Publisher::Batch batch(publisher_);
        broadcast(odds_[part]);
    }
}

void Table::finish_run_out(End end) {
    if (odds_pending_) {
        // Waits for the all-in EV, but not for long: with the odds thread behind, the hand ends
        // without it.
        odds_end_ = std::move(end);
        pace_.expires_after(std::chrono::milliseconds(kMostEvWaitMs));
        pace_.async_wait([self = shared_from_this(), id = run_out_](error_code ec) {
            if (ec || id != self->run_out_ || !self->odds_end_) return;
            spdlog::info("table {}: hand {} ends without its all-in EV (the odds are behind)",
                         self->id_, self->hand_id_);
            ++self->run_out_;
            self->odds_pending_ = false;
            if (self->told_now_) *self->told_now_ = kAbandoned; // the odds thread stops on it
            End late = std::move(*self->odds_end_);
            self->odds_end_.reset();
            self->finish_run_out(std::move(late));
        });
        return;
    }
    pace_.cancel();
    told_now_.reset();
    if (!all_in_ev_.empty() && !end.void_reason) {
        add_all_in_ev(end.stats, json::parse(all_in_ev_, nullptr, false));
        end.log.push_back(std::move(all_in_ev_));
    }
    all_in_ev_.clear();
    odds_.clear();
    end_hand(std::move(end));
}

void Table::wait_clock() {
    clock_.timer().async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->on_clock_timer();
    });
}

void Table::on_clock_timer() {
    const auto fired = clock_.fired();
    if (fired == TableClock::Fired::wait_on) return wait_clock();
    if (fired == TableClock::Fired::nothing || !hand_) return;
    if (const auto bank = clock_.start_bank()) {
        broadcast(protocol::time_bank_json(deal_.number, clock_.seat()->index(), *bank));
        if (clock_.run_bank(*bank)) wait_clock();
        return;
    }
    spdlog::info("table {}: time is up in hand {} (seat {})", id_, deal_.number,
                 clock_.seat() ? clock_.seat()->index() : -1);
    Publisher::Batch batch(publisher_);
    if (clock_.seat()) broadcast(protocol::timed_out_json(deal_.number, clock_.seat()->index()));
    run(hand_->time_out());
}

void Table::void_hand(std::int64_t hand_id, int number, const char* reason) {
    ledger_.record_void(hand_id, shared_from_this());
    ++services_.metrics.hands_void;
    std::vector<Chips> stacks;
    for (Seat i : seats_of(limits_.seats)) stacks.push_back(seat(i) ? seat(i)->stack : 0);
    broadcast(protocol::hand_void_json(number, hand_id, reason, stacks));
}

void Table::end_hand(End end) {
    hand_.reset();
    rest_ =
        std::chrono::milliseconds(end.showdown ? limits_.showdown_delay_ms : limits_.hand_delay_ms);
    ended_ = std::chrono::steady_clock::now();
    const std::int64_t hand_id = hand_id_;
    if (end.void_reason) { // a bug, but nobody loses a chip
        spdlog::error("table {}: hand {} cannot go on ({}); it is void", id_, hand_id,
                      end.void_reason);
        void_hand(hand_id, deal_.number, end.void_reason);
        not_dealt();
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
              std::move(end.log),
              std::nullopt,
              {}};
    for (const SeatResult& r : end.results)
        h.seats.push_back({r.seat.index(), seat(r.seat)->account, r.start, r.end});
    for (auto& [at, row] : end.stats)
        if (const Occupant* st = seat(Seat(at))) {
            row.account = st->account;
            row.tournament = hosted_;
            h.stats.push_back(std::move(row));
        }
    if (host_dealt_) {
        // What the hand changed in the tournament, written with it.
        std::array<Chips, kMaxTableSeats> after{};
        for (Seat i : seats_of(limits_.seats))
            if (const Occupant* st = seat(i)) after[i.at()] = st->stack;
        for (const HandSeat& r : h.seats) after[static_cast<std::size_t>(r.seat)] = r.end;
        if (auto host = host_.lock())
            h.tournament = host->hand_ended(
                id_, std::span<const Chips>(after.data(), static_cast<std::size_t>(limits_.seats)));
    }
    settling_ = true;
    // No hand starts before this one is settled: its seal goes with it.
    std::vector<HandSeat> seats = h.seats;
    ledger_.finish_hand(std::move(h),
                        [self = shared_from_this(), id = hand_id, seats = std::move(seats),
                         sealed = std::move(sealed_), seen = std::move(end.seen),
                         seed_used = end.seed_used, number = deal_.number,
                         message = std::move(end.message), carry = std::move(end.carry),
                         hold = end.hold_button](bool ok) mutable {
                            self->settling_ = false;
                            auto host = self->host_dealt_ ? self->host_.lock() : nullptr;
                            self->host_dealt_ = false;
                            if (!ok) {
                                // Rolled back, and the seats keep the stacks from before the hand:
                                // it never happened.
                                self->void_hand(id, number, "storage");
                                if (host) host->settled(self->id_, false);
                                self->ledger_.pause(self);
                                return self->after_hand();
                            }
                            ++self->services_.metrics.hands_played;
                            self->carry_ = std::move(carry);
                            self->hold_button_ = hold;
                            for (const HandSeat& r : seats) self->seat(Seat(r.seat))->stack = r.end;
                            std::vector<Chips> stacks;
                            for (Seat i : seats_of(self->limits_.seats))
                                stacks.push_back(self->seat(i) ? self->seat(i)->stack : 0);
                            // Everyone gets what everyone saw; each seat dealt in, its own cards
                            // too. (The leaves are hashed again rather than kept from the deal:
                            // kept, they cost a table about 6 KB for the whole hand, to save 0.7 %
                            // of feltd's time.)
                            const std::vector<std::string> leaves = sealed.leaves();
                            protocol::add_reveal(message, stacks, sealed, leaves, seen, seed_used);
                            auto end = std::make_unique<protocol::JsonTold>(std::move(message));
                            for (const HandSeat& r : seats)
                                end->with_own(r.seat, protocol::own_reveal(sealed, seen, r.seat));
                            std::vector<Told> told;
                            told.push_back(std::move(end));
                            self->publish(told);
                            if (host) host->settled(self->id_, true);
                            self->after_hand();
                        });
}

void Table::maybe_start() {
    if (busy() || starting_ || stopping_ || closing_ || closed_ || ledger_.paused() ||
        ready_count() < 2)
        return;
    starting_ = true;
    // The pause between hands, and after a showdown the time to read it from the hand's end.
    next_hand_.expires_at(std::max(std::chrono::steady_clock::now() +
                                       std::chrono::milliseconds(limits_.hand_delay_ms),
                                   ended_ + rest_));
    next_hand_.async_wait([self = shared_from_this()](error_code ec) {
        self->starting_ = false;
        if (ec || self->busy() || self->stopping_ || self->closing_ || self->ledger_.paused())
            return;
        self->start_hand();
    });
}

void Table::after_hand() {
    if (hosted_) {
        // Players out of chips leave their seats; nobody is cashed out. At shutdown every seat
        // is let go: the tournament keeps its stacks, and seats its players again at the next
        // start.
        for (Seat i : seats_of(limits_.seats))
            if (const Occupant* st = seat(i); st && (st->stack == 0 || stopping_))
                free_seat(i, st->stack == 0 ? "out" : "shutdown");
        host_changes();
        return maybe_start();
    }
    if (closing_) return closing_step();
    for (Seat i : seats_of(limits_.seats)) {
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
        if (self->busy()) return; // cashed out (a host's: let go) when it ends
        for (Seat i : seats_of(self->limits_.seats))
            if (self->seat(i)) {
                if (self->hosted_)
                    self->free_seat(i, "shutdown");
                else
                    self->cash_out(i, "shutdown");
            }
    });
}

void Table::void_and_close() {
    net::post(strand_, [self = shared_from_this()] {
        Publisher::Batch batch(self->publisher_);
        self->stopping_ = true;
        // A hand's start or end, or a top-up, is being stored; everyone is cashed out after it.
        if (self->pending_ || self->settling_ || self->topping_ > 0) return;
        if (self->hand_) {
            // Stacks here and in table_seats are still those from before the hand: it never
            // happened. If the void cannot be written, the next start voids it.
            self->ledger_.record_void(self->hand_id_, self);
            spdlog::info("table {}: hand {} void at shutdown", self->id_, self->hand_id_);
            self->clock_.stop();
            self->pace_.cancel();
            self->paced_.clear();
            self->paced_end_.reset();
            ++self->run_out_; // odds still being worked out are for nobody now
            self->odds_pending_ = false;
            self->odds_end_.reset();
            self->hand_.reset();
        }
        if (self->hosted_) { // tournament chips stay where the tournament's last hand left them
            for (Seat i : seats_of(self->limits_.seats))
                if (self->seat(i)) self->free_seat(i, "shutdown");
            return;
        }
        for (Seat i : seats_of(self->limits_.seats))
            if (self->seat(i)) self->cash_out(i, "shutdown");
    });
}

// ---- a hosted table ----

void Table::not_dealt() {
    if (!host_dealt_) return;
    host_dealt_ = false;
    if (auto host = host_.lock()) host->not_dealt(id_);
}

void Table::poke() {
    net::post(strand_, [self = shared_from_this()] { self->maybe_start(); });
}

void Table::end_hosting(const char* reason) {
    net::post(strand_, [self = shared_from_this(), reason] {
        self->end_reason_ = reason;
        self->host_changes();
    });
}

} // namespace felt::server
