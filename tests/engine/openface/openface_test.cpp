// Open-face Chinese poker (engine/openface/openface.*): royalties against the published counts of
// five- and three-card hands, fouls, pairwise scoring by hand, Fantasyland entry and staying, the
// deal and placements, and chips conserved over random hands.
#include "cards/deck.h"
#include "openface/openface.h"
#include "rankings/evaluator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <random>

using namespace felt;
using namespace felt::openface;

namespace {

#ifdef FELT_SANITIZE
constexpr int kScale = 10; // a tenth of the work under the sanitizers
#else
constexpr int kScale = 1;
#endif

std::vector<Card> cards(const char* text) {
    auto c = Deck::standard().parse_cards(text);
    REQUIRE_MESSAGE(c.ok(), text);
    return *c;
}

HandValue value(const char* text) {
    return evaluate(cards(text));
}

Split split(const char* front, const char* middle, const char* back) {
    Split s;
    auto fill = [](const char* text, std::span<Card> out) {
        const auto c = cards(text);
        REQUIRE(c.size() == out.size());
        std::copy(c.begin(), c.end(), out.begin());
    };
    fill(front, s.front);
    fill(middle, s.middle);
    fill(back, s.back);
    return s;
}

Player player(const char* name, Split s, std::optional<std::int64_t> stack = {}) {
    Player p;
    p.name = std::string(name);
    p.split = s;
    if (stack) p.stack = Chips(*stack);
    return p;
}

// Every k-card subset of the pack, as one callback each.
template <class F>
void each_subset(int k, F&& f) {
    const auto pack = Deck::standard().cards();
    std::vector<int> idx(static_cast<std::size_t>(k));
    std::iota(idx.begin(), idx.end(), 0);
    std::vector<Card> hand(static_cast<std::size_t>(k));
    const int n = static_cast<int>(pack.size());
    while (true) {
        for (int i = 0; i < k; ++i)
            hand[static_cast<std::size_t>(i)] =
                pack[static_cast<std::size_t>(idx[static_cast<std::size_t>(i)])];
        f(hand);
        int i = k - 1;
        while (i >= 0 && idx[static_cast<std::size_t>(i)] == n - k + i) --i;
        if (i < 0) return;
        ++idx[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < k; ++j)
            idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
    }
}

} // namespace

TEST_CASE("open-face: each royalty of the table, by hand") {
    // Back: straight 2, flush 4, full house 6, four of a kind 10, straight flush 15, royal 25.
    CHECK(royalty(Row::back, value("Ks Kh Kd 2c 3c")) == 0);
    CHECK(royalty(Row::back, value("5s 4h 3d 2c Ac")) == 2);
    CHECK(royalty(Row::back, value("As Kh Qd Jc Tc")) == 2);
    CHECK(royalty(Row::back, value("2s 7s 9s Js Ks")) == 4);
    CHECK(royalty(Row::back, value("2s 2h 2d 3c 3s")) == 6);
    CHECK(royalty(Row::back, value("9s 9h 9d 9c 3s")) == 10);
    CHECK(royalty(Row::back, value("5s 4s 3s 2s As")) == 15);
    CHECK(royalty(Row::back, value("Ks Qs Js Ts 9s")) == 15);
    CHECK(royalty(Row::back, value("As Ks Qs Js Ts")) == 25);
    // Middle: three of a kind 2, straight 4, flush 8, full house 12, four 20, straight flush 30,
    // royal 50.
    CHECK(royalty(Row::middle, value("Ks Kh Qd Qc 3c")) == 0);
    CHECK(royalty(Row::middle, value("2s 2h 2d 3c 4c")) == 2);
    CHECK(royalty(Row::middle, value("6s 5h 4d 3c 2c")) == 4);
    CHECK(royalty(Row::middle, value("2h 7h 9h Jh Kh")) == 8);
    CHECK(royalty(Row::middle, value("Ts Th Td 3c 3s")) == 12);
    CHECK(royalty(Row::middle, value("2s 2h 2d 2c 3s")) == 20);
    CHECK(royalty(Row::middle, value("9h 8h 7h 6h 5h")) == 30);
    CHECK(royalty(Row::middle, value("Ah Kh Qh Jh Th")) == 50);
    // Front: a pair of sixes 1 ... aces 9; three deuces 10 ... three aces 22.
    CHECK(royalty(Row::front, value("5s 5h Ad")) == 0);
    CHECK(royalty(Row::front, value("As Kh Qd")) == 0);
    const char* ranks = "23456789TJQKA";
    for (int r = 0; r < 13; ++r) {
        std::string pair{ranks[r], 's', ' ', ranks[r], 'h', ' '};
        pair += r == 0 ? "3d" : "2d";
        const std::string trips =
            std::string{ranks[r], 's', ' ', ranks[r], 'h', ' ', ranks[r], 'd'};
        CAPTURE(pair);
        CHECK(royalty(Row::front, value(pair.c_str())) == (r >= 4 ? r - 3 : 0));
        CHECK(royalty(Row::front, value(trips.c_str())) == 10 + r);
    }
    CHECK(royalty_hand(value("As Ks Qs Js Ts")) == "royal_flush");
    CHECK(royalty_hand(value("Ks Qs Js Ts 9s")) == "straight_flush");
}

