#include "protocol/leap_messages.h"

#include "protocol/messages.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace felt::protocol {

const char* phase_name(leap::Phase p) {
    switch (p) {
    case leap::Phase::turn:
        return "turn";
    case leap::Phase::melding:
        return "melding";
    case leap::Phase::over:
        return "over";
    }
    return "over";
}

json leap_list(leap::LeapMask m) {
    json out = json::array();
    for (int k = 1; k <= leap::kMaxLeaps; ++k)
        if (m >> k & 1) out.push_back(k);
    return out;
}

// The action as the protocol writes it (the inverse of parse_leap_action).
json leap_action_json(const leap::Table& t, const leap::Action& a) {
    static constexpr const char* names[] = {"pursue", "retire", "meld", "extend", "discard"};
    json j = {{"action", names[static_cast<int>(a.type)]}};
    switch (a.type) {
    case leap::ActionType::meld:
        j["cards"] = t.deck().to_string(a.cards);
        if (a.leap) j["leap"] = a.leap;
        break;
    case leap::ActionType::extend:
        j["extensions"] = json::array();
        for (const leap::Extension& x : a.extensions) {
            json e = {{"meld", x.meld}};
            for (auto [key, list] : {std::pair{"low", &x.low}, std::pair{"high", &x.high},
                                     std::pair{"cards", &x.cards}})
                if (!list->empty()) e[key] = t.deck().to_string(*list);
            if (x.join) e["join"] = x.join;
            j["extensions"].push_back(std::move(e));
        }
        break;
    case leap::ActionType::discard:
        j["card"] = t.deck().to_string(a.card);
        break;
    default:
        break;
    }
    return j;
}

Outcome<leap::Action> parse_leap_action(const leap::Table& t, const json& body, int player) {
    using R = Outcome<leap::Action>;
    auto no = [](const char* code, std::string m) { return R{std::nullopt, {code, std::move(m)}}; };
    std::optional<Refusal> refused;
    auto cards = [&](const json& at, const char* key) {
        std::vector<Card> out;
        auto it = at.find(key);
        if (it == at.end() || refused) return out;
        if (!it->is_string()) {
            refused =
                Refusal{"bad_request", std::string("\"") + key + "\" must be a string of cards"};
            return out;
        }
        auto parsed = t.deck().parse_cards(it->get<std::string>());
        if (!parsed)
            refused = Refusal{"bad_card", parsed.error().message};
        else
            out = std::move(parsed).value();
        return out;
    };
    leap::Action a;
    a.seat = player;
    auto kind = body.find("action");
    const std::string name =
        kind != body.end() && kind->is_string() ? kind->get<std::string>() : "";
    if (name == "pursue") {
        a.type = leap::ActionType::pursue;
    } else if (name == "retire") {
        a.type = leap::ActionType::retire;
    } else if (name == "meld") {
        a.type = leap::ActionType::meld;
        if (!body.contains("cards")) return no("bad_request", "a meld needs \"cards\"");
        a.cards = cards(body, "cards");
        if (auto it = body.find("leap"); it != body.end()) {
            if (!it->is_number_integer() || it->get<int>() < 0 || it->get<int>() > leap::kMaxLeaps)
                return no("bad_request", "\"leap\" must be a leap number (0: any)");
            a.leap = it->get<int>();
        }
    } else if (name == "extend") {
        a.type = leap::ActionType::extend;
        auto list = body.find("extensions");
        if (list == body.end() || !list->is_array() || list->empty() || list->size() > 64)
            return no("bad_request", "an extension needs \"extensions\": a list of 1 to 64 "
                                     "{\"meld\", \"low\", \"high\", \"cards\", \"join\"}");
        for (const json& x : *list) {
            if (!x.is_object() || !x.contains("meld") || !x["meld"].is_number_integer())
                return no("bad_request", "each extension names its \"meld\" by id");
            leap::Extension e;
            e.meld = x["meld"].get<int>();
            e.low = cards(x, "low");
            e.high = cards(x, "high");
            e.cards = cards(x, "cards");
            if (auto j = x.find("join"); j != x.end()) {
                if (!j->is_number_integer()) return no("bad_request", "\"join\" must be a meld id");
                e.join = j->get<int>();
            }
            a.extensions.push_back(std::move(e));
        }
    } else if (name == "discard") {
        a.type = leap::ActionType::discard;
        std::vector<Card> card = cards(body, "card");
        if (!refused && card.size() != 1)
            return no("bad_request", "a discard needs \"card\": one card");
        if (!refused) a.card = card.front();
    } else {
        return no("bad_request", "\"act\" at a leap rummy table needs \"action\": pursue, "
                                 "retire, meld, extend or discard");
    }
    if (refused) return R{std::nullopt, *refused};
    return {std::move(a), {}};
}

