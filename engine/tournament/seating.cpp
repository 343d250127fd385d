#include "tournament/seating.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace felt::tournament {

namespace {

bool holds(std::uint32_t players, int seat) {
    return seat >= 0 && (players >> seat & 1u) != 0;
}

// The first seat with a player after `from`, going round the table (`from` itself last).
int next_player(std::uint32_t players, int seats, int from) {
    for (int i = 1; i <= seats; ++i) {
        const int k = (from + i) % seats;
        if (holds(players, k)) return k;
    }
    return -1;
}

// splitmix64: the seating's draws from the caller's seed.
struct Draw {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (int i = static_cast<int>(v.size()) - 1; i > 0; --i)
            std::swap(v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(below(i + 1))]);
    }
};

// The first empty seat after `from`, going round the table; -1 when it is full.
int next_empty(const TableSeats& t, int from) {
    for (int i = 1; i <= t.seats; ++i) {
        const int k = ((from < 0 ? -1 : from) + i + t.seats) % t.seats;
        if (t.players[static_cast<std::size_t>(k)] < 0) return k;
    }
    return -1;
}

std::size_t shortest(const std::vector<TableSeats>& tables) {
    return static_cast<std::size_t>(std::min_element(tables.begin(), tables.end(),
                                                     [](const TableSeats& a, const TableSeats& b) {
                                                         return a.count() < b.count();
                                                     }) -
                                    tables.begin());
}

void apply(std::vector<TableSeats>& tables, std::size_t from, int from_seat, std::size_t to,
           int to_seat, std::vector<Move>& moves) {
    int& player = tables[from].players[static_cast<std::size_t>(from_seat)];
    moves.push_back({player, tables[from].id, from_seat, tables[to].id, to_seat});
    tables[to].players[static_cast<std::size_t>(to_seat)] = player;
    player = -1;
}

} // namespace

int TableSeats::count() const {
    return static_cast<int>(
        std::count_if(players.begin(), players.end(), [](int p) { return p >= 0; }));
}

std::uint32_t TableSeats::mask() const {
    std::uint32_t m = 0;
    for (std::size_t k = 0; k < players.size(); ++k)
        if (players[k] >= 0) m |= 1u << k;
    return m;
}

Blinds first_blinds(std::uint32_t players, int seats, int button) {
    Blinds b;
    b.button = button;
    b.small_blind = std::popcount(players) == 2 ? button : next_player(players, seats, button);
    b.big_blind = next_player(players, seats, b.small_blind);
    return b;
}

Blinds next_blinds(const Blinds& last, std::uint32_t players, int seats) {
    Blinds b;
    b.big_blind = next_player(players, seats, last.big_blind);
    if (std::popcount(players) == 2) {
        b.small_blind = next_player(players, seats, b.big_blind);
        b.button = b.small_blind;
        return b;
    }
    b.small_blind = last.big_blind;
    b.dead_small = !holds(players, b.small_blind);
    b.button = last.small_blind;
    // From heads-up (the button on the small blind) to three or more: the button right of the
    // small blind, where it would have been.
    if (b.button == b.big_blind || b.button == b.small_blind)
        b.button = (b.small_blind + seats - 1) % seats;
    return b;
}

bool waits(const Blinds& next, int seat, int seats) {
    if (seat == next.big_blind) return false;
    for (int k = next.button; k != next.big_blind; k = (k + 1) % seats)
        if (k == seat) return true;
    return false;
}

std::vector<TableSeats> seat_entrants(std::span<const int> players, int seats, std::uint64_t seed) {
    if (players.empty() || seats < 2) return {};
    Draw draw{seed};
    std::vector<int> order(players.begin(), players.end());
    draw.shuffle(order);
    const int n = static_cast<int>(order.size());
    const int count = (n + seats - 1) / seats;
    std::vector<TableSeats> out;
    std::size_t next = 0;
    for (int t = 0; t < count; ++t) {
        TableSeats table;
        table.id = t + 1;
        table.seats = seats;
        table.players.assign(static_cast<std::size_t>(seats), -1);
        std::vector<int> where(static_cast<std::size_t>(seats));
        std::iota(where.begin(), where.end(), 0);
        draw.shuffle(where);
        const int here = n / count + (t < n % count ? 1 : 0);
        for (int i = 0; i < here; ++i)
            table.players[static_cast<std::size_t>(where[static_cast<std::size_t>(i)])] =
                order[next++];
        // The button on a random player.
        std::vector<int> seated;
        for (int k = 0; k < seats; ++k)
            if (table.players[static_cast<std::size_t>(k)] >= 0) seated.push_back(k);
        table.last.button =
            seated[static_cast<std::size_t>(draw.below(static_cast<int>(seated.size())))];
        out.push_back(std::move(table));
    }
    return out;
}

