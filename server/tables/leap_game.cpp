#include "tables/leap_game.h"

#include "leap/leap_game.h"
#include "leap_messages.h"

#include <algorithm>
#include <cctype>

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
    std::vector<Card> deck(const Deal& d) const override {
        const auto& t = table(d);
        return t ? t->deck().cards() : std::vector<Card>{};
    }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                           std::uint64_t seed) const override;
    void idle_seat_view(Seat, json& j) const override { j["in_game"] = false; }

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
    LeapHand(const LeapGame& game, const Deal& d, leap::Applied started);

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

  private:
    // The engine player in table seat `seat`, or -1; the table seat of engine player `player`.
    int player_of(Seat seat) const;
    Seat seat_of_player(int player) const { return deal_.seats[static_cast<std::size_t>(player)]; }
    // The engine's message with its "seat N" (engine players) named by table seat and name.
    std::string table_words(const std::string& message) const;
    // The public state of the game: whose turn, the stock, hand sizes, scores, retirements.
    json public_state() const;
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
};

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
    return {Started{std::make_unique<LeapHand>(*this, d, std::move(started).value()),
                    t->deck().to_string(deck), "",
                    json{{"dealer", d.dealer}, {"players", d.seats}}},
            {}};
}

LeapHand::LeapHand(const LeapGame& game, const Deal& d, leap::Applied started)
    : game_(game), deal_(d), timeouts_(d.seats.size(), 0), state_(std::move(started.state)),
      hands_(kMaxTableSeats) {
    for (Seat s : d.seats) start_.push_back(d.stacks[s.at()]);
    const leap::Table& t = *state_.table;
    for (const leap::Event& e : started.events) {
        const Seat s = seat_of_player(e.seat);
        hands_[s.at()] = t.deck().to_string(e.cards);
        log_.push_back(
            json{{"kind", "deal"}, {"seat", s}, {"cards", hands_[s.at()]}, {"visibility", "owner"}}
                .dump());
    }
}

int LeapHand::player_of(Seat seat) const {
    auto it = std::find(deal_.seats.begin(), deal_.seats.end(), seat);
    return it == deal_.seats.end() ? -1 : static_cast<int>(it - deal_.seats.begin());
}

std::string LeapHand::table_words(const std::string& message) const {
    std::string out;
    for (std::size_t i = 0; i < message.size();) {
        const bool named = message.compare(i, 5, "seat ") == 0 && i + 5 < message.size() &&
                           std::isdigit(static_cast<unsigned char>(message[i + 5]));
        if (!named) {
            out += message[i++];
            continue;
        }
        std::size_t end = i + 5;
        while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end])))
            ++end;
        const int player = end - i - 5 > 2 ? -1 : std::stoi(message.substr(i + 5, end - i - 5));
        if (player < 0 || player >= static_cast<int>(deal_.seats.size())) {
            out += message.substr(i, end - i);
        } else {
            const Seat at = seat_of_player(player);
            out += deal_.names[at.at()] + " (seat " + std::to_string(at.index()) + ")";
        }
        i = end;
    }
    return out;
}

json LeapHand::public_state() const {
    const leap::State& st = state_;
    json sizes = json::array(), scores = json::array(), retired = json::array();
    for (int i = 0; i < game_.settings().seats; ++i) {
        const int p = player_of(Seat(i));
        const auto& ps = p >= 0 ? &st.players[static_cast<std::size_t>(p)] : nullptr;
        sizes.push_back(ps ? json(ps->hand.size()) : json(nullptr));
        scores.push_back(ps ? json(leap::score(st, p)) : json(nullptr));
        retired.push_back(ps ? json(ps->retired) : json(nullptr));
    }
    const bool acting = st.phase != leap::Phase::over;
    return {{"turn", st.turn},
            {"seat", acting ? json(seat_of_player(st.to_act)) : json(nullptr)},
            {"phase", protocol::phase_name(st.phase)},
            {"may_meld", st.phase == leap::Phase::melding && !st.melded},
            {"open_leaps",
             acting ? protocol::leap_list(leap::open_leaps(st, st.to_act)) : json::array()},
            {"stock", st.stock.size()},
            {"hand_sizes", sizes},
            {"scores", scores},
            {"retired", retired}};
}

