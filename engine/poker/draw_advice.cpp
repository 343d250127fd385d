#include "poker/draw_advice.h"

#include "rankings/evaluator.h"
#include "rankings/wild.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace felt::poker {

namespace {

__extension__ using u128 = unsigned __int128; // exact comparison of two expected results

constexpr std::uint64_t kMaxHands = 20'000'000;

std::uint64_t choose(std::uint64_t n, int k) {
    if (k < 0 || static_cast<std::uint64_t>(k) > n) return 0;
    std::uint64_t out = 1;
    for (int i = 1; i <= k; ++i) out = out * (n - static_cast<std::uint64_t>(k) + i) / i;
    return out;
}

// Each five-card hand's rank among all five-card hands of the deck, doubled so that it stays
// whole: 2 * (hands it beats) + (hands it ties, itself included). The share is that over twice
// the number of hands.
struct Shares {
    std::uint64_t hands = 0;
    // Standard ranking: by HandValue::raw().
    std::vector<std::uint64_t> by_value;
    // Any other: by strength, sorted.
    std::vector<Strength> strengths;
    std::vector<std::uint64_t> by_strength;

    std::uint64_t of(const Strength& s) const {
        const auto it = std::lower_bound(strengths.begin(), strengths.end(), s);
        return by_strength[static_cast<std::size_t>(it - strengths.begin())];
    }
};

// Calls f(cards) for every five of `deck` (physical cards: a card of two packs counts twice).
template <class F>
void each_five(const std::vector<Card>& deck, F&& f) {
    const int n = static_cast<int>(deck.size());
    std::array<Card, 5> h{};
    for (int a = 0; a < n; ++a) {
        h[0] = deck[static_cast<std::size_t>(a)];
        for (int b = a + 1; b < n; ++b) {
            h[1] = deck[static_cast<std::size_t>(b)];
            for (int c = b + 1; c < n; ++c) {
                h[2] = deck[static_cast<std::size_t>(c)];
                for (int d = c + 1; d < n; ++d) {
                    h[3] = deck[static_cast<std::size_t>(d)];
                    for (int e = d + 1; e < n; ++e) {
                        h[4] = deck[static_cast<std::size_t>(e)];
                        f(h);
                    }
                }
            }
        }
    }
}

// From a count per value (or strength), in increasing order: the doubled ranks.
std::vector<std::uint64_t> doubled_ranks(const std::vector<std::uint64_t>& count) {
    std::vector<std::uint64_t> out(count.size());
    std::uint64_t below = 0;
    for (std::size_t i = 0; i < count.size(); ++i) {
        out[i] = 2 * below + count[i];
        below += count[i];
    }
    return out;
}

Shares build_shares(const Ranking& r) {
    Shares s;
    const std::vector<Card> deck = r.cards();
    if (r.name() == "standard") {
        s.by_value.assign(tables::kClassCount + 1, 0);
        std::vector<std::uint64_t>& count = s.by_value;
        if (r.wild() == Wild::none) {
            each_five(deck, [&](const std::array<Card, 5>& h) {
                ++count[evaluate<5>(h.data()).raw()];
                ++s.hands;
            });
        } else {
            each_five(deck, [&](const std::array<Card, 5>& h) {
                ++count[evaluate_hand(h, r.wild()).value().raw()];
                ++s.hands;
            });
        }
        s.by_value = doubled_ranks(count);
        return s;
    }
    std::map<Strength, std::uint64_t> count;
    each_five(deck, [&](const std::array<Card, 5>& h) {
        ++count[r.strength(h)];
        ++s.hands;
    });
    std::vector<std::uint64_t> counts;
    for (const auto& [strength, n] : count) {
        s.strengths.push_back(strength);
        counts.push_back(n);
    }
    s.by_strength = doubled_ranks(counts);
    return s;
}

// One table per deck and ranking, built on first use (a few hundred milliseconds) and kept.
std::shared_ptr<const Shares> shares_for(const Ranking& r) {
    static std::mutex m;
    static std::map<std::string, std::shared_ptr<const Shares>> cache;
    const std::vector<Card> deck = r.cards();
    std::string key(r.name());
    key += ' ';
    key += wild_name(r.wild());
    key += ' ';
    key += r.to_string(deck);
    std::lock_guard lock(m);
    auto& slot = cache[key];
    if (!slot) slot = std::make_shared<const Shares>(build_shares(r));
    return slot;
}

// Checks a hand (and cards beside it) against the deck: five cards, no card more often than the
// deck holds it.
std::optional<Error> check_cards(const Ranking& r, std::span<const Card> hand,
                                 std::span<const Card> more, int max_discard) {
    if (hand.size() != 5)
        return make_error(Errc::wrong_count,
                          "a draw hand is five cards, not " + std::to_string(hand.size()));
    if (max_discard < 0 || max_discard > 5)
        return make_error(Errc::bad_option,
                          "the most cards to throw is 0 to 5, not " + std::to_string(max_discard));
    std::array<int, 256> used{};
    for (std::span<const Card> part : {hand, more})
        for (Card c : part) {
            const Card one[] = {c};
            if (r.copies_of(c) == 0)
                return make_error(Errc::bad_card, r.to_string(one) + " is not a card of this deck");
            if (++used[c.code()] > r.copies_of(c))
                return make_error(Errc::duplicate_card,
                                  r.to_string(one) + " is given more often than the deck holds it");
        }
    return std::nullopt;
}

} // namespace