Blinds coming_blinds(const TableSeats& t) {
    const std::uint32_t m = t.mask();
    if (t.last.big_blind >= 0) return next_blinds(t.last, m, t.seats);
    int button = t.last.button;
    if (!holds(m, button)) button = next_player(m, t.seats, t.seats - 1);
    return first_blinds(m, t.seats, button);
}

std::vector<Move> balance(std::vector<TableSeats>& tables, std::size_t from, int allowed) {
    std::vector<Move> moves;
    for (;;) {
        const std::size_t to = shortest(tables);
        if (to == from || tables[from].count() - tables[to].count() <= allowed) break;
        const int seat = coming_blinds(tables[from]).big_blind;
        // The worst position there: the first empty seat after its next big blind.
        const int bb = tables[to].count() >= 2 ? coming_blinds(tables[to]).big_blind : -1;
        const int to_seat = next_empty(tables[to], bb);
        if (seat < 0 || to_seat < 0) break;
        apply(tables, from, seat, to, to_seat, moves);
    }
    return moves;
}

bool halted(const std::vector<TableSeats>& tables, std::size_t t) {
    int most = 0;
    for (const TableSeats& x : tables) most = std::max(most, x.count());
    return most - tables[t].count() >= 3;
}

std::optional<std::size_t> table_to_break(const std::vector<TableSeats>& tables) {
    if (tables.size() < 2) return std::nullopt;
    std::size_t which = 0;
    int players = 0, room = 0;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        players += tables[i].count();
        room += tables[i].seats;
        if (tables[i].count() <= tables[which].count()) which = i;
    }
    if (players > room - tables[which].seats) return std::nullopt;
    return which;
}

std::optional<Move> seat_newcomer(std::vector<TableSeats>& tables, int player, std::uint64_t seed) {
    Draw draw{seed};
    int fewest = -1;
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        if (tables[i].count() >= tables[i].seats) continue;
        if (fewest < 0 || tables[i].count() < fewest) {
            fewest = tables[i].count();
            candidates.clear();
        }
        if (tables[i].count() == fewest) candidates.push_back(i);
    }
    if (candidates.empty()) return std::nullopt;
    TableSeats& t = tables[candidates[static_cast<std::size_t>(
        draw.below(static_cast<int>(candidates.size())))]];
    std::vector<int> empty;
    for (int k = 0; k < t.seats; ++k)
        if (t.players[static_cast<std::size_t>(k)] < 0) empty.push_back(k);
    const int seat = empty[static_cast<std::size_t>(draw.below(static_cast<int>(empty.size())))];
    t.players[static_cast<std::size_t>(seat)] = player;
    return Move{player, -1, -1, t.id, seat};
}

std::vector<Move> break_table(std::vector<TableSeats>& tables, std::size_t which,
                              std::uint64_t seed) {
    Draw draw{seed};
    std::vector<Move> moves;
    for (int seat = 0; seat < tables[which].seats; ++seat) {
        if (tables[which].players[static_cast<std::size_t>(seat)] < 0) continue;
        // A random table among those with the fewest players and room, then a random seat.
        int fewest = -1;
        std::vector<std::size_t> candidates;
        for (std::size_t i = 0; i < tables.size(); ++i) {
            if (i == which || tables[i].count() >= tables[i].seats) continue;
            if (fewest < 0 || tables[i].count() < fewest) {
                fewest = tables[i].count();
                candidates.clear();
            }
            if (tables[i].count() == fewest) candidates.push_back(i);
        }
        if (candidates.empty()) break;
        const std::size_t to =
            candidates[static_cast<std::size_t>(draw.below(static_cast<int>(candidates.size())))];
        std::vector<int> empty;
        for (int k = 0; k < tables[to].seats; ++k)
            if (tables[to].players[static_cast<std::size_t>(k)] < 0) empty.push_back(k);
        apply(tables, which, seat, to,
              empty[static_cast<std::size_t>(draw.below(static_cast<int>(empty.size())))], moves);
    }
    tables.erase(tables.begin() + static_cast<std::ptrdiff_t>(which));
    return moves;
}

} // namespace felt::tournament
