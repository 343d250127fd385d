#include "tables/leap_game.h"

#include "leap/leap_game.h"
#include "protocol/leap_messages.h"
#include "stats/deal_stats.h"

#include <algorithm>
#include <cctype>
#include <deque>

namespace felt::server {

namespace {

using protocol::LeapConfig;

class LeapGame final : public Game {
  public:
    explicit LeapGame(LeapConfig config) : config_(std::move(config)) {
        // The configuration was checked for every player count; a count it cannot deal stays
        // null and refuses to start.
        for (int n = 0; n <= config_.seats; ++n) {
            if (n < 2) {
                tables_.push_back(nullptr);
                continue;
            }
            auto t = leap::Table::make(config_.rules, n);
            tables_.push_back(t ? t.value() : nullptr);
        }
    }

    json config() const override { return config_.to_json(); }
    std::string describe() const override { return "leap rummy"; }
    Limits limits() const override {
        return {config_.seats,         config_.min_buy_in,    config_.max_buy_in,
                config_.sit_out_after, config_.hand_delay_ms, config_.time_bank_ms};
    }
    const char* hand_noun() const override { return "game"; }
    Chips stake_needed() const override { return config_.stake_needed(); }
    std::string card_text(Card c) const override {
        for (const auto& t : tables_)
            if (t) return t->deck().to_string(c);
        return Game::card_text(c);
    }
    std::vector<Card> deck(const Deal& d) const override {
        const auto& t = table(d);
        return t ? t->deck().cards() : std::vector<Card>{};
    }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                           std::uint64_t seed) const override;
    void idle_seat_view(Seat, json& j) const override { j["in_game"] = false; }
    Outcome<json> preview(const Hand* hand, Seat seat, const protocol::Request& r) const override;

    const LeapConfig& settings() const { return config_; }

  private:
    const std::shared_ptr<const leap::Table>& table(const Deal& d) const {
        return tables_[std::min(d.seats.size(), tables_.size() - 1)];
    }

    LeapConfig config_;
    std::vector<std::shared_ptr<const leap::Table>> tables_; // by player count
};

class LeapHand final : public Hand {
  public:
    LeapHand(const LeapGame& game, const Deal& d, leap::Applied started,
             std::span<const Card> deck);

    Step deal(std::int64_t hand_id, const std::string& commitment) override;
    bool in(Seat seat) const override { return player_of(seat) >= 0; }
    Outcome<Step> act(Seat seat, const json& body) override;
    Step time_out() override;
    Step leave(Seat seat) override;
    Clock clock() const override;
    void seat_view(Seat seat, std::optional<Seat>, json& j) const override {
        j["in_game"] = in(seat);
    }
    void view(std::optional<Seat> viewer, int deadline_ms, json& out) const override;
    // The engine's verdict on a meld or an extension by the seat, changing nothing.
    Outcome<json> preview(Seat seat, const json& body) const;

  private:
    // The engine player in table seat `seat`, or -1; the table seat of engine player `player`.
    int player_of(Seat seat) const;
    Seat seat_of_player(int player) const { return deal_.seats[static_cast<std::size_t>(player)]; }
    // The engine's message with its "seat N" (engine players) named by table seat and name.
    std::string table_words(const std::string& message) const;
    // Applies an action (checked by the engine), logs it, tells everyone what happened, then
    // plays for leaving players and announces the turn, or ends the game.
    std::optional<Error> play(const leap::Action& a, const char* by, Step& step);
    // The server's play, which the engine cannot refuse; if it does (a bug) the game is void.
    void play_for(const leap::Action& a, const char* by, Step& step);
    void tell(const leap::Event& e, Step& step) const;
    // A leaving player's turn is played at once (they retire); anyone else's is announced.
    void next_turn(Step& step);
    // The server's move for the player to act: pursue, or discard their costliest card.
    leap::Action auto_action(bool retire) const;
    // Follows the deck's positions through a draw or a discard, for the fairness reveal.
    void track(const leap::Event& e);
    End finish();

