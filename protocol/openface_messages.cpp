#include "protocol/openface_messages.h"

#include "rankings/evaluator.h"
#include "rankings/hand_class.h"

#include <algorithm>
#include <array>
#include <tuple>

namespace felt::protocol {

namespace {

using openface::Row;

constexpr std::array<Row, 3> kRows = {Row::front, Row::middle, Row::back};

Outcome<std::vector<Card>> cards_field(const json& body, const char* key) {
    using R = Outcome<std::vector<Card>>;
    auto it = body.find(key);
    if (it == body.end() || it->is_null()) return {std::vector<Card>{}, {}};
    if (!it->is_string())
        return R{std::nullopt,
                 {"bad_request", std::string("\"") + key + "\" must be a string of cards"}};
    auto cards = openface_pack().parse_cards(it->get<std::string>());
    if (!cards)
        return R{std::nullopt, {"bad_card", std::string(key) + ": " + cards.error().message}};
    return {std::move(*cards), {}};
}

} // namespace

const Deck& openface_pack() {
    static const Deck d = Deck::standard();
    return d;
}

std::string openface_cards(std::span<const Card> cards) {
    return openface_pack().to_string(cards);
}

Outcome<openface::Placement> parse_openface_placement(const json& body) {
    using R = Outcome<openface::Placement>;
    if (!body.is_object()) return R{std::nullopt, {"bad_request", "a placement is an object"}};
    openface::Placement p;
    for (auto [key, out] : {std::tuple{"front", &p.front}, std::tuple{"middle", &p.middle},
                            std::tuple{"back", &p.back}, std::tuple{"discard", &p.discard}}) {
        auto cards = cards_field(body, key);
        if (!cards.ok()) return R{std::nullopt, cards.refusal};
        *out = std::move(*cards.value);
    }
    return {std::move(p), {}};
}

json openface_placement_json(const openface::Placement& p) {
    return {{"front", openface_cards(p.front)},
            {"middle", openface_cards(p.middle)},
            {"back", openface_cards(p.back)},
            {"discard", openface_cards(p.discard)}};
}

json openface_board_json(const openface::Board& b) {
    return {{"front", openface_cards(b.front)},
            {"middle", openface_cards(b.middle)},
            {"back", openface_cards(b.back)}};
}

Outcome<openface::Board> parse_openface_board(const json& body) {
    using R = Outcome<openface::Board>;
    if (!body.is_object()) return R{std::nullopt, {"bad_request", "rows are an object"}};
    openface::Board b;
    for (Row r : kRows) {
        const std::string key(chinese::row_name(r));
        auto cards = cards_field(body, key.c_str());
        if (!cards.ok()) return R{std::nullopt, cards.refusal};
        if (static_cast<int>(cards.value->size()) > openface::row_size(r))
            return R{std::nullopt,
                     {"row_full", "the " + key + " holds " + std::to_string(openface::row_size(r)) +
                                      " cards, not " + std::to_string(cards.value->size())}};
        b.row(r) = std::move(*cards.value);
    }
    return {std::move(b), {}};
}

std::string openface_row_words(std::span<const Card> row) {
    if (row.empty()) return "";
    if (row.size() == 3 || row.size() == 5) return hand_class::words(evaluate(row).hand_class());
    // A row in progress: what its ranks make so far (no straight or flush yet).
    std::array<int, 13> counts{};
    for (Card c : row) ++counts[static_cast<std::size_t>(c.rank().index())];
    std::vector<std::pair<int, int>> groups; // (count, rank), largest first
    for (int r = 12; r >= 0; --r)
        if (counts[static_cast<std::size_t>(r)])
            groups.emplace_back(counts[static_cast<std::size_t>(r)], r);
    std::stable_sort(groups.begin(), groups.end(),
                     [](auto a, auto b) { return a.first > b.first; });
    std::vector<int> ranks;
    for (auto [n, r] : groups) ranks.push_back(r);
    const int top = groups[0].first;
    const Category c = top == 4   ? Category::four_of_a_kind
                       : top == 3 ? Category::three_of_a_kind
                       : top == 2 ? (groups.size() > 1 && groups[1].first == 2 ? Category::two_pair
                                                                               : Category::one_pair)
                                  : Category::high_card;
    return hand_class::words(hand_class::pack_list(c, ranks));
}

json openface_preview_json(const openface::Board& b, const openface::Options& o,
                           bool in_fantasyland, int players) {
    json rows = json::object();
    for (Row r : kRows) {
        const auto& cards = b.row(r);
        const bool full = static_cast<int>(cards.size()) == openface::row_size(r);
        rows[std::string(chinese::row_name(r))] = {
            {"words", openface_row_words(cards)},
            {"royalty", full ? openface::royalty(r, evaluate(cards)) : 0}};
    }
    std::optional<HandValue> f, m, k;
    if (b.front.size() == 3) f = evaluate(b.front);
    if (b.middle.size() == 5) m = evaluate(b.middle);
    if (b.back.size() == 5) k = evaluate(b.back);
    const auto foul = chinese::check_order(f, m, k, {});
    json out = {
        {"rows", std::move(rows)},
        {"foul", foul ? json{{"code", error_code_name(foul->code)}, {"message", foul->message}}
                      : json(nullptr)}};
    if (b.full()) {
        const openface::Split s = b.split();
        out["fantasyland"] = openface::fantasyland_cards(o, s, in_fantasyland, players);
        const auto r = openface::royalties(s);
        out["royalties"] = r[0] + r[1] + r[2];
    }
    return out;
}

} // namespace felt::protocol
