// Leap rummy: its configuration, its table, and its history's replay of a finished game.
#include "games/games.h"
#include "leap/leap_game.h"
#include "protocol/leap_config.h"
#include "protocol/leap_messages.h"
#include "tables/leap_game.h"

namespace felt::server {

namespace {

using protocol::json;

Outcome<NewTable> decode(const json& request, Services& services) {
    auto d = protocol::decode_leap_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, leap_game), {}};
}

// A finished leap rummy game replayed from its record: the configuration written when it was
// dealt, the revealed deck and the log. Whether it reaches the same end (the settled chips), and
// if not, why; when it does, `steps`: for each action, the messages everyone at the table saw
// (its public events, then the turn that followed).
json replay_leap(const json& config, const std::string& deck, const json& log, const json& seats,
                 int hand) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto parsed = protocol::decode_stored_leap_config(protocol::table_part(config),
                                                          protocol::rules_of(config));
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
        const int seat_count = config.at("seats").get<int>();
        // What everyone saw after each action, as the table told it: a replay shows the melds and
        // tokens as they were, step by step, without knowing the rules.
        json steps = json::array();
        int n = 0;
        for (const json& e : log) {
            if (e.value("kind", "") != "action") continue;
            ++n;
            const auto at = std::find(players.begin(), players.end(), e.at("seat").get<int>());
            if (at == players.end())
                return differs("action " + std::to_string(n) + " by no player");
            auto a = protocol::parse_leap_action(t, e, static_cast<int>(at - players.begin()));
            if (!a.ok()) return differs("action " + std::to_string(n) + ": " + a.refusal.message);
            std::vector<leap::Event> events;
            if (auto err = leap::apply_in_place(state, *a.value, events))
                return differs("action " + std::to_string(n) + ": " + err->message);
            json told = json::array();
            for (const leap::Event& ev : events)
                if (protocol::leap_event_told(ev))
                    told.push_back(protocol::leap_event_json(
                        t, ev, players[static_cast<std::size_t>(ev.seat)], hand));
            if (state.phase != leap::Phase::over)
                told.push_back(protocol::leap_turn_json(state, players, seat_count, hand));
            steps.push_back(std::move(told));
        }
        if (state.phase != leap::Phase::over) return differs("the game does not reach its end");
        std::vector<int> scores;
        std::vector<Chips> start;
        for (std::size_t i = 0; i < players.size(); ++i) {
            scores.push_back(leap::score(state, static_cast<int>(i)));
            start.push_back(
                config.at("stacks").at(static_cast<std::size_t>(players[i])).get<Chips>());
        }
        const auto end =
            leap::settle_chips(scores, start, config.at("chips_per_point").get<Chips>());
        for (std::size_t i = 0; i < players.size(); ++i)
            for (const json& s : seats)
                if (s.at("seat") == players[i] && s.at("stack_end").get<Chips>() != end[i])
                    return differs("seat " + std::to_string(players[i]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(end[i]));
        json result = {{"matches", true}, {"scores", json::object()}, {"steps", std::move(steps)}};
        for (std::size_t i = 0; i < players.size(); ++i)
            result["scores"][std::to_string(players[i])] = scores[i];
        return result;
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

void review(const HandRecord& h, const json& log, int, json& out) {
    out["replay"] = replay_leap(out["config"], h.deck, log, out["seats"], out["number"].get<int>());
}

} // namespace

const GameEntry kLeapGame = {"leap", decode, review, nullptr, nullptr};

} // namespace felt::server
