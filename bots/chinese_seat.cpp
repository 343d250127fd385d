#include "chinese_seat.h"

#include "chinese_bot.h"

#include "cards/deck.h"
#include "protocol/chinese_config.h"

namespace felt::bots {

using nlohmann::json;

std::optional<json> ChineseSeat::read(const json& m) {
    if (!m.is_object()) return std::nullopt;
    const std::string kind = m.value("kind", "");
    if (kind == "snapshot") {
        if (m.contains("your_seat") && m["your_seat"].is_number()) seat_ = m["your_seat"];
        if (m.contains("config")) {
            const auto c = protocol::decode_chinese_config(m["config"]);
            if (c.ok()) {
                rules_ = c.value->profile;
                split_rules_ = c.value->options.rules;
                surrender_ = c.value->surrender;
            }
        }
        return std::nullopt;
    }
    if (kind != "deal" || !m.contains("cards") || !m["cards"].is_string()) return std::nullopt;
    const auto cards = Deck::standard().parse_cards(m["cards"].get<std::string>());
    const chinese::Profile* rules = chinese::find_profile(rules_);
    if (!cards || cards.value().size() != 13 || !rules) return std::nullopt; // the clock arranges
    const ChineseChoice c = choose_chinese(cards.value(), *rules, split_rules_, profile_.kind);
    if (c.surrender && surrender_) return json{{"action", "surrender"}};
    return json{{"action", "split"},
                {"front", Deck::standard().to_string(c.split.front)},
                {"middle", Deck::standard().to_string(c.split.middle)},
                {"back", Deck::standard().to_string(c.split.back)},
                {"declare",
                 c.declare ? json(std::string(chinese::special_name(*c.declare))) : json(nullptr)}};
}

} // namespace felt::bots
