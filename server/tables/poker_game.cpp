#include "tables/poker_game.h"

#include "protocol/poker_messages.h"
#include "tables/run_out_odds.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace felt::server {

namespace {

using protocol::PokerConfig;

class PokerGame final : public Game {
  public:
    PokerGame(PokerConfig config, poker::HandConfig base)
        : config_(std::move(config)), base_(std::move(base)) {
        static_assert(poker::kMaxSeats <= kMaxTableSeats);
    }

    json config() const override { return config_.to_json(); }
    std::string describe() const override { return config_.structure + " " + config_.variant; }
    Limits limits() const override {
        return {config_.seats,
                config_.min_buy_in,
                config_.max_buy_in,
                config_.sit_out_after,
                config_.hand_delay_ms,
                config_.time_bank_ms,
                config_.showdown_delay_ms};
    }
    std::vector<Card> deck(const Deal&) const override { return base_.deck; }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                           std::uint64_t seed) const override;
    Outcome<json> hint(const Hand* hand, Seat seat, const protocol::Request& r) const override;

    const PokerConfig& settings() const { return config_; }
    const Ranking& ranking() const { return *base_.ranking; }

  private:
    PokerConfig config_;
    poker::HandConfig base_;
};

class PokerHand final : public Hand {
  public:
    PokerHand(const PokerGame& game, const Deal& d, poker::Applied started)
        : game_(game), number_(d.number), button_(d.dealer.index()), names_(d.names),
          state_(std::move(started.state)), opening_(std::move(started.events)),
          seen_(state_.config->deck.size()) {
        if (d.tournament && !d.tournament->variant.empty())
            mixed_ = {d.tournament->variant, d.tournament->structure};
        for (int i = 0; i < kMaxTableSeats && i < poker::kMaxSeats; ++i)
            start_[static_cast<std::size_t>(i)] = d.stacks[static_cast<std::size_t>(i)];
        position_.fill(-1);
        const std::vector<Card>& deck = state_.config->deck;
        for (std::size_t i = 0; i < deck.size(); ++i)
            position_[deck[i].code()] = static_cast<std::int16_t>(i);
    }

    Step deal(std::int64_t hand_id, const std::string& commitment) override;
    // The hand's ranking: the table's, or a mixed tournament's game's.
    const Ranking& ranking() const { return *state_.config->ranking; }
    bool in(Seat seat) const override { return state_.seats[seat.at()].live(); }
    Outcome<Step> act(Seat seat, const json& body) override;
    Step time_out() override;
    Step leave(Seat seat) override;
    Clock clock() const override;
    void seat_view(Seat seat, std::optional<Seat> viewer, json& j) const override;
    void view(std::optional<Seat> viewer, int deadline_ms, json& out) const override;

    // Five-card draw's hint: the seat's cards while it has yet to draw; nullopt otherwise.
    std::optional<std::vector<Card>> cards_before_draw(Seat seat) const {
        const poker::SeatState& p = state_.seats[seat.at()];
        if (!p.live() || drawn_[seat.at()] || p.count != 5) return std::nullopt;
        return std::vector<Card>(p.cards.begin(), p.cards.begin() + p.count);
    }

  private:
    // Table seats are the engine's seats at a poker table.
    static std::size_t index(int seat) { return static_cast<std::size_t>(seat); }
    // Logs the events, tells them in one update (with the next turn), acts at once for a
    // leaving player to act, or ends the hand.
    void after(const std::vector<poker::Event>& events, Step& step);
    // The update for a batch of events: everyone sees it as a spectator would, except the seats
    // that see cards of their own and the seat to act (`turn`), which also sees what it may do.
    Told update(std::span<const poker::Event> batch, const poker::Legal* turn) const;
    // The last update: after an all-in the engine deals the streets left at once, and they are
    // told one street at a time, runout_ms apart, as a dealer turns them.
    void run_out(std::span<const poker::Event> events, Step& step) const;
    // An action by the server (for a clock or a leaving player); `step` gets what it caused.
    void apply(const poker::Action& a, Step& step);
    poker::Action stand_in(bool leaving) const;
    void log_action(const poker::Action& a, const char* by);
    // Who saw the event's cards (a poker deck holds each card once, so a card is a position).
    void note_seen(const poker::Event& e);
    End finish();

