// Best hand with wild cards, by reasoning over the natural cards rather than trying every
// substitution. The hand's best five are either five cards of one suit (a flush or straight
// flush, where the wilds join one suit's naturals) or judged by rank alone (anything else); the
// answer is the better of the two. tests/engine/rankings/wild_test.cpp checks this against
// brute-force substitution over every card a wild could stand for.
#include "rankings/wild.h"

#include "rankings/evaluator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

namespace felt {

namespace {

using hand_class::pack;

constexpr int kAce = 12;

// The five ranks of a straight ending at `top` (3 stands for 5-4-3-2-A).
unsigned straight_window(int top) {
    return top == 3 ? (1u << kAce | 0xFu) : 0x1Fu << (top - 4);
}

// Highest straight top reachable from a set of ranks with `wilds` fillers, or -1.
int best_straight_top(unsigned ranks, int wilds) {
    for (int top = kAce; top >= 3; --top)
        if (std::popcount(straight_window(top) & ~ranks) <= wilds) return top;
    return -1;
}

struct Naturals {
    std::array<int, 13> counts{};
    std::array<unsigned, 4> suit_ranks{};
    unsigned ranks = 0;
    HandKey key;

    // The highest natural cards with a rank other than `except`, with multiplicity.
    std::vector<int> kickers(int except, std::size_t n) const {
        std::vector<int> out;
        for (int r = kAce; r >= 0 && out.size() < n; --r)
            if (r != except)
                for (int i = 0; i < counts[r] && out.size() < n; ++i) out.push_back(r);
        return out;
    }
};

std::uint32_t pack_ranks(Category c, std::initializer_list<int> head,
                         const std::vector<int>& tail) {
    std::vector<int> all(head);
    all.insert(all.end(), tail.begin(), tail.end());
    return hand_class::pack_list(c, all);
}

// Best class by rank alone with k >= 1 fully wild cards. At each category the wilds all go to the
// group being made: a spare wild would have made the category above.
std::uint32_t best_plain(const Naturals& h, int k) {
    const auto& c = h.counts;
    for (int r = kAce; r >= 0; --r)
        if (c[r] + k >= 5) return pack(Category::five_of_a_kind, {r});
    for (int r = kAce; r >= 0; --r)
        if (c[r] + k >= 4) return pack_ranks(Category::four_of_a_kind, {r}, h.kickers(r, 1));
    for (int t = kAce; t >= 0; --t) {
        if (c[t] + k < 3) continue;
        const int left = k - std::max(0, 3 - c[t]);
        for (int p = kAce; p >= 0; --p)
            if (p != t && c[p] + left >= 2) return pack(Category::full_house, {t, p});
    }
    if (int top = best_straight_top(h.ranks, k); top >= 0) return pack(Category::straight, {top});
    for (int t = kAce; t >= 0; --t)
        if (c[t] + k >= 3) return pack_ranks(Category::three_of_a_kind, {t}, h.kickers(t, 2));
    // One wild and no natural pair: it pairs the highest natural.
    const int p = std::bit_width(h.ranks) - 1;
    return pack_ranks(Category::one_pair, {p}, h.kickers(p, 3));
}

// Best straight flush or flush in one suit whose naturals are `ranks`, with k wilds; 0 when the
// suit cannot reach five cards or the best suited five are really a full house or better.
HandValue best_suited(unsigned ranks, int k) {
    if (std::popcount(ranks) + k < 5) return HandValue();
    if (int top = best_straight_top(ranks, k); top >= 0)
        return value_of_class(pack(Category::straight_flush, {top}));
    // Every wild is an ace of the suit: a flush compares its ranks highest first.
    std::vector<int> list(static_cast<std::size_t>(k), kAce);
    for (int r = kAce; r >= 0 && list.size() < 5; --r)
        if (ranks >> r & 1) list.push_back(r);
    return value_of_class(hand_class::pack_list(Category::flush, list));
}

} // namespace

Result<Wild> parse_wild(std::string_view name) {
    if (name == "none") return Wild::none;
    if (name == "joker") return Wild::joker;
    if (name == "bug") return Wild::bug;
    if (name == "deuces") return Wild::deuces;
    if (name == "one-eyes" || name == "one_eyes") return Wild::one_eyes;
    return make_error(Errc::bad_option, "unknown wild-card option \"" + std::string(name) +
                                            "\" (none, joker, bug, deuces, one-eyes)");
}

std::string_view wild_name(Wild w) {
    switch (w) {
    case Wild::none:
        return "none";
    case Wild::joker:
        return "joker";
    case Wild::bug:
        return "bug";
    case Wild::deuces:
        return "deuces";
    case Wild::one_eyes:
        return "one-eyes";
    }
    return "none";
}

const Deck& deck_for(Wild w) {
    // Built once: showdowns check every hand against it.
    static const Deck plain = Deck::standard(0), with_joker = Deck::standard(1);
    return w == Wild::joker || w == Wild::bug ? with_joker : plain;
}

bool is_wild(Card c, Wild w) {
    switch (w) {
    case Wild::none:
        return false;
    case Wild::joker:
    case Wild::bug:
        return c.is_joker();
    case Wild::deuces:
        return !c.is_joker() && c.rank() == rank::two;
    case Wild::one_eyes:
        return c == Card(rank::king, suit::diamonds) || c == Card(rank::jack, suit::spades) ||
               c == Card(rank::jack, suit::hearts);
    }
    return false;
}

Result<HandValue> evaluate_hand(std::span<const Card> cards, Wild wild) {
    const std::size_t n = cards.size();
    if (n != 3 && n != 5 && n != 6 && n != 7)
        return make_error(Errc::wrong_count,
                          "a hand has 3, 5, 6 or 7 cards, not " + std::to_string(n));
    if (auto e = deck_for(wild).check(cards)) return *e;
    if (n == 3 && std::any_of(cards.begin(), cards.end(), [&](Card c) { return is_wild(c, wild); }))
        return make_error(
            Errc::bad_option,
            "wild cards play only in hands of 5 to 7 cards, not in a three-card hand");
    return evaluate_wild(cards, wild);
}

HandValue evaluate_wild(std::span<const Card> cards, Wild wild) {
    Naturals h;
    int k = 0;
    for (Card c : cards) {
        if (is_wild(c, wild)) {
            ++k;
            continue;
        }
        ++h.counts[c.rank().index()];
        h.suit_ranks[c.suit().index()] |= 1u << c.rank().index();
        h.ranks |= 1u << c.rank().index();
        h.key = h.key + c;
    }
    if (k == 0) return evaluate(cards);

    HandValue best;
    if (wild == Wild::bug) {
        // As an ace (five aces when four are already there) ...
        best =
            h.counts[kAce] == 4
                ? value_of_class(pack(Category::five_of_a_kind, {kAce}))
                : detail::rank_value(h.key.key + detail::card_key(Card(rank::ace, suit::spades)));
        // ... or to complete a straight.
        if (int top = best_straight_top(h.ranks, 1); top >= 0)
            best = std::max(best, value_of_class(pack(Category::straight, {top})));
    } else {
        best = value_of_class(best_plain(h, k));
    }
    for (unsigned ranks : h.suit_ranks) best = std::max(best, best_suited(ranks, k));
    return best;
}

} // namespace felt
