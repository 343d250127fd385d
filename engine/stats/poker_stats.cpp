#include "stats/poker_stats.h"

#include <algorithm>
#include <cmath>

namespace felt::stats {

using poker::Chips;
using poker::Event;
using poker::EventType;

Family family_of(const poker::Variant& v) {
    if (v.bring_in_opens()) return Family::stud;
    for (const poker::Street& s : v.streets)
        for (const poker::Step& p : s.steps)
            if (p.kind == poker::Step::Kind::deal_board) return Family::board;
    return Family::draw;
}

std::string_view stat_name(Stat s) {
    static constexpr std::array<std::string_view, kStats> names = {
        "vpip",
        "pfr",
        "three_bet",
        "fold_to_three_bet",
        "four_bet",
        "steal",
        "fold_to_steal",
        "cbet_flop",
        "cbet_turn",
        "cbet_river",
        "fold_to_cbet_flop",
        "fold_to_cbet_turn",
        "fold_to_cbet_river",
        "check_raise_flop",
        "check_raise_turn",
        "check_raise_river",
        "af_flop",
        "af_turn",
        "af_river",
        "afq_flop",
        "afq_turn",
        "afq_river",
        "wtsd",
        "wsd",
        "wwsf",
    };
    return names[static_cast<std::size_t>(s)];
}

bool counted(Stat s, Family f) {
    switch (s) {
    case Stat::vpip:
    case Stat::pfr:
    case Stat::wtsd:
    case Stat::wsd:
        return true;
    default:
        return f == Family::board;
    }
}

namespace {

enum class Verb : unsigned char { fold, check, call, raise, bring_in }; // raise: bets too

struct Act {
    int round;
    int seat;
    Verb verb;
    bool all_in = false;
    bool aggressive() const { return verb == Verb::raise; }
};

constexpr int kRounds = 4; // the statistics' streets: preflop and three more

Tally& at(Line& l, Stat s) {
    return l.tallies[static_cast<std::size_t>(s)];
}

// What happened, seat by seat, read from the events once.
struct Reading {
    std::vector<Act> acts;
    std::array<Chips, poker::kMaxSeats> put{}, back{}, won{}, rake{};
    std::array<bool, poker::kMaxSeats> in{}, folded{};
    std::array<int, poker::kMaxSeats> live_posts{}; // forced bets that left chips behind
    std::array<std::array<bool, kRounds>, poker::kMaxSeats> saw{};
    std::vector<int> blinds; // seats, in the order posted
    int live = 0;
};

Reading read(const poker::HandConfig& c, std::span<const Event> events) {
    Reading r;
    std::array<Chips, poker::kMaxSeats> round_bet{};
    std::array<Chips, poker::kMaxSeats> pot_rake{};
    std::array<std::array<Chips, poker::kMaxSeats>, poker::kMaxSeats> pot_won{}; // [pot][seat]
    for (int i = 0; i < c.seats; ++i) {
        r.in[static_cast<std::size_t>(i)] = c.stacks[static_cast<std::size_t>(i)] > 0;
        r.live += r.in[static_cast<std::size_t>(i)];
    }
    // Betting streets' ordinals: the variant's streets that hold a betting round.
    std::array<int, 16> ordinal{};
    for (int k = 0, n = 0; k < static_cast<int>(c.variant->streets.size()) && k < 16; ++k) {
        ordinal[static_cast<std::size_t>(k)] = n;
        n += c.variant->streets[static_cast<std::size_t>(k)].betting;
    }
    int round = 0;
    bool forced = true; // before the first player's own action
    auto act = [&](const Event& e, Verb v) {
        forced = false;
        r.acts.push_back({round, e.seat, v});
    };
    for (const Event& e : events) {
        const auto s = static_cast<std::size_t>(e.seat >= 0 ? e.seat : 0);
        switch (e.type) {
        case EventType::ante:
            r.put[s] += e.amount;
            ++r.live_posts[s];
            break;
        case EventType::blind:
            r.put[s] += e.amount;
            ++r.live_posts[s];
            round_bet[s] += e.amount;
            r.blinds.push_back(e.seat);
            break;
        case EventType::bring_in:
            r.put[s] += e.amount;
            round_bet[s] += e.amount;
            act(e, Verb::bring_in);
            break;
        case EventType::fold:
            r.folded[s] = true;
            --r.live;
            act(e, Verb::fold);
            break;
        case EventType::check:
            act(e, Verb::check);
            break;
        case EventType::call:
            r.put[s] += e.amount;
            round_bet[s] += e.amount;
            act(e, Verb::call);
            break;
        case EventType::bet:
        case EventType::raise:
            r.put[s] += e.amount - round_bet[s];
            round_bet[s] = e.amount;
            act(e, Verb::raise);
            break;
        case EventType::all_in:
            if (forced)
                --r.live_posts[s]; // the post just made put the seat all in
            else if (!r.acts.empty() && r.acts.back().seat == e.seat)
                r.acts.back().all_in = true;
            break;
        case EventType::street: {
            round_bet = {};
            const int k = std::clamp<int>(e.number, 0, 15);
            if (!c.variant->streets[static_cast<std::size_t>(k)].betting) break;
            round = std::min(ordinal[static_cast<std::size_t>(k)], kRounds); // kRounds: past them
            if (round < kRounds)
                for (std::size_t i = 0; i < poker::kMaxSeats; ++i)
                    r.saw[i][static_cast<std::size_t>(round)] = r.in[i] && !r.folded[i];
            break;
        }
        case EventType::uncalled:
            r.back[s] += e.amount;
            break;
        case EventType::win:
            r.won[s] += e.amount;
            if (e.pot >= 0 && e.pot < poker::kMaxSeats)
                pot_won[static_cast<std::size_t>(e.pot)][s] += e.amount;
            break;
        case EventType::rake:
            if (e.pot >= 0 && e.pot < poker::kMaxSeats)
                pot_rake[static_cast<std::size_t>(e.pot)] += e.amount;
            break;
        default:
            break;
        }
    }
    // Each pot's rake, shared by its winners as they shared the pot (the odd chips to the first).
    for (std::size_t p = 0; p < poker::kMaxSeats; ++p) {
        if (pot_rake[p] == 0) continue;
        Chips total{};
        for (Chips w : pot_won[p]) total += w;
        if (total == 0) continue;
        Chips given{};
        std::size_t first = poker::kMaxSeats;
        for (std::size_t i = 0; i < poker::kMaxSeats; ++i) {
            if (pot_won[p][i] == 0) continue;
            if (first == poker::kMaxSeats) first = i;
            const Chips share = Chips(pot_rake[p].value() * pot_won[p][i].value() / total.value());
            r.rake[i] += share;
            given += share;
        }
        r.rake[first] += pot_rake[p] - given;
    }
    return r;
}

// Positions (fpdb's setPositions): the blinds by what they posted, the others in the order of
// their first action before the flop, the last of them the button (0). A straddler, who acts
// last, is counted first.
void place(const Reading& r, const poker::HandConfig& c, HandLines& h,
           std::array<Line*, poker::kMaxSeats>& line) {
    const int straddles = static_cast<int>(c.stakes.straddles.size());
    const int n = static_cast<int>(r.blinds.size());
    const int bb =
        n - 1 - straddles >= 0 ? r.blinds[static_cast<std::size_t>(n - 1 - straddles)] : -1;
    const int sb =
        n - 2 - straddles >= 0 ? r.blinds[static_cast<std::size_t>(n - 2 - straddles)] : -1;
    int bring_in = -1;
    if (h.family == Family::stud && !r.acts.empty() && r.acts.front().round == 0)
        bring_in = r.acts.front().seat;
    std::vector<int> order;
    for (const Act& a : r.acts)
        if (a.round == 0 && std::find(order.begin(), order.end(), a.seat) == order.end())
            order.push_back(a.seat);
    std::erase_if(order, [&](int s) { return s == bb || s == sb || s == bring_in; });
    if (straddles > 0 && !order.empty())
        std::rotate(order.rbegin(), order.rbegin() + 1, order.rend());
    for (std::size_t i = 0; i < order.size(); ++i)
        if (Line* l = line[static_cast<std::size_t>(order[i])])
            l->position = static_cast<int>(order.size() - 1 - i);
    if (bb >= 0 && line[static_cast<std::size_t>(bb)])
        line[static_cast<std::size_t>(bb)]->position = kBigBlind;
    if (sb >= 0 && line[static_cast<std::size_t>(sb)])
        line[static_cast<std::size_t>(sb)]->position = kSmallBlind;
    if (bring_in >= 0 && line[static_cast<std::size_t>(bring_in)])
        line[static_cast<std::size_t>(bring_in)]->position = kSmallBlind;
}

// Before the flop: VPIP, PFR, 3-bet, fold to 3-bet, 4-bet (fpdb's vpip and calc34BetStreet0).
void preflop(const Reading& r, HandLines& h, std::array<Line*, poker::kMaxSeats>& line,
             int big_blind) {
    bool anyone = false;
    std::array<bool, poker::kMaxSeats> pfr_chance{};
    for (Line& l : h.lines) {
        at(l, Stat::vpip).opportunities = 1;
        pfr_chance[static_cast<std::size_t>(l.seat)] = true;
    }
    for (const Act& a : r.acts)
        if (a.round == 0 && (a.verb == Verb::call || a.verb == Verb::raise)) {
            anyone = true;
            at(*line[static_cast<std::size_t>(a.seat)], Stat::vpip).times = 1;
            if (a.aggressive()) at(*line[static_cast<std::size_t>(a.seat)], Stat::pfr).times = 1;
        }
    if (!anyone && big_blind >= 0 && line[static_cast<std::size_t>(big_blind)]) {
        at(*line[static_cast<std::size_t>(big_blind)], Stat::vpip).opportunities = 0;
        pfr_chance[static_cast<std::size_t>(big_blind)] = false;
    }
    // The players still able to act (fpdb's p_in): those with a forced bet that left them chips,
    // and those who act before the flop.
    std::array<bool, poker::kMaxSeats> able{};
    for (const Line& l : h.lines)
        able[static_cast<std::size_t>(l.seat)] = r.live_posts[static_cast<std::size_t>(l.seat)] > 0;
    for (const Act& a : r.acts)
        if (a.round == 0) able[static_cast<std::size_t>(a.seat)] = true;
    int able_count = static_cast<int>(std::count(able.begin(), able.end(), true));
    std::array<int, poker::kMaxSeats> acted{};
    bool raise_chance = true;
    int level = h.family == Family::stud ? 0 : 1, first = -1;
    bool squeeze = false;
    for (const Act& a : r.acts) {
        if (a.round != 0) break;
        const auto s = static_cast<std::size_t>(a.seat);
        Line& l = *line[s];
        // Everyone else folded or all in before this player's first action: no chance to raise.
        if (++acted[s] == 1 && able_count == 1) {
            raise_chance = false;
            pfr_chance[s] = false;
        }
        if ((a.verb == Verb::fold || a.all_in) && able[s]) {
            able[s] = false;
            --able_count;
        }
        if (h.family != Family::board) continue;
        if (level == 1) {
            if (a.aggressive()) {
                if (first < 0) first = a.seat;
                ++level;
            }
        } else if (level == 2) {
            at(l, Stat::three_bet).opportunities = raise_chance;
            if (!squeeze && a.verb == Verb::call) {
                squeeze = true;
                continue;
            }
            if (a.aggressive()) {
                at(l, Stat::three_bet).times = 1;
                ++level;
            }
        } else if (level == 3) {
            if (a.seat == first) {
                at(l, Stat::four_bet).opportunities = raise_chance;
                at(l, Stat::fold_to_three_bet).opportunities = 1;
                if (a.aggressive()) {
                    at(l, Stat::four_bet).times = raise_chance;
                    ++level;
                } else if (a.verb == Verb::fold) {
                    at(l, Stat::fold_to_three_bet).times = 1;
                    break;
                }
            } else if (a.aggressive()) {
                ++level;
            }
        }
    }
    for (Line& l : h.lines)
        at(l, Stat::pfr).opportunities = pfr_chance[static_cast<std::size_t>(l.seat)];
}

// Steal and fold to a steal (fpdb's calcSteals): an open raise from the cutoff (1), the button
// (0) or the small blind; a blind who folds to it before anyone calls or raises.
void steals(const Reading& r, std::array<Line*, poker::kMaxSeats>& line) {
    const auto stealing = [](int p) { return p == 1 || p == 0 || p == kSmallBlind; };
    bool attempt = false, raised = false;
    for (const Act& a : r.acts) {
        if (a.round != 0) break;
        Line& l = *line[static_cast<std::size_t>(a.seat)];
        if (l.position == kBigBlind) {
            if (attempt) {
                at(l, Stat::fold_to_steal).opportunities = 1;
                at(l, Stat::fold_to_steal).times = a.verb == Verb::fold;
            }
            break;
        }
        if (l.position == kSmallBlind) {
            at(l, Stat::fold_to_steal).opportunities = attempt;
            at(l, Stat::fold_to_steal).times = attempt && a.verb == Verb::fold;
        }
        if (attempt && a.verb != Verb::fold) break;
        if (!attempt && !raised && a.verb != Verb::bring_in) {
            if (stealing(l.position)) at(l, Stat::steal).opportunities = 1;
            if (a.aggressive()) {
                raised = true;
                if (stealing(l.position)) {
                    at(l, Stat::steal).times = 1;
                    attempt = true;
                }
            }
            if (a.verb == Verb::call) break;
        }
        if (!stealing(l.position) && a.verb != Verb::fold && a.verb != Verb::bring_in) break;
    }
}

// After the flop, street by street: continuation bets and folds to them (fpdb's calcCBets),
// check-raises (calcCheckCallRaise), aggression.
void postflop(const Reading& r, std::array<Line*, poker::kMaxSeats>& line) {
    static constexpr std::array<Stat, 3> cbet = {Stat::cbet_flop, Stat::cbet_turn,
                                                 Stat::cbet_river};
    static constexpr std::array<Stat, 3> fold_to = {
        Stat::fold_to_cbet_flop, Stat::fold_to_cbet_turn, Stat::fold_to_cbet_river};
    static constexpr std::array<Stat, 3> check_raise = {
        Stat::check_raise_flop, Stat::check_raise_turn, Stat::check_raise_river};
    static constexpr std::array<Stat, 3> af = {Stat::af_flop, Stat::af_turn, Stat::af_river};
    static constexpr std::array<Stat, 3> afq = {Stat::afq_flop, Stat::afq_turn, Stat::afq_river};
    // Each round's acts: [begin, end) in r.acts.
    std::array<std::size_t, kRounds + 1> begin{}, end{};
    for (int k = 0; k <= kRounds; ++k) {
        begin[static_cast<std::size_t>(k)] = static_cast<std::size_t>(
            std::find_if(r.acts.begin(), r.acts.end(), [k](const Act& a) { return a.round >= k; }) -
            r.acts.begin());
    }
    for (int k = 0; k < kRounds; ++k)
        end[static_cast<std::size_t>(k)] = begin[static_cast<std::size_t>(k) + 1];
    auto round = [&](int k) {
        return std::span<const Act>(r.acts.data() + begin[static_cast<std::size_t>(k)],
                                    end[static_cast<std::size_t>(k)] -
                                        begin[static_cast<std::size_t>(k)]);
    };
    for (int k = 1; k < kRounds; ++k) {
        const auto i = static_cast<std::size_t>(k - 1);
        const std::span<const Act> now = round(k);
        // Aggression: bets and raises, calls; the street bet or raised.
        for (const Act& a : now) {
            Line& l = *line[static_cast<std::size_t>(a.seat)];
            if (a.aggressive()) {
                ++at(l, af[i]).times;
                at(l, afq[i]).times = 1;
            }
            if (a.verb == Verb::call) ++at(l, af[i]).opportunities;
        }
        // The continuation bet: the last bettor or raiser of the street before.
        int aggressor = -1;
        for (const Act& a : round(k - 1))
            if (a.aggressive()) aggressor = a.seat;
        if (aggressor >= 0) {
            bool chance = false;
            for (const Act& a : now) {
                if (a.seat == aggressor) {
                    chance = true;
                    break;
                }
                if (a.aggressive()) break;
            }
            if (chance) {
                Line& c = *line[static_cast<std::size_t>(aggressor)];
                at(c, cbet[i]).opportunities = 1;
                const auto first = std::find_if(now.begin(), now.end(),
                                                [&](const Act& a) { return a.seat == aggressor; });
                at(c, cbet[i]).times = first->aggressive();
                if (first->aggressive()) {
                    int turns = 0;
                    for (const Act& a : now) {
                        if (turns > 1) break;
                        if (a.seat == aggressor) {
                            ++turns;
                            continue;
                        }
                        Line& l = *line[static_cast<std::size_t>(a.seat)];
                        at(l, fold_to[i]).opportunities = 1;
                        at(l, fold_to[i]).times = a.verb == Verb::fold;
                        if (a.aggressive()) break;
                    }
                }
            }
        }
        // Check-raise: a player who checked, their first action after the street's first bet.
        int bettor = -1;
        std::array<bool, poker::kMaxSeats> checked{}, answered{};
        for (const Act& a : now) {
            const auto s = static_cast<std::size_t>(a.seat);
            if (a.aggressive() && bettor < 0) {
                bettor = a.seat;
            } else if (a.verb == Verb::check && bettor < 0) {
                checked[s] = true;
            } else if (bettor >= 0 && checked[s] && !answered[s]) {
                answered[s] = true;
                at(*line[s], check_raise[i]).opportunities = 1;
                at(*line[s], check_raise[i]).times = a.aggressive();
            }
        }
    }
}

} // namespace

HandLines count_hand(const poker::HandConfig& c, std::span<const Event> events) {
    HandLines h;
    h.family = family_of(*c.variant);
    h.unit = c.stakes.big_blind > 0   ? c.stakes.big_blind
             : c.stakes.small_bet > 0 ? c.stakes.small_bet
             : c.stakes.min_bet > 0   ? c.stakes.min_bet
                                      : c.stakes.bring_in;
    if (h.unit <= 0) h.unit = Chips(1);
    const Reading r = read(c, events);
    std::array<Line*, poker::kMaxSeats> line{};
    for (int i = 0; i < c.seats; ++i)
        if (r.in[static_cast<std::size_t>(i)]) h.lines.push_back(Line{.seat = i});
    for (Line& l : h.lines) line[static_cast<std::size_t>(l.seat)] = &l;
    place(r, c, h, line);
    int big_blind = -1;
    for (const Line& l : h.lines)
        if (l.position == kBigBlind) big_blind = l.seat;
    preflop(r, h, line, big_blind);
    if (h.family == Family::board) {
        steals(r, line);
        postflop(r, line);
    }
    // Seen streets, showdown, the chips.
    const bool showdown = r.live >= 2;
    for (Line& l : h.lines) {
        const auto s = static_cast<std::size_t>(l.seat);
        const bool collected = r.won[s] > 0;
        // The flop, or the second betting round; a game of one round has none, and every hand
        // dealt counts for going to showdown.
        const bool one_round =
            std::count_if(c.variant->streets.begin(), c.variant->streets.end(),
                          [](const poker::Street& st) { return st.betting; }) < 2;
        const bool saw = one_round ? true : r.saw[s][1];
        l.showdown = showdown && !r.folded[s];
        if (h.family == Family::board)
            for (int k = 1; k < kRounds; ++k)
                at(l, static_cast<Stat>(static_cast<int>(Stat::afq_flop) + k - 1)).opportunities =
                    r.saw[s][static_cast<std::size_t>(k)];
        at(l, Stat::wtsd) = {l.showdown, saw};
        at(l, Stat::wsd) = {l.showdown && collected, l.showdown};
        if (h.family == Family::board) at(l, Stat::wwsf) = {saw && collected, saw};
        l.net = r.won[s] + r.back[s] - r.put[s];
        l.rake = r.rake[s];
    }
    return h;
}

HandLines count_replay(const poker::Replay& replay) {
    const poker::HandConfig& c = *replay.state.config;
    HandLines h = count_hand(c, replay.events);
    for (Line& l : h.lines) {
        const auto s = static_cast<std::size_t>(l.seat);
        if (s >= replay.finishing_stacks.size()) continue;
        const Chips net = replay.finishing_stacks[s] - c.stacks[s];
        if (net < l.net) l.rake += l.net - net;
        l.net = net;
    }
    return h;
}

void Totals::add(const Line& line, Chips unit) {
    ++hands;
    net += line.net;
    rake += line.rake;
    (line.showdown ? showdown_net : other_net) += line.net;
    ev_net += line.ev_net.value_or(static_cast<double>(line.net.value()));
    units += static_cast<double>(unit.value());
    // No unit (leap rummy for points alone): no net in units, as storage keeps it (stats_sql).
    const double bb =
        unit > 0 ? static_cast<double>(line.net.value()) / static_cast<double>(unit.value()) : 0.0;
    sum_bb += bb;
    sum_bb_squared += bb * bb;
    for (int i = 0; i < kStats; ++i)
        tallies[static_cast<std::size_t>(i)] += line.tallies[static_cast<std::size_t>(i)];
}

Totals& Totals::operator+=(const Totals& o) {
    hands += o.hands;
    net += o.net;
    rake += o.rake;
    showdown_net += o.showdown_net;
    other_net += o.other_net;
    units += o.units;
    sum_bb += o.sum_bb;
    sum_bb_squared += o.sum_bb_squared;
    ev_net += o.ev_net;
    deal += o.deal;
    for (int i = 0; i < kStats; ++i)
        tallies[static_cast<std::size_t>(i)] += o.tallies[static_cast<std::size_t>(i)];
    return *this;
}

double Totals::bb_per_100() const {
    return units > 0 ? 100.0 * static_cast<double>(net.value()) / units : 0.0;
}

double Totals::bb_per_100_margin() const {
    if (hands < 2) return 0.0;
    const double n = static_cast<double>(hands);
    const double mean = sum_bb / n;
    const double variance = std::max(0.0, (sum_bb_squared - n * mean * mean) / (n - 1));
    return 100.0 * 1.96 * std::sqrt(variance / n);
}

} // namespace felt::stats