TEST_CASE("open-face: royalties over every five- and three-card hand match the published counts") {
    // Five-card hands of one pack (2,598,960): straight 10,200, flush 5,108, full house 3,744,
    // four of a kind 624, straight flush 36, royal flush 4, three of a kind 54,912.
    std::map<int, int> back, middle;
    each_subset(5, [&](const std::vector<Card>& h) {
        const HandValue v = evaluate<5>(h.data());
        ++back[royalty(Row::back, v)];
        ++middle[royalty(Row::middle, v)];
    });
    CHECK(back == std::map<int, int>{{0, 2598960 - 10200 - 5108 - 3744 - 624 - 36 - 4},
                                     {2, 10200},
                                     {4, 5108},
                                     {6, 3744},
                                     {10, 624},
                                     {15, 36},
                                     {25, 4}});
    CHECK(middle == std::map<int, int>{{0, 2598960 - 54912 - 10200 - 5108 - 3744 - 624 - 40},
                                       {2, 54912},
                                       {4, 10200},
                                       {8, 5108},
                                       {12, 3744},
                                       {20, 624},
                                       {30, 36},
                                       {50, 4}});
    // Three-card hands (22,100): each pair 6 x 48 = 288 ways, each three of a kind 4.
    std::map<int, int> front;
    each_subset(3, [&](const std::vector<Card>& h) {
        ++front[royalty(Row::front, evaluate<3>(h.data()))];
    });
    std::map<int, int> want{{0, 22100 - 9 * 288 - 13 * 4}};
    for (int k = 1; k <= 9; ++k) want[k] = 288;
    for (int k = 10; k <= 22; ++k) want[k] = 4;
    CHECK(front == want);
}

