#include "odds/holdem_exact.h"

#include "rankings/evaluator.h"

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace felt::odds::detail {

namespace {

constexpr int kMaxPlayers = 10;
constexpr int kBoard = 5;

// A rank's part of the evaluator's key: the rank multiset's half, no suit counters.
std::uint64_t rank_key(int r) {
    return tables::kCardKey[Card(Rank(r), Suit(0)).code()] & 0xFFFFFFFF00000000ull;
}

const std::array<std::uint64_t, 13> kRankKey = [] {
    std::array<std::uint64_t, 13> k{};
    for (int r = 0; r < 13; ++r) k[static_cast<std::size_t>(r)] = rank_key(r);
    return k;
}();

constexpr std::array<std::array<double, 5>, 5> kChoose = {{
    {1, 0, 0, 0, 0},
    {1, 1, 0, 0, 0},
    {1, 2, 1, 0, 0},
    {1, 3, 3, 1, 0},
    {1, 4, 6, 4, 1},
}};

// Calls leaf(key, weight) for every multiset of `left` ranks with at most avail[r] of rank r,
// `key` the multiset's rank key and `weight` the ways to deal it (the product of C(avail, m)).
template <class Leaf>
void rank_multisets(const std::array<int, 13>& avail, int r, int left, std::uint64_t key,
                    double weight, Leaf& leaf) {
    if (left == 0) {
        leaf(key, weight);
        return;
    }
    if (r < 0) return;
    const int most = std::min(left, avail[static_cast<std::size_t>(r)]);
    for (int m = 0; m <= most; ++m) {
        rank_multisets(avail, r - 1, left - m,
                       key + static_cast<std::uint64_t>(m) * kRankKey[static_cast<std::size_t>(r)],
                       weight *
                           kChoose[static_cast<std::size_t>(avail[static_cast<std::size_t>(r)])]
                                  [static_cast<std::size_t>(m)],
                       leaf);
    }
}

struct Deal {
    int players = 0;
    std::array<Card, 2 * kMaxPlayers> hole{}; // player p: 2p, 2p + 1 (higher first)
};

class Enumerator {
  public:
    Enumerator(int players, std::span<const Card> board, std::span<const Card> dead)
        : players_(players), left_(kBoard - static_cast<int>(board.size())) {
        for (Card c : board) {
            board_key_ += kRankKey[static_cast<std::size_t>(c.rank().index())];
            ++fixed_used_[static_cast<std::size_t>(c.rank().index())];
            board_suit_[static_cast<std::size_t>(c.suit().index())] |= 1u << c.rank().index();
        }
        for (Card c : dead) {
            ++fixed_used_[static_cast<std::size_t>(c.rank().index())];
            dead_suit_[static_cast<std::size_t>(c.suit().index())] |= 1u << c.rank().index();
        }
    }

    // Adds one deal's outcome, `w` times, to `total`.
    void add(const Deal& d, double w, Tally& total) {
        std::string sig(static_cast<std::size_t>(players_), '\0');
        for (int p = 0; p < players_; ++p)
            sig[static_cast<std::size_t>(p)] = static_cast<char>(d.hole[2 * p].rank().index() * 13 +
                                                                 d.hole[2 * p + 1].rank().index());
        auto [it, fresh] = ranks_.try_emplace(sig);
        if (fresh) it->second = rank_part(d);
        total.add(it->second, w);
        for (int s = 0; s < 4; ++s) {
            std::string key = sig;
            for (int p = 0; p < players_; ++p)
                key += static_cast<char>((d.hole[2 * p].suit().index() == s ? 1 : 0) |
                                         (d.hole[2 * p + 1].suit().index() == s ? 2 : 0));
            key += static_cast<char>(board_suit_[static_cast<std::size_t>(s)] & 0xFF);
            key += static_cast<char>(board_suit_[static_cast<std::size_t>(s)] >> 8);
            key += static_cast<char>(dead_suit_[static_cast<std::size_t>(s)] & 0xFF);
            key += static_cast<char>(dead_suit_[static_cast<std::size_t>(s)] >> 8);
            auto [jt, fresh_s] = flushes_.try_emplace(std::move(key));
            if (fresh_s) jt->second = flush_part(d, s);
            total.add(jt->second, w);
        }
    }

  private:
    // Cards of each rank left in the deck.
    std::array<int, 13> avail(const Deal& d) const {
        std::array<int, 13> a{};
        for (int r = 0; r < 13; ++r)
            a[static_cast<std::size_t>(r)] = 4 - fixed_used_[static_cast<std::size_t>(r)];
        for (int i = 0; i < 2 * players_; ++i)
            --a[static_cast<std::size_t>(d.hole[static_cast<std::size_t>(i)].rank().index())];
        return a;
    }

    std::array<std::uint64_t, kMaxPlayers> hole_keys(const Deal& d) const {
        std::array<std::uint64_t, kMaxPlayers> k{};
        for (int p = 0; p < players_; ++p)
            k[static_cast<std::size_t>(p)] =
                board_key_ + kRankKey[static_cast<std::size_t>(d.hole[2 * p].rank().index())] +
                kRankKey[static_cast<std::size_t>(d.hole[2 * p + 1].rank().index())];
        return k;
    }

    // Every board judged by its ranks alone.
    Tally rank_part(const Deal& d) const {
        Tally t(players_);
        const auto keys = hole_keys(d);
        std::array<std::uint32_t, kMaxPlayers> v{};
        auto leaf = [&](std::uint64_t key, double w) {
            for (int p = 0; p < players_; ++p)
                v[static_cast<std::size_t>(p)] =
                    felt::detail::rank_value(keys[static_cast<std::size_t>(p)] + key).raw();
            settle(v.data(), players_, w, t);
            t.showdowns += w;
        };
        rank_multisets(avail(d), 12, left_, 0, 1, leaf);
        return t;
    }

    // The boards with enough cards of suit s for somebody's flush: what the flush changes.
    Tally flush_part(const Deal& d, int s) const {
        Tally t(players_);
        const unsigned board_s = board_suit_[static_cast<std::size_t>(s)];
        std::array<unsigned, kMaxPlayers> held{};
        unsigned taken = board_s | dead_suit_[static_cast<std::size_t>(s)];
        int most = 0;
        for (int p = 0; p < players_; ++p) {
            for (int i = 0; i < 2; ++i) {
                const Card c = d.hole[static_cast<std::size_t>(2 * p + i)];
                if (c.suit().index() == s)
                    held[static_cast<std::size_t>(p)] |= 1u << c.rank().index();
            }
            taken |= held[static_cast<std::size_t>(p)];
            most = std::max(most, std::popcount(held[static_cast<std::size_t>(p)]));
        }
        const int on_board = std::popcount(board_s);
        const int fewest = std::max(0, 5 - most - on_board); // suited cards still needed
        if (fewest > left_) return t;
        const unsigned free_s = 0x1FFF & ~taken;
        std::array<int, 13> others = avail(d); // cards of each rank outside suit s
        for (int r = 0; r < 13; ++r)
            if (free_s >> r & 1) --others[static_cast<std::size_t>(r)];
        const auto keys = hole_keys(d);
        std::array<std::uint32_t, kMaxPlayers> flush{}, plain{}, real{};
        // Every set of suited cards to come, by submask of the free ranks.
        for (unsigned sub = free_s;; sub = (sub - 1) & free_s) {
            const int j = std::popcount(sub);
            if (j >= fewest && j <= left_) {
                std::uint64_t suited_key = 0;
                for (unsigned m = sub; m; m &= m - 1)
                    suited_key += kRankKey[static_cast<std::size_t>(std::countr_zero(m))];
                bool any = false;
                for (int p = 0; p < players_; ++p) {
                    const unsigned ranks = held[static_cast<std::size_t>(p)] | board_s | sub;
                    flush[static_cast<std::size_t>(p)] =
                        std::popcount(ranks) >= 5 ? tables::kFlushTable[ranks] : 0;
                    any |= flush[static_cast<std::size_t>(p)] != 0;
                }
                if (any) {
                    auto leaf = [&](std::uint64_t key, double w) {
                        for (int p = 0; p < players_; ++p) {
                            const auto i = static_cast<std::size_t>(p);
                            plain[i] = felt::detail::rank_value(keys[i] + suited_key + key).raw();
                            real[i] = flush[i] ? flush[i] : plain[i];
                        }
                        settle(real.data(), players_, w, t);
                        settle(plain.data(), players_, -w, t);
                    };
                    rank_multisets(others, 12, left_ - j, 0, 1, leaf);
                }
            }
            if (sub == 0) break;
        }
        return t;
    }

    int players_;
    int left_;
    std::uint64_t board_key_ = 0;
    std::array<int, 13> fixed_used_{};
    std::array<unsigned, 4> board_suit_{}, dead_suit_{};
    std::unordered_map<std::string, Tally> ranks_, flushes_;
};

} // namespace

Tally holdem_exact(std::span<const std::vector<Combo>> ranges, std::span<const Card> board,
                   std::span<const Card> dead) {
    const int n = static_cast<int>(ranges.size());
    Tally total(n);
    Enumerator e(n, board, dead);
    const auto bit = [](Card c) {
        return std::uint64_t{1} << (c.rank().index() * 4 + c.suit().index());
    };
    std::uint64_t fixed = 0;
    for (Card c : board) fixed |= bit(c);
    for (Card c : dead) fixed |= bit(c);
    Deal d;
    d.players = n;
    // Player by player, each combination that shares no card with those chosen before.
    auto deal = [&](auto& self, int p, std::uint64_t used, double w) -> void {
        if (p == n) {
            e.add(d, w, total);
            return;
        }
        for (const Combo& c : ranges[static_cast<std::size_t>(p)]) {
            const std::uint64_t mask = bit(c.high) | bit(c.low);
            if (used & mask) continue;
            d.hole[static_cast<std::size_t>(2 * p)] = c.high;
            d.hole[static_cast<std::size_t>(2 * p + 1)] = c.low;
            self(self, p + 1, used | mask, w * c.weight);
        }
    };
    deal(deal, 0, fixed, 1);
    return total;
}

} // namespace felt::odds::detail
