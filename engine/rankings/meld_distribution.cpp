#include "rankings/meld_distribution.h"

#include "rankings/melds.h"
#include "rankings/ranking.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace felt {

namespace {

// C(n, k) for the small n here (at most 30 * 8 cards); callers keep results within 2^64.
std::uint64_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    k = std::min(k, n - k);
    std::uint64_t r = 1;
    for (int i = 1; i <= k; ++i)
        r = r * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
    return r;
}

// Calls f(parts) for every partition of n into parts of at most max_part, at most max_parts of
// them, parts largest first.
template <class F>
void for_each_partition(int n, int max_part, int max_parts, F&& f) {
    std::vector<int> parts;
    auto rec = [&](auto&& self, int left, int largest) -> void {
        if (left == 0) {
            f(parts);
            return;
        }
        if (static_cast<int>(parts.size()) == max_parts) return;
        for (int p = std::min(left, largest); p >= 1; --p) {
            parts.push_back(p);
            self(self, left - p, p);
            parts.pop_back();
        }
    };
    rec(rec, n, max_part);
}

// Hands whose groups (by rank for horizontal, by suit for flush) have these sizes: choose which
// of `kinds` kinds hold each group, then `cards_per_kind`-choose-size cards of each group.
std::uint64_t group_ways(const std::vector<int>& parts, int kinds, int cards_per_kind) {
    std::uint64_t ways = 1;
    int free_kinds = kinds;
    for (std::size_t i = 0; i < parts.size();) {
        std::size_t j = i;
        while (j < parts.size() && parts[j] == parts[i]) ++j;
        const int m = static_cast<int>(j - i); // groups of this size: their kinds are a set
        ways *= choose(free_kinds, m);
        free_kinds -= m;
        for (std::size_t g = i; g < j; ++g) ways *= choose(cards_per_kind, parts[g]);
        i = j;
    }
    return ways;
}

// Vertical: depth-first over the ranks, lowest first, choosing how many cards of each. open[k]
// is the length of layer k+1's run that reaches the previous rank; a run closes when the next
// rank holds fewer cards than its layer. Closed lengths are kept as a histogram, four bits per
// length 1..16 (hands of at most 15 cards), which names the category. Where a rank holds no card,
// every run has closed and what follows depends only on how many ranks and cards are left: that
// part is counted once per (ranks, cards) and reused.
class VerticalCounter {
  public:
    using Histograms = std::map<std::uint64_t, std::uint64_t>; // histogram -> hands

    explicit VerticalCounter(int copies) : copies_(copies) {
        for (int k = 0; k <= copies; ++k) weight_[static_cast<std::size_t>(k)] = choose(copies, k);
    }

    // Hands of `cards` cards over `ranks` ranks, no run open before the first.
    const Histograms& fresh(int ranks, int cards) {
        const auto key = std::make_pair(ranks, cards);
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        Histograms out;
        if (cards == 0) {
            out[0] = 1;
        } else if (ranks > 0) {
            for (const auto& [h, c] : fresh(ranks - 1, cards)) out[h] += c; // first rank empty
            for (int n = 1; n <= std::min({copies_, cards, 8}); ++n) {
                std::array<std::uint8_t, 9> open{};
                for (int k = 0; k < n; ++k) open[static_cast<std::size_t>(k)] = 1;
                run(ranks - 1, cards - n, n, open, 0, weight_[static_cast<std::size_t>(n)], out);
            }
        }
        return memo_.emplace(key, std::move(out)).first->second;
    }

  private:
    static std::uint64_t close(std::uint64_t hist, int length) {
        return hist + (std::uint64_t{1} << (4 * (length - 1)));
    }

