#include "reference_melds.h"

#include <algorithm>
#include <map>

namespace felt::reference {

std::vector<Piece> decompose_vertical(std::vector<int> ranks) {
    std::vector<Piece> out;
    while (!ranks.empty()) {
        std::vector<int> present = ranks;
        std::sort(present.begin(), present.end());
        present.erase(std::unique(present.begin(), present.end()), present.end());
        // The longest run of consecutive present ranks (the highest one when several are).
        int best_len = 0, best_top = -1;
        for (std::size_t i = 0; i < present.size();) {
            std::size_t j = i;
            while (j + 1 < present.size() && present[j + 1] == present[j] + 1) ++j;
            const int len = static_cast<int>(j - i + 1);
            if (len >= best_len) {
                best_len = len;
                best_top = present[j];
            }
            i = j + 1;
        }
        for (int r = best_top - best_len + 1; r <= best_top; ++r)
            ranks.erase(std::find(ranks.begin(), ranks.end(), r));
        out.push_back({best_len, best_top});
    }
    return out;
}

std::vector<Piece> group_horizontal(const std::vector<int>& ranks) {
    std::map<int, int> count;
    for (int r : ranks) ++count[r];
    std::vector<Piece> out;
    for (auto [r, n] : count) out.push_back({n, r});
    return out;
}

int compare_pieces(std::vector<Piece> a, std::vector<Piece> b) {
    auto order = [](const Piece& x, const Piece& y) {
        return x.size != y.size ? x.size > y.size : x.top > y.top;
    };
    std::sort(a.begin(), a.end(), order);
    std::sort(b.begin(), b.end(), order);
    // Step one: the list of sizes; whoever runs out first loses.
    for (std::size_t i = 0;; ++i) {
        if (i == a.size() && i == b.size()) break;
        if (i == a.size()) return -1;
        if (i == b.size()) return 1;
        if (a[i].size != b[i].size) return a[i].size < b[i].size ? -1 : 1;
    }
    // Step two: the tops, in that order.
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].top != b[i].top) return a[i].top < b[i].top ? -1 : 1;
    return 0;
}

int compare_flush(const std::vector<std::pair<int, int>>& a,
                  const std::vector<std::pair<int, int>>& b) {
    auto groups = [](const std::vector<std::pair<int, int>>& cards) {
        std::map<int, std::vector<int>> by_suit;
        for (auto [rank, suit] : cards) by_suit[suit].push_back(rank);
        std::vector<std::vector<int>> out;
        for (auto& [suit, ranks] : by_suit) {
            std::sort(ranks.rbegin(), ranks.rend());
            out.push_back(ranks);
        }
        std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
            return x.size() != y.size() ? x.size() > y.size() : x > y;
        });
        return out;
    };
    const auto ga = groups(a), gb = groups(b);
    for (std::size_t i = 0;; ++i) {
        if (i == ga.size() && i == gb.size()) break;
        if (i == ga.size()) return -1;
        if (i == gb.size()) return 1;
        if (ga[i].size() != gb[i].size()) return ga[i].size() < gb[i].size() ? -1 : 1;
    }
    for (std::size_t i = 0; i < ga.size(); ++i)
        if (ga[i] != gb[i]) return ga[i] < gb[i] ? -1 : 1;
    return 0;
}

} // namespace felt::reference
