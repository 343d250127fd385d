// The equity calculator (engine/odds/): the published vectors of CandyPoker's regression script,
// range syntax, errors, and every game against a slow enumeration written here from scratch:
// plain loops over every board (or every missing card), each hand judged on its own, the pot
// shared out showdown by showdown.
#include "odds/equity.h"

#include "cards/deck.h"
#include "rankings/evaluator.h"
#include "reference_evaluator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace felt;
using namespace felt::odds;

namespace {

Equity run(Game g, std::vector<std::string> hands, std::string board = "", std::string dead = "") {
    auto q = make_query(g, hands, board, dead);
    REQUIRE_MESSAGE(q.ok(), q.error().message);
    auto e = equity(*q);
    REQUIRE_MESSAGE(e.ok(), e.error().message);
    return *e;
}

Error failure(Game g, std::vector<std::string> hands, std::string board = "",
              std::string dead = "") {
    auto q = make_query(g, hands, board, dead);
    if (!q) return q.error();
    auto e = equity(*q);
    REQUIRE(!e.ok());
    return e.error();
}

// Three decimals of a percent, as published.
void check_vector(std::vector<std::string> hands, std::vector<double> published) {
    const Equity e = run(Game::holdem, hands);
    CHECK(e.exact);
    for (std::size_t i = 0; i < hands.size(); ++i)
        CHECK_MESSAGE(std::round(e.equity[i] * 1000) / 1000 == doctest::Approx(published[i]),
                      hands[i] << " " << e.equity[i]);
}

int rank_of(Card c) {
    return c.rank().index();
}

// Ace-to-five low of five cards written from the rules: no pair and nothing above eight, or 0;
// a greater key is a better low (the highest card first, aces as one).
long low8(const std::vector<Card>& five) {
    std::vector<int> r;
    for (Card c : five) r.push_back(rank_of(c) == 12 ? 1 : rank_of(c) + 2);
    std::sort(r.rbegin(), r.rend());
    if (std::adjacent_find(r.begin(), r.end()) != r.end() || r[0] > 8) return 0;
    long key = 0;
    for (int x : r) key = key * 16 + (15 - x);
    return key;
}

// Razz: the best ace-to-five low of any five (pairs allowed, fewest pairs best).
std::vector<int> razz_key(const std::vector<Card>& seven) {
    std::vector<int> best;
    for (int a = 0; a < 7; ++a)
        for (int b = a + 1; b < 7; ++b) {
            std::vector<int> r;
            for (int i = 0; i < 7; ++i)
                if (i != a && i != b)
                    r.push_back(rank_of(seven[static_cast<std::size_t>(i)]) == 12
                                    ? 1
                                    : rank_of(seven[static_cast<std::size_t>(i)]) + 2);
            // Groups by size then rank, larger groups first: fewer, smaller groups are better.
            std::array<int, 14> count{};
            for (int x : r) ++count[static_cast<std::size_t>(x)];
            std::vector<std::pair<int, int>> groups;
            for (int x = 1; x <= 13; ++x)
                if (count[static_cast<std::size_t>(x)])
                    groups.push_back({count[static_cast<std::size_t>(x)], x});
            std::sort(groups.rbegin(), groups.rend());
            std::vector<int> key{static_cast<int>(5 - groups.size())};
            for (auto [n, x] : groups) key.push_back(x);
            // Lower is better: negate for "greater is better".
            for (int& k : key) k = -k;
            if (best.empty() || key > best) best = key;
        }
    return best;
}

// The reference: every way to deal what is missing, judged by `judge`, shared showdown by
// showdown. judge(player, hand, board) gives a high key and a low key (empty: no low).
struct Shares {
    std::vector<double> equity, ties, high, low, scoop;
    double showdowns = 0;
};
using Key = std::vector<long>;
using Judge =
    std::function<std::pair<Key, Key>(const std::vector<Card>&, const std::vector<Card>&)>;

Shares brute(int deck_from_rank, std::vector<std::vector<Card>> hands, int hole,
             std::vector<Card> board, int board_size, const std::vector<Card>& dead, bool hilo,
             const Judge& judge) {
    std::vector<Card> rest;
    for (int r = deck_from_rank; r < 13; ++r)
        for (int s = 0; s < 4; ++s) {
            const Card c{Rank(r), Suit(s)};
            bool out = std::find(board.begin(), board.end(), c) != board.end() ||
                       std::find(dead.begin(), dead.end(), c) != dead.end();
            for (const auto& h : hands) out |= std::find(h.begin(), h.end(), c) != h.end();
            if (!out) rest.push_back(c);
        }
    const std::size_t n = hands.size();
    Shares sh{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n),
              std::vector<double>(n), std::vector<double>(n)};
    std::vector<bool> used(rest.size());
    // Slots: the board's missing cards, then each player's, each slot's cards in deck order.
    std::vector<int> owner;
    for (int i = static_cast<int>(board.size()); i < board_size; ++i) owner.push_back(-1);
    for (std::size_t p = 0; p < n; ++p)
        for (int i = static_cast<int>(hands[p].size()); i < hole; ++i)
            owner.push_back(static_cast<int>(p));
    std::function<void(std::size_t, std::size_t)> go = [&](std::size_t slot, std::size_t from) {
        if (slot == owner.size()) {
            std::vector<Key> hi(n), lo(n);
            for (std::size_t p = 0; p < n; ++p) std::tie(hi[p], lo[p]) = judge(hands[p], board);
            const Key top = *std::max_element(hi.begin(), hi.end());
            const Key low_top = *std::max_element(lo.begin(), lo.end());
            const bool has_low = hilo && !low_top.empty();
            const double hk = static_cast<double>(std::count(hi.begin(), hi.end(), top));
            const double lk = static_cast<double>(std::count(lo.begin(), lo.end(), low_top));
            for (std::size_t p = 0; p < n; ++p) {
                const bool h = hi[p] == top, l = has_low && lo[p] == low_top;
                sh.equity[p] += (h ? (has_low ? 0.5 : 1.0) / hk : 0) + (l ? 0.5 / lk : 0);
                sh.high[p] += h ? 1 / hk : 0;
                sh.low[p] += l ? 1 / lk : 0;
                sh.ties[p] += (h && hk > 1) || (l && lk > 1) ? 1 : 0;
                sh.scoop[p] += h && hk == 1 && (!has_low || (l && lk == 1)) ? 1 : 0;
            }
            sh.showdowns += 1;
            return;
        }
        const int who = owner[slot];
        auto& into = who < 0 ? board : hands[static_cast<std::size_t>(who)];
        const bool same = slot > 0 && owner[slot - 1] == who;
        for (std::size_t k = same ? from : 0; k < rest.size(); ++k) {
            if (used[k]) continue;
            used[k] = true;
            into.push_back(rest[k]);
            go(slot + 1, k + 1);
            into.pop_back();
            used[k] = false;
        }
    };
    go(0, 0);
    for (auto* v : {&sh.equity, &sh.ties, &sh.high, &sh.low, &sh.scoop})
        for (double& x : *v) x *= 100 / sh.showdowns;
    return sh;
}

