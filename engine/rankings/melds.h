// Vertical, horizontal and flush melds (cards-and-rankings.md): decomposition, category, Strength.
//
// Header-only and table-free: the table generator uses it too (engine/rankings/tablegen).
//
// Vertical. The spec's decomposition takes, again and again, the longest run of consecutive ranks
// still present. Taking a whole maximal run leaves, inside that run's span, exactly the ranks held
// at least twice, and never touches other spans; so the sequences are precisely the maximal runs of
// each layer, where layer k is the set of ranks held at least k times. That is what this file
// computes, with bit operations; tests/reference_melds.cpp does the literal repeated search and
// the tests compare the two on every rank multiset of up to 8 cards.
//
// Encodings (Strength, greater is stronger, first differing byte decides):
//   vertical    lengths longest first, 0, then the tops (rank + 1) in sequence order
//   horizontal  group sizes largest first, 0, then the group ranks (rank + 1) in group order
//   flush       suit group sizes largest first, 0, then each group's ranks (rank + 1), highest
//               first, groups in order of size, then of their ranks
// The 0 after the sizes makes a hand that runs out of groups first lose, and never decides
// between two hands of one category (their sizes, and so their zeros, line up).
#pragma once

#include "rankings/strength.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace felt::melds {

// A meld ranking judges at most this many cards: 2 * 31 + 1 bytes fill a Strength.
inline constexpr int kMaxCards = (Strength::kCapacity - 1) / 2;

// One sequence (vertical) or group (horizontal): how many cards, and its top (or only) rank.
struct Meld {
    int size = 0;
    int top = 0;
};

// Up to kMaxCards melds, strongest first.
struct Melds {
    std::array<Meld, kMaxCards> items{};
    int count = 0;

    void add(int size, int top) { items[static_cast<std::size_t>(count++)] = {size, top}; }
    // Longest first, then highest top first: the order both meld kinds compare in.
    void sort() {
        std::sort(items.begin(), items.begin() + count, [](const Meld& a, const Meld& b) {
            return a.size != b.size ? a.size > b.size : a.top > b.top;
        });
    }
};

// Counts per rank, lowest rank first; at most 31 ranks.
using RankCounts = std::span<const std::uint8_t>;

// The vertical sequences of a rank multiset: the maximal runs of every layer.
inline Melds vertical_melds(RankCounts counts) {
    Melds out;
    for (int layer = 1;; ++layer) {
        std::uint32_t m = 0;
        for (std::size_t r = 0; r < counts.size(); ++r)
            if (counts[r] >= layer) m |= std::uint32_t{1} << r;
        if (m == 0) break;
        while (m != 0) {
            const int low = std::countr_zero(m);
            const int len = std::countr_one(m >> low);
            out.add(len, low + len - 1);
            m &= ~(((std::uint64_t{1} << len) - 1) << low);
        }
    }
    out.sort();
    return out;
}

// The groups of equal rank: largest first, then higher rank first.
inline Melds horizontal_melds(RankCounts counts) {
    Melds out;
    for (std::size_t r = 0; r < counts.size(); ++r)
        if (counts[r] > 0) out.add(counts[r], static_cast<int>(r));
    out.sort();
    return out;
}

// Sizes, 0, tops + 1: the vertical and horizontal encoding.
inline Strength encode(const Melds& m) {
    Strength s;
    for (int i = 0; i < m.count; ++i) s.push(m.items[static_cast<std::size_t>(i)].size);
    s.push(0);
    for (int i = 0; i < m.count; ++i) s.push(m.items[static_cast<std::size_t>(i)].top + 1);
    return s;
}

// Flush melds: cards grouped by suit. `suit_ranks[s]` holds suit s's ranks, in any order.
// Groups compare by size, then by their ranks highest first; encoded as described above.
inline Strength flush_strength(std::span<const std::basic_string<std::uint8_t>> suit_ranks) {
    std::vector<std::basic_string<std::uint8_t>> groups;
    for (const auto& ranks : suit_ranks) {
        if (ranks.empty()) continue;
        groups.push_back(ranks);
        std::sort(groups.back().begin(), groups.back().end(), std::greater<>());
    }
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
        return a.size() != b.size() ? a.size() > b.size() : a > b;
    });
    Strength s;
    for (const auto& g : groups) s.push(static_cast<int>(g.size()));
    s.push(0);
    for (const auto& g : groups)
        for (auto r : g) s.push(r + 1);
    return s;
}

// A category name from its sizes, e.g. "v41", "h32", "f5". A size above 9 would make the digits
// ambiguous, so then the sizes are separated by dots: "v13", "v10.2.1".
inline std::string category_name(char prefix, std::span<const int> sizes) {
    const bool dots = std::any_of(sizes.begin(), sizes.end(), [](int s) { return s > 9; });
    std::string out(1, prefix);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (dots && i > 0) out += '.';
        out += std::to_string(sizes[i]);
    }
    return out;
}

// The category of an encoded meld Strength: the sizes before the first 0.
inline std::string category_name(char prefix, const Strength& s) {
    std::array<int, kMaxCards> sizes{};
    int n = 0;
    while (n < s.size() && s[n] != 0) {
        sizes[static_cast<std::size_t>(n)] = s[n];
        ++n;
    }
    return category_name(prefix, std::span<const int>(sizes.data(), static_cast<std::size_t>(n)));
}

} // namespace felt::melds
