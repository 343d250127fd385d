// Hand histories (engine/poker/phh.*): hands written by hand, and round trips of simulated hands.
#include "paths.h"
#include "phh_cards.h"
#include "poker/phh.h"
#include "simulate.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace felt;
using namespace felt::poker;

namespace {

std::string read(const std::string& name) {
    std::ifstream in(felt::test::test_file("phh/" + name));
    REQUIRE_MESSAGE(in.good(), name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("PHH: hands written by hand replay to their finishing stacks") {
    struct Case {
        const char* file;
        std::vector<std::int64_t> stacks;
    };
    for (const Case& c : {Case{"holdem_nt.phh", {200, 0, 100}}, Case{"stud_f7s.phh", {49, 45, 56}},
                          Case{"holdem_heads_up.phh", {51, 79}}}) {
        CAPTURE(c.file);
        auto r = replay_phh(read(c.file));
        REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
        CHECK(r.value().state.phase == Phase::done);
        std::vector<std::int64_t> finishing;
        for (Chips s : r.value().finishing_stacks) finishing.push_back(s.value());
        CHECK(finishing == c.stacks);
    }
}

TEST_CASE("PHH: a casino's stud hands bet either size with a pair showing on fourth street") {
    // p3 shows Ks Kd on fourth street and bets first: the small bet in one hand, the big in the
    // other, as the casino custom lets the first bettor choose. A history without Felt's
    // _felt_open_pair replays under that custom; Felt's own histories name their table's rule.
    auto hand = [](const char* bet, const char* finishing, const char* rule) {
        return std::string(rule) + R"(
variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [50, 50, 50]
actions = ["d dh p1 2s2h3h", "d dh p2 4s4h3c", "d dh p3 5s5hKs", "p2 pb", "p3 cbr 4", "p1 f",
  "p2 cc", "d dh p2 Kh", "d dh p3 Kd", "p3 cbr )" +
               bet + R"(", "p2 cc", "d dh p2 7d", "d dh p3 6d",
  "p3 cc", "p2 cc", "d dh p2 9c", "d dh p3 8c", "p3 cc", "p2 cc", "d dh p2 Jc", "d dh p3 Qc",
  "p3 cc", "p2 cc", "p3 sm 5s5h", "p2 sm 4s4h"]
finishing_stacks = )" +
               finishing + "\n";
    };
    const std::string small = hand("4", "[49, 41, 60]", ""), big = hand("8", "[49, 37, 64]", "");
    for (const std::string& text : {small, big}) {
        auto r = replay_phh(text);
        CHECK_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    }
    // Felt's own: the table's rule, and nothing else.
    CHECK(replay_phh(hand("8", "[49, 37, 64]", "_felt_open_pair = \"big_bet\"")).ok());
    CHECK(replay_phh(hand("4", "[49, 41, 60]", "_felt_open_pair = \"big_bet\"")).error().code ==
          Errc::bad_amount);
    CHECK(replay_phh(hand("4", "[49, 41, 60]", "_felt_open_pair = \"off\"")).ok());
    CHECK(replay_phh(hand("8", "[49, 37, 64]", "_felt_open_pair = \"off\"")).error().code ==
          Errc::bad_amount);
    CHECK(replay_phh(hand("8", "[49, 37, 64]", "_felt_open_pair = \"maybe\""))
              .error()
              .message.find("_felt_open_pair") != std::string::npos);
}

TEST_CASE("PHH: a history the engine refuses names the action and the reason") {
    std::string text = read("holdem_nt.phh");
    // p1 raises to 10; make it 3, below the minimum raise.
    const auto at = text.find("\"p1 cbr 10\"");
    REQUIRE(at != std::string::npos);
    std::string bad = text;
    bad.replace(at, 11, "\"p1 cbr 3\"");
    auto r = replay_phh(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Errc::bad_amount);
    CHECK(r.error().message.find("action 5 \"p1 cbr 3\"") != std::string::npos);

    std::string turn = text;
    turn.replace(turn.find("\"p3 f\""), 6, "\"p2 f\"");
    r = replay_phh(turn);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Errc::not_your_turn);

    std::string stacks = text;
    stacks.replace(stacks.find("[200, 0, 100]"), 13, "[199, 1, 100]");
    r = replay_phh(stacks);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("finishing_stacks") != std::string::npos);

    CHECK(replay_phh("variant = \"NT\"\nantes = [").error().message.find("not a PHH file") == 0);
    CHECK(replay_phh("variant = \"FK\"").error().message.find("variant \"FK\"") == 0); // Kuhn