// A high key from the reference evaluator: category, then ranks.
Key reference_key(const std::vector<Card>& cards) {
    const auto j = reference::judge(cards);
    Key k{j.category};
    for (int r : j.ranks) k.push_back(r);
    return k;
}

std::pair<Key, Key> judge_holdem(const std::vector<Card>& hand, const std::vector<Card>& board) {
    std::vector<Card> all = hand;
    all.insert(all.end(), board.begin(), board.end());
    return {reference_key(all), {}};
}

std::pair<Key, Key> judge_omaha8(const std::vector<Card>& hand, const std::vector<Card>& board) {
    Key hi, lo;
    for (std::size_t a = 0; a < hand.size(); ++a)
        for (std::size_t b = a + 1; b < hand.size(); ++b)
            for (std::size_t x = 0; x < board.size(); ++x)
                for (std::size_t y = x + 1; y < board.size(); ++y)
                    for (std::size_t z = y + 1; z < board.size(); ++z) {
                        const std::vector<Card> five{hand[a], hand[b], board[x], board[y],
                                                     board[z]};
                        hi = std::max(hi, reference_key(five));
                        if (const long l = low8(five); l && (lo.empty() || l > lo[0])) lo = {l};
                    }
    return {hi, lo};
}

std::pair<Key, Key> judge_razz(const std::vector<Card>& hand, const std::vector<Card>&) {
    const auto k = razz_key(hand);
    return {Key(k.begin(), k.end()), {}};
}

