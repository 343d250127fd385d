#include "reference_stats.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <vector>

namespace felt::test {

namespace {

using Amount = long double;

// fpdb's action tuple: who, what, all in.
struct Action {
    std::string player, verb;
    bool all_in = false;
};

// One player's statistics as fpdb's handsplayers row holds them.
struct Row {
    bool vpip = false, vpip_chance = true, aggr0 = false, aggr_chance = true;
    bool three = false, three_chance = false, four = false, four_chance = false;
    bool fold3 = false, fold3_chance = false;
    bool steal = false, steal_chance = false, fold_steal = false, fold_steal_chance = false;
    bool seen[5] = {};
    bool aggr[5] = {};
    int calls[5] = {}, bets[5] = {};
    bool cb[5] = {}, cb_chance[5] = {}, fold_cb[5] = {}, fold_cb_chance[5] = {};
    bool cr[5] = {}, cr_chance[5] = {};
    bool showdown = false, won_sd = false, won_seen1 = false;
    std::string position; // "B", "S" or the number from the button
};

std::vector<Amount> numbers(const toml::table& t, const char* key) {
    std::vector<Amount> out;
    if (const toml::array* a = t[key].as_array())
        for (const toml::node& n : *a) {
            if (auto d = n.value<double>())
                out.push_back(*d);
            else if (auto s = n.value<std::string>())
                out.push_back(*s == "inf" ? 1e15L : std::stold(*s));
        }
    return out;
}

} // namespace

std::optional<std::map<std::string, ReferenceLine>> reference_stats(const std::string& phh) {
    toml::table t;
    try {
        t = toml::parse(phh);
    } catch (const toml::parse_error&) {
        return std::nullopt;
    }
    const std::string variant = t["variant"].value_or(std::string());
    static const std::set<std::string> board = {"NT",   "FT",   "PT",   "PO", "NO", "FO",
                                                "FO/8", "PO/8", "NO/8", "NS", "PS", "FS"};
    static const std::set<std::string> stud = {"F7S", "N7S",   "P7S",   "FR",   "PR",
                                               "NR",  "F7S/8", "P7S/8", "N7S/8"};
    const bool flop = board.contains(variant);
    if (!flop && !stud.contains(variant)) return std::nullopt;
    const std::vector<Amount> stacks0 = numbers(t, "starting_stacks");
    const std::size_t n = stacks0.size();
    if (n < 2) return std::nullopt;
    auto name = [](std::size_t i) {
        std::string s = "p";
        s += std::to_string(i + 1);
        return s;
    };
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i) index[name(i)] = i;