TEST_CASE("open-face: fouls") {
    CHECK_FALSE(fouled(split("2s 3h 4d", "5s 5h 7d 8c 9c", "Ks Kh Kd 2c 3c")));
    // The back below the middle.
    CHECK(fouled(split("2s 3h 4d", "Ks Kh Kd 2c 3c", "5s 5h 7d 8c 9c")));
    // The middle below the front: a pair against a higher pair, trips against two pair.
    CHECK(fouled(split("Qs Qh 4d", "Js Jh 7d 8c 9c", "Ks Kh Kd 2c 3c")));
    CHECK(fouled(split("7s 7h 7d", "As Ah Kd Kc 9c", "2s 2h 2d 2c 3c")));
    // Equal rows do not foul; a front that ties the middle as far as it has cards does not either.
    CHECK_FALSE(fouled(split("Qs Qh 4d", "Qd Qc 4h 3c 2c", "Ks Kh Kd 2s 3s")));
    CHECK_FALSE(fouled(split("Ah Kd Qc", "As Ks Qs 3c 2d", "Ac Ad 3h 3s 2s")));
    CHECK_FALSE(fouled(split("7s 7h 7d", "8s 8h 8d Kc 9c", "2s 2h 2d 2c 3c")));
    // A fouled hand has no royalties.
    CHECK(royalties(split("Ks Kh Kd", "As Ah Qd Jc 9c", "2s 3s 4s 5s 7s")) == std::array{0, 0, 0});
    CHECK(royalties(split("Ks Kh 2d", "As Ah Ad Jc 9c", "2s 3s 4s 5s 7s")) == std::array{8, 2, 4});
    // The placement in progress: only full rows compare.
    Board b;
    b.front = cards("Qs Qh 4d");
    b.middle = cards("Js Jh 7d 8c");
    CHECK_FALSE(fouled_already(b));
    b.middle.push_back(cards("9c")[0]);
    CHECK(fouled_already(b));
}

TEST_CASE("open-face: two players, rows, scoop and royalties") {
    // A: a pair of kings in front (8), a flush in the middle (8), a full house in the back (6).
    // B: nothing in front, a pair in the middle, a straight in the back (2).
    const Split a = split("Ks Kh 2d", "2h 7h 9h Jh Qh", "3s 3d 3c 4s 4d");
    const Split b = split("As Qd Jd", "5s 5c 8d 9c Tc", "6s 7s 8s 9s Td");
    // Rows: A wins front, middle and back (+3), the scoop (+3), royalties 22 less 2.
    CHECK(points(a, b) == 26);
    CHECK(points(b, a) == -26);
    const auto st = settle({}, {player("A", a), player("B", b)}, 0);
    REQUIRE(st.ok());
    CHECK(st->points == std::vector{26, -26});
    CHECK(st->net == std::vector{Chips(26), Chips(-26)});
    std::vector<std::string> reasons;
    for (const auto& p : st->payments) reasons.push_back(p.reason);
    CHECK(reasons == std::vector<std::string>{"front", "middle", "back", "scoop",
                                              "royalty front one_pair", "royalty middle flush",
                                              "royalty back full_house", "royalty back straight"});
    REQUIRE(st->pairs.size() == 1);
    CHECK(st->pairs[0].units == 26);
    CHECK(st->fantasyland == std::vector{14, 0});
}

TEST_CASE("open-face: ties in rows, a split of rows, and fouls") {
    // Equal fronts tie (0); B wins the middle, A the back: no scoop.
    const Split a = split("As Kd 2c", "5s 5c 8d 9c Tc", "Ks Kh Kd 4s 4d");
    const Split b = split("Ah Kc 2d", "6s 6c 8h 9d Th", "Qs Qh Qd 4h 4c");
    // A wins the back, B the middle: rows 0; a full house in each back: royalties 6 each.
    CHECK(points(a, b) == 0);
    // A fouls against a clean B: 6, and B's royalties.
    const Split foul = split("Qs Qc 4d", "Js Jh 7d 8c 9c", "As Ac Ad 2c 3c");
    const Split clean = split("2s 3h 4c", "5s 5h 7c 8d 9d", "Ts Th Td Tc 3d");
    CHECK(points(foul, clean) == -(6 + 10));
    CHECK(points(clean, foul) == 16);
    // Two fouls: nothing between them.
    const Split foul2 = split("Kh Kd 5c", "Jd Jc 6d 6c 9h", "2h 4s 6s 8s Qd");
    CHECK(points(foul, foul2) == 0);
    // Three players, two fouled: each pays the clean one 6 and its royalties, nothing between them.
    const auto st = settle({}, {player("F", foul), player("G", foul2), player("C", clean)}, 0);
    REQUIRE(st.ok());
    CHECK(st->points == std::vector{-16, -16, 32});
    CHECK(st->fouled == std::vector{true, true, false});
    CHECK(st->fantasyland == std::vector{0, 0, 0});
    int fouls = 0;
    for (const auto& p : st->payments) fouls += p.reason == "foul";
    CHECK(fouls == 2);
}