std::string text(const std::vector<Card>& cards) {
    std::string s;
    for (Card c : cards) s += Deck::standard().to_string(c);
    return s;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want,
                 const std::string& what) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        CHECK_MESSAGE(got[i] == doctest::Approx(want[i]).epsilon(1e-9), what << " player " << i);
}

#ifdef FELT_SANITIZE
constexpr int kScale = 10; // a tenth under the sanitizers
#else
constexpr int kScale = 1;
#endif

} // namespace

TEST_CASE("equity: CandyPoker's published vectors, exactly") {
    check_vector({"TT+,AQs+,AQo+", "QQ+,AKs,AKo", "TT"}, {30.845, 43.076, 26.079});
    check_vector({"A2o", "88", "QJs"}, {24.514, 36.900, 38.586});
    check_vector({"AA", "QQ", "93o"}, {70.739, 18.304, 10.957});
}

TEST_CASE("equity: the showdowns counted are the deals that share no card, times the boards") {
    // AA, QQ and 93o: 6 x 6 x 16 deals less those that share nothing... none share: 576 deals.
    const Equity e = run(Game::holdem, {"AA", "QQ", "93o"});
    CHECK(e.showdowns == 6.0 * 6 * 12 * 1'370'754); // 93o is 12 combinations; C(46, 5) boards
    const Equity h = run(Game::holdem, {"AsKd", "QhQc"});
    CHECK(h.showdowns == 1'712'304); // C(48, 5)
}

TEST_CASE("equity: hold'em against the slow enumeration, hands and boards at random") {
    std::mt19937_64 rng(49);
    const int cases = 40 / kScale;
    for (int i = 0; i < cases; ++i) {
        std::vector<Card> deck = Deck::standard().cards();
        std::shuffle(deck.begin(), deck.end(), rng);
        const int players = 2 + static_cast<int>(rng() % 4);
        // Mostly a flop or a turn (small enough for the slow judge), now and then preflop.
        const int shown = i % 8 == 0 ? 0 : 3 + static_cast<int>(rng() % 3);
        const int dead = static_cast<int>(rng() % 4);
        std::size_t at = 0;
        std::vector<std::vector<Card>> hands;
        std::vector<std::string> texts;
        for (int p = 0; p < players; ++p) {
            hands.push_back({deck[at], deck[at + 1]});
            texts.push_back(text(hands.back()));
            at += 2;
        }
        const std::vector<Card> board(deck.begin() + static_cast<long>(at),
                                      deck.begin() + static_cast<long>(at) + shown);
        at += static_cast<std::size_t>(shown);
        const std::vector<Card> gone(deck.begin() + static_cast<long>(at),
                                     deck.begin() + static_cast<long>(at) + dead);
        if (shown == 0 && players > 2) continue; // preflop: heads-up only, for time
        const Equity e = run(Game::holdem, texts, text(board), text(gone));
        const Judge fast = [](const std::vector<Card>& h, const std::vector<Card>& b) {
            std::vector<Card> all = h;
            all.insert(all.end(), b.begin(), b.end());
            return std::pair<Key, Key>{{evaluate(all).raw()}, {}};
        };
        // Preflop the slow judge takes too long over 1.7 million boards: the evaluator (itself
        // checked against it over every hand) judges those.
        const Shares want =
            brute(0, hands, 2, board, 5, gone, false, shown == 0 ? fast : Judge(judge_holdem));
        const std::string what = texts[0] + " " + texts[1] + " board " + text(board);
        check_close(e.equity, want.equity, what);
        check_close(e.ties, want.ties, what);
        CHECK(e.showdowns == want.showdowns);
    }
}