    const PokerGame& game_;
    const int number_, button_;
    const std::array<std::string, kMaxTableSeats> names_; // by table seat, for refusals
    std::int64_t hand_id_ = 0;
    std::string commitment_;
    poker::HandState state_;
    std::vector<poker::Event> told_;    // every event told so far: a snapshot's log of the hand
    std::vector<poker::Event> opening_; // the deal's events, told once the row is written
    std::array<Chips, poker::kMaxSeats> start_{};
    std::array<bool, poker::kMaxSeats> leaving_{};
    std::array<bool, poker::kMaxSeats> drawn_{}; // the seat has drawn (or stood pat)
    std::vector<std::string> log_;               // every event with every card, for the database
    long decision_ = 0;                          // turns announced; each has its own clock
    std::array<std::int16_t, 256> position_{};   // a card's position in the deck, by its code
    std::vector<protocol::Sight> seen_;          // by position
    bool seed_used_ = false;
    std::pair<std::string, std::string> mixed_; // a mixed tournament's: the hand's game
};

Outcome<Started> PokerGame::start(const Deal& d, std::vector<Card> deck, std::uint64_t seed) const {
    auto cfg = std::make_shared<poker::HandConfig>(base_);
    // A mixed tournament's hand of another game: that game at this table, from the same pack.
    const bool other_game =
        d.tournament && !d.tournament->variant.empty() &&
        (d.tournament->variant != config_.variant || d.tournament->structure != config_.structure);
    if (other_game) {
        auto named = poker::named_config(d.tournament->variant, d.tournament->structure, "standard",
                                         "none", base_.seats);
        if (!named) return {std::nullopt, protocol::refusal(named.error())};
        *cfg = std::move(named).value();
        // The short deck's hand: the pack's cards from the six up, in the order shuffled.
        std::erase_if(deck, [&](Card c) { return cfg->ranking->copies_of(c) == 0; });
    }
    cfg->stacks = {};
    for (Seat s : d.seats) cfg->stacks[s.at()] = d.stacks[s.at()];
    cfg->button = d.dealer.index();
    cfg->deck = std::move(deck);
    cfg->reshuffle_seed = seed;
    json record = {{"button", d.dealer.index()}};
    if (const auto& t = d.tournament) {
        // The level's stakes; the blinds where the dead button puts them.
        poker::Stakes& k = cfg->stakes;
        k = {};
        k.small_blind = t->small_blind;
        k.big_blind = t->big_blind;
        k.ante = t->ante;
        k.bring_in = t->bring_in;
        k.small_bet = t->small_bet;
        k.big_bet = t->big_bet;
        if (t->big_blind_ante > 0 && t->big_blind_seat >= 0) {
            k.seat_antes.assign(static_cast<std::size_t>(cfg->seats), Chips());
            k.seat_antes[static_cast<std::size_t>(t->big_blind_seat)] = t->big_blind_ante;
            k.dead_antes = true;
        }
        if (k.big_blind > 0) {
            cfg->small_blind_seat = t->small_blind_seat;
            cfg->big_blind_seat = t->big_blind_seat;
        }
        cfg->cap_heads_up = t->cap_heads_up;
        record["cap_heads_up"] = t->cap_heads_up;
        record["tournament"] = t->tournament;
        record["level"] = t->level;
        record["stakes"] = {{"ante", k.ante},           {"small_blind", k.small_blind},
                            {"big_blind", k.big_blind}, {"bring_in", k.bring_in},
                            {"small_bet", k.small_bet}, {"big_bet", k.big_bet}};
        if (k.big_blind > 0) record["blind_seats"] = {t->small_blind_seat, t->big_blind_seat};
        if (t->big_blind_ante > 0) record["big_blind_ante"] = t->big_blind_ante;
        if (t->hand_for_hand > 0) record["hand_for_hand"] = t->hand_for_hand;
        if (!t->variant.empty()) { // a mixed tournament's: the hand's game
            record["variant"] = t->variant;
            record["structure"] = t->structure;
            record["ranking"] = std::string(cfg->ranking->name());
        }
    }
    std::string deck_text = ranking().to_string(cfg->deck);
    auto started = poker::start_hand(cfg);
    if (!started) return {std::nullopt, protocol::refusal(started.error())};
    // Only a variant that draws can empty the stock and reshuffle: only it commits to a seed.
    const bool draws = cfg->variant->draws();
    return {Started{std::make_unique<PokerHand>(*this, d, std::move(started).value()),
                    std::move(deck_text), draws ? std::to_string(seed) : std::string(),
                    std::move(record)},
            {}};
}

