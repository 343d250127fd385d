#include "poker/pots.h"

#include <algorithm>
#include <bit>

namespace felt::poker {

Pots build_pots(const std::array<Chips, kMaxSeats>& contributed, std::uint16_t folded, int seats,
                Chips dead) {
    Pots pots;
    if (dead > 0) {
        // The main pot: every player still in, however little each matched beyond the dead
        // chips. Its own pot when one of them matched nothing more; else the first level's.
        std::uint16_t live = 0;
        bool nothing_more = false;
        for (int s = 0; s < seats; ++s)
            if (!(folded >> s & 1)) {
                live |= std::uint16_t(1u << s);
                nothing_more |= contributed[static_cast<std::size_t>(s)] == 0;
            }
        Pots rest = build_pots(contributed, folded, seats);
        if (rest.empty() || nothing_more)
            pots.items[static_cast<std::size_t>(pots.count++)] = {dead, live};
        for (const Pot& p : rest) pots.items[static_cast<std::size_t>(pots.count++)] = p;
        if (!rest.empty() && !nothing_more) pots.items[0].amount += dead;
        return pots;
    }
    std::array<Chips, kMaxSeats> left = contributed;
    while (true) {
        // The next level: the smallest remaining contribution of a live player.
        Chips level{};
        for (int s = 0; s < seats; ++s)
            if (!(folded >> s & 1) && left[static_cast<std::size_t>(s)] > 0)
                level = level == 0 ? left[static_cast<std::size_t>(s)]
                                   : std::min(level, left[static_cast<std::size_t>(s)]);
        if (level == 0) break;
        Pot pot;
        for (int s = 0; s < seats; ++s) {
            Chips& c = left[static_cast<std::size_t>(s)];
            const Chips take = std::min(c, level);
            pot.amount += take;
            c -= take;
            if (!(folded >> s & 1) && take == level) pot.eligible |= std::uint16_t(1u << s);
        }
        pots.items[static_cast<std::size_t>(pots.count++)] = pot;
    }
    Chips rest{};
    for (int s = 0; s < seats; ++s) rest += left[static_cast<std::size_t>(s)];
    if (rest > 0) {
        if (pots.empty()) pots.count = 1;
        pots.items[pots.size() - 1].amount += rest;
    }
    return pots;
}

std::array<Chips, kMaxSeats> split(Chips amount, std::uint16_t winners, int seats, int button) {
    std::array<Chips, kMaxSeats> out{};
    const int n = std::popcount(winners);
    if (n == 0) return out;
    const Chips share = amount / n;
    Chips odd = amount - share * n;
    for (int s = 0; s < seats; ++s)
        if (winners >> s & 1) out[static_cast<std::size_t>(s)] = share;
    for (int i = 1; odd > 0; ++i) {
        const int s = (button + i) % seats;
        if (winners >> s & 1) {
            ++out[static_cast<std::size_t>(s)];
            --odd;
        }
    }
    return out;
}

} // namespace felt::poker
