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

} // namespace felt::protocol