void LeapHand::view(std::optional<Seat> viewer, int deadline_ms, json& out) const {
    const leap::State& st = state_;
    const leap::Table& t = *st.table;
    json g = public_state();
    g["hand"] = deal_.number;
    g["hand_id"] = hand_id_;
    g["dealer"] = deal_.dealer;
    g["players"] = deal_.seats;
    g["commitment"] = commitment_;
    json melds = json::array();
    for (const leap::Meld& m : st.melds)
        melds.push_back({{"meld", m.id},
                         {"seat", seat_of_player(m.owner)},
                         {"leap", m.leap},
                         {"cards", t.deck().to_string(m.cards)},
                         {"points", m.points()}});
    g["melds"] = melds;
    json tokens = json::array();
    for (int k = 1; k <= t.leaps(); ++k) {
        const int holder = st.holder[static_cast<std::size_t>(k)];
        tokens.push_back(holder >= 0 ? json(seat_of_player(holder)) : json(nullptr));
    }
    g["tokens"] = tokens;
    g["deadline_ms"] = deadline_ms;
    if (const int p = viewer ? player_of(*viewer) : -1; p >= 0)
        g["your_hand"] = t.deck().to_string(st.players[static_cast<std::size_t>(p)].hand);
    out["game"] = std::move(g);
}

// The deal: each player's own hand in their copy only; then the first turn.
Step LeapHand::deal(std::int64_t hand_id, const std::string& commitment) {
    hand_id_ = hand_id;
    commitment_ = commitment;
    json stacks = json::array();
    for (int i = 0; i < game_.settings().seats; ++i)
        stacks.push_back(in(Seat(i)) ? deal_.stacks[static_cast<std::size_t>(i)] : 0);
    Told t{{{"kind", "deal"},
            {"hand", deal_.number},
            {"hand_id", hand_id},
            {"dealer", deal_.dealer},
            {"players", deal_.seats},
            {"stacks", std::move(stacks)},
            {"hand_size", game_.settings().rules.hand_size},
            {"stock", state_.stock.size()},
            {"commitment", commitment}},
           {},
           std::nullopt};
    for (Seat s : deal_.seats) t.own.emplace_back(s, json{{"cards", hands_[s.at()]}});
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
    json entry = protocol::leap_action_json(t, a);
    entry["kind"] = "action";
    entry["seat"] = s;
    entry["by"] = by;
    entry["visibility"] = a.type == leap::ActionType::discard ? "owner" : "everyone";
    log_.push_back(entry.dump());
    for (const leap::Event& e : events) {
        if (e.type == leap::EventType::drew)
            log_.push_back(json{
                {"kind", "drew"},
                {"seat", s},
                {"count", e.count},
                {"cards", t.deck().to_string(e.cards)},
                {"visibility",
                 "owner"}}.dump());
        if (e.type == leap::EventType::retired)
            log_.push_back(json{
                {"kind", "retired"}, {"seat", s}, {"score", e.score}, {"visibility", "everyone"}}
                               .dump());
        tell(e, step);
    }
    if (state_.phase == leap::Phase::over)
        step.end = finish();
    else
        next_turn(step);
    return std::nullopt;
}

void LeapHand::play_for(const leap::Action& a, const char* by, Step& step) {
    if (play(a, by, step)) step.end = End{{}, {}, {}, "internal"};
}

void LeapHand::tell(const leap::Event& e, Step& step) const {
    // The end's event names no player: the game's end tells it.
    if (!protocol::leap_event_told(e)) return;
    const leap::Table& t = *state_.table;
    const Seat owner = seat_of_player(e.seat);
    Told told{protocol::leap_event_json(t, e, owner.index(), deal_.number), {}, std::nullopt};
    // Drawn and discarded cards: the owner's copy alone names them.
    if (json own = protocol::leap_event_own(t, e); !own.is_null())
        told.own.emplace_back(owner, std::move(own));
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
    json m = public_state();
    m["kind"] = "turn";
    m["hand"] = deal_.number;
    step.told.push_back({std::move(m), {}, json::json_pointer("")});
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

End LeapHand::finish() {
    const std::size_t n = deal_.seats.size();
    std::vector<int> scores;
    for (std::size_t i = 0; i < n; ++i) scores.push_back(leap::score(state_, static_cast<int>(i)));
    const std::vector<Chips> stacks =
        leap::settle_chips(scores, start_, game_.settings().chips_per_point);
    End end;
    json by_seat = json::array(), net = json::array();
    for (int i = 0; i < game_.settings().seats; ++i) {
        const auto p = static_cast<std::size_t>(player_of(Seat(i)));
        const bool in_game = player_of(Seat(i)) >= 0;
        by_seat.push_back(in_game ? json(scores[p]) : json(nullptr));
        net.push_back(in_game ? stacks[p] - start_[p] : 0);
    }
    for (std::size_t i = 0; i < n; ++i)
        end.results.push_back({deal_.seats[i], start_[i], stacks[i]});
    log_.push_back(
        json{{"kind", "game_end"}, {"scores", by_seat}, {"net", net}, {"visibility", "everyone"}}
            .dump());
    end.log = std::move(log_);
    end.message = {{"kind", "game_end"},
                   {"hand", deal_.number},
                   {"hand_id", hand_id_},
                   {"scores", by_seat},
                   {"net", net}};
    return end;
}

} // namespace

std::unique_ptr<Game> leap_game(LeapConfig config) {
    return std::make_unique<LeapGame>(std::move(config));
}

} // namespace felt::server