    // Numbers too large for chips (the fuzzer's find: converting them was undefined behaviour)
    // are refused, never converted; a fraction is an amount in smaller units.
    for (const char* huge : {"[5.07e23, 100, 100]", "[1e300, 100, 100]"}) {
        std::string big = text;
        big.replace(big.find("starting_stacks = [100, 100, 100]") + 18, 15, huge);
        CAPTURE(big);
        r = replay_phh(big);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message == "an amount is too large");
    }
    std::string half = text;
    half.replace(half.find("starting_stacks = [100, 100, 100]") + 18, 15, "[100.5, 100, 100]");
    CHECK(replay_phh(half).error().message ==
          "finishing_stacks disagree with the engine's [200.5, 0, 100]");
    std::string seed = text;
    seed.replace(seed.find("min_bet = 2"), 11, "min_bet = 5.07e23");
    CHECK(replay_phh(seed).error().message == "an amount is too large");
    seed.replace(seed.find("min_bet = 5.07e23"), 17, "min_bet = 0.0000001");
    CHECK(replay_phh(seed).error().message == "min_bet: at most 6 decimal places");
    seed.replace(seed.find("min_bet = 0.0000001"), 19, "min_bet = -2");
    CHECK(replay_phh(seed).error().message == "min_bet: amounts are numbers, 0 or more");
}

TEST_CASE("PHH: simulated hands of every variant and structure survive the round trip") {
    int checked = 0;
    for (std::string_view variant : builtin_variant_names())
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"})
            for (int players : {2, 5}) {
                sim::Options o;
                o.variant = variant;
                o.structure = structure;
                o.players = players;
                o.rake_percent = std::string(variant) == "holdem" ? 5 : 0;
                auto base = sim::table_config(o);
                REQUIRE(base.ok());
                for (std::uint64_t seed = 1; seed <= 40; ++seed) {
                    CAPTURE(o.variant);
                    CAPTURE(o.structure);
                    CAPTURE(seed);
                    auto config = std::make_shared<HandConfig>(base.value());
                    config->button = static_cast<int>(seed % static_cast<std::uint64_t>(players));
                    // Stacks and deck from the seed; short stacks make all-ins and side pots.
                    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull;
                    for (int i = 0; i < players; ++i) {
                        x ^= x >> 29;
                        x *= 0xBF58476D1CE4E5B9ull;
                        config->stacks[static_cast<std::size_t>(i)] =
                            Chips(4 + static_cast<std::int64_t>(x % 120));
                    }
                    for (std::size_t i = config->deck.size(); i > 1; --i) {
                        x ^= x >> 31;
                        x *= 0x94D049BB133111EBull;
                        std::swap(config->deck[i - 1], config->deck[x % i]);
                    }
                    config->reshuffle_seed = x;
                    auto played = sim::play_random_hand(config, seed);
                    REQUIRE(played.ok());
                    const std::string text =
                        to_phh(*config, played.value().events, played.value().state);
                    auto replayed = replay_phh(text);
                    REQUIRE_MESSAGE(replayed.ok(),
                                    (replayed.ok() ? "" : replayed.error().message + "\n" + text));
                    // Finishing stacks, in PHH order: from the seat left of the button round.
                    std::vector<Chips> want;
                    for (int i = 1; i <= players; ++i)
                        want.push_back(
                            played.value()
                                .state
                                .seats[static_cast<std::size_t>((config->button + i) % players)]
                                .stack);
                    CHECK(replayed.value().finishing_stacks == want);
                    CHECK(replayed.value().state.phase == Phase::done);
                    ++checked;
                }
            }
    CHECK(checked == static_cast<int>(builtin_variant_names().size()) * 3 * 2 * 40);
}

namespace {

// The cards of a hand's history that `reader` (a seat, or kNoSeat) may see, in the order PHH
// writes them, the others "??". Written from the game, not from the engine's visibility marks:
// the board, up cards, rollovers and shows are public; a face-down card (dealt or drawn) is its
// owner's, and everyone's only if the owner turned it up, or showed it still holding it from that
// deal on; discards are their owner's alone.
std::vector<std::string> readable(const Ranking& r, std::span<const Event> events, int reader) {
    auto text = [&](Card c) { return r.to_string(std::span(&c, 1)); };
    // Per seat: the cards it turned up, showed, and holds at the end; for each card, the event
    // that last gave it to the seat.
    std::map<int, std::set<std::uint8_t>> turned_up, showed, held;
    std::map<std::pair<int, std::uint8_t>, std::size_t> last_given;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        for (int k = 0; k < e.count; ++k) {
            const std::uint8_t code = e.cards[static_cast<std::size_t>(k)].code();
            switch (e.type) {
            case EventType::deal_down:
            case EventType::deal_up:
            case EventType::receive:
                held[e.seat].insert(code);
                last_given[{e.seat, code}] = i;
                break;
            case EventType::discard:
                held[e.seat].erase(code);
                break;
            case EventType::rollover:
                turned_up[e.seat].insert(code);
                break;
            case EventType::show:
                showed[e.seat].insert(code);
                break;
            default:
                break;
            }
        }
    }
    std::vector<std::string> out;
    std::map<int, int> early; // cards each seat showed before the run-out
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.type == EventType::show) {
            // A hand shown at once is not shown again at the showdown, unless it grew (stud).
            if (e.number == 1)
                early[e.seat] = e.count;
            else if (early.contains(e.seat) && early[e.seat] == e.count)
                continue;
        }
        for (int k = 0; k < e.count; ++k) {
            const Card c = e.cards[static_cast<std::size_t>(k)];
            bool visible = false;
            switch (e.type) {
            case EventType::deal_board:
            case EventType::deal_up:
            case EventType::rollover:
            case EventType::show:
                visible = true;
                break;
            case EventType::deal_down:
            case EventType::receive:
                visible = e.seat == reader || turned_up[e.seat].contains(c.code()) ||
                          (showed[e.seat].contains(c.code()) && held[e.seat].contains(c.code()) &&
                           last_given[{e.seat, c.code()}] == i);
                break;
            case EventType::discard:
                visible = e.seat == reader;
                break;
            default:
                continue; // no cards in the history
            }
            out.push_back(visible ? text(c) : "??");
        }
    }
    return out;
}

} // namespace

