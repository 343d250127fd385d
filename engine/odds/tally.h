// What the equity enumerations add up, showdown by showdown (internal to engine/odds).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace felt::odds::detail {

// Per player: the pot's share won, the showdowns won alone and those split; in hi-lo games
// also the shares of each half and the scoops. Weights may be negative (corrections).
struct Tally {
    int players = 0;
    std::vector<double> equity, wins, ties, high, low, scoop;
    double showdowns = 0;

    explicit Tally(int n = 0)
        : players(n), equity(n), wins(n), ties(n), high(n), low(n), scoop(n) {}

    // Adds `o` times `w`.
    void add(const Tally& o, double w) {
        for (int p = 0; p < players; ++p) {
            equity[p] += w * o.equity[p];
            wins[p] += w * o.wins[p];
            ties[p] += w * o.ties[p];
            high[p] += w * o.high[p];
            low[p] += w * o.low[p];
            scoop[p] += w * o.scoop[p];
        }
        showdowns += w * o.showdowns;
    }
};

// The players holding the greatest of `v`, and that value in `top`.
inline unsigned best_of(const std::uint32_t* v, int n, std::uint32_t& top) {
    top = 0;
    unsigned mask = 0;
    for (int p = 0; p < n; ++p) {
        if (v[p] > top) {
            top = v[p];
            mask = 1u << p;
        } else if (v[p] == top) {
            mask |= 1u << p;
        }
    }
    return mask;
}

// One showdown of high hands only, `w` times.
inline void settle(const std::uint32_t* v, int n, double w, Tally& t) {
    std::uint32_t top;
    const unsigned mask = best_of(v, n, top);
    const int k = std::popcount(mask);
    if (k == 1) {
        const int p = std::countr_zero(mask);
        t.equity[p] += w;
        t.wins[p] += w;
        return;
    }
    const double share = w / k;
    for (unsigned m = mask; m; m &= m - 1) {
        const int p = std::countr_zero(m);
        t.equity[p] += share;
        t.ties[p] += w;
    }
}

// One hi-lo showdown: `low` is 0 for a hand without a qualifying low.
inline void settle_hilo(const std::uint32_t* high, const std::uint32_t* low, int n, double w,
                        Tally& t) {
    std::uint32_t top, low_top;
    const unsigned hm = best_of(high, n, top);
    const unsigned lm = best_of(low, n, low_top);
    const bool has_low = low_top != 0;
    const int hk = std::popcount(hm), lk = has_low ? std::popcount(lm) : 0;
    const double half = has_low ? 0.5 : 1.0;
    for (unsigned m = hm; m; m &= m - 1) {
        const int p = std::countr_zero(m);
        t.equity[p] += w * half / hk;
        t.high[p] += w / hk;
    }
    if (has_low)
        for (unsigned m = lm; m; m &= m - 1) {
            const int p = std::countr_zero(m);
            t.equity[p] += w * 0.5 / lk;
            t.low[p] += w / lk;
        }
    // A tie: sharing either half.
    const unsigned split = (hk > 1 ? hm : 0u) | (lk > 1 ? lm : 0u);
    for (unsigned m = split; m; m &= m - 1) t.ties[std::countr_zero(m)] += w;
    if (hk == 1 && (!has_low || lm == hm)) {
        const int p = std::countr_zero(hm);
        t.wins[p] += w;
        t.scoop[p] += w;
    }
}

} // namespace felt::odds::detail
