#include "openface_bot.h"

#include "cards/deck.h"
#include "chinese/chinese.h"
#include "rankings/evaluator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <random>

namespace felt::bots {

using openface::Board;
using openface::Placement;
using openface::Row;
using openface::Split;

namespace {

constexpr std::array<Row, 3> kRows = {Row::front, Row::middle, Row::back};
constexpr double kFoul = -9;

std::vector<Card>& part(Placement& p, Row r) {
    return r == Row::front ? p.front : r == Row::middle ? p.middle : p.back;
}

// A row in progress as the greedy policy sees it: its made hand on one scale (0 high card, 1
// pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house, 7 quads, 8 straight flush, plus
// the defining rank in thirteenths), and what a five-card row could still become.
struct Shape {
    double made = 0;
    double draw = 0; // flush and straight chances of a row with room
};

Shape shape(const std::vector<Card>& cards, Row row) {
    Shape s;
    if (cards.empty()) return s;
    std::array<int, 13> counts{};
    unsigned ranks = 0, suits = 0;
    for (Card c : cards) {
        ++counts[static_cast<std::size_t>(c.rank().index())];
        ranks |= 1u << c.rank().index();
        suits |= 1u << c.suit().index();
    }
    int top = -1, second = -1, best = 0;
    for (int r = 12; r >= 0; --r) {
        const int n = counts[static_cast<std::size_t>(r)];
        if (n > best) {
            second = best >= 2 ? top : second;
            best = n;
            top = r;
        } else if (n >= 2 && second < 0) {
            second = r;
        }
    }
    const int size = static_cast<int>(cards.size());
    const int full = openface::row_size(row);
    if (size == full && full == 5) {
        const HandValue v = evaluate(cards);
        s.made = static_cast<double>(static_cast<int>(v.category())) +
                 hand_class::rank_at(v.hand_class(), 0) / 13.0;
        return s;
    }
    int cat = best >= 4   ? 7
              : best == 3 ? (second >= 0 ? 6 : 3)
              : best == 2 ? (second >= 0 ? 2 : 1)
                          : 0;
    s.made = cat + top / 13.0;
    if (row == Row::front || size == full) return s;
    const int room = full - size;
    if (std::popcount(suits) == 1) s.draw += 0.9 * (size - 1) / 4.0 / (room + 1) * 2;
    if (std::popcount(ranks) == size) {
        const int span = 31 - std::countl_zero(ranks) - std::countr_zero(ranks);
        if (span <= 4) s.draw += 0.6 * (size - 1) / 4.0 / (room + 1) * 2;
    }
    return s;
}

// The greedy policy's view of a board in progress.
double board_score(const Board& b) {
    const Shape f = shape(b.front, Row::front), m = shape(b.middle, Row::middle),
                k = shape(b.back, Row::back);
    double score = 0.35 * f.made + 0.5 * (m.made + m.draw) + 0.5 * (k.made + k.draw);
    // A front pair of queens or better: Fantasyland and a royalty, if the rows hold.
    if (b.front.size() >= 2 && f.made >= 1 + 10 / 13.0) score += 3.5;
    // The row order: a row above the one that must beat it, the more so the fuller that one is.
    const double fill_m = static_cast<double>(b.middle.size()) / 5,
                 fill_k = static_cast<double>(b.back.size()) / 5;
    if (f.made > m.made + m.draw) score -= 2.5 * (f.made - m.made - m.draw) * (0.5 + fill_m);
    if (m.made > k.made + k.draw) score -= 2.5 * (m.made - k.made - k.draw) * (0.5 + fill_k);
    if (openface::fouled_already(b)) score -= 20;
    return score;
}

Board with(const Board& b, const Placement& p) {
    Board out = b;
    for (Row r : kRows) {
        const auto& add = r == Row::front ? p.front : r == Row::middle ? p.middle : p.back;
        out.row(r).insert(out.row(r).end(), add.begin(), add.end());
    }
    return out;
}

// The best placement by board_score, among `all`.
const Placement& greedy_of(const Board& b, const std::vector<Placement>& all) {
    std::size_t best = 0;
    double best_score = -1e300;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const double s = board_score(with(b, all[i]));
        if (s > best_score) {
            best_score = s;
            best = i;
        }
    }
    return all[best];
}

// The placements of `pending` onto `b` (with `discards` of them discarded).
void placements(const Board& b, const std::vector<Card>& pending, int discards,
                std::vector<Placement>& out) {
    out.clear();
    const int n = static_cast<int>(pending.size());
    std::array<int, 3> room{};
    for (std::size_t r = 0; r < 3; ++r)
        room[r] = openface::row_size(kRows[r]) - static_cast<int>(b.row(kRows[r]).size());
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (std::popcount(mask) != discards) continue;
        std::vector<Card> keep;
        Placement base;
        for (int i = 0; i < n; ++i)
            (mask >> i & 1 ? base.discard : keep).push_back(pending[static_cast<std::size_t>(i)]);
        const int k = static_cast<int>(keep.size());
        int total = 1;
        for (int i = 0; i < k; ++i) total *= 3;
        for (int code = 0; code < total; ++code) {
            std::array<int, 3> used{};
            Placement p = base;
            int c = code;
            bool fits = true;
            for (int i = 0; i < k && fits; ++i, c /= 3) {
                const auto r = static_cast<std::size_t>(c % 3);
                fits = ++used[r] <= room[r];
                part(p, kRows[r]).push_back(keep[static_cast<std::size_t>(i)]);
            }
            if (fits) out.push_back(std::move(p));
        }
    }
}

