// Chinese poker: its configuration, its table, and its history's replay of a finished deal.
#include "chinese/chinese.h"
#include "games/games.h"
#include "protocol/chinese_config.h"
#include "protocol/chinese_messages.h"
#include "tables/chinese_game.h"

namespace felt::server {

namespace {

using protocol::json;

Outcome<NewTable> decode(const json& request, Services& services) {
    auto d = protocol::decode_chinese_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, chinese_game), {}};
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
            chinese::Player p;
            p.surrender = e.at("surrender"); // shows no rows: it settles none
            if (!p.surrender) {
                auto read = protocol::parse_chinese_split(e);
                if (!read.ok())
                    return differs("seat " + std::to_string(seat) +
                                   "'s split: " + read.refusal.message);
                p = std::move(*read.value);
            }
            p.name = std::to_string(seat);
            p.stack = config.at("stacks").at(static_cast<std::size_t>(seat));
            if (seat == config.at("dealer")) dealer = static_cast<int>(players.size());
            players.push_back(std::move(p));
            order.push_back(seat);
        }
        if (dealer < 0) return differs("the record has no reveal of the dealer");
        chinese::Options o = table.value->options;
        o.edition = std::min(protocol::rules_of(config), 2);
        if (table.value->banker) o.banker = dealer;
        auto settled = chinese::settle(table.value->rules(), o, players, dealer);
        if (!settled) return differs(settled.error().message);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Chips want = settled.value().final_stacks[k];
            for (const json& s : seats)
                if (s.at("seat") == order[k] && s.at("stack_end").get<Chips>() != want)
                    return differs("seat " + std::to_string(order[k]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(want));
        }
        return {{"matches", true}};
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

void review(const HandRecord&, const json&, int, json& out) {
    out["replay"] = replay_chinese(out["config"], out["events"], out["seats"]);
}

} // namespace

const GameEntry kChineseGame = {"chinese", decode, review, nullptr, nullptr};

} // namespace felt::server
