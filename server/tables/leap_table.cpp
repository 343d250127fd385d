#include "tables/leap_table.h"

#include "state.h"

#include <algorithm>
#include <cctype>

namespace felt::server {

using protocol::json;

LeapTable::LeapTable(std::int64_t id, LeapConfig config, SharedState& state, net::io_context& ioc)
    : TableBase(id,
                {config.seats, config.min_buy_in, config.max_buy_in, config.sit_out_after,
                 config.hand_delay_ms, config.time_bank_ms},
                state, ioc),
      config_(std::move(config)) {}

int LeapTable::player_of(int seat) const {
    if (!game_) return -1;
    auto it = std::find(game_->seats.begin(), game_->seats.end(), seat);
    return it == game_->seats.end() ? -1 : static_cast<int>(it - game_->seats.begin());
}

std::string LeapTable::table_words(const std::string& message) const {
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
        if (player < 0 || player >= static_cast<int>(game_->seats.size())) {
            out += message.substr(i, end - i);
        } else {
            const int at = seat_of_player(player);
            out += seat(at)->name + " (seat " + std::to_string(at) + ")";
        }
        i = end;
    }
    return out;
}

json LeapTable::public_state() const {
    const leap::State& st = game_->state;
    json sizes = json::array(), scores = json::array(), retired = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const int p = player_of(i);
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

std::string LeapTable::snapshot(int seat) const {
    json seats = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const Seat* st = this->seat(i);
        if (!st) continue;
        seats.push_back({{"seat", i},
                         {"name", st->name},
                         {"stack", st->stack},
                         {"sitting_out", st->sitting_out},
                         {"time_bank_ms", st->time_bank_ms},
                         {"in_game", in_running(i)}});
    }
    json out = snapshot_head(seat, std::move(seats));
    if (game_) {
        const leap::State& st = game_->state;
        const leap::Table& t = *st.table;
        json g = public_state();
        g["hand"] = game_->number;
        g["hand_id"] = game_->hand_id;
        g["dealer"] = game_->dealer;
        g["players"] = game_->seats;
        g["commitment"] = game_->reveal.hash();
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
        const auto left = clock_.expiry() - net::steady_timer::clock_type::now();
        g["deadline_ms"] =
            std::max<long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(left).count());
        if (const int p = seat >= 0 ? player_of(seat) : -1; p >= 0)
            g["your_hand"] = t.deck().to_string(st.players[static_cast<std::size_t>(p)].hand);
        out["game"] = std::move(g);
    }
    return out.dump();
}

void LeapTable::start_hand() {
    const std::vector<int> seats = ready_seats();
    if (seats.size() < 2) return;
    const int dealer = next_dealer();
    auto table = leap::Table::make(config_.rules, static_cast<int>(seats.size()));
    if (!table) { // the configuration was checked for every player count: cannot happen
        spdlog::error("table {}: no leap rummy game for {} players: {}", id_, seats.size(),
                      table.error().message);
        return;
    }
    const leap::Table& t = *table.value();
    std::vector<Card> deck = t.deck().cards();
    secure_shuffle(deck);
    const int dealer_player =
        static_cast<int>(std::find(seats.begin(), seats.end(), dealer) - seats.begin());
    auto started = leap::start_game(table.value(), dealer_player, deck);
    if (!started) {
        spdlog::error("table {}: the deal failed: {}", id_, started.error().message);
        return;
    }
    Game g;
    g.number = ++hands_;
    g.dealer = dealer;
    g.seats = seats;
    g.reveal = {t.deck().to_string(deck), "", random_salt()};
    g.timeouts.assign(seats.size(), 0);
    json stacks = json::array(), names = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const bool in = std::find(seats.begin(), seats.end(), i) != seats.end();
        stacks.push_back(in ? seat(i)->stack : 0);
        names.push_back(in ? json(seat(i)->name) : json(nullptr));
    }
    for (int s : seats) g.start.push_back(seat(s)->stack);
    json config = config_.to_json();
    config["dealer"] = dealer;
    config["players"] = seats;
    config["stacks"] = stacks;
    config["names"] = names;
    const std::string commit = g.reveal.hash();
    std::vector<std::string> hands(static_cast<std::size_t>(limits_.seats));
    for (const leap::Event& e : started.value().events) {
        const int s = seats[static_cast<std::size_t>(e.seat)];
        hands[static_cast<std::size_t>(s)] = t.deck().to_string(e.cards);
        g.log.push_back(json{
            {"kind", "deal"},
            {"seat", s},
            {"cards", hands[static_cast<std::size_t>(s)]},
            {"visibility",
             "owner"}}.dump());
    }
    g.state = std::move(started).value().state;
    const int number = g.number;
    open_hand(number, config, commit,
              [self = self<LeapTable>(), g = std::move(g), stacks, hands,
               commit](std::int64_t id) mutable {
                  g.hand_id = id;
                  self->deal(std::move(g), stacks, hands, commit);
              });
}

