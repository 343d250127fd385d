#include "chinese/chinese.h"

#include "cards/deck.h"
#include "rankings/evaluator.h"
#include "rankings/wild.h"

#include <algorithm>
#include <bit>

namespace felt::chinese {

namespace {

constexpr std::string_view kSpecialNames[kSpecialCount] = {"six_pairs",
                                                           "three_straights",
                                                           "three_flushes",
                                                           "complete_straight",
                                                           "thirteen_of_one_suit",
                                                           "all_one_colour",
                                                           "twelve_one_colour",
                                                           "five_pairs_and_trio",
                                                           "four_trios",
                                                           "small",
                                                           "big",
                                                           "three_quads",
                                                           "three_straight_flushes",
                                                           "twelve_pictures"};

std::array<Card, 13> all_cards(const Split& s) {
    std::array<Card, 13> out{};
    std::copy(s.front.begin(), s.front.end(), out.begin());
    std::copy(s.middle.begin(), s.middle.end(), out.begin() + 3);
    std::copy(s.back.begin(), s.back.end(), out.begin() + 8);
    return out;
}

std::array<int, 13> rank_counts(const Split& s) {
    std::array<int, 13> c{};
    for (Card card : all_cards(s)) ++c[static_cast<std::size_t>(card.rank().index())];
    return c;
}

HandValue value5(const std::array<Card, 5>& h) {
    return evaluate<5>(h.data());
}
HandValue value3(const std::array<Card, 3>& h) {
    return evaluate<3>(h.data());
}

bool is_straight(HandValue v) {
    return v.category() == Category::straight || v.category() == Category::straight_flush;
}
bool is_flush(HandValue v) {
    return v.category() == Category::flush || v.category() == Category::straight_flush;
}

// The front's top card when its three ranks run in sequence (A-2-3: 3; Q-K-A: A), else -1.
int front_sequence_top(const std::array<Card, 3>& f) {
    unsigned m = 0;
    for (Card c : f) m |= 1u << c.rank().index();
    if (std::popcount(m) != 3) return -1;
    if (m == (1u << 12 | 1u << 0 | 1u << 1)) return 1; // A-2-3: the 3 (index 1) tops it
    const int low = std::countr_zero(m);
    return m == (7u << low) ? low + 2 : -1;
}

bool front_suited(const std::array<Card, 3>& f) {
    return f[0].suit() == f[1].suit() && f[1].suit() == f[2].suit();
}

std::string describe(HandValue v) {
    return hand_class::words(v.hand_class());
}

} // namespace

std::array<HandValue, 3> row_values(const Split& s) {
    return {value3(s.front), value5(s.middle), value5(s.back)};
}

std::string_view row_name(Row r) {
    return r == Row::front ? "front" : r == Row::middle ? "middle" : "back";
}

std::string_view special_name(Special s) {
    return kSpecialNames[static_cast<int>(s)];
}

std::optional<Special> parse_special(std::string_view name) {
    for (int i = 0; i < kSpecialCount; ++i)
        if (kSpecialNames[i] == name) return static_cast<Special>(i);
    return std::nullopt;
}

int compare_middle_front(HandValue middle, HandValue front, bool short_kickers_lowest) {
    if (short_kickers_lowest) return middle < front ? -1 : middle > front ? 1 : 0;
    const std::uint32_t m = middle.hand_class(), f = front.hand_class();
    if (hand_class::category(m) != hand_class::category(f))
        return hand_class::category(m) < hand_class::category(f) ? -1 : 1;
    for (int i = 0; i < 5; ++i) {
        const int rf = hand_class::rank_at(f, i);
        if (rf < 0) return 0; // as far as the front has cards
        const int rm = hand_class::rank_at(m, i);
        if (rm != rf) return rm < rf ? -1 : 1;
    }
    return 0;
}

std::optional<Error> check_split(const Split& s, const SplitRules& rules,
                                 std::span<const Card> dealt) {
    const auto cards = all_cards(s);
    if (auto e = deck_for(Wild::none).check(cards)) return e;
    if (!dealt.empty()) {
        if (dealt.size() != 13)
            return make_error(Errc::wrong_count,
                              "a hand is dealt 13 cards, not " + std::to_string(dealt.size()));
        std::array<Card, 13> a = cards;
        std::vector<Card> b(dealt.begin(), dealt.end());
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (!std::equal(a.begin(), a.end(), b.begin()))
            return make_error(Errc::wrong_cards,
                              "wrong_cards: the split is not the 13 cards dealt");
    }
    return check_order(value3(s.front), value5(s.middle), value5(s.back), rules);
}

std::optional<Error> check_order(std::optional<HandValue> front, std::optional<HandValue> middle,
                                 std::optional<HandValue> back, const SplitRules& rules) {
    if (middle && back && (rules.strict_order ? !(*back > *middle) : *back < *middle))
        return make_error(Errc::middle_above_back, "middle_above_back: the middle (" +
                                                       describe(*middle) + ") ranks " +
                                                       (*back == *middle ? "as high as" : "above") +
                                                       " the back (" + describe(*back) + ")");
    const int c =
        front && middle ? compare_middle_front(*middle, *front, rules.short_kickers_lowest) : 1;
    if (rules.strict_order ? c <= 0 : c < 0)
        return make_error(Errc::front_above_middle, "front_above_middle: the front (" +
                                                        describe(*front) + ") ranks " +
                                                        (c == 0 ? "as high as" : "above") +
                                                        " the middle (" + describe(*middle) + ")");
    return std::nullopt;
}

bool has_special(const Split& s, Special kind) {
    const auto counts = rank_counts(s);
    const auto cards = all_cards(s);
    auto count_if = [&](auto pred) {
        return static_cast<int>(std::count_if(counts.begin(), counts.end(), pred));
    };
    int pairs = 0, trios = 0;
    for (int c : counts) {
        pairs += c / 2;
        trios += c / 3;
    }
    int red = 0;
    for (Card c : cards) red += c.suit() == suit::hearts || c.suit() == suit::diamonds;
    switch (kind) {
    case Special::six_pairs:
        return pairs == 6;
    case Special::five_pairs_and_trio:
        return count_if([](int c) { return c == 3; }) == 1 &&
               count_if([](int c) { return c % 2 == 1; }) == 1;
    case Special::four_trios:
        return trios == 4;
    case Special::three_quads:
        return count_if([](int c) { return c == 4; }) == 3;
    case Special::complete_straight:
        return count_if([](int c) { return c == 1; }) == 13;
    case Special::thirteen_of_one_suit:
        return std::all_of(cards.begin(), cards.end(),
                           [&](Card c) { return c.suit() == cards[0].suit(); });
    case Special::all_one_colour:
        return red == 0 || red == 13;
    case Special::twelve_one_colour:
        return red == 1 || red == 12;
    case Special::small:
        return std::all_of(cards.begin(), cards.end(),
                           [](Card c) { return c.rank() <= rank::eight; });
    case Special::big:
        return std::all_of(cards.begin(), cards.end(),
                           [](Card c) { return c.rank() >= rank::eight; });
    case Special::twelve_pictures:
        return counts[9] + counts[10] + counts[11] == 12; // every jack, queen and king
    case Special::three_straights:
        return is_straight(value5(s.back)) && is_straight(value5(s.middle)) &&
               front_sequence_top(s.front) >= 0;
    case Special::three_flushes:
        return is_flush(value5(s.back)) && is_flush(value5(s.middle)) && front_suited(s.front);
    case Special::three_straight_flushes:
        return value5(s.back).category() == Category::straight_flush &&
               value5(s.middle).category() == Category::straight_flush && front_suited(s.front) &&
               front_sequence_top(s.front) >= 0;
    }
    return false;
}

int compare_special(Special kind, const Split& a, const Split& b) {
    auto cmp = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
    switch (kind) {
    case Special::three_straights:
    case Special::three_flushes:
    case Special::three_straight_flushes: {
        if (int c = cmp(value5(a.back), value5(b.back))) return c;
        if (int c = cmp(value5(a.middle), value5(b.middle))) return c;
        if (kind == Special::three_flushes) return cmp(value3(a.front), value3(b.front));
        return cmp(front_sequence_top(a.front), front_sequence_top(b.front));
    }
    case Special::six_pairs: {
        // The pairs, highest first (four of a kind is two pairs), then the odd card.
        auto key = [](const Split& s) {
            const auto counts = rank_counts(s);
            std::vector<int> k;
            for (int r = 12; r >= 0; --r)
                for (int p = 0; p < counts[static_cast<std::size_t>(r)] / 2; ++p) k.push_back(r);
            for (int r = 12; r >= 0; --r)
                if (counts[static_cast<std::size_t>(r)] % 2) k.push_back(r);
            return k;
        };
        return cmp(key(a), key(b));
    }
    default: {
        // The ranks of all thirteen cards, highest first.
        auto key = [](const Split& s) {
            std::vector<int> k;
            for (Card c : all_cards(s)) k.push_back(c.rank().index());
            std::sort(k.rbegin(), k.rend());
            return k;
        };
        return cmp(key(a), key(b));
    }
    }
}

// ---- settlement -----------------------------------------------------------------------------

namespace {

int ace_points(const Split& s) {
    static constexpr int kPoints[5] = {0, 1, 2, 6, 8};
    return kPoints[rank_counts(s)[12]];
}

int special_rank(const Profile& p, Special k) {
    for (std::size_t i = 0; i < p.specials.size(); ++i)
        if (p.specials[i].kind == k) return static_cast<int>(i);
    return -1;
}

int royalty(const Profile& p, Row row, HandValue v) {
    for (const Royalty& r : p.royalties)
        if (r.row == row && r.category == v.category()) return r.units;
    return 0;
}

} // namespace

int max_loss_units(const Profile& profile, bool aces, int opponents) {
    int special = 0;
    for (const SpecialValue& v : profile.specials) special = std::max(special, v.units);
    int rows = profile.scoring == Scoring::scoop ? 9 : 0; // a scoop's royalties come on top
    for (Row row : {Row::front, Row::middle, Row::back}) {
        int royalty = 0;
        for (const Royalty& r : profile.royalties)
            if (r.row == row) royalty = std::max(royalty, r.units);
        if (profile.scoring == Scoring::scoop)
            rows += royalty;
        else
            rows += profile.royalties_on_top ? 1 + royalty : std::max(1, royalty);
    }
    const int each = std::max({special, rows, profile.surrender_units}) + (aces ? 8 : 0);
    return each * opponents;
}

Result<Settlement> settle(const Profile& profile, const Options& o,
                          const std::vector<Player>& players, int dealer) {
    const int n = static_cast<int>(players.size());
    if (n < 2 || n > 4)
        return make_error(Errc::wrong_count, "two to four players, not " + std::to_string(n));
    if (dealer < 0 || dealer >= n)
        return make_error(Errc::bad_option, "the dealer must be one of the players");
    if (o.unit <= 0 || o.rake < 0)
        return make_error(Errc::bad_option, "the unit is positive and the rake not negative");
    if (o.banker >= n) return make_error(Errc::bad_option, "the bank must be one of the players");
    if (o.edition != 1 && o.edition != 2)
        return make_error(Errc::bad_option, "no edition " + std::to_string(o.edition) +
                                                " of the settlement rules (1 or 2)");
    std::array<int, 256> seen{};
    for (const Player& p : players) {
        if (p.stack < 0)
            return make_error(Errc::bad_option,
                              "player " + p.name + ": a stack cannot be negative");
        if (p.surrender && profile.scoring != Scoring::scoop)
            return make_error(Errc::bad_option,
                              "player " + p.name + ": surrender belongs to the scoop profile");
        if (p.surrender && p.declare)
            return make_error(Errc::bad_option,
                              "player " + p.name + ": a player who surrenders declares nothing");
        if (p.surrender) continue; // no rows: they settle nothing, and nobody sees them
        if (auto e = check_split(p.split, o.rules))
            return make_error(e->code, "player " + p.name + ": " + e->message);
        for (Card c : all_cards(p.split))
            if (seen[c.code()]++)
                return make_error(Errc::duplicate_card, "player " + p.name + ": " +
                                                            Deck::standard().to_string(c) +
                                                            " was dealt to two players");
        if (p.declare && special_rank(profile, *p.declare) < 0)
            return make_error(Errc::bad_option, "player " + p.name + ": the " + profile.name +
                                                    " profile knows no special hand " +
                                                    std::string(special_name(*p.declare)));
        if (p.declare && !has_special(p.split, *p.declare))
            return make_error(Errc::bad_option, "player " + p.name + ": the cards are not " +
                                                    std::string(special_name(*p.declare)));
    }

    // Pairs clockwise from the dealer: with A (dealer), B, C, D: A-B, A-C, A-D, B-C, B-D, C-D.
    const int bank = o.banker >= 0 ? o.banker : profile.against_bank_only ? dealer : -1;
    const std::vector<std::pair<int, int>> pairs = pairs_from(n, dealer, bank);

    std::vector<std::array<HandValue, 3>> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        if (players[static_cast<std::size_t>(i)].surrender) continue; // never compared
        rows[static_cast<std::size_t>(i)] = row_values(players[static_cast<std::size_t>(i)].split);
    }
    auto player = [&](int i) -> const Player& { return players[static_cast<std::size_t>(i)]; };
    auto active = [&](int i) { return !player(i).surrender && !player(i).declare; };