TEST_CASE("equity: hold'em ranges against the slow enumeration of every deal") {
    // Small ranges with suited and paired hands, so that flush corrections and shared rank
    // patterns both come into play; the flop is known.
    const std::vector<std::vector<std::string>> cases = {
        {"AhKh,AsKs,QQ", "JhTh,7c7d,AdKc", "9h8h"},
        {"KK+,AhQh", "2h3h,6s6c"},
        {"T9s", "J8s,77:0.5", "AcKd"},
    };
    const std::vector<std::string> flops = {"2h 5h Kd", "Ts 9d 2c", "8s 7s 2d"};
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& hands = cases[i];
        const std::string flop = flops[i];
        const Equity e = run(Game::holdem, hands, flop);
        // The reference: each deal of the ranges that shares no card, weighted.
        auto board = Deck::standard().parse_cards(flop).value();
        std::vector<std::vector<Combo>> ranges;
        for (const auto& h : hands) ranges.push_back(parse_range(h).value());
        std::vector<double> eq(hands.size());
        double total = 0;
        std::vector<std::vector<Card>> chosen(hands.size());
        std::function<void(std::size_t, double)> deal = [&](std::size_t p, double w) {
            if (p == hands.size()) {
                const Shares s = brute(0, chosen, 2, board, 5, {}, false, judge_holdem);
                for (std::size_t k = 0; k < eq.size(); ++k) eq[k] += w * s.showdowns * s.equity[k];
                total += w * s.showdowns;
                return;
            }
            for (const Combo& c : ranges[p]) {
                bool clash = std::find(board.begin(), board.end(), c.high) != board.end() ||
                             std::find(board.begin(), board.end(), c.low) != board.end();
                for (std::size_t q = 0; q < p; ++q)
                    for (Card x : chosen[q]) clash |= x == c.high || x == c.low;
                if (clash) continue;
                chosen[p] = {c.high, c.low};
                deal(p + 1, w * c.weight);
            }
        };
        deal(0, 1);
        for (double& x : eq) x /= total;
        check_close(e.equity, eq, hands[0] + " / " + hands[1]);
        CHECK(e.showdowns == doctest::Approx(total));
    }
}