Outcome<json> PokerGame::hint(const Hand* hand, Seat seat, const protocol::Request& r) const {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    if (config_.variant != "draw")
        return refuse("no_hints", "hints are for five-card draw (and Chinese poker) only");
    if (!config_.hints) return refuse("no_hints", "this table gives no hints");
    if (!hand) return refuse("not_in_hand", "you hold no cards in a running hand");
    const auto cards = static_cast<const PokerHand*>(hand)->cards_before_draw(seat);
    if (!cards)
        return refuse("not_in_hand",
                      "you hold no cards before a draw: the hint is for a hand yet to draw");
    const auto count = protocol::integer_field(r, "count", 3, 1, 32);
    if (!count.ok()) return {std::nullopt, count.refusal};
    auto options = poker::draw_hint(ranking(), *cards, std::clamp(base_.max_discard, 0, 5));
    if (!options) return refuse("internal", options.error().message);
    return {protocol::draw_hint_json(ranking(), *cards, options.value(),
                                     static_cast<std::size_t>(*count.value)),
            {}};
}

Step PokerHand::deal(std::int64_t hand_id, const std::string& commitment) {
    hand_id_ = hand_id;
    commitment_ = commitment;
    const auto seats = static_cast<std::size_t>(game_.settings().seats);
    Step step;
    json start = protocol::hand_start_json(number_, hand_id, button_,
                                           std::span(start_).first(seats), commitment);
    if (!mixed_.first.empty()) { // a mixed tournament's hand: its game
        start["variant"] = mixed_.first;
        start["structure"] = mixed_.second;
    }
    step.tell(std::move(start));
    after(opening_, step);
    opening_.clear();
    return step;
}

Outcome<Step> PokerHand::act(Seat seat, const json& body) {
    auto action = protocol::parse_poker_action(body, seat.index(), ranking());
    if (!action.ok()) return {std::nullopt, std::move(action.refusal)};
    std::vector<poker::Event> events;
    if (auto err = poker::apply_in_place(state_, *action.value, events)) {
        Refusal why = protocol::refusal(*err);
        why.message = seat_words(
            why.message,
            [this](int seat) -> std::optional<Seat> {
                if (seat < 0 || seat >= game_.settings().seats) return std::nullopt;
                return Seat(seat);
            },
            names_);
        return {std::nullopt, std::move(why)};
    }
    log_action(*action.value, "player");
    Step step;
    after(events, step);
    return {std::move(step), {}};
}

// Time is up (and the time bank, if any): the server acts for the seat (stand_in).
Step PokerHand::time_out() {
    Step step;
    step.missed.emplace_back(state_.legal.seat);
    apply(stand_in(false), step);
    return step;
}

Step PokerHand::leave(Seat seat) {
    leaving_[seat.at()] = true;
    Step step;
    if (state_.phase != poker::Phase::done && state_.legal.seat == seat.index())
        apply(stand_in(true), step);
    return step;
}

Clock PokerHand::clock() const {
    if (state_.phase == poker::Phase::done) return {};
    return {decision_, game_.settings().decision_ms, Seat(state_.legal.seat)};
}

void PokerHand::note_seen(const poker::Event& e) {
    if (e.type == poker::EventType::reshuffle) seed_used_ = true;
    if (e.visibility == poker::Visibility::nobody) return;
    for (int i = 0; i < e.count; ++i) {
        const int p = position_[e.cards[static_cast<std::size_t>(i)].code()];
        if (p < 0) continue;
        protocol::Sight& s = seen_[static_cast<std::size_t>(p)];
        if (e.visibility == poker::Visibility::everyone)
            s.everyone = true;
        else if (e.seat >= 0)
            s.show(e.seat);
    }
}

void PokerHand::after(const std::vector<poker::Event>& events, Step& step) {
    for (const poker::Event& e : events) {
        log_.push_back(protocol::event_record(e, ranking()));
        note_seen(e);
    }
    told_.insert(told_.end(), events.begin(), events.end());
    if (state_.phase == poker::Phase::done) {
        run_out(events, step);
        step.end = finish();
        return;
    }
    const poker::Legal& l = state_.legal;
    if (leaving_[index(l.seat)]) { // a leaving player folds (or checks, or stands pat) at once
        step.told.push_back(update(events, nullptr));
        return apply(stand_in(true), step);
    }
    ++decision_;
    step.told.push_back(update(events, &l));
}

// One message for everything an action caused: its events and whose turn is next. Recipients who
// see nothing of their own share the spectators' copy.
Told PokerHand::update(std::span<const poker::Event> batch, const poker::Legal* turn) const {
    // A betting round ended: the bets went to the middle.
    std::optional<json> pots;
    if (std::ranges::any_of(
            batch, [](const poker::Event& e) { return e.type == poker::EventType::street; }))
        pots = protocol::pots_json(state_, game_.settings().seats);
    return std::make_unique<protocol::UpdateText>(batch, turn, ranking(), state_, std::move(pots));
}

