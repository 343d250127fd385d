#include "holdem_equity.h"

#include "rankings/evaluator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace felt::bots {

namespace {

int card_number(Card c) { // 0..51: rank by rank, suits within
    return c.rank().index() * 4 + c.suit().index();
}
Card card_of(int n) {
    return Card(Rank(n / 4), Suit(n % 4));
}

std::uint64_t bit(Card c) {
    return std::uint64_t{1} << card_number(c);
}

std::uint64_t mask_of(std::span<const Card> cards) {
    std::uint64_t m = 0;
    for (Card c : cards) m |= bit(c);
    return m;
}

HandKey key_of(std::span<const Card> cards) {
    HandKey k;
    for (Card c : cards) k = k + c;
    return k;
}

const std::array<std::array<Card, 2>, kCombos>& all_combos() {
    static const auto table = [] {
        std::array<std::array<Card, 2>, kCombos> t{};
        for (int j = 1; j < 52; ++j)
            for (int i = 0; i < j; ++i)
                t[static_cast<std::size_t>(j * (j - 1) / 2 + i)] = {card_of(j), card_of(i)};
        return t;
    }();
    return table;
}

// A starting hand's class: 0..168 (pairs, suited, offsuit by their two ranks).
int class_of(Card a, Card b) {
    int hi = a.rank().index(), lo = b.rank().index();
    if (hi < lo) std::swap(hi, lo);
    if (hi == lo) return hi;
    const bool suited = a.suit() == b.suit();
    return 13 + (hi * (hi - 1) / 2 + lo) * 2 + (suited ? 0 : 1);
}

// Equity against one random hand of each class's first combination, sampled with a fixed seed.
const std::array<float, kCombos>& rank_table() {
    static const auto table = [] {
        constexpr int kSamples = 20'000;
        std::array<double, 169> equity{};
        std::array<int, 169> count{};
        std::array<int, 169> example{};
        example.fill(-1);
        for (int c = 0; c < kCombos; ++c) {
            const auto [a, b] = all_combos()[static_cast<std::size_t>(c)];
            const auto k = static_cast<std::size_t>(class_of(a, b));
            ++count[k];
            if (example[k] < 0) example[k] = c;
        }
        Rng rng(0x5eed);
        const std::array<Range, 1> random_range{Range::top(1.0)};
        for (std::size_t k = 0; k < 169; ++k) {
            const auto& cards = all_combos()[static_cast<std::size_t>(example[k])];
            equity[k] = holdem_equity(cards, {}, random_range, kSamples, rng);
        }
        std::array<float, kCombos> rank{};
        for (int c = 0; c < kCombos; ++c) {
            const auto [a, b] = all_combos()[static_cast<std::size_t>(c)];
            const double e = equity[static_cast<std::size_t>(class_of(a, b))];
            int better = 0, same = 0;
            for (std::size_t k = 0; k < 169; ++k) {
                if (equity[k] > e) better += count[k];
                if (equity[k] == e) same += count[k];
            }
            rank[static_cast<std::size_t>(c)] =
                static_cast<float>((better + 0.5 * same) / static_cast<double>(kCombos));
        }
        return rank;
    }();
    return table;
}

// The value of the best five of `hole` with the board (5 to 7 cards in all).
HandValue value_of(const HandKey& board, Card a, Card b) {
    return evaluate(board + a + b);
}

// A range's hands without `dead` cards, ready to sample from: their running weights.
struct Sampler {
    std::vector<int> combos;
    std::vector<double> cumulative;
    Sampler(const Range& r, std::uint64_t dead) {
        double sum = 0;
        for (int c = 0; c < kCombos; ++c) {
            const float w = r.weight[static_cast<std::size_t>(c)];
            const auto& cards = all_combos()[static_cast<std::size_t>(c)];
            if (w <= 0 || ((bit(cards[0]) | bit(cards[1])) & dead)) continue;
            sum += w;
            combos.push_back(c);
            cumulative.push_back(sum);
        }
    }
    // A hand from the range that holds no card of `used`; -1 if none is found soon.
    int draw(std::uint64_t used, Rng& rng) const {
        if (combos.empty()) return -1;
        const double total = cumulative.back();
        for (int tries = 0; tries < 64; ++tries) {
            const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * total;
            const auto at = static_cast<std::size_t>(
                std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
            const int c = combos[std::min(at, combos.size() - 1)];
            const auto& cards = all_combos()[static_cast<std::size_t>(c)];
            if (!((bit(cards[0]) | bit(cards[1])) & used)) return c;
        }
        return -1;
    }
};

} // namespace

int combo_index(Card a, Card b) {
    int i = card_number(a), j = card_number(b);
    if (i > j) std::swap(i, j);
    return j * (j - 1) / 2 + i;
}

std::array<Card, 2> combo_cards(int index) {
    return all_combos()[static_cast<std::size_t>(index)];
}

double preflop_rank(int combo) {
    return rank_table()[static_cast<std::size_t>(combo)];
}
double preflop_rank(Card a, Card b) {
    return preflop_rank(combo_index(a, b));
}

double chen_score(Card a, Card b) {
    int hi = a.rank().index(), lo = b.rank().index();
    if (hi < lo) std::swap(hi, lo);
    // The highest card: ace 10, king 8, queen 7, jack 6, ten to deuce half their face value.
    auto points = [](int r) {
        return r == 12 ? 10.0 : r == 11 ? 8.0 : r == 10 ? 7.0 : r == 9 ? 6.0 : (r + 2) / 2.0;
    };
    double score = points(hi);
    if (hi == lo) return std::ceil(std::max(5.0, score * 2));
    if (a.suit() == b.suit()) score += 2;
    const int gap = hi - lo - 1;
    score -= gap == 0 ? 0 : gap == 1 ? 1 : gap == 2 ? 2 : gap == 3 ? 4 : 5;
    if (gap <= 1 && hi < 10) score += 1; // both below a queen, connected or one gap
    return std::ceil(score);
}

Range Range::top(double share) {
    constexpr double kEdge = 0.04;
    Range r;
    if (share >= 1) { // every hand (the ranks themselves are counted against this range)
        r.weight.fill(1);
        return r;
    }
    share = std::max(share, 0.005);
    for (int c = 0; c < kCombos; ++c)
        r.weight[static_cast<std::size_t>(c)] =
            static_cast<float>(std::clamp((share + kEdge - preflop_rank(c)) / kEdge, 0.0, 1.0));
    return r;
}

void Range::keep_strongest(std::span<const Card> board, double share) {
    constexpr float kLeft = 0.15f; // the weaker hands keep a little: a bluff, a draw
    const std::uint64_t dead = mask_of(board);
    const HandKey b = key_of(board);
    std::vector<std::pair<HandValue, int>> hands;
    double total = 0;
    for (int c = 0; c < kCombos; ++c) {
        const float w = weight[static_cast<std::size_t>(c)];
        const auto& cards = all_combos()[static_cast<std::size_t>(c)];
        if (w <= 0 || ((bit(cards[0]) | bit(cards[1])) & dead)) continue;
        hands.emplace_back(value_of(b, cards[0], cards[1]), c);
        total += w;
    }
    std::sort(hands.begin(), hands.end(),
              [](const auto& x, const auto& y) { return y.first < x.first; });
    double kept = 0;
    for (const auto& [value, c] : hands) {
        float& w = weight[static_cast<std::size_t>(c)];
        if (kept >= share * total) w *= kLeft;
        kept += w;
    }
}

void Range::remove(std::span<const Card> cards) {
    const std::uint64_t dead = mask_of(cards);
    for (int c = 0; c < kCombos; ++c) {
        const auto& h = all_combos()[static_cast<std::size_t>(c)];
        if ((bit(h[0]) | bit(h[1])) & dead) weight[static_cast<std::size_t>(c)] = 0;
    }
}

double Range::total() const {
    return std::accumulate(weight.begin(), weight.end(), 0.0);
}

double holdem_equity(std::span<const Card> hole, std::span<const Card> board,
                     std::span<const Range> opponents, int samples, Rng& rng) {
    const std::uint64_t known = mask_of(hole) | mask_of(board);
    std::vector<Sampler> samplers;
    samplers.reserve(opponents.size());
    for (const Range& r : opponents) samplers.emplace_back(r, known);
    const HandKey board_key = key_of(board);
    const int missing = 5 - static_cast<int>(board.size());
    double won = 0;
    int dealt = 0;
    std::vector<HandValue> theirs(opponents.size());
    for (int s = 0; s < samples; ++s) {
        std::uint64_t used = known;
        bool ok = true;
        std::vector<int> hands(opponents.size());
        for (std::size_t o = 0; o < samplers.size() && ok; ++o) {
            int c = samplers[o].draw(used, rng);
            if (c < 0) { // the range is used up by the others' cards: any two cards
                do {
                    c = static_cast<int>(rng.below(std::uint64_t{kCombos}));
                } while ((bit(all_combos()[static_cast<std::size_t>(c)][0]) |
                          bit(all_combos()[static_cast<std::size_t>(c)][1])) &
                         used);
            }
            hands[o] = c;
            const auto& cards = all_combos()[static_cast<std::size_t>(c)];
            used |= bit(cards[0]) | bit(cards[1]);
        }
        HandKey full = board_key;
        for (int k = 0; k < missing; ++k) {
            int n;
            do {
                n = static_cast<int>(rng.below(std::uint64_t{52}));
            } while (used >> n & 1);
            used |= std::uint64_t{1} << n;
            full = full + card_of(n);
        }
        const HandValue mine = evaluate(full + hole[0] + hole[1]);
        int ties = 1;
        bool lost = false;
        for (std::size_t o = 0; o < hands.size() && !lost; ++o) {
            const auto& cards = all_combos()[static_cast<std::size_t>(hands[o])];
            const HandValue v = evaluate(full + cards[0] + cards[1]);
            if (mine < v)
                lost = true;
            else if (!(v < mine))
                ++ties;
        }
        if (!lost) won += 1.0 / ties;
        ++dealt;
    }
    return dealt ? won / dealt : 0;
}

double hand_strength(std::span<const Card> hole, std::span<const Card> board) {
    if (board.size() < 3) return 1 - preflop_rank(hole[0], hole[1]);
    const std::uint64_t dead = mask_of(hole) | mask_of(board);
    const HandKey b = key_of(board);
    const HandValue mine = value_of(b, hole[0], hole[1]);
    double beaten = 0;
    int hands = 0;
    for (const auto& cards : all_combos()) {
        if ((bit(cards[0]) | bit(cards[1])) & dead) continue;
        const HandValue v = value_of(b, cards[0], cards[1]);
        beaten += v < mine ? 1 : v == mine ? 0.5 : 0;
        ++hands;
    }
    return beaten / hands;
}

} // namespace felt::bots