    // `ranks` ranks remain; the previous rank held `prev` cards, so runs are open in layers
    // 1..prev with lengths `open`.
    void run(int ranks, int cards, int prev, const std::array<std::uint8_t, 9>& open,
             std::uint64_t hist, std::uint64_t w, Histograms& out) {
        if (cards > ranks * copies_) return;
        // At most 8 layers (meld_deck allows 8 copies); the bound also tells the compiler so.
        const int most = std::min({copies_, cards, 8});
        for (int n = 0; n <= most; ++n) {
            if (n > 0 && ranks == 0) break;
            std::array<std::uint8_t, 9> next{};
            std::uint64_t h = hist;
            for (int k = n; k < prev; ++k) h = close(h, open[static_cast<std::size_t>(k)]);
            for (int k = 0; k < n; ++k)
                next[static_cast<std::size_t>(k)] =
                    static_cast<std::uint8_t>(k < prev ? open[static_cast<std::size_t>(k)] + 1 : 1);
            if (n == 0) {
                // Every run is closed: the rest is a fresh problem (an empty rank, if any left).
                if (ranks == 0) {
                    if (cards == 0) out[h] += w;
                    continue;
                }
                for (const auto& [h2, c] : fresh(ranks - 1, cards)) out[h + h2] += w * c;
            } else {
                run(ranks - 1, cards - n, n, next, h, w * weight_[static_cast<std::size_t>(n)],
                    out);
            }
        }
    }

    int copies_;
    std::array<std::uint64_t, 9> weight_{}; // C(copies, k)
    std::map<std::pair<int, int>, Histograms> memo_;
};

} // namespace

Result<MeldDistribution> meld_distribution(std::string_view ranking, int ranks, int copies,
                                           int cards) {
    if (ranking != "vertical" && ranking != "horizontal" && ranking != "flush")
        return make_error(Errc::bad_option, "no meld distribution for ranking \"" +
                                                std::string(ranking) +
                                                "\" (vertical, horizontal or flush)");
    if (auto deck = meld_deck(ranks, copies); !deck) return deck.error();
    const int deck_size = ranks * copies;
    if (cards < 1 || cards > deck_size)
        return make_error(Errc::bad_deck, "a hand of " + std::to_string(cards) +
                                              " cards cannot come from a deck of " +
                                              std::to_string(deck_size));
    if (std::lgamma(deck_size + 1.0) - std::lgamma(cards + 1.0) -
            std::lgamma(deck_size - cards + 1.0) >
        std::log(1.8e19))
        return make_error(Errc::wrong_count, "more hands than a 64-bit count holds: C(" +
                                                 std::to_string(deck_size) + ", " +
                                                 std::to_string(cards) + ")");

    MeldDistribution d;
    d.ranking = std::string(ranking);
    d.ranks = ranks;
    d.copies = copies;
    d.cards = cards;
    d.total = choose(deck_size, cards);

    std::vector<std::pair<std::vector<int>, std::uint64_t>> rows;
    if (ranking == "vertical") {
        if (cards > 15)
            return make_error(Errc::wrong_count,
                              "vertical tables go up to 15 cards, not " + std::to_string(cards));
        VerticalCounter v(copies);
        for (const auto& [hist, count] : v.fresh(ranks, cards)) {
            std::vector<int> parts;
            for (int len = 16; len >= 1; --len)
                for (std::uint64_t m = hist >> (4 * (len - 1)) & 15; m > 0; --m)
                    parts.push_back(len);
            rows.emplace_back(std::move(parts), count);
        }
    } else {
        const bool flush = ranking == "flush";
        const int kinds = flush ? copies : ranks;          // groups are suits, or ranks
        const int cards_per_kind = flush ? ranks : copies; // cards of one suit, or of one rank
        for_each_partition(cards, cards_per_kind, kinds, [&](const std::vector<int>& parts) {
            rows.emplace_back(parts, group_ways(parts, kinds, cards_per_kind));
        });
    }
    // Strongest first: sizes compared in order, as the rankings compare categories.
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    const char prefix = ranking[0] == 'v' ? 'v' : ranking[0] == 'h' ? 'h' : 'f';
    for (const auto& [parts, count] : rows)
        if (count != 0) d.categories.emplace_back(melds::category_name(prefix, parts), count);
    return d;
}

} // namespace felt