    const LeapGame& game_;
    const Deal deal_; // engine player i sits in table seat deal_.seats[i]
    std::int64_t hand_id_ = 0;
    std::string commitment_;
    std::vector<Chips> start_;  // by engine player
    std::vector<int> timeouts_; // in a row, by engine player
    std::array<bool, kMaxTableSeats> leaving_{};
    leap::State state_;
    std::vector<std::string> hands_; // each table seat's dealt cards, as text
    std::vector<std::string> log_;
    // Where each position of the deck is, mirroring the engine: a deck may hold several copies
    // of a card, so a card alone does not name its position. Draws come off the stock's top,
    // discards go under it, and what leaves a hand otherwise is melded.
    std::vector<std::string> card_;      // by position, as text
    std::vector<std::vector<int>> held_; // positions in each engine player's hand
    std::deque<int> stock_;              // positions in the stock, top first
    std::vector<protocol::Sight> seen_;  // by position
};

Outcome<json> LeapGame::preview(const Hand* hand, Seat seat, const protocol::Request& r) const {
    if (!hand) return {std::nullopt, {"not_in_hand", "no game is being played"}};
    return static_cast<const LeapHand*>(hand)->preview(seat, r.body);
}

Outcome<Started> LeapGame::start(const Deal& d, std::vector<Card> deck, std::uint64_t) const {
    const auto& t = table(d);
    if (!t)
        return {
            std::nullopt,
            {"internal", "no leap rummy game for " + std::to_string(d.seats.size()) + " players"}};
    const int dealer =
        static_cast<int>(std::find(d.seats.begin(), d.seats.end(), d.dealer) - d.seats.begin());
    auto started = leap::start_game(t, dealer, deck);
    if (!started) return {std::nullopt, protocol::refusal(started.error())};
    return {Started{std::make_unique<LeapHand>(*this, d, std::move(started).value(), deck),
                    t->deck().to_string(deck), "",
                    json{{"dealer", d.dealer}, {"players", d.seats}}},
            {}};
}

LeapHand::LeapHand(const LeapGame& game, const Deal& d, leap::Applied started,
                   std::span<const Card> deck)
    : game_(game), deal_(d), timeouts_(d.seats.size(), 0), state_(std::move(started.state)),
      hands_(kMaxTableSeats), held_(d.seats.size()), seen_(deck.size()) {
    for (Seat s : d.seats) start_.push_back(d.stacks[s.at()]);
    const leap::Table& t = *state_.table;
    // The engine deals one card at a time from the dealer's left; the rest is the stock.
    const int n = static_cast<int>(d.seats.size());
    const int dealt = n * t.rules().hand_size;
    for (int k = 0; k < static_cast<int>(deck.size()); ++k) {
        card_.push_back(t.deck().to_string(deck[static_cast<std::size_t>(k)]));
        if (k >= dealt) {
            stock_.push_back(k);
            continue;
        }
        const int player = (state_.dealer + 1 + k % n) % n;
        held_[static_cast<std::size_t>(player)].push_back(k);
        seen_[static_cast<std::size_t>(k)].show(seat_of_player(player).index());
    }
    for (const leap::Event& e : started.events) {
        const Seat s = seat_of_player(e.seat);
        hands_[s.at()] = t.deck().to_string(e.cards);
        log_.push_back(
            protocol::record(protocol::leap_dealt_json(s.index(), hands_[s.at()]), "owner"));
    }
}

Outcome<json> LeapHand::preview(Seat seat, const json& body) const {
    const int player = player_of(seat);
    if (player < 0) return {std::nullopt, {"not_in_hand", "you were not dealt into this game"}};
    auto action = protocol::parse_leap_action(*state_.table, body, player);
    if (!action.ok()) return {std::nullopt, std::move(action.refusal)};
    const leap::Preview p = leap::preview(state_, *action.value);
    std::optional<Refusal> refused;
    if (p.error) {
        refused = protocol::refusal(*p.error);
        refused->message = table_words(refused->message);
    }
    return {protocol::leap_preview_json(*state_.table, p, seat.index(), refused), {}};
}

int LeapHand::player_of(Seat seat) const {
    auto it = std::find(deal_.seats.begin(), deal_.seats.end(), seat);
    return it == deal_.seats.end() ? -1 : static_cast<int>(it - deal_.seats.begin());
}

std::string LeapHand::table_words(const std::string& message) const {
    return seat_words(
        message,
        [this](int player) -> std::optional<Seat> {
            if (player < 0 || player >= static_cast<int>(deal_.seats.size())) return std::nullopt;
            return seat_of_player(player);
        },
        deal_.names);
}

void LeapHand::view(std::optional<Seat> viewer, int deadline_ms, json& out) const {
    out["game"] = protocol::leap_game_view_json(
        state_, indices(deal_.seats), game_.settings().seats, deal_.number, hand_id_,
        deal_.dealer.index(), commitment_, deadline_ms, viewer ? player_of(*viewer) : -1);
}

// The deal: each player's own hand in their copy only; then the first turn.
Step LeapHand::deal(std::int64_t hand_id, const std::string& commitment) {
    hand_id_ = hand_id;
    commitment_ = commitment;
    std::vector<Chips> stacks;
    for (Seat s : seats_of(game_.settings().seats))
        stacks.push_back(in(s) ? deal_.stacks[s.at()] : 0);
    auto t = std::make_unique<protocol::JsonTold>(protocol::leap_deal_json(
        deal_.number, hand_id, deal_.dealer.index(), indices(deal_.seats), stacks,
        game_.settings().rules.hand_size, static_cast<int>(state_.stock.size()), commitment));
    for (Seat s : deal_.seats) t->with_own(s.index(), protocol::leap_cards_json(hands_[s.at()]));
    Step step;
    step.told.push_back(std::move(t));
    next_turn(step);
    return step;
}

Outcome<Step> LeapHand::act(Seat seat, const json& body) {
    const int player = player_of(seat);
    if (player < 0) return {std::nullopt, {"not_in_hand", "you were not dealt into this game"}};
    auto action = protocol::parse_leap_action(*state_.table, body, player);
    if (!action.ok()) return {std::nullopt, std::move(action.refusal)};
    Step step;
    if (auto err = play(*action.value, "player", step)) {
        Refusal why = protocol::refusal(*err);
        why.message = table_words(why.message);
        return {std::nullopt, std::move(why)};
    }
    timeouts_[static_cast<std::size_t>(player)] = 0;
    return {std::move(step), {}};
}

std::optional<Error> LeapHand::play(const leap::Action& a, const char* by, Step& step) {
    const leap::Table& t = *state_.table;
    std::vector<leap::Event> events;
    if (auto err = leap::apply_in_place(state_, a, events)) return err;
    const Seat s = seat_of_player(a.seat);
    log_.push_back(protocol::leap_action_record(t, a, s.index(), by));
    for (const leap::Event& e : events) {
        track(e);
        if (e.type == leap::EventType::drew)
            log_.push_back(protocol::leap_drew_record(t, e, s.index()));
        if (e.type == leap::EventType::retired)
            log_.push_back(protocol::leap_retired_record(e, s.index()));
        tell(e, step);
    }
    if (state_.phase == leap::Phase::over)
        step.end = finish();
    else
        next_turn(step);
    return std::nullopt;
}

void LeapHand::play_for(const leap::Action& a, const char* by, Step& step) {
    if (play(a, by, step)) step.end = End::voided("internal");
}

void LeapHand::tell(const leap::Event& e, Step& step) const {
    // The end's event names no player: the game's end tells it.
    if (!protocol::leap_event_told(e)) return;
    const leap::Table& t = *state_.table;
    const Seat owner = seat_of_player(e.seat);
    auto told = std::make_unique<protocol::JsonTold>(
        protocol::leap_event_json(t, e, owner.index(), deal_.number));
    // Drawn and discarded cards: the owner's copy alone names them.
    if (json own = protocol::leap_event_own(t, e); !own.is_null())
        told->with_own(owner.index(), std::move(own));
    step.told.push_back(std::move(told));
}

leap::Action LeapHand::auto_action(bool retire) const {
    const leap::State& st = state_;
    leap::Action a;
    a.seat = st.to_act;
    if (st.phase == leap::Phase::turn) {
        a.type = retire ? leap::ActionType::retire : leap::ActionType::pursue;
        return a;
    }
    // The costliest card (first of equals): it would cost the most if the player retired with it.
    const auto& hand = st.players[static_cast<std::size_t>(st.to_act)].hand;
    a.type = leap::ActionType::discard;
    a.card = *std::max_element(hand.begin(), hand.end(), [&](Card x, Card y) {
        return st.table->face(x) < st.table->face(y);
    });
    return a;
}

void LeapHand::next_turn(Step& step) {
    const Seat seat = seat_of_player(state_.to_act);
    if (leaving_[seat.at()]) // the player has left: their turns end their game
        return play_for(auto_action(true), "server", step);
    step.told.push_back(std::make_unique<protocol::JsonTold>(
        protocol::leap_turn_json(state_, indices(deal_.seats), game_.settings().seats,
                                 deal_.number),
        json::json_pointer("")));
}

Clock LeapHand::clock() const {
    if (state_.phase == leap::Phase::over) return {};
    return {state_.turn + 1, game_.settings().turn_ms, seat_of_player(state_.to_act)};
}

Step LeapHand::time_out() {
    Step step;
    const int player = state_.to_act;
    const long turn = state_.turn;
    int& timeouts = timeouts_[static_cast<std::size_t>(player)];
    ++timeouts;
    step.missed.push_back(seat_of_player(player));
    play_for(auto_action(timeouts >= game_.settings().retire_after), "clock", step);
    // A pursuit still owes its discard.
    if (!step.end && state_.turn == turn && state_.phase == leap::Phase::melding)
        play_for(auto_action(false), "clock", step);
    return step;
}

Step LeapHand::leave(Seat seat) {
    leaving_[seat.at()] = true;
    Step step;
    const int player = player_of(seat);
    if (state_.players[static_cast<std::size_t>(player)].retired || state_.to_act != player)
        return step;
    play_for(auto_action(true), "server", step);
    return step;
}

void LeapHand::track(const leap::Event& e) {
    if (e.type != leap::EventType::drew && e.type != leap::EventType::discarded) return;
    const leap::Table& t = *state_.table;
    std::vector<int>& held = held_[static_cast<std::size_t>(e.seat)];
    for (Card c : e.cards) {
        if (e.type == leap::EventType::drew && !stock_.empty()) {
            const int p = stock_.front();
            stock_.pop_front();
            held.push_back(p);
            seen_[static_cast<std::size_t>(p)].show(seat_of_player(e.seat).index());
            continue;
        }
        // A discard: any of the player's positions holding the card (copies are alike).
        const std::string text = t.deck().to_string(c);
        auto it = std::ranges::find_if(
            held, [&](int p) { return card_[static_cast<std::size_t>(p)] == text; });
        if (it == held.end()) continue;
        stock_.push_back(*it);
        held.erase(it);
    }
}

End LeapHand::finish() {
    const std::size_t n = deal_.seats.size();
    std::vector<int> scores;
    for (std::size_t i = 0; i < n; ++i) scores.push_back(leap::score(state_, static_cast<int>(i)));
    const std::vector<Chips> stacks =
        leap::settle_chips(scores, start_, game_.settings().chips_per_point);
    End end;
    std::vector<std::optional<int>> by_seat;
    std::vector<Chips> net;
    for (Seat seat : seats_of(game_.settings().seats)) {
        const int p = player_of(seat);
        const auto k = static_cast<std::size_t>(p);
        by_seat.push_back(p >= 0 ? std::optional<int>(scores[k]) : std::nullopt);
        net.push_back(p >= 0 ? stacks[k] - start_[k] : 0);
    }
    for (std::size_t i = 0; i < n; ++i)
        end.results.push_back({deal_.seats[i], start_[i], stacks[i]});
    end.stats = leap_stats_rows(game_.settings(), state_, indices(deal_.seats), start_, stacks);
    log_.push_back(protocol::leap_end_record(by_seat, net));
    end.log = std::move(log_);
    // What left a hand other than by a discard is in a meld, which everyone sees; what is still in
    // a hand stays its holder's.
    const leap::Table& t = *state_.table;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<int> melded = held_[i];
        for (Card c : state_.players[i].hand) {
            const std::string text = t.deck().to_string(c);
            auto it = std::ranges::find_if(
                melded, [&](int p) { return card_[static_cast<std::size_t>(p)] == text; });
            if (it != melded.end()) melded.erase(it);
        }
        for (int p : melded) seen_[static_cast<std::size_t>(p)].everyone = true;
    }
    end.seen = std::move(seen_);
    end.message = protocol::leap_game_end_json(deal_.number, hand_id_, by_seat, net);
    return end;
}

} // namespace

std::unique_ptr<Game> leap_game(LeapConfig config) {
    return std::make_unique<LeapGame>(std::move(config));
}

std::vector<std::pair<int, StatsRow>>
leap_stats_rows(const LeapConfig& config, const leap::State& state, const std::vector<int>& seats,
                const std::vector<Chips>& start, const std::vector<Chips>& end) {
    const std::vector<stats::DealLine> lines = stats::count_leap(state);
    std::vector<std::pair<int, StatsRow>> out;
    for (std::size_t k = 0; k < seats.size(); ++k) {
        StatsRow r;
        r.game = "leap";
        r.stake = config.chips_per_point;
        r.table_size = static_cast<int>(seats.size());
        r.line.seat = seats[k];
        r.line.net = end[k] - start[k];
        r.deal = lines[k];
        out.emplace_back(seats[k], std::move(r));
    }
    return out;
}

} // namespace felt::server