void PokerHand::run_out(std::span<const poker::Event> events, Step& step) const {
    // A street that deals a card begins a new part; a street event with nothing dealt (the
    // showdown) stays with the part before it.
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < events.size(); ++i) {
        if (events[i].type != poker::EventType::street) continue;
        for (std::size_t j = i + 1; j < events.size(); ++j) {
            const auto t = events[j].type;
            if (t == poker::EventType::street) break;
            if (t == poker::EventType::deal_board || t == poker::EventType::deal_up ||
                t == poker::EventType::deal_down) {
                cuts.push_back(i);
                break;
            }
        }
    }
    const int ms = game_.settings().runout_ms;
    // Where each part told ends, among every event of the hand (the batch is the last of them).
    const std::size_t before = told_.size() - events.size();
    std::vector<std::size_t> ends;
    if (cuts.empty() || ms == 0) {
        step.told.push_back(update(events, nullptr));
    } else {
        step.told.push_back(update(events.first(cuts[0]), nullptr));
        ends.push_back(before + cuts[0]);
        cuts.push_back(events.size());
        for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
            Paced& p = step.paced.emplace_back();
            p.ms = ms;
            p.told.push_back(update(events.subspan(cuts[k], cuts[k + 1] - cuts[k]), nullptr));
            ends.push_back(before + cuts[k + 1]);
        }
    }
    if (ends.empty()) ends.push_back(told_.size());
    step.odds = run_out_odds(number_, state_, told_, std::move(ends));
}

void PokerHand::apply(const poker::Action& a, Step& step) {
    std::vector<poker::Event> events;
    if (auto err = poker::apply_in_place(state_, a, events)) {
        // A bug: the hand is void, and nobody loses a chip.
        step.end = End::voided("internal");
        return;
    }
    log_action(a, "server");
    after(events, step);
}

// What the server does for the seat to act when the player does not: stand pat with the fewest
// cards a draw allows, turn up the first face-down cards a rollover asks for, post a bring-in that
// is due (a leaving player folds instead where it may), else check if possible, else fold. Each of
// these is legal in its phase, so the hand always moves on.
poker::Action PokerHand::stand_in(bool leaving) const {
    const poker::Legal& l = state_.legal;
    const poker::SeatState& p = state_.seats[index(l.seat)];
    poker::Action a;
    a.seat = l.seat;
    if (l.phase == poker::Phase::drawing) {
        a.type = poker::ActionType::discard;
        for (int i = 0; i < l.min_discard; ++i) a.cards.push_back(p.cards[index(i)]);
    } else if (l.phase == poker::Phase::rollover) {
        a.type = poker::ActionType::rollover;
        for (int i = 0, n = 0; i < p.count && n < l.rollover; ++i)
            if (!(p.up >> i & 1)) {
                a.cards.push_back(p.cards[index(i)]);
                ++n;
            }
    } else if (l.bring_in && !(leaving && l.fold)) {
        a.type = poker::ActionType::bring_in;
    } else {
        a.type = l.check ? poker::ActionType::check : poker::ActionType::fold;
    }
    return a;
}

// An accepted action in the hand's record, for the history: who, what, and by whose hand (the
// player's, or the server's for a clock or a leaving player). A discard's cards are its owner's.
void PokerHand::log_action(const poker::Action& a, const char* by) {
    if (a.type == poker::ActionType::discard) drawn_[index(a.seat)] = true;
    log_.push_back(protocol::action_record(a, ranking(), by));
}

End PokerHand::finish() {
    // Seats dealt in end with the engine's stacks; the others keep theirs.
    End end;
    Chips before = 0, after = state_.raked;
    std::vector<Chips> net;
    for (int i = 0; i < game_.settings().seats; ++i) {
        const poker::SeatState& p = state_.seats[index(i)];
        net.push_back(p.in_hand ? p.stack - start_[index(i)] : 0);
        if (!p.in_hand) continue;
        end.results.push_back({Seat(i), start_[index(i)], p.stack});
        before += start_[index(i)];
        after += p.stack;
    }
    assert(before == after && "chips are conserved through a hand");
    (void)before;
    (void)after;
    end.log = std::move(log_);
    end.message = protocol::hand_end_json(number_, hand_id_, net);
    end.seen = std::move(seen_);
    end.seed_used = seed_used_;
    end.showdown = std::ranges::any_of(
        told_, [](const poker::Event& e) { return e.type == poker::EventType::show; });
    end.stats = poker_stats_rows(*state_.config, told_);
    return end;
}