TEST_CASE("open-face: three players, scoops with royalties, chips by unit and chip limit") {
    const Split a = split("Qs Qh 2c", "Ts Js Qd Kd Ad", "4h 5h 6h 9h Kh"); // 7 + 4 + 4
    const Split b = split("3s 4c 5d", "6s 6c 8d 9c Tc", "8s 8h 8c Jd Jc"); // 0 + 0 + 6
    const Split c = split("7d 7c 2h", "9s 9d 3d 3c Ac", "2s 3h 4d 5s 6d"); // 2 + 0 + 2
    // a-b: a wins front, middle; b wins back: a +1, royalties 15 - 6: +10.
    CHECK(points(a, b) == 10);
    // a-c: a wins all three (+6), royalties 15 - 4: +17.
    CHECK(points(a, c) == 17);
    // b-c: front c, middle c (nines up), back b: -1, royalties 6 - 4: +1.
    CHECK(points(b, c) == 1);
    Options o;
    o.unit = Chips(5);
    auto st = settle(o, {player("a", a, 1000), player("b", b, 1000), player("c", c, 1000)}, 1);
    REQUIRE(st.ok());
    CHECK(st->points == std::vector{27, -9, -18});
    CHECK(st->net == std::vector{Chips(135), Chips(-45), Chips(-90)});
    CHECK(st->final_stacks[0] == Chips(1135));
    CHECK(st->fantasyland == std::vector{14, 0, 0});
    // The chip limit: c starts with 50 and loses at most 50; each pair netted once, from the
    // dealer (b): b-c, b-a, c-a.
    o.chip_limit = true;
    st = settle(o, {player("a", a, 1000), player("b", b, 1000), player("c", c, 50)}, 1);
    REQUIRE(st.ok());
    CHECK(st->pairs.size() == 3);
    CHECK(st->net[2] == Chips(-50));
    CHECK(st->net[0] + st->net[1] + st->net[2] == 0);
    // Bad input names the problem.
    auto dup = settle({}, {player("a", a), player("b", a)}, 0);
    REQUIRE_FALSE(dup.ok());
    CHECK(dup.error().code == Errc::duplicate_card);
    CHECK(dup.error().message.find("player b") != std::string::npos);
}

