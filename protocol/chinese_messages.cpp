#include "chinese_messages.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace felt::protocol {

const Deck& chinese_pack() {
    static const Deck d = Deck::standard();
    return d;
}

std::string chinese_cards(std::span<const Card> cards) {
    return chinese_pack().to_string(cards);
}

json chinese_split_json(const chinese::Player& p) {
    return {{"front", chinese_cards(p.split.front)},
            {"middle", chinese_cards(p.split.middle)},
            {"back", chinese_cards(p.split.back)},
            {"declare",
             p.declare ? json(std::string(chinese::special_name(*p.declare))) : json(nullptr)},
            {"surrender", p.surrender}};
}

Outcome<chinese::Player> parse_chinese_split(const json& body) {
    using R = Outcome<chinese::Player>;
    chinese::Player p;
    auto row = [&](const char* key, std::span<Card> out) -> std::optional<Refusal> {
        auto it = body.find(key);
        if (it == body.end() || !it->is_string())
            return Refusal{"bad_request", std::string("\"") + key + "\" must be a string of cards"};
        auto cards = chinese_pack().parse_cards(it->get<std::string>());
        if (!cards) return Refusal{"bad_card", cards.error().message};
        if (cards->size() != out.size())
            return Refusal{"wrong_count", std::string("the ") + key + " takes " +
                                              std::to_string(out.size()) + " cards, not " +
                                              std::to_string(cards->size())};
        std::copy(cards->begin(), cards->end(), out.begin());
        return std::nullopt;
    };
    for (auto [key, out] : {std::pair{"front", std::span<Card>(p.split.front)},
                            std::pair{"middle", std::span<Card>(p.split.middle)},
                            std::pair{"back", std::span<Card>(p.split.back)}})
        if (auto no = row(key, out)) return R{std::nullopt, *no};
    if (auto d = body.find("declare"); d != body.end() && !d->is_null()) {
        if (!d->is_string())
            return R{std::nullopt, {"bad_request", "\"declare\" must be a string"}};
        const std::string name = d->get<std::string>();
        p.declare = chinese::parse_special(name);
        if (!p.declare) return R{std::nullopt, {"bad_declare", "no special hand \"" + name + "\""}};
    }
    return {std::move(p), {}};
}

Outcome<chinese::Player> parse_chinese_action(const json& body) {
    auto kind = body.find("action");
    if (kind == body.end() || !kind->is_string() || (*kind != "split" && *kind != "surrender"))
        return {std::nullopt,
                {"bad_request", "\"act\" at a Chinese poker table needs \"action\": \"split\" "
                                "(with front, middle and back) or \"surrender\""}};
    if (*kind == "split") return parse_chinese_split(body);
    chinese::Player p;
    p.surrender = true;
    return {std::move(p), {}};
}

json chinese_deal_json(int hand, std::int64_t hand_id, int dealer, const std::vector<int>& seats,
                       std::span<const Chips> stacks, const std::string& commitment,
                       int deadline_ms) {
    return {{"kind", "deal"},           {"hand", hand},
            {"hand_id", hand_id},       {"dealer", dealer},
            {"seats", seats},           {"stacks", stacks},
            {"commitment", commitment}, {"deadline_ms", deadline_ms}};
}

json chinese_cards_json(std::span<const Card> cards) {
    return {{"cards", chinese_cards(cards)}};
}

json chinese_dealt_json(int seat, std::span<const Card> cards) {
    return {{"kind", "deal"}, {"seat", seat}, {"cards", chinese_cards(cards)}};
}

json chinese_submitted_json(int hand, int seat, bool by_server) {
    return {{"kind", "submitted"},
            {"hand", hand},
            {"seat", seat},
            {"by", by_server ? "server" : "player"}};
}

json chinese_hint_json(std::span<const chinese::Arrangement> best) {
    json list = json::array();
    for (const chinese::Arrangement& a : best) {
        chinese::Player p;
        p.split = a.split;
        p.declare = a.declare;
        json j = chinese_split_json(p);
        j.erase("surrender");
        j["expected_units"] = a.expected_units;
        list.push_back(std::move(j));
    }
    return {{"arrangements", std::move(list)}};
}

json chinese_reveal_json(const chinese::Player& p, int seat, bool by_server) {
    json a = chinese_split_json(p);
    a["seat"] = seat;
    a["by"] = by_server ? "server" : "player";
    return a;
}

json chinese_payment_json(const chinese::Payment& p, const std::vector<int>& seats) {
    return {{"from", seats[static_cast<std::size_t>(p.from)]},
            {"to", seats[static_cast<std::size_t>(p.to)]},
            {"units", p.units},
            {"chips", p.chips},
            {"reason", p.reason}};
}

json chinese_totals_json(std::span<const Chips> net, std::span<const Chips> rake) {
    return {{"kind", "deal_end"}, {"net", net}, {"rake", rake}};
}

json chinese_deal_end_json(int hand, std::int64_t hand_id, json arrangements, json payments,
                           std::span<const Chips> net, std::span<const Chips> rake) {
    return {{"kind", "deal_end"},
            {"hand", hand},
            {"hand_id", hand_id},
            {"arrangements", std::move(arrangements)},
            {"payments", std::move(payments)},
            {"net", net},
            {"rake", rake}};
}

json chinese_deal_view_json(int hand, std::int64_t hand_id, int dealer,
                            const std::vector<int>& seats, const std::string& commitment) {
    return {{"hand", hand},
            {"hand_id", hand_id},
            {"dealer", dealer},
            {"seats", seats},
            {"commitment", commitment}};
}

void chinese_own_view(std::span<const Card> cards, const chinese::Player* split, json& view) {
    view["cards"] = chinese_cards(cards);
    if (split) view["your_split"] = chinese_split_json(*split);
}

} // namespace felt::protocol