TEST_CASE("equity: Omaha hi-lo, stud hi-lo and razz against the slow enumeration") {
    SUBCASE("Omaha hi-lo on the turn") {
        const std::vector<std::string> hands = {"As2sKhQh", "AdKd3c4c", "7h8h9cTc"};
        const std::string board = "5s 6h 9d Jc";
        const Equity e = run(Game::omaha_hilo, hands, board);
        std::vector<std::vector<Card>> h;
        for (const auto& t : hands) h.push_back(Deck::standard().parse_cards(t).value());
        const Shares want =
            brute(0, h, 4, Deck::standard().parse_cards(board).value(), 5, {}, true, judge_omaha8);
        check_close(e.equity, want.equity, "equity");
        check_close(e.high, want.high, "high");
        check_close(e.low, want.low, "low");
        check_close(e.scoop, want.scoop, "scoop");
        check_close(e.ties, want.ties, "ties");
    }
    SUBCASE("stud hi-lo on sixth street") {
        const std::vector<std::string> hands = {"As2s3h 4d8c9c", "KdKc5h 6h7h7d"};
        const Equity e = run(Game::stud_hilo, hands, "", "Qs");
        std::vector<std::vector<Card>> h;
        for (const auto& t : hands) h.push_back(Deck::standard().parse_cards(t).value());
        const Judge judge = [](const std::vector<Card>& hand, const std::vector<Card>&) {
            Key lo;
            for (int a = 0; a < 7; ++a)
                for (int b = a + 1; b < 7; ++b) {
                    std::vector<Card> five;
                    for (int i = 0; i < 7; ++i)
                        if (i != a && i != b) five.push_back(hand[static_cast<std::size_t>(i)]);
                    if (const long l = low8(five); l && (lo.empty() || l > lo[0])) lo = {l};
                }
            return std::pair<Key, Key>{reference_key(hand), lo};
        };
        const Shares want =
            brute(0, h, 7, {}, 0, Deck::standard().parse_cards("Qs").value(), true, judge);
        check_close(e.equity, want.equity, "equity");
        check_close(e.low, want.low, "low");
        check_close(e.scoop, want.scoop, "scoop");
    }
    SUBCASE("razz on sixth street, three players") {
        const std::vector<std::string> hands = {"As2h 3d4c 9s9d", "5c6d 7h8s Ks2c",
                                                "AcAd 4h5s 6sJd"};
        const Equity e = run(Game::razz, hands);
        std::vector<std::vector<Card>> h;
        for (const auto& t : hands) h.push_back(Deck::standard().parse_cards(t).value());
        const Shares want = brute(0, h, 7, {}, 0, {}, false, judge_razz);
        check_close(e.equity, want.equity, "equity");
        check_close(e.ties, want.ties, "ties");
    }
    SUBCASE("the short deck on the flop") {
        const Equity e = run(Game::short_deck, {"AhKh", "9s9c"}, "Th Jh 6c");
        // A flush beats a full house in the short deck: hearts make the ace-king a flush or
        // better on 8 of the 31 cards left for the turn, and so on: compared with the standard
        // ranking's own answer, which differs.
        const Equity standard = run(Game::holdem, {"AhKh", "9s9c"}, "Th Jh 6c");
        CHECK(e.showdowns == 406); // C(29, 2): 36 cards less four held and three shown
        CHECK(e.equity[0] != doctest::Approx(standard.equity[0]));
        CHECK(e.equity[0] + e.equity[1] == doctest::Approx(100));
    }
}

TEST_CASE("equity: Monte Carlo lands within its own error of the exact answer") {
    auto q = make_query(Game::holdem, std::vector<std::string>{"AhKh", "QsQd", "7c6c"}, "", "");
    REQUIRE(q.ok());
    Query mc = *q;
    mc.monte_carlo = true;
    mc.target_stderr = 0.2;
    mc.seed = 7;
    const Equity exact = equity(*q).value();
    const Equity sampled = equity(mc).value();
    CHECK(exact.exact);
    CHECK_FALSE(sampled.exact);
    CHECK(sampled.stderr_percent <= 0.2);
    CHECK(sampled.stderr_percent > 0);
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(std::abs(sampled.equity[i] - exact.equity[i]) < 5 * sampled.stderr_percent);
    // The same seed, the same answer.
    const Equity again = equity(mc).value();
    CHECK(again.equity == sampled.equity);
    // Ranges by weight: QQ:0.01 counts each deal of the queens a hundredth of a deal of kings.
    const Equity weighted = run(Game::holdem, {"KK,QQ:0.01", "AKs"});
    const Equity kings = run(Game::holdem, {"KK", "AKs"});
    const Equity queens = run(Game::holdem, {"QQ", "AKs"});
    const double w = kings.showdowns + 0.01 * queens.showdowns;
    CHECK(weighted.showdowns == doctest::Approx(w));
    CHECK(weighted.equity[0] ==
          doctest::Approx(
              (kings.showdowns * kings.equity[0] + 0.01 * queens.showdowns * queens.equity[0]) / w)
              .epsilon(1e-12));
}