TEST_CASE("open-face: Fantasyland entry, sizes and staying") {
    Options o;
    const Split queens = split("Qs Qh 2c", "Ks Kh 3d 4d 5d", "As Ah Ad 9c 8c");
    const Split kings = split("Ks Kh 2c", "Qs Qh Qd 4d 5d", "As Ah Ad Ac 8c");
    const Split aces = split("As Ah 2c", "Ks Kh Kd 4d 5d", "Qs Qh Qd 9c 9d");
    const Split trips = split("3s 3h 3c", "4s 4h 4d Kc 5d", "Qs Qh Qd 9c 9d");
    const Split jacks = split("Js Jh 2c", "Ks Kh 3d 4d 5d", "As Ah Ad 9c 8c");
    const Split full_middle = split("Js Jh 2c", "Ks Kh Kd 4d 4c", "2s 3s 4s 5s 6s");
    const Split fouled_queens = split("Qs Qh 2c", "Js Jh 3d 4d 5d", "As Ah Ad 9c 8c");
    CHECK(fantasyland_cards(o, queens, false, 2) == 14);
    CHECK(fantasyland_cards(o, trips, false, 3) == 14);
    CHECK(fantasyland_cards(o, jacks, false, 2) == 0);
    CHECK(fantasyland_cards(o, fouled_queens, false, 2) == 0);
    o.progressive = true;
    CHECK(fantasyland_cards(o, queens, false, 3) == 14);
    CHECK(fantasyland_cards(o, kings, false, 3) == 15);
    CHECK(fantasyland_cards(o, aces, false, 3) == 16);
    CHECK(fantasyland_cards(o, trips, false, 3) == 17);
    // At four players, 13.
    o.progressive = false;
    o.variant = Variant::classic;
    CHECK(fantasyland_cards(o, aces, false, 4) == 13);
    CHECK(check_options(o, 4) == std::nullopt);
    o.progressive = true;
    REQUIRE(check_options(o, 4));
    CHECK(check_options(o, 4)->code == Errc::bad_config);
    o.progressive = false;
    o.variant = Variant::pineapple;
    REQUIRE(check_options(o, 4));
    // Staying: standard: trips in front, a full house or better in the middle, four of a kind or
    // better in the back; strict: trips in front or four of a kind or better in the back.
    CHECK(fantasyland_cards(o, trips, true, 2) == 14);
    CHECK(fantasyland_cards(o, full_middle, true, 2) == 14);
    CHECK(stays(Stay::strict, full_middle)); // the back is a straight flush
    const Split full_middle_only = split("Js Jh 2c", "Ks Kh Kd 4d 4c", "As Ah Ad 5s 5c");
    CHECK(stays(Stay::standard, full_middle_only));
    CHECK_FALSE(stays(Stay::strict, full_middle_only));
    CHECK(stays(Stay::strict, kings));        // four aces in the back
    CHECK_FALSE(stays(Stay::standard, aces)); // a pair of aces in front is not enough to stay
    CHECK(fantasyland_cards(o, aces, true, 2) == 0);
    o.stay = Stay::strict;
    CHECK(fantasyland_cards(o, full_middle_only, true, 3) == 0);
    o.stay = Stay::standard;
    CHECK(fantasyland_cards(o, full_middle_only, true, 3) == 14);
    o.progressive = true; // staying is 14, whatever the front
    CHECK(fantasyland_cards(o, trips, true, 3) == 14);
}

namespace {

// A random legal placement of the pending cards: the discards due, then each card to a row with
// room.
Placement random_placement(const Hand& h, int player, std::mt19937_64& rng) {
    std::vector<Card> held(h.pending(player).begin(), h.pending(player).end());
    std::shuffle(held.begin(), held.end(), rng);
    Placement p;
    const int due = h.discards_due(player);
    p.discard.assign(held.begin(), held.begin() + due);
    Board room = h.board(player);
    for (auto it = held.begin() + due; it != held.end(); ++it) {
        std::vector<Row> open;
        for (Row r : {Row::front, Row::middle, Row::back})
            if (static_cast<int>(room.row(r).size()) < row_size(r)) open.push_back(r);
        const Row r = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(rng)];
        room.row(r).push_back(*it);
        (r == Row::front ? p.front : r == Row::middle ? p.middle : p.back).push_back(*it);
    }
    return p;
}

std::vector<Card> shuffled_pack(std::mt19937_64& rng) {
    auto pack = Deck::standard().cards();
    std::shuffle(pack.begin(), pack.end(), rng);
    return pack;
}

} // namespace