TEST_CASE("PHH: a reader's history shows no card they may not see, over thousands of random "
          "hands of every variant") {
    long hands = 0, hidden = 0, revealed = 0;
    for (std::string_view variant : builtin_variant_names())
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"})
            for (int most : {2, 4, 7}) { // seven players draw past the deck: reshuffles
                const int players = std::min(most, builtin_variant(variant)->max_seats);
                sim::Options o;
                o.variant = variant;
                o.structure = structure;
                o.players = players;
                auto base = sim::table_config(o);
                REQUIRE_MESSAGE(base.ok(), (base.ok() ? "" : base.error().message));
                sim::Rng rng(static_cast<std::uint64_t>(players * 7919 + hands));
                for (int n = 0; n < 100; ++n, ++hands) {
                    auto config = std::make_shared<HandConfig>(base.value());
                    config->button = n % players;
                    for (int i = 0; i < players; ++i)
                        config->stacks[static_cast<std::size_t>(i)] =
                            Chips(2 + static_cast<std::int64_t>(rng.below(300)));
                    sim::shuffle(std::span(config->deck), rng);
                    config->reshuffle_seed = rng();
                    auto played = sim::play_random_hand(config, rng());
                    REQUIRE(played.ok());
                    const auto& events = played.value().events;
                    const auto& state = played.value().state;
                    const std::vector<std::string> all = phh_cards(to_phh(*config, events, state));
                    for (int reader = kNoSeat; reader < players; ++reader) {
                        CAPTURE(variant);
                        CAPTURE(structure);
                        CAPTURE(players);
                        CAPTURE(n);
                        CAPTURE(reader);
                        const std::string text = to_phh(*config, events, state, reader);
                        const std::vector<std::string> got = phh_cards(text);
                        const std::vector<std::string> want =
                            readable(*config->ranking, events, reader);
                        CHECK_MESSAGE(got == want, text);
                        // Unmasked, the same cards in the same places.
                        REQUIRE(got.size() == all.size());
                        for (std::size_t i = 0; i < got.size(); ++i) {
                            hidden += got[i] == "??";
                            if (got[i] != "??") CHECK(got[i] == all[i]);
                        }
                    }
                    for (const std::string& c : all) REQUIRE(c != "??");
                    // Face-down cards that became public (turned up or shown): the anonymous
                    // reader sees more cards than the public events hold.
                    const auto anonymous = phh_cards(to_phh(*config, events, state, kNoSeat));
                    long in_public = 0;
                    for (const Event& e : events)
                        if (e.type == EventType::deal_board || e.type == EventType::deal_up ||
                            e.type == EventType::rollover || e.type == EventType::show)
                            in_public += e.count;
                    revealed += static_cast<long>(anonymous.size()) -
                                std::count(anonymous.begin(), anonymous.end(), "??") - in_public;
                }
            }
    CHECK(hands == static_cast<long>(builtin_variant_names().size()) * 3 * 3 * 100);
    CHECK(hidden > hands); // the check had hidden cards to look at
    CHECK(revealed > 0);
}

namespace {

// Hand `n` of a .phhs text, as a .phh of its own.
std::string hand_of(const std::string& phhs, int n) {
    std::string header = "[";
    header += std::to_string(n);
    header += "]\n";
    const auto from = phhs.find(header);
    REQUIRE(from != std::string::npos);
    const auto to = phhs.find("\n[", from + header.size());
    return phhs.substr(from + header.size(),
                       to == std::string::npos ? to : to - from - header.size());
}

// `text` with `from` (which must occur) replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    return text.replace(at, from.size(), to);
}

std::vector<std::int64_t> values(const std::vector<Chips>& chips) {
    std::vector<std::int64_t> out;
    for (Chips c : chips) out.push_back(c.value());
    return out;
}

} // namespace

