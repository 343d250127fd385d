#include "poker/all_in.h"

#include "poker/pots.h"
#include "rankings/ranking.h"

#include <algorithm>

namespace felt::poker {

std::optional<odds::Query> odds_query(const HandConfig& c) {
    if (!c.variant || !c.ranking || c.ranking->wild() != Wild::none) return std::nullopt;
    const std::string& v = c.variant->name;
    odds::Query q;
    if (v == "holdem" && c.ranking->name() == "standard")
        q.game = odds::Game::holdem;
    else if (v == "short-deck")
        q.game = odds::Game::short_deck;
    else if (v == "omaha")
        q.game = odds::Game::omaha;
    else if (v == "omaha-hilo")
        q.game = odds::Game::omaha_hilo;
    else if (v == "stud" && c.ranking->name() == "standard")
        q.game = odds::Game::stud;
    else if (v == "stud-hilo")
        q.game = odds::Game::stud_hilo;
    else if (v == "razz")
        q.game = odds::Game::razz;
    else
        return std::nullopt;
    q.hole = c.hole_cards;
    q.trips_beat_straight = c.ranking->trips_beat_straight();
    return q;
}

std::optional<StreetOdds> street_odds(const HandConfig& c, std::span<const Event> events,
                                      const std::array<std::vector<Card>, kMaxSeats>& known,
                                      odds::Query q, bool against_random) {
    const auto base = odds_query(c);
    if (!base) return std::nullopt;
    std::array<int, kMaxSeats> dealt{};
    std::array<std::vector<Card>, kMaxSeats> up;
    std::array<bool, kMaxSeats> folded{};
    std::vector<Card> board;
    StreetOdds out;
    for (const Event& e : events) {
        const auto seat = static_cast<std::size_t>(std::max<int>(e.seat, 0));
        switch (e.type) {
        case EventType::deal_down:
        case EventType::deal_up:
            dealt[seat] += e.count;
            if (e.type == EventType::deal_up)
                up[seat].insert(up[seat].end(), e.cards.begin(), e.cards.begin() + e.count);
            break;
        case EventType::deal_board:
            board.insert(board.end(), e.cards.begin(), e.cards.begin() + e.count);
            break;
        case EventType::fold:
            folded[seat] = true;
            break;
        case EventType::street:
            out.street = e.number;
            break;
        default:
            break;
        }
    }
    q.game = base->game;
    q.hole = base->hole;
    q.trips_beat_straight = base->trips_beat_straight;
    q.players.clear();
    q.board = board;
    q.dead.clear();
    const odds::GameShape shape = odds::shape(q.game);
    int hole = shape.hole;
    if (q.game == odds::Game::omaha || q.game == odds::Game::omaha_hilo) hole = q.hole ? q.hole : 4;
    bool to_come = static_cast<int>(board.size()) < shape.board;
    for (int i = 0; i < c.seats; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const bool counted = !folded[k] && !known[k].empty();
        if (!counted) {
            q.dead.insert(q.dead.end(), up[k].begin(), up[k].end());
            continue;
        }
        const auto n = std::min<std::size_t>(known[k].size(), static_cast<std::size_t>(dealt[k]));
        std::vector<Card> cards(known[k].begin(), known[k].begin() + static_cast<long>(n));
        to_come |= dealt[k] < hole;
        odds::Player p;
        if (shape.ranges) {
            if (cards.size() != 2) return std::nullopt;
            p.range = {odds::Combo{std::max(cards[0], cards[1]), std::min(cards[0], cards[1]), 1}};
        } else {
            p.cards = std::move(cards);
        }
        out.seats.push_back(i);
        q.players.push_back(std::move(p));
    }
    if (against_random && out.seats.size() == 1) {
        odds::Player random;
        if (shape.ranges) random.range = odds::parse_range("random").value();
        out.seats.push_back(-1);
        q.players.push_back(std::move(random));
    }
    if (out.seats.size() < 2 || !to_come) return std::nullopt;
    auto e = odds::equity(q);
    if (!e) return std::nullopt;
    out.equity = std::move(e).value();
    return out;
}

std::optional<AllInEv> all_in_ev(const HandConfig& c, std::span<const Event> events,
                                 const HandState& end, odds::Query q, const StreetOdds* at_show) {
    const auto base = odds_query(c);
    if (!base) return std::nullopt;
    // The moment of the show: the board then, each shown hand, and the up cards of the seats
    // that folded (everyone saw those; nobody saw a folded face-down card).
    std::array<std::vector<Card>, kMaxSeats> shown, up;
    std::vector<Card> board;
    int street = 0;
    bool found = false;
    for (const Event& e : events) {
        if (e.type == EventType::show && e.number == 1) {
            found = true;
            shown[static_cast<std::size_t>(e.seat)].assign(e.cards.begin(),
                                                           e.cards.begin() + e.count);
            continue;
        }
        if (found) break;
        if (e.type == EventType::street) street = e.number;
        if (e.type == EventType::deal_board)
            board.insert(board.end(), e.cards.begin(), e.cards.begin() + e.count);
        if (e.type == EventType::deal_up && e.seat >= 0)
            up[static_cast<std::size_t>(e.seat)].insert(up[static_cast<std::size_t>(e.seat)].end(),
                                                        e.cards.begin(), e.cards.begin() + e.count);
    }
    if (!found) return std::nullopt;
    std::vector<Card> dead;
    for (int i = 0; i < c.seats; ++i)
        if (shown[static_cast<std::size_t>(i)].empty())
            dead.insert(dead.end(), up[static_cast<std::size_t>(i)].begin(),
                        up[static_cast<std::size_t>(i)].end());
    // What each seat put in: no bet follows the show, so it is what it started with less what it
    // ended with, plus what it won.
    std::array<Chips, kMaxSeats> totals{};
    std::uint16_t folded = 0;
    for (int i = 0; i < c.seats; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const SeatState& p = end.seats[k];
        if (!p.in_hand) continue;
        totals[k] = c.stacks[k] - p.stack + end.won[k];
        if (!p.folded && shown[k].empty()) return std::nullopt; // a hand nobody knows
        if (p.folded) folded |= static_cast<std::uint16_t>(1u << i);
    }
    std::array<Chips, kMaxSeats> for_pots = totals;
    const Chips dead_antes = take_dead_antes(c, for_pots);
    const Pots pots = build_pots(for_pots, folded, c.seats, dead_antes);
    std::array<Chips, kMaxSeats> raked{};
    for (const Event& e : events)
        if (e.type == EventType::rake && e.pot >= 0 && e.pot < kMaxSeats)
            raked[static_cast<std::size_t>(e.pot)] += e.amount;

    AllInEv out;
    out.street = street;
    for (int i = 0; i < c.seats; ++i)
        if (!shown[static_cast<std::size_t>(i)].empty())
            out.seats.push_back({i, 0, 0, end.won[static_cast<std::size_t>(i)]});
    auto share_of = [&](int seat) -> AllInShare& {
        return *std::find_if(out.seats.begin(), out.seats.end(),
                             [&](const AllInShare& s) { return s.seat == seat; });
    };
    for (std::size_t pi = 0; pi < pots.size(); ++pi) {
        const double amount = static_cast<double>((pots[pi].amount - raked[pi]).value());
        std::vector<int> in;
        for (int i = 0; i < c.seats; ++i)
            if (pots[pi].eligible >> i & 1) in.push_back(i);
        if (in.empty()) continue;
        if (in.size() == 1) {
            share_of(in[0]).expected += amount;
            if (pi == 0) share_of(in[0]).equity = 100;
            continue;
        }
        odds::Query qq = q;
        qq.game = base->game;
        qq.hole = base->hole;
        qq.trips_beat_straight = base->trips_beat_straight;
        qq.players.clear();
        for (int i : in) qq.players.push_back(odds::Player{{}, shown[static_cast<std::size_t>(i)]});
        if (odds::shape(qq.game).ranges)
            for (auto& p : qq.players) {
                if (p.cards.size() != 2) return std::nullopt;
                p.range = {odds::Combo{std::max(p.cards[0], p.cards[1]),
                                       std::min(p.cards[0], p.cards[1]), 1}};
                p.cards.clear();
            }
        qq.board = board;
        qq.dead = dead;
        std::optional<odds::Equity> e;
        if (at_show && at_show->seats == in) {
            e = at_show->equity;
        } else {
            auto worked = odds::equity(qq);
            if (!worked) return std::nullopt;
            e = std::move(worked).value();
        }
        out.exact = out.exact && e->exact;
        for (std::size_t k = 0; k < in.size(); ++k) {
            AllInShare& s = share_of(in[k]);
            s.expected += amount * e->equity[k] / 100;
            if (pi == 0) s.equity = e->equity[k];
        }
    }
    return out;
}

} // namespace felt::poker