Result<Exchange> best_exchange(const Ranking& r, std::span<const Card> hand,
                               std::span<const Card> next, int max_discard) {
    if (auto e = check_cards(r, hand, next, max_discard)) return *e;
    if (next.size() < static_cast<std::size_t>(max_discard))
        return make_error(Errc::wrong_count, "the next cards of the deck are " +
                                                 std::to_string(max_discard) + ", not " +
                                                 std::to_string(next.size()));
    std::optional<Exchange> best;
    // By cards thrown, then in order of the hand: the first of equal hands is kept.
    for (int k = 0; k <= max_discard; ++k)
        for (unsigned m = 0; m < 32; ++m) {
            if (std::popcount(m) != k) continue;
            Exchange x;
            x.thrown = static_cast<std::uint8_t>(m);
            x.count = k;
            for (int i = 0; i < 5; ++i)
                if (!(m >> i & 1)) x.hand.push_back(hand[static_cast<std::size_t>(i)]);
            for (int i = 0; i < k; ++i) x.hand.push_back(next[static_cast<std::size_t>(i)]);
            auto j = r.judge(x.hand);
            if (!j) return j.error();
            x.judgement = std::move(j).value();
            if (!best || x.judgement.strength > best->judgement.strength) best = std::move(x);
        }
    return std::move(*best);
}

Result<std::vector<DrawOption>> draw_hint(const Ranking& r, std::span<const Card> hand,
                                          int max_discard, std::span<const Card> unseen_given) {
    if (auto e = check_cards(r, hand, unseen_given, max_discard)) return *e;
    std::vector<Card> unseen(unseen_given.begin(), unseen_given.end());
    if (unseen.empty()) {
        unseen = r.cards();
        for (Card c : hand) unseen.erase(std::find(unseen.begin(), unseen.end(), c));
    }
    if (choose(r.cards().size(), 5) > kMaxHands)
        return make_error(Errc::bad_option,
                          "a deck of " + std::to_string(r.cards().size()) +
                              " cards has too many five-card hands for an exact hint");
    const std::shared_ptr<const Shares> shares = shares_for(r);
    const int n = static_cast<int>(unseen.size());
    const bool fast = r.name() == "standard" && r.wild() == Wild::none;

    std::vector<DrawOption> out;
    std::vector<std::uint64_t> sums;
    for (int k = 0; k <= max_discard && k <= n; ++k)
        for (unsigned m = 0; m < 32; ++m) {
            if (std::popcount(m) != k) continue;
            std::array<Card, 5> cards{};
            int kept = 0;
            for (int i = 0; i < 5; ++i)
                if (!(m >> i & 1))
                    cards[static_cast<std::size_t>(kept++)] = hand[static_cast<std::size_t>(i)];
            std::uint64_t sum = 0;
            if (fast) {
                HandKey base;
                for (int i = 0; i < kept; ++i) base = base + cards[static_cast<std::size_t>(i)];
                const std::uint64_t* by = shares->by_value.data();
                auto walk = [&](auto&& self, const HandKey& h, int left, int from) -> void {
                    if (left == 0) {
                        sum += by[evaluate(h).raw()];
                        return;
                    }
                    for (int i = from; i <= n - left; ++i)
                        self(self, h + unseen[static_cast<std::size_t>(i)], left - 1, i + 1);
                };
                walk(walk, base, k, 0);
            } else {
                auto walk = [&](auto&& self, int at, int from) -> void {
                    if (at == 5) {
                        sum += shares->by_value.empty()
                                   ? shares->of(r.strength(cards))
                                   : shares->by_value[evaluate_hand(cards, r.wild()).value().raw()];
                        return;
                    }
                    for (int i = from; i <= n - (5 - at); ++i) {
                        cards[static_cast<std::size_t>(at)] = unseen[static_cast<std::size_t>(i)];
                        self(self, at + 1, i + 1);
                    }
                };
                walk(walk, kept, 0);
            }
            DrawOption o;
            o.thrown = static_cast<std::uint8_t>(m);
            o.count = k;
            o.draws = choose(static_cast<std::uint64_t>(n), k);
            o.expected = static_cast<double>(sum) /
                         (static_cast<double>(o.draws) * 2.0 * static_cast<double>(shares->hands));
            out.push_back(o);
            sums.push_back(sum);
        }
    // Best first, compared exactly (sum_a / draws_a against sum_b / draws_b); ties: fewer thrown,
    // then the order of the hand.
    std::vector<std::size_t> order(out.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return u128(sums[a]) * out[b].draws > u128(sums[b]) * out[a].draws;
    });
    std::vector<DrawOption> sorted;
    for (std::size_t i : order) sorted.push_back(out[i]);
    return sorted;
}

double hand_share(const Ranking& r, std::span<const Card> five) {
    const std::shared_ptr<const Shares> s = shares_for(r);
    const std::uint64_t twice = s->by_value.empty()
                                    ? s->of(r.strength(five))
                                    : s->by_value[evaluate_hand(five, r.wild()).value().raw()];
    return static_cast<double>(twice) / (2.0 * static_cast<double>(s->hands));
}

} // namespace felt::poker
