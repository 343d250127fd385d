// Categories of the standard ranking and the written-out class of a hand.
//
// A hand class is what decides a comparison: the category, then the ranks that define it, then
// kickers, highest first. It packs into 24 bits so that integer order is hand order:
//   bits 20..23  category (Category, high_card = 0 ... five_of_a_kind = 9)
//   bits 16..19, 12..15, 8..11, 4..7, 0..3  up to five ranks as rank index + 1; 0 = no card.
// A missing rank (0) sorts below every card, so a three-card front "A A K" sorts just below every
// five-card "A A K x y": exactly the `short_kickers_lowest` order of Chinese poker.
//
// What each category lists:
//   high_card, flush        the five ranks, highest first (three for a three-card front)
//   one_pair                pair, then three kickers (one for a front)
//   two_pair                high pair, low pair, kicker
//   three_of_a_kind         trips, then two kickers (none for a front)
//   straight, straight_flush the top rank (five for 5-4-3-2-A)
//   full_house              trips, pair
//   four_of_a_kind          quads, kicker
//   five_of_a_kind          the rank
// With wild cards a flush may repeat a rank (two A of spades), and then lists it twice.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace felt {

enum class Category : std::uint8_t {
    high_card,
    one_pair,
    two_pair,
    three_of_a_kind,
    straight,
    flush,
    full_house,
    four_of_a_kind,
    straight_flush,
    five_of_a_kind,
};

inline constexpr int kCategoryCount = 10;

// snake_case names, used in JSON and by `felt`: "high_card" ... "five_of_a_kind".
constexpr std::string_view category_name(Category c) {
    constexpr std::string_view names[kCategoryCount] = {
        "high_card", "one_pair",   "two_pair",       "three_of_a_kind", "straight",
        "flush",     "full_house", "four_of_a_kind", "straight_flush",  "five_of_a_kind"};
    return names[static_cast<int>(c)];
}

namespace hand_class {

// Packs a category and up to five rank indices (0 = deuce ... 12 = ace), in comparison order.
constexpr std::uint32_t pack(Category c, std::initializer_list<int> ranks) {
    std::uint32_t key = static_cast<std::uint32_t>(c) << 20;
    int shift = 16;
    for (int r : ranks) {
        key |= static_cast<std::uint32_t>(r + 1) << shift;
        shift -= 4;
    }
    return key;
}

// The same from a list of rank indices; ranks past the fifth are ignored.
constexpr std::uint32_t pack_list(Category c, std::span<const int> ranks) {
    std::uint32_t key = pack(c, {});
    for (std::size_t i = 0; i < ranks.size() && i < 5; ++i)
        key |= static_cast<std::uint32_t>(ranks[i] + 1) << (16 - 4 * i);
    return key;
}

constexpr Category category(std::uint32_t key) {
    return static_cast<Category>(key >> 20);
}

// The i-th listed rank index (0..4), or -1 when the class lists fewer.
constexpr int rank_at(std::uint32_t key, int i) {
    return static_cast<int>((key >> (16 - 4 * i)) & 15) - 1;
}

// The class in a player's words: "ace high", "a pair of kings", "two pair, kings and nines",
// "three sevens", "straight, ten high", "flush, ace high", "full house, kings over fours", "four
// nines", "straight flush, king high", "royal flush", "five aces". A five-high straight is
// "straight, five high".
std::string words(std::uint32_t key);
// The class as a showdown names it: words(), and the first kicker where a kicker can decide
// (high card, one pair, two pair, three and four of a kind): "two pair, kings and sevens, ace
// kicker", "a pair of nines, queen kicker", "ace high, jack kicker".
std::string with_kicker(std::uint32_t key);
// The class beside the others shown at the same showdown: with_kicker(), naming as many kickers as
// it takes to tell it from each other class of the same category and named ranks ("a pair of
// aces, king-queen kicker" beside "a pair of aces, king-jack kicker"); a flush names its ranks
// that far ("flush, ace-king high" beside "flush, ace-queen high"). An equal class (a split)
// changes nothing.
std::string showdown_words(std::uint32_t key, std::span<const std::uint32_t> others);

} // namespace hand_class
} // namespace felt