    std::vector<Amount> stack = stacks0, put(n, 0), bet_put(n, 0), street_bet(n, 0);
    std::vector<bool> folded(n, false);
    // The streets' action lists: 0 blinds and antes, 1 preflop (third street), 2 flop ...
    std::vector<std::vector<Action>> streets(2);
    auto pay = [&](std::size_t i, Amount x, bool counts_to_bet) {
        x = std::min(x, stack[i]);
        stack[i] -= x;
        put[i] += x;
        if (counts_to_bet) {
            street_bet[i] += x;
            bet_put[i] += x;
        }
        return stack[i] <= 0;
    };
    std::vector<Amount> antes = numbers(t, "antes");
    std::vector<Amount> blinds = numbers(t, "blinds_or_straddles");
    antes.resize(n, 0);
    blinds.resize(n, 0);
    if (flop && n == 2) {
        std::swap(antes[0], antes[1]); // heads-up: p2, on the button, posts the small blind
        std::swap(blinds[0], blinds[1]);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (antes[i] > 0) streets[0].push_back({name(i), "ante", pay(i, antes[i], false)});
    Amount current = 0;
    // A big blind alone (a dead small blind) is the big blind; else the second is.
    const bool dead_small =
        n > 2 && blinds[0] > 0 &&
        std::all_of(blinds.begin() + 1, blinds.end(), [](Amount b) { return b == 0; });
    std::vector<std::size_t> order; // posting order: small blind, big blind, straddles
    if (flop) {
        if (n == 2)
            order = {1, 0};
        else
            for (std::size_t i = 0; i < n; ++i)
                if (blinds[i] > 0) order.push_back(i);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const std::size_t i = order[k];
            const char* what = dead_small ? "big blind"
                               : k == 0   ? "small blind"
                               : k == 1   ? "big blind"
                                          : "straddle";
            streets[0].push_back({name(i), what, pay(i, blinds[i], true)});
            current = std::max(current, street_bet[i]);
        }
    }
    const Amount bring_in = t["bring_in"].value_or(0.0);
    bool completed = false;
    // The actions, street by street.
    int street = 1;
    bool acted = false; // someone acted on this street
    if (const toml::array* list = t["actions"].as_array())
        for (const toml::node& node : *list) {
            std::istringstream in(node.value_or(std::string()));
            std::string who, what;
            in >> who >> what;
            if (who == "d") {
                if ((what == "db" || (what == "dh" && !flop)) && acted) {
                    ++street;
                    streets.emplace_back();
                    acted = false;
                    current = 0;
                    std::fill(street_bet.begin(), street_bet.end(), 0);
                }
                continue;
            }
            if (!index.contains(who)) return std::nullopt;
            const std::size_t i = index[who];
            std::vector<Action>& list_now = streets[static_cast<std::size_t>(street)];
            if (what == "f") {
                folded[i] = true;
                list_now.push_back({who, "folds"});
            } else if (what == "cc") {
                if (street_bet[i] >= current) {
                    list_now.push_back({who, "checks"});
                } else {
                    const bool all = pay(i, current - street_bet[i], true);
                    list_now.push_back({who, "calls", all});
                }
            } else if (what == "cbr") {
                std::string amount;
                in >> amount;
                const Amount to = std::stold(amount);
                const char* verb = current == 0 ? "bets"
                                   : !flop && street == 1 && !completed && bring_in > 0
                                       ? "completes"
                                       : "raises";
                completed = completed || !flop;
                const bool all = pay(i, to - street_bet[i], true);
                current = std::max(current, street_bet[i]);
                list_now.push_back({who, verb, all});
            } else if (what == "pb") {
                const bool all = pay(i, bring_in, true);
                current = std::max(current, street_bet[i]);
                list_now.push_back({who, "bringin", all});
            } else {
                continue; // shows, mucks
            }
            acted = true;
        }
    // Streets dealt after everyone was all in have no actions: they are still streets.
    const std::size_t last_street = flop ? 4 : 5;
    while (streets.size() <= last_street) streets.emplace_back();
    // Uncalled chips go back to the biggest bettor.
    std::vector<Amount> back(n, 0);
    {
        std::size_t top = 0;
        for (std::size_t i = 1; i < n; ++i)
            if (bet_put[i] > bet_put[top]) top = i;
        Amount second = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (i != top) second = std::max(second, bet_put[i]);
        back[top] = std::max<Amount>(0, bet_put[top] - second);
    }
    Amount pot = 0;
    for (std::size_t i = 0; i < n; ++i) pot += put[i] - back[i];
    // What each collected: finishing stacks; else winnings (not all zero; less the uncalled bet
    // when they add up to more than the pot); else the last player left takes the pot.
    std::vector<Amount> collected(n, 0);
    const std::vector<Amount> finishing = numbers(t, "finishing_stacks");
    const std::vector<Amount> winnings = numbers(t, "winnings");
    const std::size_t left =
        static_cast<std::size_t>(std::count(folded.begin(), folded.end(), false));
    if (finishing.size() == n) {
        for (std::size_t i = 0; i < n; ++i)
            collected[i] = finishing[i] - (stacks0[i] - put[i] + back[i]);
    } else if (winnings.size() == n &&
               std::any_of(winnings.begin(), winnings.end(), [](Amount w) { return w != 0; })) {
        collected = winnings;
        Amount sum = 0;
        for (Amount w : winnings) sum += w;
        if (sum > pot + 1e-9)
            for (std::size_t i = 0; i < n; ++i)
                collected[i] = std::max<Amount>(0, collected[i] - back[i]);
    } else if (left == 1) {
        for (std::size_t i = 0; i < n; ++i)
            if (!folded[i]) collected[i] = pot;
    } else {
        return std::nullopt;
    }

    std::map<std::string, Row> rows;
    for (std::size_t i = 0; i < n; ++i) rows[name(i)];
    const std::vector<Action>& pre = streets[1];
    auto aggressive = [](const std::string& v) {
        return v == "bets" || v == "raises" || v == "completes";
    };

