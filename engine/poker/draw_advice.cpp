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
    // The standard ranking: by HandValue::raw().
    std::vector<std::uint64_t> by_value;
    // Rankings of ranks alone (vertical, horizontal): by the hand's ranks, at the colex index of
    // the sorted ranks r0 <= ... <= r4 made distinct as r_i + i.
    std::vector<std::uint64_t> by_ranks;
    // Any other: by hand, at the colex index of its cards' places in the deck.
    std::vector<std::uint32_t> by_hand;
    // The standard ranking with wild cards, a hand holding w of them: its value depends only on
    // its natural cards, so by_naturals[w] holds the doubled rank at the colex index of their
    // places among the deck's natural cards (natural[card code], -1 for a wild card).
    std::array<std::vector<std::uint64_t>, 6> by_naturals;
    std::array<int, 256> natural{};
};

enum class Kind : unsigned char { value, ranks, hand };

Kind kind_of(const Ranking& r) {
    if (r.name() == "standard") return Kind::value;
    if (r.name() == "vertical" || r.name() == "horizontal") return Kind::ranks;
    return Kind::hand;
}

// C(n, k) for n up to kMaxDeck and k up to 5: colex indices of five places in the deck.
constexpr int kMaxDeck = 80;
struct Binomials {
    std::array<std::array<std::uint32_t, 6>, kMaxDeck + 1> c{};
    constexpr Binomials() {
        for (int n = 0; n <= kMaxDeck; ++n) {
            c[static_cast<std::size_t>(n)][0] = 1;
            for (int k = 1; k <= 5 && k <= n; ++k)
                c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)] =
                    c[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k - 1)] +
                    (k <= n - 1 ? c[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k)]
                                : 0);
        }
    }
};
constexpr Binomials kBinomials;

// The colex index of five places, in increasing order.
inline std::uint32_t colex(const std::array<int, 5>& p, std::size_t size = 5) {
    std::uint32_t out = 0;
    for (std::size_t i = 0; i < size; ++i)
        out += kBinomials.c[static_cast<std::size_t>(p[i])][i + 1];
    return out;
}

// Sorts the first n (at most 5) numbers, by insertion: faster than std::sort for so few.
inline void sort_small(std::array<int, 5>& p, int n) {
    for (int i = 1; i < n; ++i) {
        const int x = p[static_cast<std::size_t>(i)];
        int j = i;
        for (; j > 0 && p[static_cast<std::size_t>(j - 1)] > x; --j)
            p[static_cast<std::size_t>(j)] = p[static_cast<std::size_t>(j - 1)];
        p[static_cast<std::size_t>(j)] = x;
    }
}

// The index of five ranks (any order) in Shares::by_ranks.
inline std::uint32_t ranks_index(std::array<int, 5> r) {
    sort_small(r, 5);
    for (std::size_t i = 0; i < 5; ++i) r[i] += static_cast<int>(i);
    return colex(r);
}

