#include "rankings/hand_class.h"

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

std::string with_kicker(std::uint32_t key) {
    int at = 1; // where the first kicker is listed
    switch (category(key)) {
    case Category::high_card:
    case Category::one_pair:
    case Category::three_of_a_kind:
    case Category::four_of_a_kind:
        break;
    case Category::two_pair:
        at = 2;
        break;
    default:
        return words(key);
    }
    const int kicker = rank_at(key, at);
    return kicker < 0 ? words(key) : words(key) + ", " + name(kicker) + " kicker";
}

} // namespace felt::hand_class