// The deal, once its row is written: each player's own hand in their copy only; then the first
// turn.
void LeapTable::deal(Game g, const json& stacks, const std::vector<std::string>& hands,
                     const std::string& commit) {
    dealer_ = g.dealer;
    game_ = std::move(g);
    broadcast({{"kind", "deal"},
               {"hand", game_->number},
               {"hand_id", game_->hand_id},
               {"dealer", game_->dealer},
               {"players", game_->seats},
               {"stacks", stacks},
               {"hand_size", config_.rules.hand_size},
               {"stock", game_->state.stock.size()},
               {"commitment", commit}},
              [&](int seat) {
                  return player_of(seat) >= 0
                             ? json{{"cards", hands[static_cast<std::size_t>(seat)]}}
                             : json();
              });
    next_turn();
}

void LeapTable::act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = self<LeapTable>(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->game_) return self->refuse(s, r, "no_hand", "no game is being played");
        const int player = self->player_of(*seat);
        if (player < 0)
            return self->refuse(s, r, "not_in_hand", "you were not dealt into this game");
        auto action = protocol::parse_leap_action(*self->game_->state.table, r.body, player);
        if (!action.ok()) return self->refuse(s, r, action.refusal);
        auto err = self->play(*action.value, "player", [&] {
            self->game_->timeouts[static_cast<std::size_t>(player)] = 0;
            self->send(s, protocol::reply(r, {{"table", self->id_}}));
        });
        if (err) {
            Refusal why = protocol::refusal(*err);
            why.message = self->table_words(why.message);
            self->refuse(s, r, why);
        }
    });
}

std::optional<Error> LeapTable::play(const leap::Action& a, const char* by,
                                     const std::function<void()>& accepted) {
    Game& g = *game_;
    const leap::Table& t = *g.state.table;
    std::vector<leap::Event> events;
    if (auto err = leap::apply_in_place(g.state, a, events)) return err;
    if (accepted) accepted();
    const int s = seat_of_player(a.seat);
    json entry = protocol::leap_action_json(t, a);
    entry["kind"] = "action";
    entry["seat"] = s;
    entry["by"] = by;
    entry["visibility"] = a.type == leap::ActionType::discard ? "owner" : "everyone";
    g.log.push_back(entry.dump());
    for (const leap::Event& e : events) {
        if (e.type == leap::EventType::drew)
            g.log.push_back(json{
                {"kind", "drew"},
                {"seat", s},
                {"count", e.count},
                {"cards", t.deck().to_string(e.cards)},
                {"visibility",
                 "owner"}}.dump());
        if (e.type == leap::EventType::retired)
            g.log.push_back(json{
                {"kind", "retired"}, {"seat", s}, {"score", e.score}, {"visibility", "everyone"}}
                                .dump());
        tell(e);
    }
    if (g.state.phase == leap::Phase::over)
        finish();
    else
        next_turn();
    return std::nullopt;
}

void LeapTable::tell(const leap::Event& e) {
    // The end's event names no player: it is told by finish().
    if (!protocol::leap_event_told(e)) return;
    const leap::Table& t = *game_->state.table;
    const int owner = seat_of_player(e.seat);
    json m = protocol::leap_event_json(t, e, owner, game_->number);
    json own = protocol::leap_event_own(t, e);
    if (own.is_null()) return broadcast(std::move(m));
    // Drawn and discarded cards: the owner's copy alone names them.
    broadcast(std::move(m), [&](int seat) { return seat == owner ? own : json(); });
}

