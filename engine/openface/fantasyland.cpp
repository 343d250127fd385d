#include "openface/fantasyland.h"

#include "cards/deck.h"
#include "rankings/evaluator.h"
#include "rankings/wild.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <tuple>

namespace felt::openface {

namespace {

constexpr std::array<Row, 3> kRows = {Row::front, Row::middle, Row::back};

// The opponents as the solver scores against them: each row's value of those who did not foul
// (bit j of a row's win and lose masks), and what the hand owes or gains whatever its rows.
struct Field {
    std::vector<std::array<HandValue, 3>> live;
    int multiplier = 1; // how many opponents pay each royalty (1 with none given)
    int constant = 0;   // the live opponents' royalties (negative), 6 from each fouled one

    // A row's points: its royalty from everyone, and +1 or -1 against each live opponent.
    int row_points(Row row, HandValue v, std::uint8_t& win, std::uint8_t& lose) const {
        const auto r = static_cast<std::size_t>(row);
        int p = royalty(row, v) * multiplier;
        win = lose = 0;
        for (std::size_t j = 0; j < live.size(); ++j) {
            if (v > live[j][r]) {
                ++p;
                win |= static_cast<std::uint8_t>(1u << j);
            } else if (v < live[j][r]) {
                --p;
                lose |= static_cast<std::uint8_t>(1u << j);
            }
        }
        return p;
    }
};

Field field_of(std::span<const Split> against) {
    Field f;
    f.multiplier = against.empty() ? 1 : static_cast<int>(against.size());
    for (const Split& s : against) {
        if (fouled(s)) {
            f.constant += 6;
            continue;
        }
        const auto r = royalties(s);
        f.constant -= r[0] + r[1] + r[2];
        f.live.push_back(chinese::row_values(s));
    }
    return f;
}

bool stays_row(Stay rule, Row row, HandValue v) {
    switch (row) {
    case Row::front:
        return v.category() == Category::three_of_a_kind;
    case Row::middle:
        return rule == Stay::standard && v.category() >= Category::full_house;
    case Row::back:
        return v.category() >= Category::four_of_a_kind;
    }
    return false;
}

struct Five {
    std::uint32_t mask;
    HandValue v;
    int back, middle; // points as the back, as the middle
    std::uint8_t win_back, lose_back, win_middle, lose_middle;
    bool stay_back, stay_middle;
};

struct Three {
    std::uint32_t mask;
    HandValue v;
    int points;
    std::uint8_t win, lose;
    bool stay;
};

std::vector<Card> cards_of(std::span<const Card> cards, std::uint32_t mask) {
    std::vector<Card> out;
    for (std::uint32_t m = mask; m; m &= m - 1)
        out.push_back(cards[static_cast<std::size_t>(std::countr_zero(m))]);
    return out;
}

} // namespace

int fantasyland_points(const Split& s, Stay stay, std::span<const Split> against, int stay_value) {
    const bool foul = fouled(s);
    int p = 0;
    if (against.empty()) {
        const auto r = royalties(s);
        p = r[0] + r[1] + r[2];
    }
    for (const Split& o : against) p += points(s, o);
    return p + (!foul && stays(stay, s) ? stay_value : 0);
}

Result<Solution> solve_fantasyland(std::span<const Card> cards, Stay stay,
                                   std::span<const Split> against, int stay_value) {
    const int n = static_cast<int>(cards.size());
    if (n < 13 || n > 17)
        return make_error(Errc::wrong_count,
                          "a Fantasyland hand has 13 to 17 cards, not " + std::to_string(n));
    if (stay_value < 0) return make_error(Errc::bad_option, "the stay value cannot be negative");
    if (against.size() > 3) return make_error(Errc::bad_option, "at most three opponents");
    if (auto e = deck_for(Wild::none).check(std::vector<Card>(cards.begin(), cards.end())))
        return *e;
    std::array<bool, 256> seen{};
    for (Card c : cards) seen[c.code()] = true;
    for (const Split& s : against) {
        std::vector<Card> rows(s.front.begin(), s.front.end());
        rows.insert(rows.end(), s.middle.begin(), s.middle.end());
        rows.insert(rows.end(), s.back.begin(), s.back.end());
        if (auto e = deck_for(Wild::none).check(rows))
            return make_error(e->code, "an opponent's rows: " + e->message);
        for (Card c : rows) {
            if (seen[c.code()])
                return make_error(Errc::duplicate_card,
                                  "an opponent's rows: " + Deck::standard().to_string(c) +
                                      " is in the hand or another opponent's rows");
            seen[c.code()] = true;
        }
    }
    const Field field = field_of(against);

    // Every five- and three-card subset, valued once, strongest first.
    std::vector<Five> fives;
    std::vector<Three> threes;
    for (std::uint32_t m = 0; m < (1u << n); ++m) {
        const int k = std::popcount(m);
        if (k != 5 && k != 3) continue;
        const auto hand = cards_of(cards, m);
        if (k == 5) {
            Five f{};
            f.mask = m;
            f.v = evaluate<5>(hand.data());
            f.back = field.row_points(Row::back, f.v, f.win_back, f.lose_back);
            f.middle = field.row_points(Row::middle, f.v, f.win_middle, f.lose_middle);
            f.stay_back = stays_row(stay, Row::back, f.v);
            f.stay_middle = stays_row(stay, Row::middle, f.v);
            fives.push_back(f);
        } else {
            Three t{};
            t.mask = m;
            t.v = evaluate<3>(hand.data());
            t.points = field.row_points(Row::front, t.v, t.win, t.lose);
            t.stay = stays_row(stay, Row::front, t.v);
            threes.push_back(t);
        }
    }
    auto stronger = [](const auto& a, const auto& b) { return a.v > b.v; };
    std::stable_sort(fives.begin(), fives.end(), stronger);
    std::stable_sort(threes.begin(), threes.end(), stronger);

    // For each five as a middle: the first front (strongest first) that does not rank above it.
    std::vector<std::size_t> front_start(fives.size());
    for (std::size_t i = 0; i < fives.size(); ++i)
        front_start[i] = static_cast<std::size_t>(
            std::partition_point(threes.begin(), threes.end(),
                                 [&](const Three& t) {
                                     return chinese::compare_middle_front(fives[i].v, t.v, false) <
                                            0;
                                 }) -
            threes.begin());
    // For each five as a back: the first middle (strongest first) that does not rank above it.
    std::vector<std::size_t> middle_start(fives.size());
    for (std::size_t i = 0; i < fives.size(); ++i)
        middle_start[i] = i > 0 && fives[i - 1].v == fives[i].v ? middle_start[i - 1] : i;

    int most_middle = INT_MIN, most_front = INT_MIN;
    for (const Five& f : fives) most_middle = std::max(most_middle, f.middle);
    for (const Three& t : threes) most_front = std::max(most_front, t.points);
    const int most_more = 3 * static_cast<int>(field.live.size()) + stay_value;

    struct Best {
        int points = INT_MIN;
        HandValue back, middle, front;
        std::size_t b = 0, m = 0, f = 0;
    } best;
    auto key = [](int p, HandValue b, HandValue m, HandValue f) { return std::tuple(p, b, m, f); };
    for (std::size_t bi = 0; bi < fives.size(); ++bi) {
        const Five& b = fives[bi];
        if (key(b.back + most_middle + most_front + most_more, b.v, HandValue(0xFFFF),
                HandValue(0xFFFF)) < key(best.points, best.back, best.middle, best.front))
            continue;
        for (std::size_t mi = middle_start[bi]; mi < fives.size(); ++mi) {
            const Five& m = fives[mi];
            if (m.mask & b.mask) continue;
            if (key(b.back + m.middle + most_front + most_more, b.v, m.v, HandValue(0xFFFF)) <
                key(best.points, best.back, best.middle, best.front))
                continue;
            const std::uint32_t used = b.mask | m.mask;
            for (std::size_t fi = front_start[mi]; fi < threes.size(); ++fi) {
                const Three& f = threes[fi];
                if (f.mask & used) continue;
                // The strongest front that fits: no other front of this back and middle does
                // better.
                const int scoops =
                    std::popcount(static_cast<unsigned>(b.win_back & m.win_middle & f.win)) -
                    std::popcount(static_cast<unsigned>(b.lose_back & m.lose_middle & f.lose));
                const bool stay_here = b.stay_back || m.stay_middle || f.stay;
                const int p =
                    b.back + m.middle + f.points + 3 * scoops + (stay_here ? stay_value : 0);
                if (key(p, b.v, m.v, f.v) > key(best.points, best.back, best.middle, best.front))
                    best = {p, b.v, m.v, f.v, bi, mi, fi};
                break;
            }
        }
    }
    if (best.points == INT_MIN) return make_error(Errc::bad_config, "no placement fits (a bug)");

    Solution out;
    const auto back = cards_of(cards, fives[best.b].mask);
    const auto middle = cards_of(cards, fives[best.m].mask);
    const auto front = cards_of(cards, threes[best.f].mask);
    std::copy(front.begin(), front.end(), out.split.front.begin());
    std::copy(middle.begin(), middle.end(), out.split.middle.begin());
    std::copy(back.begin(), back.end(), out.split.back.begin());
    const std::uint32_t used = fives[best.b].mask | fives[best.m].mask | threes[best.f].mask;
    out.discards = cards_of(cards, ((1u << n) - 1) & ~used);
    out.royalties = royalties(out.split);
    out.stays = stays(stay, out.split);
    out.points = best.points + field.constant;
    return out;
}

} // namespace felt::openface
