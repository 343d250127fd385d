// Open-face Chinese poker: its configuration, its table, and its history's replay of a finished
// hand (its rows settled again by the engine).
#include "openface/openface.h"
#include "games/games.h"
#include "protocol/openface_config.h"
#include "protocol/openface_messages.h"
#include "tables/openface_game.h"

namespace felt::server {

namespace {

using protocol::json;

Outcome<NewTable> decode(const json& request, Services& services) {
    auto d = protocol::decode_openface_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, openface_game), {}};
}

// Whether every seat ends with the stack recorded, settled again from the configuration, the
// rows of the end and who played in Fantasyland; and if not, why.
json replay_openface(const json& config, const json& events, const json& seats) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto table = protocol::decode_openface_config(protocol::table_part(config));
        if (!table.ok()) return differs(table.refusal.message);
        const json* end = nullptr;
        for (const json& e : events)
            if (e.value("kind", "") == "open_face_end") end = &e;
        if (!end) return differs("the record has no end");
        std::vector<openface::Player> players;
        std::vector<int> at;
        for (const json& r : end->at("rows")) {
            auto rows = protocol::parse_openface_board(r);
            if (!rows.ok() || !rows.value->full())
                return differs("seat " + r.at("seat").dump() + "'s rows are not whole");
            openface::Player p;
            p.name = r.at("seat").dump();
            p.stack = config.at("stacks").at(r.at("seat").get<std::size_t>()).get<Chips>();
            p.split = rows.value->split();
            p.fantasyland = r.value("fantasyland", 0);
            players.push_back(std::move(p));
            at.push_back(r.at("seat"));
        }
        // Rows are recorded in turn order, the dealer last: the pairs start from them.
        auto settled =
            openface::settle(table.value->options, players, static_cast<int>(players.size()) - 1);
        if (!settled) return differs(settled.error().message);
        for (std::size_t k = 0; k < at.size(); ++k)
            for (const json& s : seats)
                if (s.at("seat") == at[k] &&
                    s.at("stack_end").get<Chips>() != *settled->final_stacks[k])
                    return differs("seat " + std::to_string(at[k]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(*settled->final_stacks[k]));
        return {{"matches", true}};
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

void review(const HandRecord&, const json&, int, json& out) {
    out["replay"] = replay_openface(out["config"], out["events"], out["seats"]);
}

} // namespace

const GameEntry kOpenFaceGame = {"open-face", decode, review, nullptr, nullptr};

} // namespace felt::server
