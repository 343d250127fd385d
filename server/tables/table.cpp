#include "tables/table.h"

#include "poker_messages.h"

#include "state.h"

#include <numeric>

namespace felt::server {

using poker::Chips;
using protocol::json;

Table::Table(std::int64_t id, PokerConfig config, poker::HandConfig base, SharedState& state,
             net::io_context& ioc)
    : TableBase(id,
                {config.seats, config.min_buy_in, config.max_buy_in, config.sit_out_after,
                 config.hand_delay_ms, config.time_bank_ms},
                state, ioc),
      config_(std::move(config)), base_(std::move(base)) {
    static_assert(poker::kMaxSeats <= kMaxTableSeats);
}

std::string Table::snapshot(int seat) const {
    json seats = json::array();
    for (int i = 0; i < base_.seats; ++i) {
        const Seat* st = this->seat(i);
        if (!st) continue;
        json j = {{"seat", i},
                  {"name", st->name},
                  {"stack", st->stack},
                  {"sitting_out", st->sitting_out},
                  {"time_bank_ms", st->time_bank_ms}};
        if (hand_) {
            const poker::SeatState& p = hand_->state.seats[static_cast<std::size_t>(i)];
            if (p.in_hand) {
                j["stack"] = p.stack;
                j["bet"] = p.bet;
                j["in_hand"] = p.total;
                j["folded"] = p.folded;
                std::vector<Card> shown;
                for (int c = 0; c < p.count; ++c)
                    if (i == seat || (p.up >> c & 1))
                        shown.push_back(p.cards[static_cast<std::size_t>(c)]);
                j["cards"] = base_.ranking->to_string(shown);
                j["card_count"] = p.count;
            }
        }
        seats.push_back(std::move(j));
    }
    json out = snapshot_head(seat, std::move(seats));
    if (hand_) {
        out["hand"] = {{"number", hand_->number},
                       {"button", hand_->state.config->button},
                       {"board", base_.ranking->to_string(std::span(
                                     hand_->state.board.data(),
                                     static_cast<std::size_t>(hand_->state.board_count)))},
                       {"to_act", hand_->state.legal.seat}};
        if (seat >= 0 && hand_->state.legal.seat == seat) out["legal"] = legal_json();
    }
    return out.dump();
}

bool Table::in_running(int seat) const {
    return hand_ && hand_->state.seats[static_cast<std::size_t>(seat)].live();
}

void Table::leaving_in_hand(int seat) {
    if (hand_->state.legal.seat == seat) act_for_leaving();
}

void Table::act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = self<Table>(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->hand_) return self->refuse(s, r, "no_hand", "no hand is being played");
        auto kind = r.body.find("action");
        if (kind == r.body.end() || !kind->is_string())
            return self->refuse(s, r, "bad_request", "\"act\" needs a string \"action\"");
        auto type = protocol::parse_action_type(kind->get<std::string>());
        if (!type)
            return self->refuse(
                s, r, "bad_request",
                "no action \"" + kind->get<std::string>() +
                    "\" (fold, check, call, bet, raise, bring_in, discard, rollover)");
        poker::Action act;
        act.type = *type;
        act.seat = *seat;
        if (auto amount = r.body.find("amount"); amount != r.body.end()) {
            if (!amount->is_number_integer())
                return self->refuse(s, r, "bad_request", "\"amount\" must be an integer");
            act.amount = amount->get<Chips>();
        }
        if (auto cards = r.body.find("cards"); cards != r.body.end()) {
            if (!cards->is_string())
                return self->refuse(s, r, "bad_request", "\"cards\" must be a string");
            auto parsed = self->base_.ranking->parse_cards(cards->get<std::string>());
            if (!parsed) return self->refuse(s, r, "bad_card", parsed.error().message);
            act.cards = std::move(parsed).value();
        }
        std::vector<poker::Event> events;
        if (auto err = poker::apply_in_place(self->hand_->state, act, events))
            return self->refuse(s, r, protocol::refusal(*err));
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->log_action(act, "player");
        self->after_events(events, 0);
    });
}