TEST_CASE("open-face: the deal, turn by turn, and bad placements refused") {
    std::mt19937_64 rng(7);
    const auto deck = shuffled_pack(rng);
    Options o;
    const std::vector<int> fl{0, 14, 0}; // the second player in Fantasyland
    auto started = Hand::start(o, fl, deck);
    REQUIRE(started.ok());
    Hand h = *started;
    // First each player's first cards in turn (5, the Fantasyland 14, 5), then the streets.
    CHECK(h.positions(0)[0] == 0);
    CHECK(h.positions(1)[0] == 5);
    CHECK(h.positions(1).size() == 14);
    CHECK(h.positions(2)[0] == 19);
    CHECK(h.positions(0)[5] == 24);
    CHECK(h.positions(2)[5] == 27);
    CHECK(h.used() == 14 + 2 * 17);
    CHECK(h.pending(1).size() == 14); // dealt at once
    CHECK(h.discards_due(1) == 1);
    CHECK(h.to_act() == 0);
    CHECK(h.discards_due(0) == 0);
    // Out of turn, the wrong cards, a discard on the first street, a row overfilled.
    auto err = h.check(1, {});
    REQUIRE(err);
    CHECK(err->code == Errc::not_your_turn);
    const std::vector<Card> five(h.pending(0).begin(), h.pending(0).end());
    Placement p;
    p.back = five;
    p.back.pop_back();
    err = h.check(0, p);
    REQUIRE(err);
    CHECK(err->code == Errc::wrong_cards);
    p.discard = {five.back()};
    CHECK(h.check(0, p)->code == Errc::wrong_count);
    p.discard.clear();
    p.front = {five[0], five[1], five[2], five[3]};
    p.back = {five[4]};
    CHECK(h.check(0, p)->code == Errc::row_full);
    CHECK(h.check(0, p)->message == "the front has room for 3 cards, not 4");
    p.front = {five[0]};
    p.back = {five[1], five[2], five[3], five[4]};
    REQUIRE_FALSE(h.place(0, p));
    CHECK(h.to_act() == 2); // the Fantasyland player waits for the others
    CHECK(h.place(2, random_placement(h, 2, rng)) == std::nullopt);
    // Street 1: three cards each, one discarded.
    CHECK(h.street() == 1);
    CHECK(h.pending(0).size() == 3);
    CHECK(h.discards_due(0) == 1);
    while (h.street() < h.streets()) {
        const int who = h.to_act();
        REQUIRE(who != 1);
        REQUIRE_FALSE(h.place(who, random_placement(h, who, rng)));
    }
    CHECK(h.to_act() == 1);
    REQUIRE_FALSE(h.place(1, random_placement(h, 1, rng)));
    CHECK(h.finished());
    CHECK(h.check(0, {})->code == Errc::hand_over);
    for (int pl = 0; pl < 3; ++pl) {
        CHECK(h.board(pl).full());
        CHECK(h.discards(pl).size() == (pl == 1 ? 1u : 4u));
    }
    // Refused: progressive sizes without the option, 15 at four players, too many players.
    CHECK(Hand::start(o, std::vector{15, 0}, deck).error().code == Errc::bad_config);
    o.variant = Variant::classic;
    CHECK(Hand::start(o, std::vector{14, 0, 0, 0}, deck).error().code == Errc::bad_config);
    CHECK(Hand::start(o, std::vector{13, 0, 0, 0}, deck).ok());
    CHECK(Hand::start(o, std::vector{0, 0, 0, 0, 0}, deck).error().code == Errc::bad_config);
}

