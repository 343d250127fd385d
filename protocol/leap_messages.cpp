#include "leap_messages.h"

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

} // namespace felt::protocol
