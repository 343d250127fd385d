// Generates the lookup tables of the standard evaluator (engine/rankings/evaluator.h) as C++
// source.
//
//   gen_standard_tables OUT.h OUT.cpp
//
// Run by the build; its output is never committed. What it builds:
//  1. The universe of hand classes (hand_class.h): every five-card class of one pack, every
//     three-card front, and the classes only wild cards reach (five of a kind, flushes that repeat
//     a rank). Sorted, they number 1..N: a hand's value is the number of its class.
//  2. Card keys. A card of rank r adds (5^r * M) mod 2^32 to the high half of a 64-bit key, so
//     the high half of a hand's key is base5(rank counts) * M mod 2^32: distinct multisets can
//     never collide, because M is odd and base5 of at most 4 per rank stays below 2^32. The low
//     half counts suits, four bits each, so one addition per card serves both purposes.
//  3. A perfect hash of those 32-bit keys (every rank multiset of 3, 5, 6 or 7 cards) into a
//     compact table: row = top 14 bits, column = next 16 bits, slot = (column + offset of the
//     row) mod N (row displacement with wrap-around). A multiplier M is kept once the (row,
//     column) pairs are distinct; N is the smallest size, in steps of 0.5%, at which every row
//     finds a place.
//  4. The flush table: for each 13-bit set of ranks in one suit, its best straight flush or flush.
//  5. The vertical-meld table (engine/rankings/vertical.h), parallel to the rank table: the same
//  slot holds
//     the multiset's vertical value, its place in vertical order (melds.h) among every multiset
//     of 3, 5, 6 or 7 cards. Vertical melds ignore suits, so one hash serves both. Every
//     multiset is a class of its own (the sequences give back the counts): 74,230 values, which
//     need 32-bit entries.
#include "rankings/hand_class.h"
#include "rankings/melds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <vector>

using namespace felt;
using hand_class::pack;
using hand_class::pack_list;