TEST_CASE("equity: ranges in the usual syntax") {
    auto count = [](std::string_view t) {
        auto r = parse_range(t);
        REQUIRE_MESSAGE(r.ok(), r.error().message);
        return r->size();
    };
    CHECK(count("AA") == 6);
    CHECK(count("AKs") == 4);
    CHECK(count("AKo") == 12);
    CHECK(count("ak") == 16);
    CHECK(count("QQ+") == 18);
    CHECK(count("A2s+") == 48);
    CHECK(count("K9o+") == 48);
    CHECK(count("KT+") == 48);
    CHECK(count("TT-77") == 24);
    CHECK(count("77-TT") == 24);
    CHECK(count("KTs-K7s") == 16);
    CHECK(count("AcQc") == 1);
    CHECK(count("random") == 1326);
    CHECK(count("QQ+, AKs, AcQc") == 23);
    CHECK(count("AA,AA") == 6);
    auto weights = parse_range("AA:0.25,AsAh").value();
    for (const Combo& c : weights)
        CHECK(c.weight == (c.high.suit().index() + c.low.suit().index() == 1 ? 1.0 : 0.25));
    for (auto [bad, says] :
         std::vector<std::pair<std::string, std::string>>{{"AKx", "\"AKx\""},
                                                          {"AA:2", "weight"},
                                                          {"QQs", "pair"},
                                                          {"KTs-Q7s", "first rank"},
                                                          {"TT-98", "pair"},
                                                          {"", "empty"},
                                                          {"AA,,KK", "empty"},
                                                          {"AsAs", "same"},
                                                          {"ZZ", "two ranks"}}) {
        auto r = parse_range(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::bad_range);
        CHECK_MESSAGE(r.error().message.find(says) != std::string::npos, r.error().message);
    }
}

TEST_CASE("equity: what cannot be computed is refused in words") {
    CHECK(failure(Game::holdem, {"AA"}).code == Errc::wrong_count);
    CHECK(failure(Game::holdem, std::vector<std::string>(11, "random")).code == Errc::wrong_count);
    CHECK(failure(Game::holdem, {"AA", "KK"}, "2c 3c 4c 5c 6c 7c").code == Errc::wrong_count);
    const Error twice = failure(Game::holdem, {"AA", "KK"}, "2c 3c 4c", "3c");
    CHECK(twice.code == Errc::duplicate_card);
    CHECK(twice.message.find("3c") != std::string::npos);
    const Error none = failure(Game::holdem, {"AsAh", "KK"}, "As 2c 3c");
    CHECK(none.code == Errc::bad_range);
    CHECK(none.message.find("player 1") != std::string::npos);
    CHECK(failure(Game::holdem, {"AsAh", "AsAh"}).code == Errc::bad_range);
    CHECK(failure(Game::holdem, {"AA", "AA", "AA"}).code == Errc::bad_range);
    const Error small = failure(Game::short_deck, {"AA", "KK"}, "2c 7d 8d");
    CHECK(small.code == Errc::bad_card);
    CHECK(small.message.find("36-card") != std::string::npos);
    CHECK(failure(Game::stud, {"AsAh", "KdKc"}, "2c").code == Errc::wrong_count);
    CHECK(failure(Game::stud, {"AsAhAdAc2s3s4s5s", "KdKc"}).code == Errc::wrong_count);
    CHECK(failure(Game::stud, std::vector<std::string>(8, "random")).code == Errc::wrong_count);
    CHECK(failure(Game::omaha, {"AsAhKs", "2c2d2h"}, "", "As").code == Errc::duplicate_card);
    CHECK(failure(Game::omaha, {"AsAhKsKhQs", "2c2d2h"}).code == Errc::wrong_count);
    CHECK(failure(Game::holdem, {"AA", "KQ"}, "2x").code == Errc::bad_card);
    CHECK(game_by_name("pineapple").error().code == Errc::bad_option);
    for (auto n : game_names()) CHECK(game_by_name(n).ok());
}