void Table::start_hand() {
    auto cfg = std::make_shared<poker::HandConfig>(base_);
    for (int i = 0; i < base_.seats; ++i)
        cfg->stacks[static_cast<std::size_t>(i)] = ready(i) ? seat(i)->stack : 0;
    if (ready_count() < 2) return;
    // The button moves to the next seat dealt in.
    const int b = next_dealer();
    cfg->button = b;
    // A cryptographically secure shuffle, committed to before the deal.
    secure_shuffle(cfg->deck);
    cfg->reshuffle_seed = random_seed();
    Running run;
    run.reveal = {base_.ranking->to_string(cfg->deck), std::to_string(cfg->reshuffle_seed),
                  random_salt()};
    run.number = ++hands_;
    run.start = cfg->stacks;
    const std::string commit = run.reveal.hash();
    auto started = poker::start_hand(cfg);
    if (!started) {
        spdlog::error("table {}: hand cannot start: {}", id_, started.error().message);
        return;
    }
    // The table's configuration, plus what this hand needs to be read or replayed alone.
    json config = config_.to_json();
    config["button"] = b;
    json stacks = json::array(), names = json::array();
    for (int i = 0; i < base_.seats; ++i) {
        stacks.push_back(run.start[static_cast<std::size_t>(i)]);
        names.push_back(run.start[static_cast<std::size_t>(i)] > 0 ? json(seat(i)->name)
                                                                   : json(nullptr));
    }
    config["stacks"] = stacks;
    config["names"] = names;
    const int number = run.number;
    open_hand(number, config, commit,
              [self = self<Table>(), run = std::move(run), started = std::move(started).value(), b,
               stacks, commit](std::int64_t id) mutable {
                  run.hand_id = id;
                  self->dealer_ = b;
                  run.state = std::move(started.state);
                  self->hand_ = std::move(run);
                  self->broadcast({{"kind", "hand_start"},
                                   {"hand", self->hand_->number},
                                   {"hand_id", id},
                                   {"button", b},
                                   {"stacks", stacks},
                                   {"commitment", commit}});
                  self->after_events(started.events, 0);
              });
}

void Table::after_events(const std::vector<poker::Event>& events, std::size_t from) {
    bank_close();
    const felt::Ranking& r = *base_.ranking;
    for (std::size_t i = from; i < events.size(); ++i) {
        const poker::Event& e = events[i];
        json full = protocol::event_json(e, r, true);
        full["visibility"] = e.visibility == poker::Visibility::everyone ? "everyone"
                             : e.visibility == poker::Visibility::owner  ? "owner"
                                                                         : "nobody";
        hand_->log.push_back(full.dump());
    }
    const std::span<const poker::Event> batch(events.data() + from, events.size() - from);
    if (hand_->state.phase == poker::Phase::done) {
        publish(batch, nullptr);
        return finish_hand();
    }
    const poker::Legal& l = hand_->state.legal;
    if (const Seat* st = seat(l.seat);
        st && st->leaving) { // a leaving player folds (or checks, or stands pat) at once
        publish(batch, nullptr);
        return act_for_leaving();
    }
    publish(batch, &l);
    start_clock();
}

// One message per recipient for everything an action caused: its events and whose turn is next.
// Recipients who see nothing of their own share one serialised copy.
void Table::publish(std::span<const poker::Event> batch, const poker::Legal* turn) {
    const felt::Ranking& r = *base_.ranking;
    ++seq_;
    auto make = [&](int seat) {
        json events = json::array();
        for (const poker::Event& e : batch)
            events.push_back(protocol::event_json(e, r, protocol::visible_to(e, seat)));
        json m = {{"type", "table"},
                  {"table", id_},
                  {"seq", seq_},
                  {"kind", "update"},
                  {"events", events}};
        if (turn) {
            const Seat* st = this->seat(turn->seat);
            m["turn"] = {{"seat", turn->seat},
                         {"deadline_ms", config_.decision_ms},
                         {"time_bank_ms", st ? st->time_bank_ms : 0}};
            if (seat == turn->seat) m["turn"]["legal"] = legal_json();
        }
        return m.dump();
    };
    auto own_view = [&](int seat) {
        if (seat < 0) return false;
        if (turn && turn->seat == seat) return true;
        for (const poker::Event& e : batch)
            if (e.visibility == poker::Visibility::owner && e.seat == seat && e.count > 0)
                return true;
        return false;
    };
    std::shared_ptr<const std::string> shared;
    for_each_watcher([&](const std::shared_ptr<Recipient>& s, int seat) {
        if (own_view(seat)) {
            send(s, make(seat));
        } else {
            if (!shared) shared = std::make_shared<const std::string>(make(-1));
            s->send(shared);
        }
    });
}

void Table::act_for_leaving() {
    apply(stand_in(true));
}