namespace {

constexpr int kRanks = 13;
constexpr int kRowBits = 14;
constexpr int kColBits = 16;
constexpr int kRowShift = 32 - kRowBits;
constexpr int kColShift = 32 - kRowBits - kColBits;

using Counts = std::array<int, kRanks>;

// Highest straight in a set of ranks: its top rank, 3 for 5-4-3-2-A, or -1.
int straight_top(unsigned mask) {
    for (int top = 12; top >= 4; --top) {
        unsigned window = 0x1Fu << (top - 4);
        if ((mask & window) == window) return top;
    }
    constexpr unsigned wheel = 1u << 12 | 0xF;
    return (mask & wheel) == wheel ? 3 : -1;
}

// Ranks grouped by how often they occur: larger groups first, higher ranks first among equals.
struct Groups {
    std::vector<std::pair<int, int>> g; // (count, rank)
    explicit Groups(const Counts& c) {
        for (int r = kRanks - 1; r >= 0; --r)
            if (c[r]) g.push_back({c[r], r});
        std::stable_sort(g.begin(), g.end(), [](auto a, auto b) { return a.first > b.first; });
    }
};

// All ranks with multiplicity, highest first.
std::vector<int> ranks_desc(const Counts& c) {
    std::vector<int> out;
    for (int r = kRanks - 1; r >= 0; --r)
        for (int i = 0; i < c[r]; ++i) out.push_back(r);
    return out;
}

// Class of exactly five cards judged by rank only (no flush possible).
std::uint32_t classify5_plain(const Counts& c) {
    Groups gr(c);
    const auto& g = gr.g;
    unsigned mask = 0;
    for (int r = 0; r < kRanks; ++r)
        if (c[r]) mask |= 1u << r;
    if (g[0].first == 5) return pack(Category::five_of_a_kind, {g[0].second});
    if (g[0].first == 4) return pack(Category::four_of_a_kind, {g[0].second, g[1].second});
    if (g[0].first == 3 && g[1].first == 2)
        return pack(Category::full_house, {g[0].second, g[1].second});
    if (g.size() == 5 && straight_top(mask) >= 0)
        return pack(Category::straight, {straight_top(mask)});
    if (g[0].first == 3)
        return pack(Category::three_of_a_kind, {g[0].second, g[1].second, g[2].second});
    if (g[0].first == 2 && g[1].first == 2)
        return pack(Category::two_pair, {g[0].second, g[1].second, g[2].second});
    if (g[0].first == 2)
        return pack(Category::one_pair, {g[0].second, g[1].second, g[2].second, g[3].second});
    return pack_list(Category::high_card, ranks_desc(c));
}

// Class of five cards of one suit (ranks may repeat only through wild cards).
std::uint32_t classify5_suited(const Counts& c) {
    Groups gr(c);
    unsigned mask = 0;
    for (int r = 0; r < kRanks; ++r)
        if (c[r]) mask |= 1u << r;
    if (gr.g.size() == 5 && straight_top(mask) >= 0)
        return pack(Category::straight_flush, {straight_top(mask)});
    std::uint32_t plain = classify5_plain(c);
    // Full house, four and five of a kind outrank a flush; anything else is the flush.
    if (hand_class::category(plain) >= Category::full_house) return plain;
    return pack_list(Category::flush, ranks_desc(c));
}

// Class of a three-card front: only three of a kind, one pair and high card exist.
std::uint32_t classify3(const Counts& c) {
    Groups gr(c);
    const auto& g = gr.g;
    if (g[0].first == 3) return pack(Category::three_of_a_kind, {g[0].second});
    if (g[0].first == 2) return pack(Category::one_pair, {g[0].second, g[1].second});
    return pack_list(Category::high_card, ranks_desc(c));
}

// Best rank-only class among the five-card parts of 5, 6 or 7 cards.
std::uint32_t best_plain(const Counts& c) {
    std::vector<int> cards = ranks_desc(c);
    const int n = static_cast<int>(cards.size());
    std::uint32_t best = 0;
    for (unsigned keep = 0; keep < (1u << n); ++keep) {
        if (std::popcount(keep) != 5) continue;
        Counts sub{};
        for (int i = 0; i < n; ++i)
            if (keep >> i & 1) ++sub[cards[i]];
        best = std::max(best, classify5_plain(sub));
    }
    return best;
}

// Calls f(counts) for every multiset of `size` ranks with at most `max_per_rank` of each.
template <class F>
void for_each_multiset(int size, int max_per_rank, F&& f) {
    Counts c{};
    auto rec = [&](auto&& self, int r, int left) -> void {
        if (r == kRanks) {
            if (left == 0) f(c);
            return;
        }
        for (int k = 0; k <= std::min(left, max_per_rank); ++k) {
            c[r] = k;
            self(self, r + 1, left - k);
        }
        c[r] = 0;
    };
    rec(rec, 0, size);
}

std::uint32_t base5(const Counts& c) {
    std::uint32_t b = 0;
    for (int r = kRanks - 1; r >= 0; --r) b = b * 5 + static_cast<std::uint32_t>(c[r]);
    return b;
}

std::uint64_t splitmix64(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

template <class T>
void write_array(std::ofstream& out, const char* type, const char* name, const std::vector<T>& v) {
    out << "alignas(64) const " << type << " " << name << "[" << v.size() << "] = {";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i % 16 == 0) out << "\n   ";
        out << " 0x" << std::hex << +v[i] << std::dec << "u,";
    }
    out << "\n};\n\n";
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: gen_standard_tables OUT.h OUT.cpp\n";
        return 2;
    }

    // 1. The universe of classes.
    std::vector<std::uint32_t> standard5, universe;
    for_each_multiset(5, 4, [&](const Counts& c) { standard5.push_back(classify5_plain(c)); });
    for (unsigned m = 0; m < (1u << kRanks); ++m) {
        if (std::popcount(m) != 5) continue;
        Counts c{};
        for (int r = 0; r < kRanks; ++r) c[r] = (m >> r) & 1;
        standard5.push_back(classify5_suited(c));
    }
    std::sort(standard5.begin(), standard5.end());
    standard5.erase(std::unique(standard5.begin(), standard5.end()), standard5.end());
    if (standard5.size() != 7462) {
        std::cerr << "gen_standard_tables: " << standard5.size()
                  << " five-card classes, expected 7462\n";
        return 1;
    }
    universe = standard5;
    // Wild-only classes: five of a kind, and suited hands that repeat a rank.
    for_each_multiset(5, 5, [&](const Counts& c) {
        if (*std::max_element(c.begin(), c.end()) >= 2) universe.push_back(classify5_suited(c));
    });
    for_each_multiset(3, 3, [&](const Counts& c) { universe.push_back(classify3(c)); });
    std::sort(universe.begin(), universe.end());
    universe.erase(std::unique(universe.begin(), universe.end()), universe.end());
    const int class_count = static_cast<int>(universe.size());
    auto value_of = [&](std::uint32_t key) {
        auto it = std::lower_bound(universe.begin(), universe.end(), key);
        if (it == universe.end() || *it != key) {
            std::cerr << "gen_standard_tables: class " << key << " missing\n";
            std::exit(1);
        }
        return static_cast<std::uint16_t>(it - universe.begin() + 1);
    };

    // 2. Every rank multiset the rank table answers for, with its value.
    struct Entry {
        std::uint32_t base5;
        std::uint16_t value;
        Strength vertical;
    };
    std::vector<Entry> entries;
    for (int size : {3, 5, 6, 7})
        for_each_multiset(size, 4, [&](const Counts& c) {
            std::uint32_t cls = size == 3 ? classify3(c) : best_plain(c);
            std::array<std::uint8_t, kRanks> counts{};
            std::copy(c.begin(), c.end(), counts.begin());
            entries.push_back(
                {base5(c), value_of(cls), melds::encode(melds::vertical_melds(counts))});
        });

    // 3. Find a multiplier whose (row, column) pairs are all distinct, then displace rows.
    std::uint64_t seed = 0x46656C74ull; // "Felt"
    std::uint32_t mult = 0;
    std::vector<std::uint32_t> hashes(entries.size());
    for (int attempt = 0;; ++attempt) {
        if (attempt == 10000) {
            std::cerr << "gen_standard_tables: no multiplier found\n";
            return 1;
        }
        mult = static_cast<std::uint32_t>(splitmix64(seed)) | 1u;
        for (std::size_t i = 0; i < entries.size(); ++i)
            hashes[i] = (entries[i].base5 * mult) >> kColShift;
        std::vector<std::uint32_t> sorted = hashes;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) break;
    }
    const std::uint32_t col_mask = (1u << kColBits) - 1;
    std::vector<std::vector<std::size_t>> rows(1u << kRowBits);
    for (std::size_t i = 0; i < entries.size(); ++i) rows[hashes[i] >> kColBits].push_back(i);
    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return rows[a].size() > rows[b].size(); });
    // Slot of a key: (column + row offset) mod N, offsets below 2^16. Each row's search starts at
    // a pseudo-random offset so that the table fills evenly; N grows until every row fits.
    std::vector<std::uint16_t> row_offset(rows.size(), 0);
    std::size_t table_size = entries.size();
    for (;; table_size += entries.size() / 200) {
        std::vector<char> used(table_size, 0);
        bool placed_all = true;
        for (std::size_t row : order) {
            const auto& members = rows[row];
            if (members.empty()) break;
            const std::size_t start = (row * 2654435761u) & 0xFFFF;
            std::size_t t = 0;
            for (; t < 0x10000; ++t) {
                std::size_t off = (start + t) & 0xFFFF;
                bool fits = true;
                for (std::size_t i : members)
                    if (used[((hashes[i] & col_mask) + off) % table_size]) {
                        fits = false;
                        break;
                    }
                if (!fits) continue;
                row_offset[row] = static_cast<std::uint16_t>(off);
                for (std::size_t i : members) used[((hashes[i] & col_mask) + off) % table_size] = 1;
                break;
            }
            if (t == 0x10000) {
                placed_all = false;
                break;
            }
        }
        if (placed_all) break;
    }
    // 5. Vertical order of the multisets.
    std::vector<Strength> vertical_order;
    for (const Entry& e : entries) vertical_order.push_back(e.vertical);
    std::sort(vertical_order.begin(), vertical_order.end());
    if (std::adjacent_find(vertical_order.begin(), vertical_order.end()) != vertical_order.end()) {
        std::cerr << "gen_standard_tables: two multisets with one vertical class\n";
        return 1;
    }

    std::vector<std::uint16_t> rank_table(table_size, 0);
    std::vector<std::uint32_t> vertical_table(table_size, 0);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        std::uint32_t h = hashes[i];
        const std::size_t slot = ((h & col_mask) + row_offset[h >> kColBits]) % table_size;
        rank_table[slot] = entries[i].value;
        vertical_table[slot] = static_cast<std::uint32_t>(
            std::lower_bound(vertical_order.begin(), vertical_order.end(), entries[i].vertical) -
            vertical_order.begin() + 1);
    }

    // 4. Flush table.
    std::vector<std::uint16_t> flush_table(1u << kRanks, 0);
    for (unsigned m = 0; m < flush_table.size(); ++m) {
        if (std::popcount(m) < 5) continue;
        int top = straight_top(m);
        if (top >= 0) {
            flush_table[m] = value_of(pack(Category::straight_flush, {top}));
            continue;
        }
        std::vector<int> ranks;
        for (int r = kRanks - 1; r >= 0 && ranks.size() < 5; --r)
            if (m >> r & 1) ranks.push_back(r);
        flush_table[m] = value_of(pack_list(Category::flush, ranks));
    }

    // Card keys, indexed by Card::code() (rank << 3 | suit).
    std::vector<std::uint64_t> card_key(256, 0);
    std::uint32_t pow5 = 1;
    for (int r = 0; r < kRanks; ++r, pow5 *= 5)
        for (int s = 0; s < 4; ++s)
            card_key[static_cast<std::size_t>(r << 3 | s)] =
                std::uint64_t{pow5 * mult} << 32 | std::uint64_t{1} << (4 * s);

    std::vector<std::uint32_t> class_key(universe.size() + 1, 0);
    std::copy(universe.begin(), universe.end(), class_key.begin() + 1);
    std::array<int, kCategoryCount + 1> category_first{};
    for (int c = 0; c <= kCategoryCount; ++c)
        category_first[c] = static_cast<int>(std::lower_bound(universe.begin(), universe.end(),
                                                              static_cast<std::uint32_t>(c) << 20) -
                                             universe.begin()) +
                            1;

    std::ofstream h(argv[1]);
    h << "// Generated by engine/rankings/tablegen/gen_standard_tables.cpp. Do not edit.\n"
         "#pragma once\n#include <cstdint>\n\nnamespace felt::tables {\n\n"
      << "inline constexpr std::uint32_t kHashMultiplier = " << mult << "u;\n"
      << "inline constexpr int kRowShift = " << kRowShift << ";\n"
      << "inline constexpr int kColShift = " << kColShift << ";\n"
      << "inline constexpr std::uint32_t kColMask = " << col_mask << "u;\n"
      << "inline constexpr int kRankTableSize = " << table_size << ";\n"
      << "inline constexpr int kRowCount = " << rows.size() << ";\n"
      << "inline constexpr int kClassCount = " << class_count << ";\n"
      << "inline constexpr int kVerticalValueCount = " << vertical_order.size() << ";\n"
      << "// First value of each category; the last entry is kClassCount + 1.\n"
      << "inline constexpr std::uint16_t kCategoryFirst[" << kCategoryCount + 1 << "] = {";
    for (int c = 0; c <= kCategoryCount; ++c) h << (c ? ", " : "") << category_first[c];
    h << "};\n\n"
      << "extern const std::uint64_t kCardKey[256];\n"
      << "extern const std::uint16_t kRowOffset[" << rows.size() << "];\n"
      << "extern const std::uint16_t kRankTable[" << table_size << "];\n"
      << "extern const std::uint16_t kFlushTable[" << flush_table.size() << "];\n"
      << "extern const std::uint32_t kClassKey[" << class_key.size() << "];\n"
      << "extern const std::uint32_t kVerticalTable[" << table_size << "];\n\n"
      << "} // namespace felt::tables\n";

    std::ofstream cpp(argv[2]);
    cpp << "// Generated by engine/rankings/tablegen/gen_standard_tables.cpp. Do not edit.\n"
           "#include \"standard_tables.h\"\n\nnamespace felt::tables {\n\n";
    write_array(cpp, "std::uint64_t", "kCardKey", card_key);
    write_array(cpp, "std::uint16_t", "kRowOffset", row_offset);
    write_array(cpp, "std::uint16_t", "kRankTable", rank_table);
    write_array(cpp, "std::uint16_t", "kFlushTable", flush_table);
    write_array(cpp, "std::uint32_t", "kClassKey", class_key);
    write_array(cpp, "std::uint32_t", "kVerticalTable", vertical_table);
    cpp << "} // namespace felt::tables\n";

    std::fprintf(stderr,
                 "gen_standard_tables: %d classes, %zu rank keys, multiplier %u, rank table %zu "
                 "entries\n",
                 class_count, entries.size(), mult, table_size);
    return h && cpp ? 0 : 1;
}
