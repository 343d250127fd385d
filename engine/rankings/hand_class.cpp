#include "rankings/hand_class.h"

#include <algorithm>
#include <array>

namespace felt::hand_class {

namespace {

constexpr std::array<std::string_view, 13> kNames = {"two",   "three", "four", "five", "six",
                                                     "seven", "eight", "nine", "ten",  "jack",
                                                     "queen", "king",  "ace"};
constexpr std::array<std::string_view, 13> kPlurals = {
    "twos",  "threes", "fours", "fives",  "sixes", "sevens", "eights",
    "nines", "tens",   "jacks", "queens", "kings", "aces"};

std::string name(int rank) {
    return rank < 0 ? "?" : std::string(kNames[static_cast<std::size_t>(rank)]);
}
std::string plural(int rank) {
    return rank < 0 ? "?" : std::string(kPlurals[static_cast<std::size_t>(rank)]);
}

} // namespace

std::string words(std::uint32_t key) {
    const int a = rank_at(key, 0), b = rank_at(key, 1);
    switch (category(key)) {
    case Category::high_card:
        return name(a) + " high";
    case Category::one_pair:
        return "a pair of " + plural(a);
    case Category::two_pair:
        return "two pair, " + plural(a) + " and " + plural(b);
    case Category::three_of_a_kind:
        return "three " + plural(a);
    case Category::straight:
        return "straight, " + name(a) + " high";
    case Category::flush:
        return "flush, " + name(a) + " high";
    case Category::full_house:
        return "full house, " + plural(a) + " over " + plural(b);
    case Category::four_of_a_kind:
        return "four " + plural(a);
    case Category::straight_flush:
        return a == 12 ? "royal flush" : "straight flush, " + name(a) + " high";
    case Category::five_of_a_kind:
        return "five " + plural(a);
    }
    return "?";
}

std::string showdown_words(std::uint32_t key, std::span<const std::uint32_t> others) {
    const Category c = category(key);
    int named = 1;   // ranks the words name
    int kickers = 1; // ranks named after them, at the least
    switch (c) {
    case Category::high_card:
    case Category::one_pair:
    case Category::three_of_a_kind:
    case Category::four_of_a_kind:
        break;
    case Category::two_pair:
        named = 2;
        break;
    case Category::flush:
        kickers = 0;
        break;
    default: // the words name every rank that counts
        return words(key);
    }
    // As many as it takes to tell it from each other hand of the same category and named ranks.
    for (const std::uint32_t o : others) {
        if (o == key || category(o) != c) continue;
        int same = 0;
        while (same < 5 && rank_at(o, same) == rank_at(key, same)) ++same;
        if (same >= named) kickers = std::max(kickers, same - named + 1);
    }
    std::string listed;
    for (int i = named; i < named + kickers && rank_at(key, i) >= 0; ++i) {
        if (!listed.empty()) listed += '-';
        listed += name(rank_at(key, i));
    }
    if (listed.empty()) return words(key);
    if (c == Category::flush) return "flush, " + name(rank_at(key, 0)) + "-" + listed + " high";
    return words(key) + ", " + listed + " kicker";
}

std::string with_kicker(std::uint32_t key) {
    return showdown_words(key, {});
}

} // namespace felt::hand_class
