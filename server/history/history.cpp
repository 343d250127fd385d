#include "history/history.h"

#include "cards/deck.h"
#include "chinese/chinese.h"
#include "chinese_config.h"
#include "chinese_messages.h"
#include "leap_config.h"
#include "leap_messages.h"
#include "poker/phh.h"
#include "poker_messages.h"

namespace felt::server::history {

namespace {

int clamp_limit(int limit) {
    return limit < 1 ? 20 : limit > 100 ? 100 : limit;
}

json summary(const db::Statement& q) {
    return {{"hand", q.column_int(0)},        {"table", q.column_int(1)},
            {"number", q.column_int(2)},      {"status", q.column_text(3)},
            {"started_at", q.column_text(4)}, {"ended_at", q.column_text(5)}};
}

// A finished Chinese poker deal settled again by the engine from its configuration and revealed
// arrangements: whether every seat ends with the stack recorded, and if not, why.
json replay_chinese(const json& config, const json& events, const json& seats) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto table = protocol::decode_chinese_config(protocol::table_part(config));
        if (!table.ok()) return differs(table.refusal.message);
        std::vector<chinese::Player> players;
        std::vector<int> order;
        int dealer = -1;
        for (const json& e : events) {
            if (e.value("kind", "") != "reveal") continue;
            const int seat = e.at("seat");
            auto read = protocol::parse_chinese_split(e);
            if (!read.ok())
                return differs("seat " + std::to_string(seat) +
                               "'s split: " + read.refusal.message);
            chinese::Player p = std::move(*read.value);
            p.name = std::to_string(seat);
            p.stack = config.at("stacks").at(static_cast<std::size_t>(seat));
            p.surrender = e.at("surrender");
            if (seat == config.at("dealer")) dealer = static_cast<int>(players.size());
            players.push_back(std::move(p));
            order.push_back(seat);
        }
        if (dealer < 0) return differs("the record has no reveal of the dealer");
        chinese::Options o = table.value->options;
        if (table.value->banker) o.banker = dealer;
        auto settled = chinese::settle(table.value->rules(), o, players, dealer);
        if (!settled) return differs(settled.error().message);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Chips want = settled.value().final_stacks[k];
            for (const json& s : seats)
                if (s.at("seat") == order[k] && s.at("stack_end") != want)
                    return differs("seat " + std::to_string(order[k]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   std::to_string(want));
        }
        return {{"matches", true}};
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

// A finished leap rummy game replayed from its record: the configuration written when it was
// dealt, the revealed deck and the log. Whether it reaches the same end (the settled chips), and
// if not, why.
json replay_leap(const json& config, const std::string& deck, const json& log, const json& seats) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto parsed = protocol::decode_leap_config(protocol::table_part(config));
        if (!parsed.ok()) return differs(parsed.refusal.message);
        const std::vector<int> players = config.at("players").get<std::vector<int>>();
        const auto dealer =
            std::find(players.begin(), players.end(), config.at("dealer").get<int>());
        if (dealer == players.end()) return differs("the dealer is not among the players");
        auto table = leap::Table::make(parsed.value->rules, static_cast<int>(players.size()));
        if (!table) return differs(table.error().message);
        const leap::Table& t = *table.value();
        auto cards = t.deck().parse_cards(deck);
        if (!cards) return differs("the revealed deck: " + cards.error().message);
        auto started =
            leap::start_game(table.value(), static_cast<int>(dealer - players.begin()), *cards);
        if (!started) return differs(started.error().message);
        leap::State state = std::move(started).value().state;
        std::vector<leap::Event> events;
        int n = 0;
        for (const json& e : log) {
            if (e.value("kind", "") != "action") continue;
            ++n;
            const auto at = std::find(players.begin(), players.end(), e.at("seat").get<int>());
            if (at == players.end())
                return differs("action " + std::to_string(n) + " by no player");
            auto a = protocol::parse_leap_action(t, e, static_cast<int>(at - players.begin()));
            if (!a.ok()) return differs("action " + std::to_string(n) + ": " + a.refusal.message);
            if (auto err = leap::apply_in_place(state, *a.value, events))
                return differs("action " + std::to_string(n) + ": " + err->message);
        }
        if (state.phase != leap::Phase::over) return differs("the game does not reach its end");
        std::vector<int> scores;
        std::vector<std::int64_t> start;
        for (std::size_t i = 0; i < players.size(); ++i) {
            scores.push_back(leap::score(state, static_cast<int>(i)));
            start.push_back(config.at("stacks").at(static_cast<std::size_t>(players[i])));
        }
        const auto end = leap::settle_chips(scores, start, config.at("chips_per_point"));
        for (std::size_t i = 0; i < players.size(); ++i)
            for (const json& s : seats)
                if (s.at("seat") == players[i] && s.at("stack_end") != end[i])
                    return differs("seat " + std::to_string(players[i]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   std::to_string(end[i]));
        json result = {{"matches", true}, {"scores", json::object()}};
        for (std::size_t i = 0; i < players.size(); ++i)
            result["scores"][std::to_string(players[i])] = scores[i];
        return result;
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

} // namespace

json my_hands(db::Database& db, std::int64_t account, std::int64_t before, int limit) {
    limit = clamp_limit(limit);
    db::Statement q(db, "SELECT h.id, h.table_id, h.number, h.status, h.started_at, "
                        "COALESCE(h.ended_at, ''), s.seat, s.stack_start, s.stack_end "
                        "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                        "WHERE s.account_id = ? AND (? = 0 OR h.id < ?) "
                        "ORDER BY h.id DESC LIMIT ?");
    q.bind(1, account).bind(2, before).bind(3, before).bind(4, limit + 1);
    json hands = json::array();
    json next = nullptr;
    while (q.step()) {
        if (static_cast<int>(hands.size()) == limit) {
            next = hands.back()["hand"];
            break;
        }
        json h = summary(q);
        h["seat"] = q.column_int(6);
        h["net"] = q.column_int(8) - q.column_int(7);
        hands.push_back(std::move(h));
    }
    return {{"hands", hands}, {"next", next}};
}

Outcome<json> hand(db::Database& db, std::int64_t hand_id, std::int64_t asker) {
    db::Statement h(db, "SELECT id, table_id, number, status, started_at, "
                        "COALESCE(ended_at, ''), config, commitment, deck, seed, salt "
                        "FROM hands WHERE id = ?");
    h.bind(1, hand_id);
    if (!h.step())
        return {std::nullopt, {"no_such_hand", "there is no hand " + std::to_string(hand_id)}};
    json out = summary(h);
    out["config"] = json::parse(h.column_text(6), nullptr, false);
    out["commitment"] = h.column_text(7);
    if (out["status"] == "finished") { // the reveal, for checking the commitment
        out["deck"] = h.column_text(8);
        out["seed"] = h.column_text(9);
        out["salt"] = h.column_text(10);
    }
    int my_seat = -1;
    json seats = json::array();
    db::Statement s(db, "SELECT s.seat, a.name, s.account_id, s.stack_start, s.stack_end "
                        "FROM hand_seats s JOIN accounts a ON a.id = s.account_id "
                        "WHERE s.hand_id = ? ORDER BY s.seat");
    s.bind(1, hand_id);
    while (s.step()) {
        if (asker != 0 && s.column_int(2) == asker) my_seat = static_cast<int>(s.column_int(0));
        seats.push_back({{"seat", s.column_int(0)},
                         {"name", s.column_text(1)},
                         {"stack_start", s.column_int(3)},
                         {"stack_end", s.column_int(4)},
                         {"net", s.column_int(4) - s.column_int(3)}});
    }
    out["seats"] = seats;
    out["your_seat"] = my_seat >= 0 ? json(my_seat) : json(nullptr);
    json events = json::array(), log = json::array();
    db::Statement e(db, "SELECT body FROM hand_events WHERE hand_id = ? ORDER BY seq");
    e.bind(1, hand_id);
    while (e.step()) {
        json ev = json::parse(e.column_text(0), nullptr, false);
        if (ev.is_discarded()) continue;
        log.push_back(ev);
        const std::string vis = ev.value("visibility", "nobody");
        const bool mine = vis == "owner" && my_seat >= 0 && ev.value("seat", -1) == my_seat;
        if (vis != "everyone" && !mine) {
            ev.erase("cards");
            ev.erase("card");
        }
        ev.erase("visibility");
        events.push_back(std::move(ev));
    }
    out["events"] = events;
    const std::string game =
        out["config"].is_object() ? out["config"].value("game", "poker") : "poker";
    if (out["status"] == "finished" && game == "chinese")
        out["replay"] = replay_chinese(out["config"], events, seats);
    if (out["status"] == "finished" && game == "leap")
        out["replay"] = replay_leap(out["config"], out["deck"], log, seats);
    return {out, {}};
}

Outcome<json> table_hands(db::Database& db, std::int64_t table, int limit) {
    db::Statement t(db, "SELECT config FROM tables WHERE id = ?");
    t.bind(1, table);
    if (!t.step())
        return {std::nullopt, {"no_such_table", "there is no table " + std::to_string(table)}};
    db::Statement q(db, "SELECT id, table_id, number, status, started_at, COALESCE(ended_at, '') "
                        "FROM hands WHERE table_id = ? AND status = 'finished' "
                        "ORDER BY id DESC LIMIT ?");
    q.bind(1, table).bind(2, clamp_limit(limit));
    json hands = json::array();
    while (q.step()) hands.push_back(summary(q));
    return {json{{"table", table}, {"hands", hands}}, {}};
}

Outcome<json> totals(db::Database& db, const std::string& name) {
    db::Statement a(db, "SELECT id, name FROM accounts WHERE name = ?");
    a.bind(1, name);
    if (!a.step()) return {std::nullopt, {"no_such_player", "no player named \"" + name + "\""}};
    const std::int64_t id = a.column_int(0);
    db::Statement q(db, "SELECT COUNT(*), COALESCE(SUM(s.stack_end - s.stack_start), 0), "
                        "COALESCE(SUM(s.stack_end > s.stack_start), 0), "
                        "COALESCE(MAX(s.stack_end - s.stack_start), 0), "
                        "COALESCE(MIN(s.stack_end - s.stack_start), 0) "
                        "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                        "WHERE s.account_id = ? AND h.status = 'finished'");
    q.bind(1, id);
    q.step();
    return {json{{"name", a.column_text(1)},
                 {"hands", q.column_int(0)},
                 {"net", q.column_int(1)},
                 {"won", q.column_int(2)},
                 {"biggest_win", q.column_int(3)},
                 {"biggest_loss", q.column_int(4)}},
            {}};
}

Outcome<std::string> hand_phh(db::Database& db, std::int64_t hand_id, std::int64_t asker) {
    using R = Outcome<std::string>;
    db::Statement h(db, "SELECT status, config, deck, seed FROM hands WHERE id = ?");
    h.bind(1, hand_id);
    if (!h.step())
        return R{std::nullopt, {"no_such_hand", "there is no hand " + std::to_string(hand_id)}};
    if (h.column_text(0) != "finished")
        return R{std::nullopt,
                 {"not_finished", "hand " + std::to_string(hand_id) + " did not finish"}};
    const json cfg = json::parse(h.column_text(1), nullptr, false);
    auto mismatch = [&](const std::string& why) {
        return R{
            std::nullopt,
            {"replay_mismatch", "hand " + std::to_string(hand_id) + " does not replay: " + why}};
    };
    if (cfg.is_discarded() || !cfg.contains("stacks")) return mismatch("its record is incomplete");
    if (cfg.value("game", "poker") != "poker")
        return R{std::nullopt,
                 {"not_poker", "hand " + std::to_string(hand_id) + " is a " +
                                   cfg.value("game", "") + " deal; PHH records poker hands only"}};
    auto named =
        poker::named_config(cfg.value("variant", ""), cfg.value("structure", ""),
                            cfg.value("ranking", ""), cfg.value("wild", ""), cfg.value("seats", 0));
    if (!named) return mismatch(named.error().message);
    poker::HandConfig c = std::move(named).value();
    const json& st = cfg["stakes"];
    c.stakes.ante = st.value("ante", 0);
    c.stakes.small_blind = st.value("small_blind", 0);
    c.stakes.big_blind = st.value("big_blind", 0);
    c.stakes.bring_in = st.value("bring_in", 0);
    c.stakes.small_bet = st.value("small_bet", 0);
    c.stakes.big_bet = st.value("big_bet", 0);
    c.button = cfg.value("button", 0);
    for (int i = 0; i < c.seats && i < static_cast<int>(cfg["stacks"].size()); ++i)
        c.stacks[static_cast<std::size_t>(i)] = cfg["stacks"][static_cast<std::size_t>(i)];
    auto deck = c.ranking->parse_cards(h.column_text(2));
    if (!deck) return mismatch(deck.error().message);
    c.deck = std::move(deck).value();
    c.reshuffle_seed = std::stoull(h.column_text(3));
    auto config = std::make_shared<const poker::HandConfig>(c);
    auto started = poker::start_hand(config);
    if (!started) return mismatch(started.error().message);
    poker::HandState state = std::move(started.value().state);
    std::vector<poker::Event> events = started.value().events;
    db::Statement e(db, "SELECT body FROM hand_events WHERE hand_id = ? ORDER BY seq");
    e.bind(1, hand_id);
    while (e.step()) {
        json ev = json::parse(e.column_text(0), nullptr, false);
        if (ev.is_discarded() || ev.value("kind", "") != "action") continue;
        poker::Action a;
        a.seat = ev.value("seat", -1);
        auto type = protocol::parse_action_type(ev.value("action", ""));
        if (!type) return mismatch("an unknown action");
        a.type = *type;
        a.amount = ev.value("amount", poker::Chips{0});
        if (ev.contains("cards")) {
            auto cards = c.ranking->parse_cards(ev["cards"].get<std::string>());
            if (!cards) return mismatch(cards.error().message);
            a.cards = std::move(cards).value();
        }
        if (auto err = poker::apply_in_place(state, a, events)) return mismatch(err->message);
    }
    if (state.phase != poker::Phase::done) return mismatch("it does not reach its end");
    int my_seat = -1;
    db::Statement s(db, "SELECT seat, account_id, stack_end FROM hand_seats WHERE hand_id = ?");
    s.bind(1, hand_id);
    while (s.step()) {
        const auto seat = static_cast<std::size_t>(s.column_int(0));
        if (state.seats[seat].stack != s.column_int(2))
            return mismatch("seat " + std::to_string(seat) + " ends with " +
                            std::to_string(state.seats[seat].stack) + ", recorded " +
                            std::to_string(s.column_int(2)));
        if (asker != 0 && s.column_int(1) == asker) my_seat = static_cast<int>(seat);
    }
    return R{poker::to_phh(c, events, state, my_seat >= 0 ? my_seat : poker::kNoSeat), {}};
}

} // namespace felt::server::history