leap::Action LeapTable::auto_action(bool retire) const {
    const leap::State& st = game_->state;
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

void LeapTable::next_turn() {
    Game& g = *game_;
    const int seat = seat_of_player(g.state.to_act);
    if (this->seat(seat)->leaving) { // the player has left: their turns end their game
        if (auto err = play(auto_action(true), "server"))
            spdlog::error("table {}: playing for a leaving seat failed: {}", id_, err->message);
        return;
    }
    const bool new_turn = g.clock_turn != g.state.turn;
    if (new_turn) {
        bank_close();
        g.clock_turn = g.state.turn;
        clock_.expires_after(std::chrono::milliseconds(config_.turn_ms));
        clock_.async_wait([self = self<LeapTable>(), turn = g.state.turn](beast::error_code ec) {
            if (!ec) self->on_clock(turn);
        });
    }
    json m = public_state();
    m["kind"] = "turn";
    m["time_bank_ms"] = this->seat(seat)->time_bank_ms;
    m["hand"] = g.number;
    const auto left = clock_.expiry() - net::steady_timer::clock_type::now();
    m["deadline_ms"] =
        std::max<long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(left).count());
    broadcast(std::move(m));
}

void LeapTable::on_clock(long turn) {
    if (!game_ || game_->state.turn != turn || game_->state.phase == leap::Phase::over) return;
    const int player = game_->state.to_act;
    const int seat = seat_of_player(player);
    if (bank_start(seat, game_->number, clock_,
                   [self = self<LeapTable>(), turn] { self->on_clock(turn); }))
        return;
    int& timeouts = game_->timeouts[static_cast<std::size_t>(player)];
    ++timeouts;
    note_missed(seat, game_->number);
    const bool retire = timeouts >= config_.retire_after;
    spdlog::info("table {}: seat {} timed out ({} in a row){}", id_, seat, timeouts,
                 retire ? "; retired" : "");
    if (auto err = play(auto_action(retire), "clock"))
        spdlog::error("table {}: playing for seat {} failed: {}", id_, seat, err->message);
    // A pursuit still owes its discard.
    if (game_ && game_->state.turn == turn && game_->state.phase == leap::Phase::melding)
        if (auto err = play(auto_action(false), "clock"))
            spdlog::error("table {}: discarding for seat {} failed: {}", id_, seat, err->message);
}

void LeapTable::leaving_in_hand(int seat) {
    const int player = player_of(seat);
    const leap::State& st = game_->state;
    if (st.players[static_cast<std::size_t>(player)].retired || st.to_act != player) return;
    if (auto err = play(auto_action(true), "server"))
        spdlog::error("table {}: playing for leaving seat {} failed: {}", id_, seat, err->message);
}

void LeapTable::finish() {
    clock_.cancel();
    bank_close();
    Game& g = *game_;
    const std::size_t n = g.seats.size();
    std::vector<int> scores;
    for (std::size_t i = 0; i < n; ++i) scores.push_back(leap::score(g.state, static_cast<int>(i)));
    const std::vector<Chips> end = leap::settle_chips(scores, g.start, config_.chips_per_point);
    std::vector<SeatResult> results;
    json by_seat = json::array(), net = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const int p = player_of(i);
        by_seat.push_back(p >= 0 ? json(scores[static_cast<std::size_t>(p)]) : json(nullptr));
        net.push_back(
            p >= 0 ? end[static_cast<std::size_t>(p)] - g.start[static_cast<std::size_t>(p)] : 0);
    }
    for (std::size_t i = 0; i < n; ++i) results.push_back({g.seats[i], g.start[i], end[i]});
    g.log.push_back(
        json{{"kind", "game_end"}, {"scores", by_seat}, {"net", net}, {"visibility", "everyone"}}
            .dump());
    end_hand(g.hand_id, g.reveal, results, std::move(g.log),
             {{"kind", "game_end"},
              {"hand", g.number},
              {"hand_id", g.hand_id},
              {"scores", by_seat},
              {"net", net}});
    game_.reset();
}

void LeapTable::forget_running() {
    game_.reset();
}

} // namespace felt::server
