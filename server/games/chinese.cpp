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
// arrangements.
struct Resettled {
    protocol::ChineseConfig table;
    chinese::Options options;
    std::vector<chinese::Player> players;
    std::vector<int> seats; // each player's
    int dealer = -1;        // among the players
    chinese::Settlement settlement;
};

// Throws json::exception where the record is incomplete.
Result<Resettled> resettle(const json& config, const json& events) {
    auto table = protocol::decode_chinese_config(protocol::table_part(config));
    if (!table.ok()) return make_error(Errc::bad_option, table.refusal.message);
    Resettled out;
    out.table = std::move(*table.value);
    for (const json& e : events) {
        if (e.value("kind", "") != "reveal") continue;
        const int seat = e.at("seat");
        chinese::Player p;
        p.surrender = e.at("surrender"); // shows no rows: it settles none
        if (!p.surrender) {
            auto read = protocol::parse_chinese_split(e);
            if (!read.ok())
                return make_error(Errc::bad_option, "seat " + std::to_string(seat) +
                                                        "'s split: " + read.refusal.message);
            p = std::move(*read.value);
        }
        p.name = std::to_string(seat);
        p.stack = config.at("stacks").at(static_cast<std::size_t>(seat));
        if (seat == config.at("dealer")) out.dealer = static_cast<int>(out.players.size());
        out.players.push_back(std::move(p));
        out.seats.push_back(seat);
    }
    if (out.dealer < 0)
        return make_error(Errc::bad_option, "the record has no reveal of the dealer");
    out.options = out.table.options;
    out.options.edition = std::min(protocol::rules_of(config), 2);
    if (out.table.banker) out.options.banker = out.dealer;
    auto settled = chinese::settle(out.table.rules(), out.options, out.players, out.dealer);
    if (!settled) return settled.error();
    out.settlement = std::move(settled).value();
    return out;
}

// Whether every seat ends with the stack recorded, and if not, why.
json replay_chinese(const json& config, const json& events, const json& seats) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto r = resettle(config, events);
        if (!r) return differs(r.error().message);
        for (std::size_t k = 0; k < r.value().seats.size(); ++k) {
            const int at = r.value().seats[k];
            const Chips want = r.value().settlement.final_stacks[k];
            for (const json& s : seats)
                if (s.at("seat") == at && s.at("stack_end").get<Chips>() != want)
                    return differs("seat " + std::to_string(at) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(want));
        }
        return {{"matches", true}};
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

Result<std::vector<StatsRow>> stats(const HandRecord& h, const json& config) {
    try {
        const json log = record_log(h);
        auto r = resettle(config, log);
        if (!r) return r.error();
        const Resettled& d = r.value();
        return rows_of(
            h, config,
            chinese_stats_rows(d.table, d.options, d.players, d.dealer, d.seats, d.settlement));
    } catch (const json::exception&) {
        return make_error(Errc::bad_option, "the record is incomplete");
    }
}

void review(const HandRecord&, const json&, int, json& out) {
    out["replay"] = replay_chinese(out["config"], out["events"], out["seats"]);
}

} // namespace

const GameEntry kChineseGame = {"chinese", decode, review, nullptr, stats};

} // namespace felt::server