bool leap_event_told(const leap::Event& e) {
    return e.type != leap::EventType::game_over && e.type != leap::EventType::dealt;
}

json leap_event_json(const leap::Table& t, const leap::Event& e, int seat, int hand) {
    static constexpr const char* kinds[] = {"dealt",    "drew",   "melded",    "took_token",
                                            "extended", "joined", "discarded", "retired"};
    json m = {{"kind", kinds[static_cast<int>(e.type)]}, {"hand", hand}, {"seat", seat}};
    auto points = [](const std::vector<Card>& cards) {
        return leap::meld_points(static_cast<int>(cards.size()));
    };
    switch (e.type) {
    case leap::EventType::drew:
        m["count"] = e.count;
        break;
    case leap::EventType::melded:
        m["meld"] = e.meld;
        m["leap"] = e.leap;
        m["cards"] = t.deck().to_string(e.cards);
        m["points"] = points(e.cards);
        break;
    case leap::EventType::took_token:
        m["leap"] = e.leap;
        break;
    case leap::EventType::extended:
        m["meld"] = e.meld;
        m["added"] = e.count;
        m["cards"] = t.deck().to_string(e.cards);
        m["points"] = points(e.cards);
        break;
    case leap::EventType::joined:
        m["meld"] = e.meld;
        m["other"] = e.other;
        m["cards"] = t.deck().to_string(e.cards);
        m["points"] = points(e.cards);
        break;
    case leap::EventType::retired:
        m["score"] = e.score;
        m["cards_left"] = e.count;
        break;
    default:
        break;
    }
    return m;
}

json leap_event_own(const leap::Table& t, const leap::Event& e) {
    if (!e.private_cards) return nullptr;
    return {{e.type == leap::EventType::discarded ? "card" : "cards", t.deck().to_string(e.cards)}};
}

namespace {

json by_seat(const std::vector<std::optional<int>>& values) {
    json out = json::array();
    for (const auto& v : values) out.push_back(v ? json(*v) : json(nullptr));
    return out;
}

} // namespace

json leap_deal_json(int hand, std::int64_t hand_id, int dealer, const std::vector<int>& players,
                    std::span<const Chips> stacks, int hand_size, int stock,
                    const std::string& commitment) {
    return {{"kind", "deal"},         {"hand", hand},       {"hand_id", hand_id},
            {"dealer", dealer},       {"players", players}, {"stacks", stacks},
            {"hand_size", hand_size}, {"stock", stock},     {"commitment", commitment}};
}

json leap_cards_json(const std::string& cards) {
    return {{"cards", cards}};
}

json leap_dealt_json(int seat, const std::string& cards) {
    return {{"kind", "deal"}, {"seat", seat}, {"cards", cards}};
}

json leap_public_json(const leap::State& st, const std::vector<int>& players, int seats) {
    json sizes = json::array(), scores = json::array(), retired = json::array();
    for (int i = 0; i < seats; ++i) {
        const auto it = std::find(players.begin(), players.end(), i);
        const int p = it == players.end() ? -1 : static_cast<int>(it - players.begin());
        const auto* ps = p >= 0 ? &st.players[static_cast<std::size_t>(p)] : nullptr;
        sizes.push_back(ps ? json(ps->hand.size()) : json(nullptr));
        scores.push_back(ps ? json(leap::score(st, p)) : json(nullptr));
        retired.push_back(ps ? json(ps->retired) : json(nullptr));
    }
    const bool acting = st.phase != leap::Phase::over;
    return {{"turn", st.turn},
            {"seat", acting ? json(players[static_cast<std::size_t>(st.to_act)]) : json(nullptr)},
            {"phase", phase_name(st.phase)},
            {"may_meld", st.phase == leap::Phase::melding && !st.melded},
            {"open_leaps", acting ? leap_list(leap::open_leaps(st, st.to_act)) : json::array()},
            {"stock", st.stock.size()},
            {"hand_sizes", sizes},
            {"scores", scores},
            {"retired", retired}};
}

