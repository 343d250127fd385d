#include "odds/range.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <string>

namespace felt::odds {

namespace {

constexpr std::string_view kRanks = "23456789TJQKA";
constexpr std::string_view kSuits = "shdc";

int rank_of(char c) {
    const auto i = kRanks.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    return i == std::string_view::npos ? -1 : static_cast<int>(i);
}
int suit_of(char c) {
    const auto i = kSuits.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

Error bad(std::string_view item, std::string_view why) {
    std::string m = "\"";
    m += item;
    m += "\" is not a range item: ";
    m += why;
    return Error{Errc::bad_range, std::move(m)};
}

// The 52 x 52 weights, by card code pair (high, low); negative where absent.
struct Weights {
    std::array<double, 256 * 256> w;
    Weights() { w.fill(-1); }
    void add(Card a, Card b, double weight) {
        if (a < b) std::swap(a, b);
        w[a.code() * 256u + b.code()] = weight;
    }
    // Every combination of ranks r1 and r2 (r1 >= r2), suited or offsuit as asked.
    void add_ranks(int r1, int r2, bool suited, bool offsuit, double weight) {
        for (int s1 = 0; s1 < 4; ++s1)
            for (int s2 = 0; s2 < 4; ++s2) {
                if (r1 == r2 && s2 <= s1) continue;
                if (s1 == s2 ? !suited : !offsuit) continue;
                add(Card(Rank(r1), Suit(s1)), Card(Rank(r2), Suit(s2)), weight);
            }
    }
};

// A hand of ranks: "AK", "AKs", "QQ", with what follows it ('+' or "-XY").
struct RankHand {
    int r1 = -1, r2 = -1;
    bool suited = true, offsuit = true;
};

std::optional<RankHand> rank_hand(std::string_view t, std::size_t& at) {
    if (t.size() < at + 2) return std::nullopt;
    RankHand h{rank_of(t[at]), rank_of(t[at + 1])};
    if (h.r1 < 0 || h.r2 < 0) return std::nullopt;
    at += 2;
    if (at < t.size() && (t[at] == 's' || t[at] == 'S' || t[at] == 'o' || t[at] == 'O')) {
        const bool s = t[at] == 's' || t[at] == 'S';
        h.suited = s;
        h.offsuit = !s;
        ++at;
    }
    return h;
}

std::optional<Error> parse_item(std::string_view item, Weights& out) {
    std::string_view body = item;
    double weight = 1;
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
        body = item.substr(0, colon);
        const std::string_view w = item.substr(colon + 1);
        const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), weight);
        if (ec != std::errc{} || end != w.data() + w.size() || !(weight > 0 && weight <= 1))
            return bad(item, "a weight is a number above 0 and at most 1");
    }
    if (body.empty()) return bad(item, "it is empty");
    std::string lower(body);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "random") {
        for (int a = 0; a < 52; ++a)
            for (int b = 0; b < a; ++b)
                out.add(Card::from_code((a / 4) << 3 | a % 4),
                        Card::from_code((b / 4) << 3 | b % 4), weight);
        return std::nullopt;
    }
    // One combination: rank, suit, rank, suit.
    if (body.size() == 4 && suit_of(body[1]) >= 0 && suit_of(body[3]) >= 0) {
        const int r1 = rank_of(body[0]), r2 = rank_of(body[2]);
        if (r1 < 0 || r2 < 0) return bad(item, "a card is a rank 2-9, T, J, Q, K or A and a suit");
        const Card a(Rank(r1), Suit(suit_of(body[1]))), b(Rank(r2), Suit(suit_of(body[3])));
        if (a == b) return bad(item, "the two cards are the same");
        out.add(a, b, weight);
        return std::nullopt;
    }
    std::size_t at = 0;
    auto h = rank_hand(body, at);
    if (!h) return bad(item, "expected two ranks (2-9, T, J, Q, K, A), as in AKs or QQ+");
    if (h->r1 < h->r2) std::swap(h->r1, h->r2);
    if (h->r1 == h->r2 && !h->offsuit) return bad(item, "a pair cannot be suited");
    if (at == body.size()) {
        out.add_ranks(h->r1, h->r2, h->suited, h->offsuit, weight);
        return std::nullopt;
    }
    if (body[at] == '+' && at + 1 == body.size()) {
        if (h->r1 == h->r2)
            for (int r = h->r1; r < 13; ++r) out.add_ranks(r, r, true, true, weight);
        else
            for (int r = h->r2; r < h->r1; ++r)
                out.add_ranks(h->r1, r, h->suited, h->offsuit, weight);
        return std::nullopt;
    }
    if (body[at] == '-') {
        ++at;
        auto to = rank_hand(body, at);
        if (!to || at != body.size()) return bad(item, "expected a hand after '-', as in TT-77");
        if (to->r1 < to->r2) std::swap(to->r1, to->r2);
        if (to->suited != h->suited || to->offsuit != h->offsuit)
            return bad(item, "both ends must be suited, offsuit or neither alike");
        if (h->r1 == h->r2) {
            if (to->r1 != to->r2) return bad(item, "a run of pairs ends at a pair");
            for (int r = std::min(h->r1, to->r1); r <= std::max(h->r1, to->r1); ++r)
                out.add_ranks(r, r, true, true, weight);
            return std::nullopt;
        }
        if (to->r1 != h->r1 || to->r1 == to->r2)
            return bad(item, "both ends keep the first rank, as in KTs-K7s");
        for (int r = std::min(h->r2, to->r2); r <= std::max(h->r2, to->r2); ++r)
            out.add_ranks(h->r1, r, h->suited, h->offsuit, weight);
        return std::nullopt;
    }
    return bad(item, "expected '+', '-' or ',' after the hand");
}

} // namespace

Result<std::vector<Combo>> parse_range(std::string_view text) {
    std::string compact;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    if (compact.empty()) return Error{Errc::bad_range, "the range is empty"};
    auto weights = std::make_unique<Weights>();
    std::size_t start = 0;
    while (start <= compact.size()) {
        const std::size_t comma = std::min(compact.find(',', start), compact.size());
        if (auto e = parse_item(std::string_view(compact).substr(start, comma - start), *weights))
            return *e;
        start = comma + 1;
    }
    std::vector<Combo> out;
    for (int a = 0; a < 256; ++a)
        for (int b = 0; b < a; ++b)
            if (const double w = weights->w[a * 256u + b]; w > 0)
                out.push_back({Card::from_code(a), Card::from_code(b), w});
    return out;
}

} // namespace felt::odds