// What the server does for the seat to act when the player does not: stand pat with the fewest
// cards a draw allows, turn up the first face-down cards a rollover asks for, post a bring-in that
// is due (a leaving player folds instead where it may), else check if possible, else fold. Each of
// these is legal in its phase, so the hand always moves on.
poker::Action Table::stand_in(bool leaving) const {
    const poker::Legal& l = hand_->state.legal;
    const poker::SeatState& p = hand_->state.seats[static_cast<std::size_t>(l.seat)];
    poker::Action a;
    a.seat = l.seat;
    if (l.phase == poker::Phase::drawing) {
        a.type = poker::ActionType::discard;
        for (int i = 0; i < l.min_discard; ++i)
            a.cards.push_back(p.cards[static_cast<std::size_t>(i)]);
    } else if (l.phase == poker::Phase::rollover) {
        a.type = poker::ActionType::rollover;
        for (int i = 0, n = 0; i < p.count && n < l.rollover; ++i)
            if (!(p.up >> i & 1)) {
                a.cards.push_back(p.cards[static_cast<std::size_t>(i)]);
                ++n;
            }
    } else if (l.bring_in && !(leaving && l.fold)) {
        a.type = poker::ActionType::bring_in;
    } else {
        a.type = l.check ? poker::ActionType::check : poker::ActionType::fold;
    }
    return a;
}

json Table::legal_json() const {
    const poker::Legal& l = hand_->state.legal;
    return {{"fold", l.fold},
            {"check", l.check},
            {"call", l.call},
            {"bet", l.bet},
            {"raise", l.raise},
            {"bring_in", l.bring_in},
            {"call_amount", l.call_amount},
            {"min_to", l.min_to},
            {"max_to", l.max_to},
            {"bring_in_amount", l.bring_in_amount},
            {"phase", l.phase == poker::Phase::drawing    ? "drawing"
                      : l.phase == poker::Phase::rollover ? "rollover"
                                                          : "betting"},
            {"min_discard", l.min_discard},
            {"max_discard", l.max_discard},
            {"rollover", l.rollover}};
}

// The clock for the decision just published.
void Table::start_clock() {
    const int decision = ++decision_;
    clock_.expires_after(std::chrono::milliseconds(config_.decision_ms));
    clock_.async_wait([self = self<Table>(), hand = hand_->number, decision](beast::error_code ec) {
        if (!ec) self->on_clock(hand, decision);
    });
}

// Time is up: the time bank, if any is left, else the server acts for the seat (stand_in).
void Table::on_clock(int hand, int decision) {
    if (!hand_ || hand_->number != hand || decision != decision_) return;
    const poker::Legal& l = hand_->state.legal;
    // The decision's time is up: the seat's time bank, if it has one left, runs next.
    if (bank_start(l.seat, hand, clock_,
                   [self = self<Table>(), hand, decision] { self->on_clock(hand, decision); }))
        return;
    spdlog::info("table {}: seat {} timed out", id_, l.seat);
    note_missed(l.seat, hand);
    apply(stand_in(false));
}

void Table::apply(const poker::Action& a) {
    std::vector<poker::Event> events;
    if (auto err = poker::apply_in_place(hand_->state, a, events)) {
        spdlog::error("table {}: the server's own action was refused: {}", id_, err->message);
        return;
    }
    log_action(a, "server");
    after_events(events, 0);
}

// An accepted action in the hand's record, for the history: who, what, and by whose hand (the
// player's, or the server's for a clock or a leaving player). A discard's cards are its owner's.
void Table::log_action(const poker::Action& a, const char* by) {
    json j = {{"kind", "action"},
              {"seat", a.seat},
              {"action", protocol::action_name(a.type)},
              {"by", by},
              {"visibility", a.type == poker::ActionType::discard ? "owner" : "everyone"}};
    if (a.amount) j["amount"] = a.amount;
    if (!a.cards.empty()) j["cards"] = base_.ranking->to_string(a.cards);
    hand_->log.push_back(j.dump());
}

void Table::finish_hand() {
    clock_.cancel();
    Running& h = *hand_;
    // Seats dealt in end with the engine's stacks; the others keep theirs.
    std::vector<SeatResult> results;
    Chips before = 0, after = h.state.raked;
    for (int i = 0; i < base_.seats; ++i) {
        const auto idx = static_cast<std::size_t>(i);
        if (!h.state.seats[idx].in_hand) continue;
        results.push_back({i, h.start[idx], h.state.seats[idx].stack});
        before += h.start[idx];
        after += h.state.seats[idx].stack;
    }
    assert(before == after && "chips are conserved through a hand");
    (void)before;
    json net = json::array();
    for (int i = 0; i < base_.seats; ++i) {
        const auto idx = static_cast<std::size_t>(i);
        net.push_back(h.state.seats[idx].in_hand ? h.state.seats[idx].stack - h.start[idx] : 0);
    }
    end_hand(h.hand_id, h.reveal, results, std::move(h.log),
             {{"kind", "hand_end"}, {"hand", h.number}, {"hand_id", h.hand_id}, {"net", net}});
    hand_.reset();
}

void Table::forget_running() {
    hand_.reset();
}

} // namespace felt::server
