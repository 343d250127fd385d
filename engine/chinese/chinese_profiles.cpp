// The scoring profiles of chinese-poker.md, as data: one table entry per profile.
#include "chinese/chinese.h"

namespace felt::chinese {

namespace {

using C = Category;
using S = Special;
constexpr Row F = Row::front, M = Row::middle, B = Row::back;

// extras-b's royalties, which the banker profile shares ("as extras-b").
const std::vector<Royalty> kExtrasBRoyalties = {
    {F, C::three_of_a_kind, 2}, {M, C::full_house, 2},     {B, C::four_of_a_kind, 4},
    {M, C::four_of_a_kind, 6},  {B, C::straight_flush, 6}, {M, C::straight_flush, 8}};

const std::vector<SpecialValue> kClassicSpecials = {
    {S::six_pairs, 3}, {S::three_straights, 3}, {S::three_flushes, 3}, {S::complete_straight, 13}};

const std::vector<Profile>& profiles() {
    static const std::vector<Profile> all = {
        {"basic", Scoring::rows, false, false, {}, {}, 3},
        {"classic",
         Scoring::rows,
         false,
         false,
         {{F, C::three_of_a_kind, 3},
          {M, C::full_house, 2},
          {M, C::four_of_a_kind, 4},
          {B, C::four_of_a_kind, 4},
          {M, C::straight_flush, 5},
          {B, C::straight_flush, 5}},
         kClassicSpecials,
         3},
        {"extras-a",
         Scoring::rows,
         true,
         false,
         {{F, C::three_of_a_kind, 2},
          {M, C::full_house, 1},
          {M, C::four_of_a_kind, 3},
          {B, C::four_of_a_kind, 3},
          {M, C::straight_flush, 4},
          {B, C::straight_flush, 4}},
         kClassicSpecials,
         3},
        {"extras-b", Scoring::rows, true, false, kExtrasBRoyalties, kClassicSpecials, 3},
        {"asian",
         Scoring::rows,
         false,
         false,
         {{F, C::three_of_a_kind, 3},
          {M, C::full_house, 2},
          {B, C::four_of_a_kind, 4},
          {M, C::four_of_a_kind, 8},
          {B, C::straight_flush, 5},
          {M, C::straight_flush, 10}},
         {{S::three_straights, 3},
          {S::three_flushes, 3},
          {S::six_pairs, 3},
          {S::five_pairs_and_trio, 6},
          {S::complete_straight, 13},
          {S::thirteen_of_one_suit, 26}},
         3},
        {"asian-colour",
         Scoring::rows,
         false,
         false,
         {{F, C::three_of_a_kind, 3},
          {M, C::full_house, 2},
          {B, C::four_of_a_kind, 4},
          {M, C::four_of_a_kind, 8},
          {B, C::straight_flush, 7},
          {M, C::straight_flush, 14}},
         {{S::three_straights, 4},
          {S::three_flushes, 4},
          {S::twelve_one_colour, 4},
          {S::six_pairs, 4},
          {S::all_one_colour, 6},
          {S::complete_straight, 13},
          {S::thirteen_of_one_suit, 39}},
         3},
        {"banker",
         Scoring::rows,
         true,
         true,
         kExtrasBRoyalties,
         {{S::three_flushes, 3},
          {S::three_straights, 4},
          {S::six_pairs, 4},
          {S::five_pairs_and_trio, 5},
          {S::four_trios, 6},
          {S::all_one_colour, 10},
          {S::small, 10},
          {S::big, 10},
          {S::three_quads, 16},
          {S::three_straight_flushes, 18},
          {S::twelve_pictures, 18},
          {S::thirteen_of_one_suit, 26}},
         3},
        {"scoop",
         Scoring::scoop,
         true,
         false,
         {{B, C::straight_flush, 5},
          {M, C::straight_flush, 10},
          {B, C::four_of_a_kind, 4},
          {M, C::four_of_a_kind, 8},
          {M, C::full_house, 2},
          {F, C::three_of_a_kind, 3}},
         {},
         3},
    };
    return all;
}

} // namespace

const Profile* find_profile(std::string_view name) {
    for (const Profile& p : profiles())
        if (p.name == name) return &p;
    return nullptr;
}

std::vector<std::string_view> profile_names() {
    std::vector<std::string_view> out;
    for (const Profile& p : profiles()) out.push_back(p.name);
    return out;
}

} // namespace felt::chinese
