#include "protocol/chinese_messages.h"

#include "rankings/evaluator.h"
#include "rankings/hand_class.h"

#include <algorithm>
#include <optional>
#include <tuple>
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
    // A surrender is a fold: its rows are nobody's business, and it settles none.
    if (p.surrender)
        return {
            {"front", ""}, {"middle", ""}, {"back", ""}, {"declare", nullptr}, {"surrender", true}};
    return {{"front", chinese_cards(p.split.front)},
            {"middle", chinese_cards(p.split.middle)},
            {"back", chinese_cards(p.split.back)},
            {"declare",
             p.declare ? json(std::string(chinese::special_name(*p.declare))) : json(nullptr)},
            {"surrender", p.surrender}};
}

namespace {

// An engine's arrangement (a hint, a special hand to declare): its rows and declaration.
json arrangement_json(const chinese::Arrangement& a) {
    chinese::Player p;
    p.split = a.split;
    p.declare = a.declare;
    json j = chinese_split_json(p);
    j.erase("surrender");
    return j;
}

} // namespace

Outcome<ChineseRows> parse_chinese_rows(const json& body, bool all) {
    using R = Outcome<ChineseRows>;
    ChineseRows rows;
    for (auto [key, out, size] :
         {std::tuple{"front", &rows.front, 3}, std::tuple{"middle", &rows.middle, 5},
          std::tuple{"back", &rows.back, 5}}) {
        auto it = body.find(key);
        if (!all && (it == body.end() || it->is_null())) continue;
        if (it == body.end() || !it->is_string())
            return R{std::nullopt,
                     {"bad_request", std::string("\"") + key + "\" must be a string of cards"}};
        auto cards = chinese_pack().parse_cards(it->get<std::string>());
        if (!cards) return R{std::nullopt, {"bad_card", cards.error().message}};
        if (static_cast<int>(cards->size()) != size)
            return R{std::nullopt,
                     {"wrong_count", std::string("the ") + key + " takes " + std::to_string(size) +
                                         " cards, not " + std::to_string(cards->size())}};
        *out = std::move(*cards);
    }
    return {std::move(rows), {}};
}

Outcome<chinese::Player> parse_chinese_split(const json& body) {
    using R = Outcome<chinese::Player>;
    auto rows = parse_chinese_rows(body, true);
    if (!rows.ok()) return R{std::nullopt, rows.refusal};
    chinese::Player p;
    std::copy(rows.value->front.begin(), rows.value->front.end(), p.split.front.begin());
    std::copy(rows.value->middle.begin(), rows.value->middle.end(), p.split.middle.begin());
    std::copy(rows.value->back.begin(), rows.value->back.end(), p.split.back.begin());
    if (auto d = body.find("declare"); d != body.end() && !d->is_null()) {
        if (!d->is_string())
            return R{std::nullopt, {"bad_request", "\"declare\" must be a string"}};
        const std::string name = d->get<std::string>();
        p.declare = chinese::parse_special(name);
        if (!p.declare) return R{std::nullopt, {"bad_declare", "no special hand \"" + name + "\""}};
    }
    return {std::move(p), {}};
}

json chinese_preview_json(const ChineseRowValues& values, const std::optional<Error>& foul,
                          std::span<const chinese::Arrangement> specials) {
    json rows = json::object();
    for (auto [key, v] : {std::pair{"front", values.front}, std::pair{"middle", values.middle},
                          std::pair{"back", values.back}})
        rows[key] = v ? json{{"category", category_name(v->category())},
                             {"words", hand_class::words(v->hand_class())}}
                      : json(nullptr);
    json declarable = json::array();
    for (const chinese::Arrangement& a : specials) {
        json j = arrangement_json(a);
        j["units"] = static_cast<int>(a.expected_units);
        declarable.push_back(std::move(j));
    }
    json out{{"rows", std::move(rows)}, {"specials", std::move(declarable)}};
    if (foul) {
        const Refusal r = refusal(*foul);
        out["foul"] = {{"code", r.code}, {"message", r.message}};
    } else {
        out["foul"] = nullptr;
    }
    return out;
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
        json j = arrangement_json(a);
        j["expected_units"] = a.expected_units;
        list.push_back(std::move(j));
    }
    return {{"arrangements", std::move(list)}};
}

json chinese_reveal_json(const chinese::Player& p, int seat, bool by_server) {
    json a = chinese_split_json(p);
    a["seat"] = seat;
    a["by"] = by_server ? "server" : "player";
    // Each row's hand in words, so that a reader follows the payments (none for a surrender,
    // whose rows settle nothing).
    auto words = [](HandValue v) { return hand_class::words(v.hand_class()); };
    a["words"] = p.surrender ? json(nullptr)
                             : json{{"front", words(evaluate<3>(p.split.front.data()))},
                                    {"middle", words(evaluate<5>(p.split.middle.data()))},
                                    {"back", words(evaluate<5>(p.split.back.data()))}};
    return a;
}

json chinese_payment_json(const chinese::Payment& p, const std::vector<int>& seats) {
    return {{"from", seats[static_cast<std::size_t>(p.from)]},
            {"to", seats[static_cast<std::size_t>(p.to)]},
            {"units", p.units},
            {"chips", p.chips},
            {"reason", p.reason}};
}

json chinese_settled_json(const chinese::PairSettlement& p, const std::vector<int>& seats) {
    return {{"from", seats[static_cast<std::size_t>(p.from)]},
            {"to", seats[static_cast<std::size_t>(p.to)]},
            {"pass", p.special ? "special" : "rest"},
            {"units", p.units},
            {"chips", p.chips}};
}

json chinese_totals_json(std::span<const Chips> net, std::span<const Chips> rake) {
    return {{"kind", "deal_end"}, {"net", net}, {"rake", rake}};
}

json chinese_deal_end_json(int hand, std::int64_t hand_id, json arrangements, json payments,
                           json settled, std::span<const Chips> net, std::span<const Chips> rake) {
    return {{"kind", "deal_end"},
            {"hand", hand},
            {"hand_id", hand_id},
            {"arrangements", std::move(arrangements)},
            {"payments", std::move(payments)},
            {"settled", std::move(settled)},
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