TEST_CASE("open-face: chips are conserved and every card dealt once over random hands") {
    std::mt19937_64 rng(2026);
    // FELT_OPENFACE_HANDS sets the count for a longer run by hand (docs/open-face.md).
    const char* env = std::getenv("FELT_OPENFACE_HANDS");
    const int hands = env ? std::atoi(env) : 200'000 / kScale;
    std::int64_t paid = 0;
    for (int i = 0; i < hands; ++i) {
        Options o;
        o.variant = rng() % 2 ? Variant::classic : Variant::pineapple;
        const int n =
            2 + static_cast<int>(rng() % static_cast<unsigned>(max_players(o.variant) - 1));
        o.progressive = n < 4 && rng() % 2;
        o.chip_limit = rng() % 2;
        o.unit = Chips(1 + static_cast<int>(rng() % 5));
        o.rake = Chips(static_cast<int>(rng() % 3));
        std::vector<int> fl(static_cast<std::size_t>(n));
        for (int& f : fl)
            if (rng() % 4 == 0)
                f = n == 4 ? 13 : o.progressive ? 14 + static_cast<int>(rng() % 4) : 14;
        const auto deck = shuffled_pack(rng);
        auto started = Hand::start(o, fl, deck);
        REQUIRE(started.ok());
        Hand h = *started;
        while (!h.finished()) {
            const int who = h.to_act();
            REQUIRE_FALSE(h.place(who, random_placement(h, who, rng)));
        }
        std::vector<Player> players;
        std::array<int, 256> seen{};
        for (int p = 0; p < n; ++p) {
            Player pl;
            pl.name = std::to_string(p);
            pl.split = h.board(p).split();
            pl.fantasyland = fl[static_cast<std::size_t>(p)];
            if (rng() % 4) pl.stack = Chips(static_cast<int>(rng() % 200));
            players.push_back(pl);
            for (int pos : h.positions(p)) ++seen[deck[static_cast<std::size_t>(pos)].code()];
            REQUIRE(static_cast<int>(h.positions(p).size()) ==
                    13 + static_cast<int>(h.discards(p).size()));
        }
        REQUIRE(*std::max_element(seen.begin(), seen.end()) <= 1);
        const int dealer = static_cast<int>(rng() % static_cast<unsigned>(n));
        auto st = settle(o, players, dealer);
        REQUIRE(st.ok());
        Chips sum = 0;
        int points = 0;
        for (int p = 0; p < n; ++p) {
            const auto u = static_cast<std::size_t>(p);
            sum += st->net[u] + st->rake[u];
            points += st->points[u];
            if (players[u].stack) {
                REQUIRE(*st->final_stacks[u] >= 0);
                if (o.chip_limit) REQUIRE(st->net[u] + st->rake[u] >= -*players[u].stack);
            }
            const int fcards = st->fantasyland[u];
            REQUIRE((fcards == 0 || (fcards >= 13 && fcards <= 17)));
            if (st->fouled[u]) REQUIRE(fcards == 0);
        }
        REQUIRE(sum == 0);
        REQUIRE(points == 0);
        paid += st->pairs.size();
    }
    CHECK(paid > hands / 2); // the hands settled something
}

TEST_CASE("open-face: four players at classic, one fouled, by hand") {
    // A: kings in front (8), three queens in the middle (2), a full house in the back (6).
    const Split a = split("Ks Kh 2c", "Qs Qh Qd 3c 4c", "As Ad Ac 5c 5d");
    // B: four high, a pair of sixes, an ace-high straight (2).
    const Split b = split("2s 3s 4d", "6h 6d 7c 8c Td", "Th Jh Qc Kc Ah");
    // C: jacks in front (6), a full house in the middle (12), four nines (10).
    const Split c = split("Jc Jd 5s", "7s 7h 7d 2h 2d", "9s 9h 9d 9c 3h");
    // D: a full house in the middle above a pair of tens in the back: fouled.
    const Split d = split("Kd 3d 6c", "8s 8h 8d 4s 4h", "Js Ts Tc 6s 5h");
    CHECK(fouled(d));
    // A-B: A's scoop (6) and royalties 16 - 2: +20. A-C: the front (1) against the middle and
    // the back (2), royalties 16 - 28: -13. A-D: 6 and A's 16: +22. B-C: C's scoop, 2 - 28:
    // -32. B-D: 6 + 2. C-D: 6 + 28.
    CHECK(points(a, b) == 20);
    CHECK(points(a, c) == -13);
    CHECK(points(a, d) == 22);
    CHECK(points(b, c) == -32);
    CHECK(points(b, d) == 8);
    CHECK(points(c, d) == 34);
    Options o;
    o.variant = Variant::classic;
    const auto st = settle(o, {player("A", a), player("B", b), player("C", c), player("D", d)}, 3);
    REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
    CHECK(st->points == std::vector{29, -44, 79, -64});
    CHECK(st->pairs.size() == 6);
    // Fantasyland at four players is 13 cards.
    CHECK(st->fantasyland == std::vector{13, 0, 0, 0});
    o.progressive = true;
    const auto refused =
        settle(o, {player("A", a), player("B", b), player("C", c), player("D", d)}, 3);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == Errc::bad_config);
}
