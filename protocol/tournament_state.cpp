#include "protocol/tournament_state.h"

namespace felt::protocol {

using nlohmann::json;

namespace {

json blinds_json(const tournament::Blinds& b) {
    return {{"button", b.button},
            {"small_blind", b.small_blind},
            {"big_blind", b.big_blind},
            {"dead_small", b.dead_small}};
}

} // namespace

json standing_json(const tournament::Standing& s) {
    json tables = json::array(), players = json::array(), finishes = json::array();
    for (const tournament::TableSeats& t : s.tables)
        tables.push_back({{"id", t.id},
                          {"seats", t.seats},
                          {"players", t.players},
                          {"last", blinds_json(t.last)}});
    for (const tournament::Standing::Player& p : s.players)
        players.push_back({{"id", p.id}, {"stack", p.stack.value()}, {"waiting", p.waiting}});
    for (const tournament::Finish& f : s.finishes)
        finishes.push_back({{"player", f.player},
                            {"place", f.place},
                            {"prize", f.prize.value()},
                            {"tied", f.tied}});
    json out = {{"tables", tables},
                {"players", players},
                {"finishes", finishes},
                {"entrants", s.entrants},
                {"draws", s.draws}};
    if (s.entry_open || s.pool > 0 || !s.busts.empty() || !s.add_ons.empty() || s.hands_ended > 0) {
        json busts = json::array();
        for (const tournament::Bust& b : s.busts)
            busts.push_back({{"player", b.player},
                             {"hand", b.hand},
                             {"stack_at_start", b.stack_at_start.value()},
                             {"seated", b.seated}});
        out["entry_open"] = s.entry_open;
        out["pool"] = s.pool.value();
        out["busts"] = busts;
        out["add_ons"] = s.add_ons;
        out["hands_ended"] = s.hands_ended;
    }
    if (s.round > 0) {
        json outs = json::array();
        for (const tournament::Out& o : s.round_outs)
            outs.push_back({{"player", o.player}, {"stack_at_start", o.stack_at_start.value()}});
        out["round"] = s.round;
        out["round_outs"] = outs;
    }
    return out;
}

std::optional<tournament::Standing> read_standing(const json& j) {
    try {
        tournament::Standing s;
        s.entrants = j.at("entrants").get<int>();
        s.draws = j.at("draws").get<std::uint64_t>();
        for (const json& t : j.at("tables")) {
            tournament::TableSeats x;
            x.id = t.at("id").get<int>();
            x.seats = t.at("seats").get<int>();
            x.players = t.at("players").get<std::vector<int>>();
            const json& b = t.at("last");
            x.last = {b.at("button").get<int>(), b.at("small_blind").get<int>(),
                      b.at("big_blind").get<int>(), b.at("dead_small").get<bool>()};
            if (x.seats < 2 || x.seats > 9 || static_cast<int>(x.players.size()) != x.seats ||
                x.last.button >= x.seats || x.last.small_blind >= x.seats ||
                x.last.big_blind >= x.seats)
                return std::nullopt;
            s.tables.push_back(std::move(x));
        }
        for (const json& p : j.at("players"))
            s.players.push_back({p.at("id").get<int>(), Chips(p.at("stack").get<std::int64_t>()),
                                 p.at("waiting").get<bool>()});
        for (const json& f : j.at("finishes"))
            s.finishes.push_back({f.at("player").get<int>(), f.at("place").get<int>(),
                                  Chips(f.at("prize").get<std::int64_t>()),
                                  f.at("tied").get<bool>()});
        // Hand-for-hand on the bubble (absent from a state written before it, or outside it).
        s.round = j.value("round", 0);
        if (j.contains("round_outs"))
            for (const json& o : j.at("round_outs"))
                s.round_outs.push_back(
                    {o.at("player").get<int>(), Chips(o.at("stack_at_start").get<std::int64_t>())});
        // The entry period (absent from a state written before it).
        s.entry_open = j.value("entry_open", false);
        s.pool = Chips(j.value("pool", std::int64_t{0}));
        s.hands_ended = j.value("hands_ended", 0L);
        if (j.contains("add_ons")) s.add_ons = j.at("add_ons").get<std::vector<int>>();
        if (j.contains("busts"))
            for (const json& b : j.at("busts"))
                s.busts.push_back({b.at("player").get<int>(), b.at("hand").get<long>(),
                                   Chips(b.at("stack_at_start").get<std::int64_t>()),
                                   b.at("seated").get<bool>()});
        if (s.entrants < static_cast<int>(s.players.size()) || s.round < 0 || s.pool < 0)
            return std::nullopt;
        return s;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

} // namespace felt::protocol
