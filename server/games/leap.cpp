// Leap rummy: its configuration, its table, and its history's replay of a finished game.
#include "games/games.h"
#include "leap/leap_game.h"
#include "protocol/leap_config.h"
#include "protocol/leap_messages.h"
#include "tables/leap_game.h"

#include <functional>

namespace felt::server {

namespace {

using protocol::json;

Outcome<NewTable> decode(const json& request, Services& services) {
    auto d = protocol::decode_leap_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, leap_game), {}};
}

// A finished leap rummy game replayed from its record: the configuration written when it was
// dealt, the revealed deck and the log.
struct Replayed {
    protocol::LeapConfig table;
    std::vector<int> players; // each player's seat
    std::shared_ptr<const leap::Table> rules;
    leap::State state;
    std::vector<int> scores;
    std::vector<Chips> start, end; // each player's stack
};

// `step` is told each action's events, the state after it. Throws json::exception where the
// record is incomplete.
Result<Replayed>
replay(const json& config, const std::string& deck, const json& log,
       const std::function<void(const Replayed&, const std::vector<leap::Event>&)>& step) {
    auto fail = [](std::string why) { return make_error(Errc::bad_option, std::move(why)); };
    auto parsed = protocol::decode_stored_leap_config(protocol::table_part(config),
                                                      protocol::rules_of(config));
    if (!parsed.ok()) return fail(parsed.refusal.message);
    Replayed r;
    r.table = std::move(*parsed.value);
    r.players = config.at("players").get<std::vector<int>>();
    const auto dealer =
        std::find(r.players.begin(), r.players.end(), config.at("dealer").get<int>());
    if (dealer == r.players.end()) return fail("the dealer is not among the players");
    auto table = leap::Table::make(r.table.rules, static_cast<int>(r.players.size()));
    if (!table) return table.error();
    r.rules = table.value();
    const leap::Table& t = *r.rules;
    auto cards = t.deck().parse_cards(deck);
    if (!cards) return fail("the revealed deck: " + cards.error().message);
    auto started = leap::start_game(r.rules, static_cast<int>(dealer - r.players.begin()), *cards);
    if (!started) return started.error();
    r.state = std::move(started).value().state;
    int n = 0;
    for (const json& e : log) {
        if (e.value("kind", "") != "action") continue;
        ++n;
        const auto at = std::find(r.players.begin(), r.players.end(), e.at("seat").get<int>());
        if (at == r.players.end()) return fail("action " + std::to_string(n) + " by no player");
        auto a = protocol::parse_leap_action(t, e, static_cast<int>(at - r.players.begin()));
        if (!a.ok()) return fail("action " + std::to_string(n) + ": " + a.refusal.message);
        std::vector<leap::Event> events;
        if (auto err = leap::apply_in_place(r.state, *a.value, events))
            return fail("action " + std::to_string(n) + ": " + err->message);
        step(r, events);
    }
    if (r.state.phase != leap::Phase::over) return fail("the game does not reach its end");
    for (std::size_t i = 0; i < r.players.size(); ++i) {
        r.scores.push_back(leap::score(r.state, static_cast<int>(i)));
        r.start.push_back(
            config.at("stacks").at(static_cast<std::size_t>(r.players[i])).get<Chips>());
    }
    r.end = leap::settle_chips(r.scores, r.start, config.at("chips_per_point").get<Chips>());
    return r;
}

// Whether the replay reaches the same end (the settled chips), and if not, why; when it does,
// `steps`: for each action, the messages everyone at the table saw (its public events, then the
// turn that followed).
json replay_leap(const json& config, const std::string& deck, const json& log, const json& seats,
                 int hand) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        const int seat_count = config.at("seats").get<int>();
        // What everyone saw after each action, as the table told it: a replay shows the melds and
        // tokens as they were, step by step, without knowing the rules.
        json steps = json::array();
        auto played = replay(
            config, deck, log, [&](const Replayed& r, const std::vector<leap::Event>& events) {
                json told = json::array();
                for (const leap::Event& ev : events)
                    if (protocol::leap_event_told(ev))
                        told.push_back(protocol::leap_event_json(
                            *r.rules, ev, r.players[static_cast<std::size_t>(ev.seat)], hand));
                if (r.state.phase != leap::Phase::over)
                    told.push_back(protocol::leap_turn_json(r.state, r.players, seat_count, hand));
                steps.push_back(std::move(told));
            });
        if (!played) return differs(played.error().message);
        const Replayed& r = played.value();
        for (std::size_t i = 0; i < r.players.size(); ++i)
            for (const json& s : seats)
                if (s.at("seat") == r.players[i] && s.at("stack_end").get<Chips>() != r.end[i])
                    return differs("seat " + std::to_string(r.players[i]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(r.end[i]));
        json result = {{"matches", true}, {"scores", json::object()}, {"steps", std::move(steps)}};
        for (std::size_t i = 0; i < r.players.size(); ++i)
            result["scores"][std::to_string(r.players[i])] = r.scores[i];
        return result;
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

Result<std::vector<StatsRow>> stats(const HandRecord& h, const json& config) {
    try {
        auto played = replay(config, h.deck, record_log(h), [](auto&, auto&) {});
        if (!played) return played.error();
        const Replayed& r = played.value();
        return rows_of(h, config, leap_stats_rows(r.table, r.state, r.players, r.start, r.end));
    } catch (const json::exception&) {
        return make_error(Errc::bad_option, "the record is incomplete");
    }
}

void review(const HandRecord& h, const json& log, int, json& out) {
    out["replay"] = replay_leap(out["config"], h.deck, log, out["seats"], out["number"].get<int>());
}

} // namespace

const GameEntry kLeapGame = {"leap", decode, review, nullptr, stats};

} // namespace felt::server