void PokerHand::seat_view(Seat seat, std::optional<Seat> viewer, json& j) const {
    const poker::SeatState& p = state_.seats[seat.at()];
    if (p.in_hand) protocol::seat_view_json(p, seat == viewer, ranking(), j);
}

void PokerHand::view(std::optional<Seat> viewer, int, json& out) const {
    json& hand = out["hand"] = protocol::hand_view_json(number_, button_, state_, ranking());
    if (!mixed_.first.empty()) {
        hand["variant"] = mixed_.first;
        hand["structure"] = mixed_.second;
    }
    hand["pots"] = protocol::pots_json(state_, game_.settings().seats);
    hand["hand_id"] = hand_id_;
    hand["commitment"] = commitment_;
    // The hand so far as the viewer was told it, for a client that resumes: its log, and the
    // cards it saw for the fairness check at the end.
    const protocol::UpdateText so_far(told_, nullptr, ranking(), state_, std::nullopt);
    hand["events"] = json::parse(so_far.events(viewer ? viewer->index() : -1));
    if (viewer && state_.legal.seat == viewer->index())
        out["legal"] = protocol::legal_json(state_.legal);
}

} // namespace

std::unique_ptr<Game> poker_game(PokerConfig config, poker::HandConfig base) {
    return std::make_unique<PokerGame>(std::move(config), std::move(base));
}

std::string hole_class(std::span<const Card> cards) {
    static constexpr std::string_view kRanks = "23456789TJQKA";
    if (cards.size() != 2) return {};
    Card a = cards[0], b = cards[1];
    for (Card c : {a, b})
        if (c.rank().index() < 0 || c.rank().index() >= static_cast<int>(kRanks.size())) return {};
    if (a.rank().index() < b.rank().index()) std::swap(a, b);
    std::string out = {kRanks[static_cast<std::size_t>(a.rank().index())],
                       kRanks[static_cast<std::size_t>(b.rank().index())]};
    if (a.rank().index() != b.rank().index())
        out += a.suit().index() == b.suit().index() ? 's' : 'o';
    return out;
}

std::vector<std::pair<int, StatsRow>> poker_stats_rows(const poker::HandConfig& config,
                                                       std::span<const poker::Event> events) {
    const stats::HandLines h = stats::count_hand(config, events);
    // What the search selects by: every pot together, each seat's down cards, who went all in.
    Chips pot{};
    std::array<std::vector<Card>, poker::kMaxSeats> down;
    std::array<bool, poker::kMaxSeats> all_in{};
    for (const poker::Event& e : events) {
        if (e.type == poker::EventType::win || e.type == poker::EventType::rake) pot += e.amount;
        if (e.seat < 0) continue;
        const auto k = static_cast<std::size_t>(e.seat);
        if (e.type == poker::EventType::deal_down)
            down[k].insert(down[k].end(), e.cards.begin(), e.cards.begin() + e.count);
        if (e.type == poker::EventType::all_in) all_in[k] = true;
    }
    std::vector<std::pair<int, StatsRow>> out;
    for (const stats::Line& l : h.lines) {
        StatsRow r;
        r.game = "poker";
        r.variant = config.variant->name;
        r.structure = config.structure == poker::Structure::no_limit    ? "no-limit"
                      : config.structure == poker::Structure::pot_limit ? "pot-limit"
                                                                        : "fixed-limit";
        r.stake = h.unit;
        r.position = l.position;
        r.table_size = static_cast<int>(h.lines.size());
        r.line = l;
        const auto k = static_cast<std::size_t>(l.seat);
        r.hole = hole_class(down[k]);
        r.pot = pot;
        r.all_in = all_in[k];
        out.emplace_back(l.seat, std::move(r));
    }
    return out;
}

void add_all_in_ev(std::vector<std::pair<int, StatsRow>>& rows, const nlohmann::json& record) {
    const auto seats = record.find("seats");
    if (seats == record.end() || !seats->is_array()) return;
    for (const nlohmann::json& s : *seats) {
        if (!s.is_object() || !s.value("seat", json()).is_number_integer()) continue;
        const int seat = s["seat"].get<int>();
        const double expected = s.value("expected", 0.0);
        const double won = s.value("won", 0.0);
        for (auto& [at, row] : rows)
            if (row.line.seat == seat)
                row.line.ev_net = static_cast<double>(row.line.net.value()) - won + expected;
    }
}

} // namespace felt::server
