// Auto-arrange and hints for Chinese poker: every split scored by its expected units.
#include "chinese/chinese.h"
#include "chinese/chinese_odds.h"
#include "chinese/subsets.h"

#include "rankings/evaluator.h"
#include "rankings/wild.h"

#include <algorithm>

namespace felt::chinese {

namespace {

using bits::pick;
using bits::subsets;

// Units a row's win pays under the profile (with its royalty), and a loss costs.
double row_value(const Profile& p, Row row, HandValue v, const RowOdds& odds) {
    int roy = 0;
    for (const Royalty& r : p.royalties)
        if (r.row == row && r.category == v.category()) roy = r.units;
    const double win = p.scoring == Scoring::rows && roy > 0 && !p.royalties_on_top ? roy : 1 + roy;
    return odds.below[v.raw()] * win - odds.above[v.raw()];
}

bool straight_or_flush(HandValue v) {
    return v.category() == Category::straight || v.category() == Category::flush ||
           v.category() == Category::straight_flush;
}

// Calls f(split) for every legal split whose back and middle are both straights or flushes: the
// only splits that can hold three straights, three flushes or three straight flushes.
template <typename F>
void for_each_straights_split(std::span<const Card> cards, const SplitRules& rules, F&& f) {
    static const std::vector<unsigned> fives13 = subsets(13, 5);
    for (unsigned bm : fives13) {
        const auto back = pick<5>(cards, bm);
        const HandValue bv = evaluate<5>(back.data());
        if (!straight_or_flush(bv)) continue;
        const unsigned rest13 = ((1u << 13) - 1) & ~bm;
        for (unsigned mm = rest13; mm != 0; mm = (mm - 1) & rest13) {
            if (std::popcount(mm) != 5) continue;
            const auto middle = pick<5>(cards, mm);
            const HandValue mv = evaluate<5>(middle.data());
            if (!straight_or_flush(mv) || mv > bv) continue;
            const Split s{pick<3>(cards, rest13 & ~mm), middle, back};
            if (!check_split(s, rules)) f(s);
        }
    }
}

} // namespace

const std::array<RowOdds, 3>& win_tables() {
    static const std::array<RowOdds, 3> tables = [] {
        std::array<RowOdds, 3> out;
        for (std::size_t r = 0; r < 3; ++r) {
            const std::uint32_t* c = odds::kRowCounts[r];
            RowOdds& o = out[r];
            o.below.assign(odds::kValues, 0);
            o.above.assign(odds::kValues, 0);
            std::uint32_t below = 0;
            for (std::size_t v = 0; v < odds::kValues; ++v) {
                o.below[v] = static_cast<float>(below) / static_cast<float>(odds::kSamples);
                o.above[v] = static_cast<float>(odds::kSamples - below - c[v]) /
                             static_cast<float>(odds::kSamples);
                below += c[v];
            }
        }
        return out;
    }();
    return tables;
}

Result<std::vector<Arrangement>> arrange(std::span<const Card> cards, const Profile& profile,
                                         const SplitRules& rules, int k) {
    if (cards.size() != 13)
        return make_error(Errc::wrong_count,
                          "13 cards to arrange, not " + std::to_string(cards.size()));
    if (auto e = deck_for(Wild::none).check(cards)) return *e;
    k = std::max(k, 1);
    static const std::vector<unsigned> fives13 = subsets(13, 5), threes8 = subsets(8, 3);
    const auto& odds = win_tables();
    const bool three_specials =
        std::any_of(profile.specials.begin(), profile.specials.end(), [](const SpecialValue& s) {
            return s.kind == Special::three_straights || s.kind == Special::three_flushes ||
                   s.kind == Special::three_straight_flushes;
        });

    std::vector<Arrangement> best; // the k best so far, best first
    std::optional<Arrangement> special;
    int special_units = 0;
    auto consider_special = [&](const Split& s, Special kind) {
        for (const SpecialValue& sv : profile.specials)
            if (sv.kind == kind && sv.units > special_units && has_special(s, kind)) {
                special_units = sv.units;
                special = Arrangement{s, kind, static_cast<double>(sv.units)};
            }
    };

    // Card keys and suit masks (evaluator.h), so that a hand is a sum, not a fresh evaluation.
    std::array<std::uint64_t, 13> key{}, mask{};
    for (int i = 0; i < 13; ++i) {
        key[static_cast<std::size_t>(i)] = detail::card_key(cards[static_cast<std::size_t>(i)]);
        mask[static_cast<std::size_t>(i)] = detail::card_mask(cards[static_cast<std::size_t>(i)]);
    }
    auto hand_of = [&](unsigned m) {
        HandKey h;
        for (int i = 0; i < 13; ++i)
            if (m >> i & 1) {
                h.key += key[static_cast<std::size_t>(i)];
                h.mask |= mask[static_cast<std::size_t>(i)];
            }
        return h;
    };
    // Backs strongest first, with a bound on what any split using them can be worth: the back's
    // units, a middle as strong as the back, and the best front of all 13 cards. Payments only
    // grow with a hand's strength, so once the bound falls below the k-th best, no weaker back
    // can do better.
    struct Back {
        unsigned mask;
        HandValue value;
    };
    std::vector<Back> backs;
    backs.reserve(fives13.size());
    for (unsigned bm : fives13) backs.push_back({bm, evaluate(hand_of(bm))});
    std::sort(backs.begin(), backs.end(),
              [](const Back& a, const Back& b) { return a.value > b.value; });
    double front_best = -1e9;
    for (unsigned m = 0; m < (1u << 13); ++m)
        if (std::popcount(m) == 3)
            front_best =
                std::max(front_best, row_value(profile, Row::front,
                                               detail::rank_value(hand_of(m).key), odds[0]));
    for (const Back& b : backs) {
        const HandValue bv = b.value;
        const double back_units = row_value(profile, Row::back, bv, odds[2]);
        if (static_cast<int>(best.size()) == k &&
            back_units + row_value(profile, Row::middle, bv, odds[1]) + front_best <=
                best.back().expected_units)
            break;
        std::array<int, 8> rest{};
        int j = 0;
        for (int i = 0; i < 13; ++i)
            if (!(b.mask >> i & 1)) rest[static_cast<std::size_t>(j++)] = i;
        const HandKey rest_hand = hand_of(((1u << 13) - 1) & ~b.mask);
        // The fronts this back leaves: a tighter bound for this back alone.
        struct Front {
            std::uint64_t key, mask;
            unsigned cards;
            HandValue value;
        };
        std::array<Front, 56> fronts{};
        double front_here = -1e9;
        int nf = 0;
        for (unsigned fm8 : threes8) {
            Front& f = fronts[static_cast<std::size_t>(nf++)];
            for (int i = 0; i < 8; ++i)
                if (fm8 >> i & 1) {
                    const auto c = static_cast<std::size_t>(rest[static_cast<std::size_t>(i)]);
                    f.key += key[c];
                    f.mask |= mask[c];
                    f.cards |= 1u << c;
                }
            f.value = detail::rank_value(HandKey().key + f.key);
            front_here = std::max(front_here, row_value(profile, Row::front, f.value, odds[0]));
        }
        if (static_cast<int>(best.size()) == k &&
            back_units + row_value(profile, Row::middle, bv, odds[1]) + front_here <=
                best.back().expected_units)
            continue;
        for (const Front& f : fronts) {
            // The front: three of the eight; the middle: the other five.
            const std::uint64_t fkey = f.key, fmask = f.mask;
            const unsigned front13 = f.cards;
            HandKey mh;
            mh.key = rest_hand.key - fkey;
            mh.mask = rest_hand.mask & ~fmask;
            const HandValue mv = evaluate(mh);
            if (rules.strict_order ? !(bv > mv) : bv < mv) continue;
            const HandValue fv = f.value;
            const int c = compare_middle_front(mv, fv, rules.short_kickers_lowest);
            if (rules.strict_order ? c <= 0 : c < 0) continue;
            const double units = back_units + row_value(profile, Row::middle, mv, odds[1]) +
                                 row_value(profile, Row::front, fv, odds[0]);
            const bool fits =
                static_cast<int>(best.size()) < k || units > best.back().expected_units;
            const bool maybe_special =
                three_specials && bv.category() >= Category::straight &&
                (mv.category() == Category::straight || mv.category() == Category::flush ||
                 mv.category() == Category::straight_flush);
            if (!fits && !maybe_special) continue;
            const unsigned middle13 = ((1u << 13) - 1) & ~b.mask & ~front13;
            const Split s{pick<3>(cards, front13), pick<5>(cards, middle13),
                          pick<5>(cards, b.mask)};
            if (maybe_special) {
                consider_special(s, Special::three_straight_flushes);
                consider_special(s, Special::three_flushes);
                consider_special(s, Special::three_straights);
            }
            if (!fits) continue;
            auto at = std::upper_bound(
                best.begin(), best.end(), units,
                [](double u, const Arrangement& x) { return u > x.expected_units; });
            best.insert(at, Arrangement{s, std::nullopt, units});
            if (static_cast<int>(best.size()) > k) best.pop_back();
        }
    }
    if (three_specials)
        for_each_straights_split(cards, rules, [&](const Split& s) {
            consider_special(s, Special::three_straight_flushes);
            consider_special(s, Special::three_flushes);
            consider_special(s, Special::three_straights);
        });
    if (best.empty())
        return make_error(Errc::wrong_cards, "no legal split of these cards"); // cannot happen
    // Specials that do not depend on the split: any legal split carries them.
    for (const SpecialValue& sv : profile.specials)
        if (sv.kind != Special::three_straights && sv.kind != Special::three_flushes &&
            sv.kind != Special::three_straight_flushes)
            consider_special(best.front().split, sv.kind);
    // A special hand wins its value from every opponent without one: declare it when that pays
    // more than the best split is expected to.
    if (special && special->expected_units > best.front().expected_units)
        best.insert(best.begin(), *special);
    if (static_cast<int>(best.size()) > k) best.pop_back();
    return best;
}

Result<std::vector<Arrangement>> declarable(std::span<const Card> cards, const Profile& profile,
                                            const SplitRules& rules) {
    if (cards.size() != 13)
        return make_error(Errc::wrong_count,
                          "13 cards to declare from, not " + std::to_string(cards.size()));
    if (auto e = deck_for(Wild::none).check(cards)) return *e;
    std::vector<Arrangement> out;
    auto consider = [&](const Split& s, const SpecialValue& sv) {
        const bool known = std::any_of(out.begin(), out.end(),
                                       [&](const Arrangement& a) { return a.declare == sv.kind; });
        if (!known && has_special(s, sv.kind))
            out.push_back({s, sv.kind, static_cast<double>(sv.units)});
    };
    const Split baseline = baseline_split(cards);
    for (const SpecialValue& sv : profile.specials)
        if (sv.kind != Special::three_straights && sv.kind != Special::three_flushes &&
            sv.kind != Special::three_straight_flushes)
            consider(baseline, sv);
    for_each_straights_split(cards, rules, [&](const Split& s) {
        for (const SpecialValue& sv : profile.specials) consider(s, sv);
    });
    std::stable_sort(out.begin(), out.end(), [](const Arrangement& a, const Arrangement& b) {
        return a.expected_units > b.expected_units;
    });
    return out;
}

} // namespace felt::chinese