    // vpip
    {
        std::set<std::string> vpipers;
        for (const Action& a : pre)
            if (a.verb == "calls" || a.verb == "bets" || a.verb == "raises" ||
                a.verb == "completes")
                vpipers.insert(a.player);
        for (auto& [p, r] : rows) r.vpip = vpipers.contains(p);
        for (const Action& a : streets[0])
            if (a.verb == "big blind" && vpipers.empty()) {
                rows[a.player].vpip_chance = false;
                rows[a.player].aggr_chance = false;
                break;
            }
        for (const Action& a : pre)
            if (aggressive(a.verb)) rows[a.player].aggr0 = true;
    }
    // playersAtStreetX: who saw each street and the showdown.
    {
        std::set<std::string> in;
        for (const Action& a : pre) in.insert(a.player);
        std::set<std::string> contenders; // the main pot's
        for (std::size_t i = 0; i < n; ++i)
            if (!folded[i] && put[i] > 0) contenders.insert(name(i));
        if (contenders.size() > 1) in.insert(contenders.begin(), contenders.end());
        bool ended = false;
        for (std::size_t s = 0; s < streets.size() && !ended; ++s) {
            if (s >= 2 && s <= 5)
                for (const std::string& p : in) rows[p].seen[s - 1] = true;
            for (const Action& a : streets[s])
                if (a.verb == "folds") in.erase(a.player);
            if (in.size() == 1) ended = true;
        }
        if (!ended)
            for (const std::string& p : in) rows[p].showdown = true;
    }
    // Positions (setPositions): the blinds, then the others from the button back.
    {
        std::vector<std::string> players;
        for (const Action& a : pre)
            if (std::find(players.begin(), players.end(), a.player) == players.end())
                players.push_back(a.player);
        std::string sb, bb, bi;
        bool straddle = false;
        for (const Action& a : streets[0]) {
            if (a.verb == "big blind" && bb.empty()) bb = a.player;
            if (a.verb == "small blind" && sb.empty()) sb = a.player;
            if (a.verb == "straddle") straddle = true;
        }
        if (!flop && !pre.empty()) bi = pre.front().player;
        if (!bb.empty()) {
            rows[bb].position = "B";
            std::erase(players, bb);
        }
        if (!sb.empty()) {
            rows[sb].position = "S";
            std::erase(players, sb);
        }
        if (!bi.empty()) {
            rows[bi].position = "S";
            std::erase(players, bi);
        }
        if (straddle && !players.empty()) {
            players.insert(players.begin(), players.back());
            players.pop_back();
        }
        for (std::size_t i = 0; i < players.size(); ++i)
            rows[players[players.size() - 1 - i]].position = std::to_string(i);
    }
    // calc34BetStreet0
    {
        int level = flop ? 1 : 0;
        bool squeeze = false, raise_chance = true;
        std::string first;
        std::set<std::string> in;
        for (const Action& a : streets[0])
            if (!a.all_in) in.insert(a.player);
        for (const Action& a : pre) in.insert(a.player);
        std::map<std::string, int> count;
        for (const Action& a : pre) {
            Row& r = rows[a.player];
            const bool aggr = aggressive(a.verb);
            ++count[a.player];
            if (in.size() == 1 && count[a.player] == 1) {
                raise_chance = false;
                r.aggr_chance = false;
            }
            if (a.verb == "folds" || a.all_in) in.erase(a.player);
            if (level == 0) {
                if (aggr) {
                    if (first.empty()) first = a.player;
                    ++level;
                }
            } else if (level == 1) {
                if (aggr) {
                    if (first.empty()) first = a.player;
                    ++level;
                }
            } else if (level == 2) {
                r.three_chance = raise_chance;
                if (!squeeze && a.verb == "calls") {
                    squeeze = true;
                    continue;
                }
                if (aggr) {
                    r.three = true;
                    ++level;
                }
            } else if (level == 3) {
                if (a.player == first) {
                    r.four_chance = raise_chance;
                    r.fold3_chance = true;
                    if (aggr) {
                        r.four = raise_chance;
                        ++level;
                    } else if (a.verb == "folds") {
                        r.fold3 = true;
                        break;
                    }
                } else if (aggr) {
                    ++level;
                }
            }
        }
    }
    // calcSteals
    if (flop) {
        bool attempt = false, raised = false;
        auto stealing = [](const std::string& p) { return p == "1" || p == "0" || p == "S"; };
        for (const Action& a : pre) {
            Row& r = rows[a.player];
            if (r.position == "B") {
                if (attempt) {
                    r.fold_steal_chance = true;
                    r.fold_steal = a.verb == "folds";
                }
                break;
            }
            if (r.position == "S") {
                r.fold_steal_chance = attempt;
                r.fold_steal = attempt && a.verb == "folds";
            }
            if (attempt && a.verb != "folds") break;
            if (!attempt && !raised && a.verb != "bringin") {
                if (stealing(r.position)) r.steal_chance = true;
                if (aggressive(a.verb)) {
                    raised = true;
                    if (stealing(r.position)) {
                        r.steal = true;
                        attempt = true;
                    }
                }
                if (a.verb == "calls") break;
            }
            if (!stealing(r.position) && a.verb != "folds" && a.verb != "bringin") break;
        }
    }
    // aggr, calls, bets and raises (streets 1 on), calcCBets, calcCheckCallRaise
    for (std::size_t s = 2; s < streets.size() && s <= 5; ++s) {
        const std::size_t k = s - 1;
        for (const Action& a : streets[s]) {
            if (aggressive(a.verb)) {
                rows[a.player].aggr[k] = true;
                ++rows[a.player].bets[k];
            }
            if (a.verb == "calls") ++rows[a.player].calls[k];
        }
        std::string last;
        for (const Action& a : streets[s - 1])
            if (aggressive(a.verb)) last = a.player;
        if (!last.empty()) {
            bool chance = false;
            for (const Action& a : streets[s]) {
                if (a.player == last) {
                    chance = true;
                    break;
                }
                if (aggressive(a.verb)) break;
            }
            if (chance) {
                Row& r = rows[last];
                r.cb_chance[k] = true;
                for (const Action& a : streets[s])
                    if (a.player == last) {
                        r.cb[k] = aggressive(a.verb);
                        break;
                    }
                if (r.cb[k]) {
                    int i = 0;
                    for (const Action& a : streets[s]) {
                        if (i > 1) break;
                        if (a.player != last) {
                            rows[a.player].fold_cb_chance[k] = true;
                            rows[a.player].fold_cb[k] = a.verb == "folds";
                            if (a.verb == "raises" || a.verb == "completes") break;
                        } else {
                            ++i;
                        }
                    }
                }
            }
        }
        std::set<std::string> checkers, answered;
        std::string raiser;
        for (const Action& a : streets[s]) {
            if ((a.verb == "bets" || a.verb == "raises") && raiser.empty()) {
                raiser = a.player;
            } else if (a.verb == "checks" && raiser.empty()) {
                checkers.insert(a.player);
            } else if (!raiser.empty() && checkers.contains(a.player) &&
                       !answered.contains(a.player)) {
                rows[a.player].cr_chance[k] = true;
                rows[a.player].cr[k] = a.verb == "raises";
                answered.insert(a.player);
            }
        }
    }
    // Winnings: who collected, where.
    for (std::size_t i = 0; i < n; ++i) {
        Row& r = rows[name(i)];
        if (collected[i] > 1e-9) {
            if (r.seen[1]) r.won_seen1 = true;
            if (r.showdown) r.won_sd = true;
        }
    }