// The streets still to come, played by the greedy policy with cards drawn from `stock`.
Board roll_out(Board b, int streets, bool pineapple, std::vector<Card>& stock, std::size_t& next,
               std::vector<Placement>& scratch) {
    std::vector<Card> cards;
    for (int s = 0; s < streets; ++s) {
        cards.assign(stock.begin() + static_cast<std::ptrdiff_t>(next),
                     stock.begin() + static_cast<std::ptrdiff_t>(next + (pineapple ? 3 : 1)));
        next += cards.size();
        placements(b, cards, pineapple ? 1 : 0, scratch);
        b = with(b, greedy_of(b, scratch));
    }
    return b;
}

} // namespace

double openface_value(const Split& s) {
    if (openface::fouled(s)) return kFoul;
    const auto v = chinese::row_values(s);
    const auto& odds = chinese::win_tables();
    double value = 0;
    for (std::size_t r = 0; r < 3; ++r) {
        value += openface::royalty(kRows[r], v[r]);
        value += odds[r].below[v[r].raw()] - odds[r].above[v[r].raw()];
    }
    openface::Options o;
    if (openface::fantasyland_cards(o, s, false, 2) > 0) value += openface::kDefaultStayValue;
    return value;
}

std::vector<Placement> openface_placements(const OpenFaceView& view) {
    std::vector<Placement> out;
    placements(view.board, view.pending, view.discards, out);
    return out;
}

Placement place_openface(const OpenFaceView& view, OpenFacePolicy policy, std::uint64_t seed) {
    // A view no deal gives (a garbled message read into it): no placement.
    const std::size_t n = view.pending.size();
    if (view.discards < 0 || static_cast<std::size_t>(view.discards) > n ||
        (view.fantasyland ? n < 13 || n > 17 : n > 5) || view.streets_left < 0 ||
        view.streets_left > 8 ||
        view.board.placed() + n - static_cast<std::size_t>(view.discards) > 13)
        return {};
    for (Row r : kRows)
        if (static_cast<int>(view.board.row(r).size()) > openface::row_size(r)) return {};
    std::mt19937_64 rng(seed);
    if (view.fantasyland && policy != OpenFacePolicy::random) {
        auto solved = openface::solve_fantasyland(view.pending, view.stay, view.against);
        if (solved) {
            Placement p;
            p.front.assign(solved->split.front.begin(), solved->split.front.end());
            p.middle.assign(solved->split.middle.begin(), solved->split.middle.end());
            p.back.assign(solved->split.back.begin(), solved->split.back.end());
            p.discard = solved->discards;
            return p;
        }
    }
    if (view.fantasyland) { // at random: the discards, then the rows in a shuffled order
        std::vector<Card> cards = view.pending;
        std::shuffle(cards.begin(), cards.end(), rng);
        Placement p;
        p.front.assign(cards.begin(), cards.begin() + 3);
        p.middle.assign(cards.begin() + 3, cards.begin() + 8);
        p.back.assign(cards.begin() + 8, cards.begin() + 13);
        p.discard.assign(cards.begin() + 13, cards.end());
        return p;
    }
    std::vector<Placement> all = openface_placements(view);
    if (all.empty()) return {};
    if (policy == OpenFacePolicy::random)
        return all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)];
    if (policy == OpenFacePolicy::greedy) return greedy_of(view.board, all);

    // The last street: every placement valued exactly.
    if (view.streets_left == 0) {
        std::size_t best = 0;
        double best_value = -1e300;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Board b = with(view.board, all[i]);
            if (!b.full()) continue;
            const double v = openface_value(b.split());
            if (v > best_value) {
                best_value = v;
                best = i;
            }
        }
        return all[best];
    }
    // The candidates the greedy policy likes best.
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < all.size(); ++i)
        ranked.emplace_back(-board_score(with(view.board, all[i])), i);
    std::sort(ranked.begin(), ranked.end());
    if (ranked.size() > static_cast<std::size_t>(kCandidates))
        ranked.resize(static_cast<std::size_t>(kCandidates));

    // The cards the player has not seen: the stock the streets to come are dealt from.
    std::array<bool, 256> known{};
    for (Row r : kRows)
        for (Card c : view.board.row(r)) known[c.code()] = true;
    for (Card c : view.pending) known[c.code()] = true;
    for (Card c : view.seen) known[c.code()] = true;
    std::vector<Card> unseen;
    for (Card c : Deck::standard().cards())
        if (!known[c.code()]) unseen.push_back(c);
    const bool pineapple = view.variant == openface::Variant::pineapple;
    const std::size_t need = static_cast<std::size_t>(view.streets_left * (pineapple ? 3 : 1));
    if (unseen.size() < need) return greedy_of(view.board, all);

    std::vector<double> total(ranked.size());
    std::vector<Placement> scratch;
    for (int r = 0; r < kRollouts; ++r) {
        // One deal of the streets to come for every candidate: the comparison is paired.
        for (std::size_t i = 0; i < need; ++i)
            std::swap(unseen[i], unseen[i + rng() % (unseen.size() - i)]);
        for (std::size_t c = 0; c < ranked.size(); ++c) {
            std::size_t next = 0;
            const Board b = roll_out(with(view.board, all[ranked[c].second]), view.streets_left,
                                     pineapple, unseen, next, scratch);
            total[c] += openface_value(b.split());
        }
    }
    const auto best =
        static_cast<std::size_t>(std::max_element(total.begin(), total.end()) - total.begin());
    return all[ranked[best].second];
}

} // namespace felt::bots