json leap_turn_json(const leap::State& st, const std::vector<int>& players, int seats, int hand) {
    json m = leap_public_json(st, players, seats);
    m["kind"] = "turn";
    m["hand"] = hand;
    return m;
}

json leap_meld_json(const leap::Table& t, const leap::Meld& m, int seat) {
    return {{"meld", m.id},
            {"seat", seat},
            {"leap", m.leap},
            {"cards", t.deck().to_string(m.cards)},
            {"points", m.points()}};
}

json leap_preview_json(const leap::Table& t, const leap::Preview& p, int seat,
                       const std::optional<Refusal>& refused) {
    json melds = json::array();
    for (const leap::Meld& m : p.melds) melds.push_back(leap_meld_json(t, m, seat));
    json j{{"valid", !refused},
           {"now", p.now},
           {"leaps", leap_list(p.leaps)},
           {"leap", p.leap == 0 ? json(nullptr) : json(p.leap)},
           {"melds", std::move(melds)},
           {"joined", p.joined},
           {"could_join", p.could_join},
           {"points_before", p.points_before},
           {"points_after", refused ? p.points_before : p.points_after}};
    j["refusal"] =
        refused ? json{{"code", refused->code}, {"message", refused->message}} : json(nullptr);
    return j;
}

json leap_game_view_json(const leap::State& st, const std::vector<int>& players, int seats,
                         int hand, std::int64_t hand_id, int dealer, const std::string& commitment,
                         int deadline_ms, int viewer) {
    const leap::Table& t = *st.table;
    auto seat_of = [&](int player) { return players[static_cast<std::size_t>(player)]; };
    json g = leap_public_json(st, players, seats);
    g["hand"] = hand;
    g["hand_id"] = hand_id;
    g["dealer"] = dealer;
    g["players"] = players;
    g["commitment"] = commitment;
    json melds = json::array();
    for (const leap::Meld& m : st.melds) melds.push_back(leap_meld_json(t, m, seat_of(m.owner)));
    g["melds"] = std::move(melds);
    json tokens = json::array();
    for (int k = 1; k <= t.leaps(); ++k) {
        const int holder = st.holder[static_cast<std::size_t>(k)];
        tokens.push_back(holder >= 0 ? json(seat_of(holder)) : json(nullptr));
    }
    g["tokens"] = std::move(tokens);
    g["deadline_ms"] = deadline_ms;
    if (viewer >= 0)
        g["your_hand"] = t.deck().to_string(st.players[static_cast<std::size_t>(viewer)].hand);
    return g;
}

json leap_game_end_json(int hand, std::int64_t hand_id,
                        const std::vector<std::optional<int>>& scores, std::span<const Chips> net) {
    return {{"kind", "game_end"},
            {"hand", hand},
            {"hand_id", hand_id},
            {"scores", by_seat(scores)},
            {"net", net}};
}

std::string leap_action_record(const leap::Table& t, const leap::Action& a, int seat,
                               const char* by) {
    json entry = leap_action_json(t, a);
    entry["kind"] = "action";
    entry["seat"] = seat;
    entry["by"] = by;
    return record(std::move(entry), a.type == leap::ActionType::discard ? "owner" : "everyone");
}

std::string leap_drew_record(const leap::Table& t, const leap::Event& e, int seat) {
    return record({{"kind", "drew"},
                   {"seat", seat},
                   {"count", e.count},
                   {"cards", t.deck().to_string(e.cards)}},
                  "owner");
}

std::string leap_retired_record(const leap::Event& e, int seat) {
    return record({{"kind", "retired"}, {"seat", seat}, {"score", e.score}}, "everyone");
}

std::string leap_end_record(const std::vector<std::optional<int>>& scores,
                            std::span<const Chips> net) {
    return record({{"kind", "game_end"}, {"scores", by_seat(scores)}, {"net", net}}, "everyone");
}

} // namespace felt::protocol