    std::map<std::string, ReferenceLine> out;
    static const char* kStreet[] = {"", "flop", "turn", "river"};
    for (std::size_t i = 0; i < n; ++i) {
        const Row& r = rows[name(i)];
        ReferenceLine& l = out[name(i)];
        auto put_stat = [&](const std::string& key, bool times, bool chance) {
            l.stats[key] = {times ? 1 : 0, chance ? 1 : 0};
        };
        put_stat("vpip", r.vpip, r.vpip_chance);
        put_stat("pfr", r.aggr0, r.aggr_chance);
        put_stat("wtsd", r.showdown, r.seen[1]);
        put_stat("wsd", r.won_sd, r.showdown);
        if (flop) {
            l.stats["three_bet"] = {r.three ? 1 : 0, r.three_chance ? 1 : 0};
            l.stats["four_bet"] = {r.four ? 1 : 0, r.four_chance ? 1 : 0};
            l.stats["fold_to_three_bet"] = {r.fold3 ? 1 : 0, r.fold3_chance ? 1 : 0};
            l.stats["steal"] = {r.steal ? 1 : 0, r.steal_chance ? 1 : 0};
            l.stats["fold_to_steal"] = {r.fold_steal ? 1 : 0, r.fold_steal_chance ? 1 : 0};
            put_stat("wwsf", r.won_seen1, r.seen[1]);
            for (std::size_t k = 1; k <= 3; ++k) {
                const std::string s = kStreet[k];
                l.stats["cbet_" + s] = {r.cb[k] ? 1 : 0, r.cb_chance[k] ? 1 : 0};
                l.stats["fold_to_cbet_" + s] = {r.fold_cb[k] ? 1 : 0, r.fold_cb_chance[k] ? 1 : 0};
                l.stats["check_raise_" + s] = {r.cr[k] ? 1 : 0, r.cr_chance[k] ? 1 : 0};
                l.stats["af_" + s] = {r.bets[k], r.calls[k]};
                l.stats["afq_" + s] = {r.aggr[k] ? 1 : 0, r.seen[k] ? 1 : 0};
            }
        }
        l.net = collected[i] - put[i] + back[i];
        l.showdown = r.showdown;
    }
    return out;
}

} // namespace felt::test