// Calls f(cards, index) for every five of `deck` (physical cards: a card of two packs counts
// twice), in the order of their colex index.
template <class F>
void each_five(const std::vector<Card>& deck, F&& f) {
    const int n = static_cast<int>(deck.size());
    std::array<Card, 5> h{};
    std::uint32_t index = 0;
    for (int e = 4; e < n; ++e) {
        h[4] = deck[static_cast<std::size_t>(e)];
        for (int d = 3; d < e; ++d) {
            h[3] = deck[static_cast<std::size_t>(d)];
            for (int c = 2; c < d; ++c) {
                h[2] = deck[static_cast<std::size_t>(c)];
                for (int b = 1; b < c; ++b) {
                    h[1] = deck[static_cast<std::size_t>(b)];
                    for (int a = 0; a < b; ++a) {
                        h[0] = deck[static_cast<std::size_t>(a)];
                        f(h, index++);
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
    const Kind kind = kind_of(r);
    if (kind == Kind::value) {
        // A hand without wild cards through the fast evaluator; one with them, the wild one.
        std::vector<std::uint64_t> count(tables::kClassCount + 1, 0);
        const Wild wild = r.wild();
        each_five(deck, [&](const std::array<Card, 5>& h, std::uint32_t) {
            const bool plain =
                std::none_of(h.begin(), h.end(), [&](Card c) { return is_wild(c, wild); });
            ++count[plain ? evaluate<5>(h.data()).raw() : evaluate_wild(h, wild).raw()];
            ++s.hands;
        });
        s.by_value = doubled_ranks(count);
        if (wild == Wild::none) return s;
        // Every set of natural cards that a hand with w wild cards holds.
        std::vector<Card> naturals, wilds;
        s.natural.fill(-1);
        for (Card c : deck) {
            if (is_wild(c, wild)) {
                wilds.push_back(c);
                continue;
            }
            s.natural[c.code()] = static_cast<int>(naturals.size());
            naturals.push_back(c);
        }
        const int m = static_cast<int>(naturals.size());
        for (int w = 1; w <= 5 && w <= static_cast<int>(wilds.size()); ++w) {
            const int j = 5 - w;
            std::vector<std::uint64_t>& table = s.by_naturals[static_cast<std::size_t>(w)];
            table.assign(choose(static_cast<std::uint64_t>(m), j), 0);
            std::array<Card, 5> h{};
            for (int i = 0; i < w; ++i)
                h[static_cast<std::size_t>(j + i)] = wilds[static_cast<std::size_t>(i)];
            std::array<int, 5> p{};
            auto walk = [&](auto&& self, int at, int from) -> void {
                if (at == j) {
                    table[colex(p, static_cast<std::size_t>(j))] =
                        s.by_value[evaluate_wild(h, wild).raw()];
                    return;
                }
                for (int i = from; i < m; ++i) {
                    p[static_cast<std::size_t>(at)] = i;
                    h[static_cast<std::size_t>(at)] = naturals[static_cast<std::size_t>(i)];
                    self(self, at + 1, i + 1);
                }
            };
            walk(walk, 0, 0);
        }
        return s;
    }
    if (kind == Kind::ranks) {
        // One hand per multiset of ranks stands for all of them: C(copies, m) ways to hold m
        // cards of a rank.
        int ranks = 0;
        std::array<std::vector<Card>, 32> of_rank;
        for (Card c : deck) {
            of_rank[static_cast<std::size_t>(c.rank().index())].push_back(c);
            ranks = std::max(ranks, c.rank().index() + 1);
        }
        struct Class {
            Strength strength;
            std::uint64_t count;
            std::uint32_t index;
        };
        std::vector<Class> classes;
        std::array<int, 5> rk{};
        auto walk = [&](auto&& self, int at, int from) -> void {
            if (at == 5) {
                std::array<int, 32> m{};
                std::vector<Card> hand;
                std::uint64_t ways = 1;
                for (int x : rk) ++m[static_cast<std::size_t>(x)];
                for (int x = 0; x < ranks; ++x) {
                    const auto& cards = of_rank[static_cast<std::size_t>(x)];
                    const int want = m[static_cast<std::size_t>(x)];
                    if (want > static_cast<int>(cards.size())) return;
                    ways *= choose(cards.size(), want);
                    hand.insert(hand.end(), cards.begin(), cards.begin() + want);
                }
                classes.push_back({r.strength(hand), ways, ranks_index(rk)});
                s.hands += ways;
                return;
            }
            for (int x = from; x < ranks; ++x) {
                rk[static_cast<std::size_t>(at)] = x;
                self(self, at + 1, x);
            }
        };
        walk(walk, 0, 0);
        std::sort(classes.begin(), classes.end(),
                  [](const Class& a, const Class& b) { return a.strength < b.strength; });
        s.by_ranks.assign(choose(static_cast<std::uint64_t>(ranks + 4), 5), 0);
        std::uint64_t below = 0;
        for (std::size_t i = 0; i < classes.size();) {
            std::size_t j = i;
            std::uint64_t equal = 0;
            while (j < classes.size() && classes[j].strength == classes[i].strength)
                equal += classes[j++].count;
            for (std::size_t k = i; k < j; ++k) s.by_ranks[classes[k].index] = 2 * below + equal;
            below += equal;
            i = j;
        }
        return s;
    }
    // Any other ranking: each hand's strength, the strengths in order, each hand's doubled rank.
    s.by_hand.resize(choose(deck.size(), 5));
    std::map<Strength, std::uint32_t> ids;
    std::vector<std::uint64_t> count;
    each_five(deck, [&](const std::array<Card, 5>& h, std::uint32_t i) {
        const auto [it, added] =
            ids.try_emplace(r.strength(h), static_cast<std::uint32_t>(ids.size()));
        if (added) count.push_back(0);
        ++count[it->second];
        s.by_hand[i] = it->second;
    });
    std::vector<std::uint64_t> in_order;
    std::vector<std::uint32_t> place(ids.size());
    for (const auto& [strength, id] : ids) {
        place[id] = static_cast<std::uint32_t>(in_order.size());
        in_order.push_back(count[id]);
    }
    const std::vector<std::uint64_t> ranked = doubled_ranks(in_order);
    for (std::uint32_t& x : s.by_hand) x = static_cast<std::uint32_t>(ranked[place[x]]);
    s.hands = s.by_hand.size();
    return s;
}

// One table per deck and ranking, built on first use and kept: a few milliseconds for the
// standard ranking without wild cards; for the others a few hundred, and 4 bytes a hand.
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

// The places in the deck of `cards`, each card at a place not taken before (a card of two packs
// has two). The caller has checked the cards against the deck.
std::vector<int> places_of(const std::vector<Card>& deck, std::span<const Card> cards,
                           std::vector<bool>& taken) {
    std::vector<int> out;
    for (Card c : cards) {
        for (std::size_t i = 0; i < deck.size(); ++i)
            if (deck[i] == c && !taken[i]) {
                taken[i] = true;
                out.push_back(static_cast<int>(i));
                break;
            }
    }
    return out;
}

// The doubled rank of five places.
std::uint32_t rank_of_places(const Shares& s, std::array<int, 5> p) {
    sort_small(p, 5);
    return s.by_hand[colex(p)];
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
    if (choose(r.cards().size(), 5) > kMaxHands || r.cards().size() > kMaxDeck)
        return make_error(Errc::bad_option,
                          "a deck of " + std::to_string(r.cards().size()) +
                              " cards has too many five-card hands for an exact hint");
    const std::shared_ptr<const Shares> shares = shares_for(r);
    const int n = static_cast<int>(unseen.size());
    const Kind kind = kind_of(r);
    const Wild wild = r.wild();
    // The last kind works with places in the deck.
    const std::vector<Card> deck = r.cards();
    std::vector<bool> taken(deck.size(), false);
    const std::vector<int> hand_places =
        kind == Kind::hand ? places_of(deck, hand, taken) : std::vector<int>{};
    const std::vector<int> unseen_places =
        kind == Kind::hand ? places_of(deck, unseen, taken) : std::vector<int>{};

    std::vector<DrawOption> out;
    std::vector<std::uint64_t> sums;
    for (int k = 0; k <= max_discard && k <= n; ++k)
        for (unsigned m = 0; m < 32; ++m) {
            if (std::popcount(m) != k) continue;
            std::uint64_t sum = 0;
            std::array<Card, 5> cards{};
            std::array<int, 5> p{}; // ranks, or places
            int kept = 0;
            for (int i = 0; i < 5; ++i) {
                if (m >> i & 1) continue;
                const auto at = static_cast<std::size_t>(kept++);
                cards[at] = hand[static_cast<std::size_t>(i)];
                p[at] = kind == Kind::hand ? hand_places[static_cast<std::size_t>(i)]
                                           : cards[at].rank().index();
            }
            if (kind == Kind::value) {
                // The fast evaluator adds the plain cards; a hand holding a wild card goes to
                // the wild evaluator.
                HandKey base;
                int wilds = 0;
                for (int i = 0; i < kept; ++i) {
                    const Card c = cards[static_cast<std::size_t>(i)];
                    if (is_wild(c, wild))
                        ++wilds;
                    else
                        base = base + c;
                }
                const std::uint64_t* by = shares->by_value.data();
                if (wild == Wild::none) { // no wild card in the deck: the fast evaluator only
                    auto plain = [&](auto&& self, const HandKey& h, int left, int from) -> void {
                        if (left == 0) {
                            sum += by[evaluate(h).raw()];
                            return;
                        }
                        for (int i = from; i <= n - left; ++i)
                            self(self, h + unseen[static_cast<std::size_t>(i)], left - 1, i + 1);
                    };
                    plain(plain, base, k, 0);
                }
                // With wild cards: a hand holding some is looked up by its natural cards.
                std::array<int, 5> nat{};
                int plain_kept = 0;
                for (int i = 0; i < kept; ++i) {
                    const int x = shares->natural[cards[static_cast<std::size_t>(i)].code()];
                    if (x >= 0) nat[static_cast<std::size_t>(plain_kept++)] = x;
                }
                auto walk = [&](auto&& self, const HandKey& h, int w, int at, int from) -> void {
                    if (at == 5) {
                        if (w == 0) {
                            sum += by[evaluate(h).raw()];
                        } else {
                            std::array<int, 5> q = nat;
                            sort_small(q, 5 - w);
                            sum += shares->by_naturals[static_cast<std::size_t>(w)]
                                                      [colex(q, static_cast<std::size_t>(5 - w))];
                        }
                        return;
                    }
                    for (int i = from; i <= n - (5 - at); ++i) {
                        const Card c = unseen[static_cast<std::size_t>(i)];
                        const int x = shares->natural[c.code()];
                        if (x < 0) {
                            self(self, h, w + 1, at + 1, i + 1);
                        } else {
                            nat[static_cast<std::size_t>(at - w)] = x;
                            self(self, h + c, w, at + 1, i + 1);
                        }
                    }
                };
                if (wild != Wild::none) walk(walk, base, wilds, kept, 0);
            } else {
                const bool by_ranks = kind == Kind::ranks;
                auto walk = [&](auto&& self, int at, int from) -> void {
                    if (at == 5) {
                        sum += by_ranks ? shares->by_ranks[ranks_index(p)]
                                        : rank_of_places(*shares, p);
                        return;
                    }
                    for (int i = from; i <= n - (5 - at); ++i) {
                        p[static_cast<std::size_t>(at)] =
                            by_ranks ? unseen[static_cast<std::size_t>(i)].rank().index()
                                     : unseen_places[static_cast<std::size_t>(i)];
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
    std::uint64_t twice = 0;
    switch (kind_of(r)) {
    case Kind::value:
        twice = s->by_value[evaluate_hand(five, r.wild()).value().raw()];
        break;
    case Kind::ranks:
        twice = s->by_ranks[ranks_index({five[0].rank().index(), five[1].rank().index(),
                                         five[2].rank().index(), five[3].rank().index(),
                                         five[4].rank().index()})];
        break;
    case Kind::hand: {
        const std::vector<Card> deck = r.cards();
        std::vector<bool> taken(deck.size(), false);
        const std::vector<int> p = places_of(deck, five, taken);
        twice = rank_of_places(*s, {p[0], p[1], p[2], p[3], p[4]});
        break;
    }
    }
    return static_cast<double>(twice) / (2.0 * static_cast<double>(s->hands));
}

} // namespace felt::poker