TEST_CASE("PHH: online histories: unknown cards, decimal amounts, winnings, rake, walks") {
    const std::string file = read("online_sample.phhs");
    Corpus c;
    replay_corpus(file, "online_sample.phhs", c);
    CHECK(c.hands == 8);
    CHECK(c.replayed == 7);
    CHECK(c.failed == 0);
    CHECK(c.undecided == 1);
    CHECK(c.winnings_checked == 7);
    CHECK(c.winnings_mismatches == 0);
    CHECK(c.raked == 1);
    CHECK(c.walks_counting_blind == 1);

    // Decimal amounts: the hand counts in cents, and writes its results in dollars.
    const std::string one = hand_of(file, 1);
    auto r = replay_phh(one);
    REQUIRE(r.ok());
    CHECK(r->scale == 100);
    CHECK(values(r->finishing_stacks) == std::vector<std::int64_t>{5800, 7225, 10000});
    CHECK(format_amount(r->finishing_stacks[1], r->scale) == "72.25");
    CHECK(format_amount(r->finishing_stacks[0], r->scale) == "58");
    CHECK(format_amount(Chips(5), 100) == "0.05");
    CHECK(r->winnings_checked);
    CHECK(r->winnings_mismatch.empty());
    // Recorded winnings for the wrong player are a mismatch, named in the file's units.
    r = replay_phh(with(one, "winnings = [15.50, 0, 0]", "winnings = [0, 15.50, 0]"));
    REQUIRE(r.ok());
    CHECK(r->winnings_mismatch == "winnings [0, 15.5, 0] disagree with the engine's [15.5, 0, 0]");
    // All zeros: the venue wrote none, so there is nothing to check.
    r = replay_phh(with(one, "winnings = [15.50, 0, 0]", "winnings = [0, 0, 0]"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->winnings_checked);
    // A show that contradicts the deal.
    CHECK(replay_phh(with(one, R"(d dh p1 ????)", "d dh p1 AsKh")).error().message ==
          "p1 shows Ah where Kh was dealt");

    // The last show counts: p2's sevens, shown after ????, win; shown before it, they do not,
    // and neither does a muck.
    const std::string two = hand_of(file, 2);
    r = replay_phh(two);
    REQUIRE(r.ok());
    CHECK(r->winnings_mismatch.empty());
    for (const char* last : {R"('p2 sm 7s7h', 'p2 sm ????')", R"('p2 sm ????', 'p2 sm')"}) {
        CAPTURE(last);
        r = replay_phh(with(two, R"('p2 sm ????', 'p2 sm 7s7h')", last));
        REQUIRE(r.ok());
        CHECK(r->winnings_mismatch ==
              "winnings [0, 15.5, 0] disagree with the engine's [15.5, 0, 0]");
    }

    // A walk may count the big blind's own chips; nothing else may be added.
    const std::string three = hand_of(file, 3);
    r = replay_phh(three);
    REQUIRE(r.ok());
    CHECK(r->walk_counts_blind);
    r = replay_phh(with(three, "winnings = [0, 1.50, 0]", "winnings = [0, 1, 0]"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->walk_counts_blind);
    CHECK(r->winnings_mismatch.empty());
    r = replay_phh(with(three, "winnings = [0, 1.50, 0]", "winnings = [0, 2, 0]"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->winnings_mismatch.empty());

    // A rake: the winner's recorded winnings are less than the pot, and so is their stack.
    const std::string four = hand_of(file, 4);
    r = replay_phh(four);
    REQUIRE(r.ok());
    CHECK(r->rake == Chips(75));
    CHECK(values(r->finishing_stacks) == std::vector<std::int64_t>{5725, 7225, 10000});
    // More than a quarter of the pot is no rake.
    r = replay_phh(with(with(four, "winnings = [14.75, 0, 0]", "winnings = [10, 0, 0]"),
                        "finishing_stacks = [57.25, 72.25, 100]\n", ""));
    REQUIRE(r.ok());
    CHECK(r->rake == Chips(0));
    CHECK_FALSE(r->winnings_mismatch.empty());

    // Only unknown hands contest the pot: undecided. One known hand decides it.
    const std::string five = hand_of(file, 5);
    r = replay_phh(five);
    REQUIRE(r.ok());
    CHECK(r->undecided);
    CHECK(r->deep == 0b111);
    r = replay_phh(with(five, R"('p1 sm ????')", "'p1 sm 2h2s'"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->undecided);
    CHECK(r->scale == 10); // 0.50 needs one decimal place
    CHECK(values(r->winnings) == std::vector<std::int64_t>{20, 0, 0});
    // A known hand shown as ???? at the end is not known.
    r = replay_phh(with(with(five, R"('d dh p1 ????')", "'d dh p1 2h2s'"), R"('p1 sm ????')",
                        R"('p1 sm ????', 'p1 sm 2h2s', 'p1 sm ????')"));
    REQUIRE(r.ok());
    CHECK(r->undecided);
}

TEST_CASE("PHH: straddles, antes per player, stud and draw with unknown cards") {
    const std::string file = read("online_sample.phhs");
    // The straddle: the raise is at least the straddle, and p4, left of the straddler, opens.
    const std::string six = hand_of(file, 6);
    auto r = replay_phh(with(six, "'p4 cbr 12'", "'p4 cbr 7'"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Errc::bad_amount);
    CHECK(r.error().message.find("action 5 \"p4 cbr 7\"") == 0);
    CHECK(replay_phh(with(six, "'p4 cbr 12'", "'p4 cbr 8'"))
              .error()
              .message.find("finishing_stacks") == 0); // a legal raise, but not this hand's
    CHECK(replay_phh(with(six, "'p4 cbr 12', 'p1 f'", "'p1 f', 'p4 cbr 12'")).error().code ==
          Errc::not_your_turn);
    // Called round to the straddler, who may still raise: the straddle's option.
    const auto actions = six.find("actions = ");
    const std::string option =
        six.substr(0, actions) +
        "actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c', 'd dh p4 JhJd', 'p4 cc', "
        "'p1 cc', 'p2 cc', 'p3 cbr 12', 'p4 f', 'p1 f', 'p2 f']\nwinnings = [0, 0, 16, 0]\n"
        "finishing_stacks = [96, 96, 112, 96]\n";
    r = replay_phh(option);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    CHECK(r->winnings_mismatch.empty());
    CHECK(replay_phh(with(six, "[1, 2, 4, 0]", "[1, 2, 0, 4]")).error().message ==
          "blinds_or_straddles: a straddle after no straddle");

    // Stud, down cards unknown until p1 shows all seven, in the order dealt; p2 mucks.
    const std::string stud = R"(variant = 'F7S'
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [50, 50]
actions = ['d dh p1 ????5c', 'd dh p2 ????Kd', 'p1 pb', 'p2 cbr 4', 'p1 cc', 'd dh p1 6c',
  'd dh p2 2d', 'p2 cc', 'p1 cc', 'd dh p1 7c', 'd dh p2 3d', 'p2 cc', 'p1 cc', 'd dh p1 9h',
  'd dh p2 4d', 'p2 cc', 'p1 cc', 'd dh p1 ??', 'd dh p2 ??', 'p2 cc', 'p1 cc',
  'p1 sm 8c8d5c6c7c9hTs', 'p2 sm']
winnings = [10, 0]
finishing_stacks = [55, 45]
)";
    r = replay_phh(stud);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    CHECK(r->winnings_mismatch.empty());
    CHECK(replay_phh(with(stud, "9hTs", "9sTs")).error().message ==
          "p1 shows 9s where 9h was dealt");
    // p1 mucks too: nothing known is shown, so the pot is undecided.
    r = replay_phh(with(stud, "'p1 sm 8c8d5c6c7c9hTs'", "'p1 sm'"));
    REQUIRE(r.ok());
    CHECK(r->undecided);

    // Draw: unknown cards thrown (stand-ins the player holds) and drawn.
    const std::string draw = R"(variant = 'F5CD'
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ['d dh p1 ??????????', 'd dh p2 ??????????', 'p2 cc', 'p1 cc', 'p1 sd ????',
  'd dh p1 ????', 'p2 sd', 'p1 cc', 'p2 cbr 4', 'p1 f']
winnings = [0, 4]
finishing_stacks = [48, 52]
)";
    r = replay_phh(draw);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    CHECK(r->winnings_mismatch.empty());
    CHECK(replay_phh(with(draw, "'p2 sd'", "'p2 sd 2c'")).error().message.find("action 7") == 0);

    // Antes per player: only the big blind's (hand 7) is taken.
    r = replay_phh(hand_of(file, 7));
    REQUIRE(r.ok());
    CHECK(values(r->state.config->stakes.seat_antes) == std::vector<std::int64_t>{0, 2, 0});
}

TEST_CASE("PHH: a .phhs file's failures name the hand and the reason") {
    const std::string file = read("online_sample.phhs");
    const std::string broken =
        "[1]\n" + hand_of(file, 1) + "\n[2]\n" +
        with(hand_of(file, 6), "'p4 cbr 12'", "'p4 cbr 7'") +
        "\n[3]\nvariant = 'NT'\nantes = [\n[4]\n" +
        with(hand_of(file, 3), "winnings = [0, 1.50, 0]", "winnings = [0, 3, 0]");
    Corpus c;
    replay_corpus(broken, "x.phhs", c);
    CHECK(c.hands == 4);
    CHECK(c.replayed == 2);
    CHECK(c.failed == 2);
    CHECK(c.winnings_mismatches == 1);
    REQUIRE(c.failures.size() == 2);
    CHECK(c.failures[0].where == "x.phhs [2]");
    CHECK(c.failures[0].reason.find("action 5 \"p4 cbr 7\"") == 0);
    CHECK(c.failures[1].where == "x.phhs [3]");
    CHECK(c.failures[1].reason.find("not a PHH file") == 0);
    REQUIRE(c.mismatches.size() == 1);
    CHECK(c.mismatches[0].where == "x.phhs [4]");
    // Only the first few are kept.
    Corpus few;
    replay_corpus(broken, "x.phhs", few, 1);
    CHECK(few.failed == 2);
    CHECK(few.failures.size() == 1);
}

namespace {

// A history's actions, and the history with other actions.
std::vector<std::string> actions_of(const std::string& text) {
    const auto at = text.find("actions = [");
    REQUIRE(at != std::string::npos);
    const auto end = text.find(']', at);
    std::vector<std::string> out;
    for (auto q = text.find_first_of("'\"", at); q < end; q = text.find_first_of("'\"", q + 1)) {
        const auto close = text.find(text[q], q + 1);
        out.push_back(text.substr(q + 1, close - q - 1));
        q = close;
    }
    return out;
}

std::string with_actions(const std::string& text, const std::vector<std::string>& actions) {
    const auto at = text.find("actions = [");
    const auto end = text.find(']', at) + 1;
    std::string list = "actions = [";
    for (std::size_t i = 0; i < actions.size(); ++i) list += (i ? ", '" : "'") + actions[i] + "'";
    return text.substr(0, at) + list + "]" + text.substr(end);
}

// The same deal, dealt another way: each run of dealer actions between two player actions is
// taken apart card by card (a player's cards in their order), then dealt in `order`'s way:
// "grouped" (each player's cards in one action, the board last), "round" (one card each, round
// the table), "reverse" (round the table backwards, the board first), or "shuffled" (one card an
// action, the players' cards interleaved at random, each player's own in order).
std::vector<std::string> redealt(const std::vector<std::string>& actions, const std::string& order,
                                 std::mt19937& rng) {
    std::vector<std::string> out;
    std::vector<std::pair<std::string, std::vector<std::string>>> run; // who, cards
    auto flush = [&] {
        std::vector<std::pair<std::string, std::string>> one; // "d dh p1", card
        if (order == "grouped") {
            for (auto& [who, cards] : run) {
                std::string all;
                for (auto& c : cards) all += c;
                out.push_back(who + " " + all);
            }
        } else {
            std::vector<std::size_t> next(run.size(), 0);
            std::size_t most = 0;
            for (auto& r : run) most = std::max(most, r.second.size());
            if (order == "shuffled") {
                std::vector<std::size_t> bag;
                for (std::size_t k = 0; k < run.size(); ++k)
                    bag.insert(bag.end(), run[k].second.size(), k);
                std::shuffle(bag.begin(), bag.end(), rng);
                for (std::size_t k : bag)
                    out.push_back(run[k].first + " " + run[k].second[next[k]++]);
            } else {
                for (std::size_t round = 0; round < most; ++round)
                    for (std::size_t j = 0; j < run.size(); ++j) {
                        const std::size_t k = order == "reverse" ? run.size() - 1 - j : j;
                        if (round < run[k].second.size())
                            out.push_back(run[k].first + " " + run[k].second[round]);
                    }
            }
        }
        run.clear();
    };
    for (const std::string& a : actions) {
        if (a.rfind("d d", 0) != 0) {
            flush();
            out.push_back(a);
            continue;
        }
        const auto space = a.rfind(' ');
        const std::string who = a.substr(0, space), cards = a.substr(space + 1);
        auto it = std::find_if(run.begin(), run.end(), [&](auto& r) { return r.first == who; });
        if (it == run.end()) it = run.insert(run.end(), {who, {}});
        // The board's cards go as they came (a flop is one deal of three), a player's one by one.
        if (who == "d db") {
            it->second.push_back(cards);
        } else {
            for (std::size_t i = 0; i < cards.size(); i += 2)
                it->second.push_back(cards.substr(i, 2));
        }
    }
    flush();
    return out;
}

std::vector<std::int64_t> stacks_of(const Replay& r) {
    std::vector<std::int64_t> out;
    for (Chips s : r.finishing_stacks) out.push_back(s.value());
    return out;
}

} // namespace

TEST_CASE("PHH: published hands dealt one card an action replay to PokerKit's stacks, and every "
          "way of dealing the same hand gives the same result") {
    std::mt19937 rng(43);
    for (const char* file : {"wsop_2023_43_5_68.phh", "wsop_2023_43_5_73.phh", "holdem_nt.phh",
                             "stud_f7s.phh", "holdem_heads_up.phh"}) {
        CAPTURE(file);
        const std::string text = read(file);
        auto as_published = replay_phh(text); // checked against its finishing_stacks
        REQUIRE_MESSAGE(as_published.ok(), (as_published.ok() ? "" : as_published.error().message));
        const auto want = stacks_of(as_published.value());
        for (const char* order :
             {"grouped", "round", "reverse", "shuffled", "shuffled", "shuffled"}) {
            CAPTURE(order);
            const auto actions = redealt(actions_of(text), order, rng);
            auto again = replay_phh(with_actions(text, actions));
            REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
            CHECK(stacks_of(again.value()) == want);
        }
    }
    // The wrong winner no more: p5's ace-king beats p2's nines, p2's big-blind ante included.
    const std::string hand68 = read("wsop_2023_43_5_68.phh");
    auto r = replay_phh(hand68);
    REQUIRE(r.ok());
    const std::vector<std::int64_t> want{2'200'000, 0, 2'675'000, 3'125'000, 21'700'000};
    CHECK(stacks_of(r.value()) == want);
    // A partial show: one card shown, the other known from the deal; and with the hole cards
    // unknown, the ace-king shown whole still wins.
    auto partly = actions_of(hand68);
    std::replace(partly.begin(), partly.end(), std::string("p2 sm 9d9c"),
                 std::string("p2 sm 9d??"));
    auto shown = replay_phh(with_actions(hand68, partly));
    REQUIRE_MESSAGE(shown.ok(), (shown.ok() ? "" : shown.error().message));
    CHECK(stacks_of(shown.value()) == want);
    for (auto& a : partly)
        if (a == "d dh p2 9d" || a == "d dh p2 9c") a = "d dh p2 ??";
    shown = replay_phh(with_actions(hand68, partly));
    REQUIRE_MESSAGE(shown.ok(), (shown.ok() ? "" : shown.error().message));
    CHECK(stacks_of(shown.value()) == want);
}

TEST_CASE("PHH: a deal the variant cannot place is refused with the action and the reason, not "
          "scored") {
    const std::string text = read("wsop_2023_43_5_68.phh");
    const auto actions = actions_of(text);
    auto refused = [&](std::vector<std::string> a) {
        auto r = replay_phh(with_actions(text, a));
        REQUIRE_FALSE(r.ok());
        return r.error().message;
    };
    // A hole card dealt after the betting began.
    auto late = actions;
    std::rotate(late.begin() + 9, late.begin() + 10, late.begin() + 11); // p5's second after "p3 f"
    CHECK(refused(late).find("action 11 \"d dh p5 Kc\": holdem deals p5's card 2 after 0 player "
                             "action(s), not 1") == 0);
    // A third hole card; a card short; a board card short at the showdown.
    auto third = actions;
    third.insert(third.begin() + 10, "d dh p3 Qs");
    CHECK(refused(third).find("action 11 \"d dh p3 Qs\": holdem deals p3 2 card(s) in this hand, "
                              "not more") == 0);
    auto short_one = actions;
    short_one.erase(short_one.begin() + 7); // p3's second
    CHECK(refused(short_one) ==
          "the history deals p3 1 card(s), where holdem deals 2 in this hand");
    auto no_river = actions;
    no_river.pop_back();
    CHECK(refused(no_river) ==
          "the history deals the board 4 card(s), where holdem deals 5 in this hand");
    // Data errors keep their clear refusals.
    std::string negative = text;
    negative.replace(negative.find("[75000, 150000"), 14, "[-75000, 150000");
    CHECK(replay_phh(negative).error().message.find("blinds_or_straddles") != std::string::npos);
    auto no_fold = actions;
    no_fold.erase(no_fold.begin() + 10); // "p3 f": p4 acts in p3's turn
    CHECK(refused(no_fold).find("action 11 \"p4 f\": it is seat 2's turn") == 0);
}

TEST_CASE("PHH: _felt_big_bet_from says from which street stud bets the big bet") {
    std::string text = read("stud_f7s.phh");
    text.erase(text.find("finishing_stacks"));
    // Fifth street: p2 bets, p3 calls.
    const std::string fifth_street = "\"d dh p3 6d\",\n  \"p2 cc\",";
    REQUIRE(text.find(fifth_street) != std::string::npos);
    auto bet = [&](const char* amount, const char* rule) {
        std::string t = text;
        t.replace(t.find(fifth_street), fifth_street.size(),
                  std::string("\"d dh p3 6d\",\n  \"p2 cbr ") + amount + "\",");
        if (rule) t = std::string("_felt_big_bet_from = \"") + rule + "\"\n" + t;
        return replay_phh(t);
    };
    CHECK(bet("8", nullptr).ok()); // fifth unless told
    CHECK(bet("8", "fifth").ok());
    CHECK(bet("4", "fifth").error().code == Errc::bad_amount);
    CHECK(bet("4", "seventh").ok());
    CHECK(bet("8", "seventh").error().code == Errc::bad_amount);
    CHECK(bet("4", "sixth").error().message ==
          "_felt_big_bet_from: fifth or seventh, not \"sixth\"");
    // Written back as played.
    auto r = bet("4", "seventh");
    REQUIRE(r.ok());
    const std::string written = to_phh(*r.value().state.config, {}, r.value().state, -1);
    CHECK(written.find("_felt_big_bet_from = 'seventh'") != std::string::npos);
}

TEST_CASE("PHH: _felt_draws says how many draws a shrinking draw hand plays; without it, the "
          "earlier rules") {
    sim::Options o;
    o.variant = "shrinking";
    o.structure = "fixed-limit";
    o.players = 3;
    auto base = sim::table_config(o);
    REQUIRE(base.ok());
    int written = 0, earlier = 0;
    std::string last;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        for (int draws : {1, 2, 4}) {
            auto config = std::make_shared<HandConfig>(base.value());
            config->draws = draws;
            for (int i = 0; i < o.players; ++i)
                config->stacks[static_cast<std::size_t>(i)] = Chips(60);
            auto played = sim::play_random_hand(config, seed);
            REQUIRE(played.ok());
            const std::string text = to_phh(*config, played.value().events, played.value().state);
            CHECK(text.find("_felt_draws = " + std::to_string(draws)) != std::string::npos);
            last = text;
            auto replayed = replay_phh(text);
            REQUIRE_MESSAGE(replayed.ok(), (replayed.ok() ? "" : replayed.error().message));
            CHECK(replayed.value().state.config->draws == draws);
            ++written;
            // Without the field it is a hand of the earlier rules: three draws, each of exactly
            // two. A hand that stood pat, or drew other than three times to the end, is not one.
            std::string old = text;
            old.erase(old.find("_felt_draws"),
                      old.find('\n', old.find("_felt_draws")) + 1 - old.find("_felt_draws"));
            auto as_earlier = replay_phh(old);
            earlier += as_earlier.ok();
            if (as_earlier.ok())
                CHECK(as_earlier.value().state.config->variant->name == "shrinking-3");
        }
    }
    CHECK(written == 90);
    CHECK(earlier < written);
    last.replace(last.find("_felt_draws = 4"), 15, "_felt_draws = 5");
    CHECK(replay_phh(last).error().message == "_felt_draws: 1 to 4");
}

TEST_CASE("PHH: a tournament's hand with a dead small blind is written with the big blind alone "
          "left of the button, and replays to its stacks") {
    sim::Options o;
    o.variant = "holdem";
    o.structure = "no-limit";
    o.players = 5;
    auto base = sim::table_config(o);
    REQUIRE(base.ok());
    int dead = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        CAPTURE(seed);
        auto config = std::make_shared<HandConfig>(base.value());
        // The button on seat 0; seat 1 busted last hand: no small blind, seat 2 posts the big.
        // Every other seed the small blind is posted as usual (seat 1 in), placed the same way.
        const bool no_small = seed % 2 == 1;
        config->button = 0;
        for (int i = 0; i < 5; ++i)
            config->stacks[static_cast<std::size_t>(i)] =
                Chips(40 + static_cast<std::int64_t>(
                               (seed * 37 + static_cast<std::uint64_t>(i) * 11) % 90));
        if (no_small) config->stacks[1] = Chips();
        config->small_blind_seat = no_small ? -1 : 1;
        config->big_blind_seat = 2;
        std::mt19937_64 rng(seed);
        std::shuffle(config->deck.begin(), config->deck.end(), rng);
        auto played = sim::play_random_hand(config, seed);
        REQUIRE(played.ok());
        const std::string text = to_phh(*config, played.value().events, played.value().state);
        const Chips sb = config->stakes.small_blind, bb = config->stakes.big_blind;
        // PHH order from seat 1 (or 2): the blinds where they were posted.
        const std::string want =
            no_small ? "blinds_or_straddles = [ " + std::to_string(bb.value()) + ", 0, 0, 0 ]"
                     : "blinds_or_straddles = [ " + std::to_string(sb.value()) + ", " +
                           std::to_string(bb.value()) + ", 0, 0, 0 ]";
        CHECK_MESSAGE(text.find(want) != std::string::npos, text);
        auto replayed = replay_phh(text);
        REQUIRE_MESSAGE(replayed.ok(),
                        (replayed.ok() ? "" : replayed.error().message + "\n" + text));
        std::vector<Chips> stacks;
        for (int i = 1; i <= 5; ++i)
            if (const Chips x = played.value().state.seats[static_cast<std::size_t>(i % 5)].stack;
                config->stacks[static_cast<std::size_t>(i % 5)] > 0)
                stacks.push_back(x);
        CHECK(replayed.value().finishing_stacks == stacks);
        dead += no_small;
    }
    CHECK(dead == 100);
}

TEST_CASE("PHH: every hand of the WSOP 2023 Poker Players Championship's final day, in all nine "
          "games, replays to PokerKit's finishing stacks") {
    namespace fs = std::filesystem;
    std::map<std::string, int> by_code;
    int hands = 0;
    for (const auto& entry : fs::directory_iterator(felt::test::test_file("phh/wsop-2023-43-5"))) {
        if (entry.path().extension() != ".phh") continue;
        const std::string name = entry.path().filename().string();
        CAPTURE(name);
        const std::string s = read("wsop-2023-43-5/" + name);
        auto r = replay_phh(s); // refused unless the finishing stacks agree
        REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
        CHECK_FALSE(r.value().undecided);
        const auto at = s.find("variant = '") + 11;
        ++by_code[s.substr(at, s.find('\'', at) - at)];
        ++hands;
    }
    CHECK(hands == 83);
    CHECK(by_code == std::map<std::string, int>{{"F2L3D", 7},
                                                {"F7S", 13},
                                                {"F7S/8", 7},
                                                {"FO/8", 14},
                                                {"FR", 10},
                                                {"FT", 7},
                                                {"N2L1D", 7},
                                                {"NT", 11},
                                                {"PO", 7}});
}