    // Phase 1: special hands. Phase 2: surrender, rows, royalties, scoop, aces.
    std::vector<Owed> first, second;
    for (auto [x, y] : pairs) {
        const auto& px = player(x);
        const auto& py = player(y);
        if (px.surrender || py.surrender) continue;
        if (px.declare || py.declare) {
            const int rx = px.declare ? special_rank(profile, *px.declare) : -1;
            const int ry = py.declare ? special_rank(profile, *py.declare) : -1;
            int c =
                rx != ry ? (rx < ry ? -1 : 1) : compare_special(*px.declare, px.split, py.split);
            if (c == 0) continue;
            const int win = c > 0 ? x : y, lose = c > 0 ? y : x;
            const int wr = c > 0 ? rx : ry, lr = c > 0 ? ry : rx;
            int units = profile.specials[static_cast<std::size_t>(wr)].units;
            if (bank >= 0 && lr >= 0) units -= profile.specials[static_cast<std::size_t>(lr)].units;
            if (units > 0)
                first.push_back(
                    {lose, win, units,
                     "special " + std::string(special_name(
                                      profile.specials[static_cast<std::size_t>(wr)].kind))});
        }
    }
    // Scoop: who won all three rows against every opponent still playing.
    std::vector<bool> sweeps_all(static_cast<std::size_t>(n), false);
    if (profile.scoring == Scoring::scoop)
        for (int i = 0; i < n; ++i) {
            if (!active(i)) continue;
            bool all = true, any = false;
            for (int j = 0; j < n; ++j) {
                if (j == i || !active(j) || (bank >= 0 && i != bank && j != bank)) continue;
                any = true;
                for (int r = 0; r < 3; ++r)
                    all = all && rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(r)] >
                                     rows[static_cast<std::size_t>(j)][static_cast<std::size_t>(r)];
            }
            sweeps_all[static_cast<std::size_t>(i)] = all && any;
        }
    for (auto [x, y] : pairs) {
        const auto& px = player(x);
        const auto& py = player(y);
        if (px.surrender || py.surrender) {
            if (px.surrender && !py.surrender)
                second.push_back({x, y, profile.surrender_units, "surrender"});
            if (py.surrender && !px.surrender)
                second.push_back({y, x, profile.surrender_units, "surrender"});
            continue;
        }
        if (!px.declare && !py.declare) {
            int wins_x = 0, wins_y = 0;
            for (int r = 0; r < 3; ++r) {
                const Row row = static_cast<Row>(r);
                const HandValue vx = rows[static_cast<std::size_t>(x)][static_cast<std::size_t>(r)];
                const HandValue vy = rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(r)];
                if (vx == vy) continue;
                const int win = vx > vy ? x : y, lose = vx > vy ? y : x;
                (vx > vy ? wins_x : wins_y)++;
                const HandValue wv = vx > vy ? vx : vy;
                const int roy = royalty(profile, row, wv);
                const std::string roy_reason = "royalty " + std::string(row_name(row)) + " " +
                                               std::string(category_name(wv.category()));
                if (profile.scoring == Scoring::rows) {
                    if (roy > 0 && !profile.royalties_on_top) {
                        second.push_back({lose, win, roy, roy_reason});
                    } else {
                        second.push_back({lose, win, 1, std::string(row_name(row))});
                        if (roy > 0) second.push_back({lose, win, roy, roy_reason});
                    }
                } else if (roy > 0) {
                    second.push_back({lose, win, roy, roy_reason});
                }
            }
            // Edition 2: two of the three rows won (a tie is not a win); edition 1: more won.
            const bool scoop = o.edition == 1 ? wins_x != wins_y : std::max(wins_x, wins_y) >= 2;
            if (profile.scoring == Scoring::scoop && scoop) {
                const int win = wins_x > wins_y ? x : y, lose = wins_x > wins_y ? y : x;
                const int wins = std::max(wins_x, wins_y);
                const int units =
                    wins == 3 ? (sweeps_all[static_cast<std::size_t>(win)] ? 9 : 6) : 1;
                second.push_back({lose, win, units, "scoop"});
            }
        }
        if (o.aces) {
            const int ax = ace_points(px.split), ay = ace_points(py.split);
            if (ax != ay)
                second.push_back({ax < ay ? x : y, ax < ay ? y : x, std::abs(ax - ay), "aces"});
        }
    }

    Settlement out;
    std::vector<Chips> stacks;
    for (const Player& p : players) stacks.push_back(p.stack);
    PairLedger ledger(stacks, o.chip_limit, o.rake);
    if (o.edition == 1) {
        for (const auto* phase : {&first, &second})
            for (const Owed& w : *phase)
                out.payments.push_back(
                    {w.from, w.to, w.units, ledger.pay(w.from, w.to, o.unit * w.units), w.reason});
    } else {
        // Each pass nets each pair's payments into one, settled in the order of the pairs.
        ledger.settle_pass(pairs, first, o.unit, true, out.payments, out.pairs);
        ledger.settle_pass(pairs, second, o.unit, false, out.payments, out.pairs);
    }
    out.net = ledger.net();
    out.rake = ledger.rake();
    for (int i = 0; i < n; ++i)
        out.final_stacks.push_back(player(i).stack + out.net[static_cast<std::size_t>(i)]);
    return out;
}

} // namespace felt::chinese
