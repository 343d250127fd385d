// The one Table with a fourth game written here, as a Game and a Hand alone (tables/game.h): high
// card. Every seat dealt in antes one chip and gets one card, seen by its owner only; each
// `show`s or `folds`, the clock shows for whoever is late and a leaving player folds; the highest
// card shown takes the antes (if nobody shows, each ante goes back). The table is driven in
// process, with players that record what reaches them, over real storage. Checked: nobody sees
// another's card before the reveal, every message is numbered in order, the clock plays for an
// absent player until they sit out, refusals change nothing, every round is in storage, chips
// are conserved at the table and the ledger balances to the chip once everyone has left.
#include "cards/deck.h"
#include "metrics.h"
#include "server/fairness_check.h"
#include "storage/sqlite_store.h"
#include "storage/storage.h"
#include "tables/lobby.h"
#include "tables/table.h"

#include <boost/asio/executor_work_guard.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <type_traits>

using namespace felt;
using namespace felt::server;
using protocol::json;

namespace {

const Deck& pack() {
    static const Deck d = Deck::standard();
    return d;
}

// A seat is never an engine's player number or a count by accident, nor a number a seat.
static_assert(!std::is_convertible_v<int, Seat>);
static_assert(!std::is_convertible_v<Seat, int>);
static_assert(!std::is_convertible_v<Seat, Chips> && !std::is_convertible_v<Chips, Seat>);

constexpr int kClockMs = 150;
constexpr Chips kAnte{1};

class HighCardHand final : public Hand {
  public:
    HighCardHand(const Deal& d, std::span<const Card> deck) : deal_(d) {
        for (std::size_t k = 0; k < d.seats.size(); ++k) card_[d.seats[k].at()] = deck[k];
    }

    Step deal(std::int64_t hand_id, const std::string& commitment) override {
        hand_id_ = hand_id;
        auto t = std::make_unique<protocol::JsonTold>(json{{"kind", "round_start"},
                                                           {"hand", deal_.number},
                                                           {"seats", deal_.seats},
                                                           {"commitment", commitment}});
        for (Seat s : deal_.seats) t->with_own(s.index(), json{{"card", card(s)}});
        Step step;
        step.told.push_back(std::move(t));
        return step;
    }
    bool in(Seat seat) const override { return dealt(seat) && choice(seat) != "fold"; }
    Outcome<Step> act(Seat seat, const json& body) override {
        if (!dealt(seat)) return {std::nullopt, {"not_in_hand", "you hold no card"}};
        if (!choice(seat).empty()) return {std::nullopt, {"already_acted", "you have acted"}};
        const std::string a = body.value("action", "");
        if (a != "show" && a != "fold")
            return {std::nullopt, {"bad_request", "\"action\" is show or fold"}};
        Step step;
        decide(seat, a, step);
        return {std::move(step), {}};
    }
    Step time_out() override {
        Step step;
        for (Seat s : deal_.seats)
            if (choice(s).empty()) {
                step.missed.push_back(s);
                decide(s, "show", step);
            }
        return step;
    }
    Step leave(Seat seat) override {
        Step step;
        if (choice(seat).empty()) decide(seat, "fold", step);
        return step;
    }
    Clock clock() const override { return {1, kClockMs, std::nullopt}; }
    void seat_view(Seat seat, std::optional<Seat> viewer, json& j) const override {
        j["acted"] = !choice(seat).empty();
        if (seat == viewer && dealt(seat)) j["card"] = card(seat);
    }
    void view(std::optional<Seat>, int deadline_ms, json& out) const override {
        out["round"] = {{"hand", deal_.number}, {"deadline_ms", deadline_ms}};
    }

  private:
    bool dealt(Seat seat) const {
        return std::ranges::find(deal_.seats, seat) != deal_.seats.end();
    }
    std::string card(Seat seat) const { return pack().to_string(card_[seat.at()]); }
    const std::string& choice(Seat seat) const { return choice_[seat.at()]; }

    void decide(Seat seat, const std::string& a, Step& step) {
        choice_[seat.at()] = a;
        step.tell({{"kind", "acted"}, {"hand", deal_.number}, {"seat", seat}, {"action", a}});
        for (Seat s : deal_.seats)
            if (choice(s).empty()) return;
        step.end = settle();
    }
    End settle() {
        std::optional<Seat> winner;
        for (Seat s : deal_.seats)
            if (choice(s) == "show" && (!winner || card_[s.at()] > card_[winner->at()])) winner = s;
        const Chips pot = kAnte * static_cast<std::int64_t>(deal_.seats.size());
        End end;
        json net = json::array();
        for (Seat s : seats_of(kMaxTableSeats)) {
            if (!dealt(s)) continue;
            const Chips start = deal_.stacks[s.at()];
            const Chips won = !winner ? kAnte : s == *winner ? pot : 0;
            end.results.push_back({s, start, start - kAnte + won});
            net.push_back(won - kAnte);
        }
        // A shown card is everyone's; a folded one stays its holder's. Seat k of the deal got
        // the deck's card k.
        end.seen.resize(deal_.seats.size());
        for (std::size_t k = 0; k < deal_.seats.size(); ++k) {
            if (choice(deal_.seats[k]) == "show")
                end.seen[k].everyone = true;
            else
                end.seen[k].show(deal_.seats[k].index());
        }
        end.log.push_back(
            json{{"kind", "round"}, {"winner", winner ? winner->index() : -1}}.dump());
        end.message = {{"kind", "round_end"},
                       {"hand", deal_.number},
                       {"hand_id", hand_id_},
                       {"winner", winner ? json(*winner) : json(nullptr)},
                       {"net", net}};
        return end;
    }

    const Deal deal_;
    std::int64_t hand_id_ = 0;
    std::array<Card, kMaxTableSeats> card_{};
    std::array<std::string, kMaxTableSeats> choice_;
};

class HighCardGame final : public Game {
  public:
    json config() const override { return {{"game", "high_card"}, {"seats", 3}}; }
    std::string describe() const override { return "high card"; }
    Limits limits() const override { return {3, Chips(10), Chips(100), 2, 5, 0}; }
    const char* hand_noun() const override { return "round"; }
    std::vector<Card> deck(const Deal&) const override { return pack().cards(); }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck, std::uint64_t) const override {
        return {Started{std::make_unique<HighCardHand>(d, deck), pack().to_string(deck), "",
                        json{{"dealer", d.dealer}}},
                {}};
    }
};

// A player (or spectator) in process: every message that reaches it, in order.
class Listener final : public Recipient {
  public:
    void send(Messages messages) override {
        std::lock_guard lock(mutex_);
        std::vector<json> batch;
        for (const Message& m : messages) {
            got_.push_back(json::parse(*m));
            batch.push_back(got_.back());
        }
        batches_.push_back(std::move(batch));
    }
    using Recipient::send;
    std::vector<json> got() {
        std::lock_guard lock(mutex_);
        return got_;
    }
    // The messages as they were handed over, together.
    std::vector<std::vector<json>> batches() {
        std::lock_guard lock(mutex_);
        return batches_;
    }

  private:
    std::mutex mutex_;
    std::vector<json> got_;
    std::vector<std::vector<json>> batches_;
};

struct TempDb {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("felt_table_test_" + new_token().substr(0, 12) + ".db"))
                           .string();
    ~TempDb() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

struct Rig {
    static constexpr Chips kGrant{1000};
    TempDb file;
    Metrics metrics;
    Storage storage{std::make_unique<SqliteStore>(file.path, kGrant, SqliteStore::Role::writer),
                    std::make_unique<SqliteStore>(file.path, kGrant, SqliteStore::Role::reader),
                    metrics};
    net::io_context io;
    net::thread_pool workers{1};
    Lobby lobby{metrics}; // after the loop: its tables (and their timers) go first
    Services services{storage, metrics, lobby, io, workers, std::chrono::seconds(600), false, {}};
    boost::asio::executor_work_guard<net::io_context::executor_type> work =
        boost::asio::make_work_guard(io);
    std::thread loop{[this] { io.run(); }};

    ~Rig() {
        work.reset();
        io.stop();
        loop.join();
    }
    // A storage call made on the writer, waited for.
    template <class F>
    auto stored(F f) {
        using R = std::invoke_result_t<F, Store&>;
        std::promise<std::optional<R>> done;
        storage.write(std::move(f), io.get_executor(),
                      [&](std::optional<R> r) { done.set_value(std::move(r)); });
        auto r = done.get_future().get();
        REQUIRE(r);
        return std::move(*r);
    }
};

// Waits until `ok()` holds (a few seconds at most).
template <class F>
bool eventually(F ok) {
    for (int i = 0; i < 500; ++i) {
        if (ok()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return ok();
}

protocol::Request request(const char* type, int id, json body = json::object()) {
    return {type, id, std::move(body)};
}

// The reply (or error) to request `id` among what reached a player.
std::optional<json> answer(Listener& l, int id) {
    for (const json& m : l.got())
        if (m.value("id", json()) == id) return m;
    return std::nullopt;
}

} // namespace

TEST_CASE("table: a fourth game written as a Game alone; visibility, order, clock, chips") {
    Rig rig;
    std::vector<Account> accounts;
    for (int i = 0; i < 3; ++i) {
        auto a = rig.stored([](Store& s) { return s.create_guest(); });
        REQUIRE(a.ok());
        accounts.push_back(*a.value);
    }
    const std::int64_t id =
        rig.stored([&](Store& s) { return s.create_table("{}", accounts[0].id); });
    auto table = std::make_shared<Table>(id, std::make_unique<HighCardGame>(), rig.services);
    rig.lobby.add(table);

    std::vector<std::shared_ptr<Listener>> players;
    for (int i = 0; i < 3; ++i) players.push_back(std::make_shared<Listener>());
    auto spectator = std::make_shared<Listener>();
    const Account watcher{0, "watcher", true, 0};
    table->spectate(spectator, watcher, request("spectate", 1));

    // Refused, and nothing changes: an act before sitting, a buy-in out of range.
    table->act(players[0], accounts[0], request("act", 2, {{"action", "show"}}));
    table->join(players[0], accounts[0], request("join", 3, {{"buy_in", 101}}));
    REQUIRE(eventually([&] { return answer(*players[0], 3).has_value(); }));
    CHECK((*answer(*players[0], 2))["code"] == "not_seated");
    CHECK((*answer(*players[0], 3))["code"] == "bad_amount");

    const Chips buy_in[] = {Chips(40), Chips(50), Chips(60)};
    for (int i = 0; i < 3; ++i)
        table->join(players[static_cast<std::size_t>(i)], accounts[static_cast<std::size_t>(i)],
                    request("join", 10 + i, {{"buy_in", buy_in[i]}, {"seat", i}}));
    for (int i = 0; i < 3; ++i)
        REQUIRE(eventually(
            [&] { return answer(*players[static_cast<std::size_t>(i)], 10 + i).has_value(); }));
    for (int i = 0; i < 3; ++i)
        CHECK((*answer(*players[static_cast<std::size_t>(i)], 10 + i))["ok"] == true);

    // Seat 2's player disconnects: the clock shows for it until it sits out (after 2 rounds).
    // Seats 0 and 1 play five rounds, seat 0 showing and seat 1 folding every other round.
    players[2].reset();
    constexpr int kRounds = 5;
    int next_id = 100;
    for (int round = 1; round <= kRounds; ++round) {
        const bool started = eventually([&] {
            for (const json& m : players[0]->got())
                if (m.value("kind", "") == "round_start" && m["hand"] == round) return true;
            return false;
        });
        REQUIRE(started);
        table->act(players[0], accounts[0], request("act", next_id++, {{"action", "show"}}));
        // A second action is refused and changes nothing.
        table->act(players[0], accounts[0], request("act", next_id, {{"action", "fold"}}));
        REQUIRE(eventually([&] { return answer(*players[0], next_id).has_value(); }));
        CHECK((*answer(*players[0], next_id++))["code"] == "already_acted");
        table->act(players[1], accounts[1],
                   request("act", next_id++, {{"action", round % 2 ? "fold" : "show"}}));
        REQUIRE(eventually([&] {
            for (const json& m : spectator->got())
                if (m.value("kind", "") == "round_end" && m["hand"] == round) return true;
            return false;
        }));
    }

    // Each accepted action's reply and the update it caused reached the actor together, in one
    // hand-over (over a connection, one write).
    int together = 0;
    for (const auto& batch : players[0]->batches())
        for (std::size_t k = 0; k < batch.size(); ++k)
            if (batch[k].value("ok", false) && batch[k].value("id", 0) >= 100) {
                ++together;
                REQUIRE(k + 1 < batch.size());
                CHECK(batch[k + 1]["type"] == "table");
            }
    CHECK(together == kRounds);

    // Everyone leaves between rounds (or folds the round being dealt, and leaves after it).
    players[2] = std::make_shared<Listener>();
    for (int i = 0; i < 3; ++i)
        table->leave(players[static_cast<std::size_t>(i)], accounts[static_cast<std::size_t>(i)],
                     request("leave", 500 + i));
    REQUIRE(eventually([&] {
        int left = 0;
        for (const json& m : spectator->got()) left += m.value("kind", "") == "left";
        return left == 3;
    }));

    // Nobody saw another seat's card before the reveal; a spectator saw none at all. Each saw the
    // table's messages numbered one by one.
    std::map<int, std::map<int, std::string>> dealt; // round -> seat -> card
    for (int i = 0; i < 2; ++i)
        for (const json& m : players[static_cast<std::size_t>(i)]->got())
            if (m.value("kind", "") == "round_start" && m.contains("card"))
                dealt[m["hand"].get<int>()][i] = m["card"].get<std::string>();
    int folds_kept = 0; // folded cards checked sealed to another reader
    for (int i = -1; i < 2; ++i) {
        auto& who = i < 0 ? spectator : players[static_cast<std::size_t>(i)];
        std::int64_t seq = -1;
        std::string commitment;
        std::map<int, std::string> acted; // this round: seat -> show or fold
        for (const json& m : who->got()) {
            if (m.value("type", "") != "table") continue;
            if (m["kind"] == "round_start") {
                commitment = m["commitment"];
                acted.clear();
            }
            if (m["kind"] == "acted") acted[m["seat"].get<int>()] = m["action"];
            if (m["kind"] != "snapshot") {
                if (seq >= 0) CHECK(m["seq"].get<std::int64_t>() == seq + 1);
                seq = m["seq"].get<std::int64_t>();
            }
            if (m["kind"] == "round_start") CHECK(m.contains("card") == (i >= 0));
            if (m["kind"] == "round_start" && i >= 0)
                CHECK(m["card"] == dealt[m["hand"].get<int>()][i]);
            if (m["kind"] == "round_end" && !commitment.empty()) {
                // The reveal checks out; it opens a shown card to everyone, a folded one to its
                // holder alone, and gives no sealed card away.
                const auto f = fairness_check::check(commitment, m["fairness"]);
                CHECK(f.problems.empty());
                CHECK(fairness_check::derivable(m["fairness"], f) == 0);
                for (auto& [seat, card] : dealt[m["hand"].get<int>()]) {
                    CAPTURE(seat);
                    if (acted[seat] == "show")
                        CHECK(f.shown.count(card));
                    else if (seat == i)
                        CHECK(f.yours.count(card));
                    else
                        CHECK_FALSE((f.shown.count(card) || f.yours.count(card)));
                    folds_kept += acted[seat] != "show" && seat != i;
                }
            }
        }
    }
    CHECK(dealt.size() >= kRounds);
    CHECK(folds_kept > 0);

    // The clock showed for seat 2 until it sat out, and it was dealt no more rounds.
    int clock_shows = 0, sat_out = 0, dealt_in = 0;
    for (const json& m : spectator->got()) {
        clock_shows += m.value("kind", "") == "acted" && m["seat"] == 2;
        sat_out += m.value("kind", "") == "sitting_out" && m["seat"] == 2;
        if (m.value("kind", "") == "round_start")
            dealt_in += std::ranges::count(m["seats"].get<std::vector<int>>(), 2);
    }
    CHECK(clock_shows == 2);
    CHECK(sat_out == 1);
    CHECK(dealt_in == 2);

    // Chips: every round's nets sum to zero and its stacks to the buy-ins; each seat left with
    // its buy-in plus its nets; the ledger balances.
    int rounds = 0;
    for (const json& m : spectator->got())
        if (m.value("kind", "") == "round_end") {
            ++rounds;
            Chips nets{}, stacks{};
            for (const json& v : m["net"]) nets += v.get<Chips>();
            for (const json& v : m["stacks"]) stacks += v.get<Chips>();
            CHECK(nets == 0);
            CHECK(stacks == buy_in[0] + buy_in[1] + buy_in[2]);
        }
    CHECK(rounds >= kRounds);
    Chips left_with{};
    for (const json& m : spectator->got())
        if (m.value("kind", "") == "left") left_with += m["stack"].get<Chips>();
    CHECK(left_with == buy_in[0] + buy_in[1] + buy_in[2]);
    Chips balances{};
    for (const Account& a : accounts) {
        auto now = rig.stored([&](Store& s) { return s.find_account(a.id); });
        REQUIRE(now);
        balances += now->balance;
    }
    CHECK(balances == 3 * Rig::kGrant);
    CHECK(rig.metrics.hands_played.load() == rounds);
}

// Pearson's chi-square statistic of `counts` against the same expected count in every cell.
double chi_square(const std::vector<long>& counts, double expected) {
    double sum = 0;
    for (long c : counts)
        sum += (static_cast<double>(c) - expected) * (static_cast<double>(c) - expected);
    return sum / expected;
}

// The value a chi-square statistic with `df` degrees of freedom exceeds with probability 1e-6
// (Wilson and Hilferty's approximation, z = 4.753): a fair shuffle fails this about once in a
// million runs, a biased one at once.
double critical(int df) {
    const double k = 2.0 / (9.0 * df);
    return df * std::pow(1 - k + 4.753 * std::sqrt(k), 3);
}

// 240,000 shuffles of four cards (`shuffle(deck, n)` for the n-th): each of the 24 orders
// equally likely, by a chi-square test.
void check_orders_of_four(const std::function<void(std::span<Card>, int)>& shuffle) {
    std::map<std::vector<int>, long> seen;
    constexpr int kShuffles = 240000;
    for (int n = 0; n < kShuffles; ++n) {
        std::array<Card, 4> deck;
        for (int i = 0; i < 4; ++i) deck[static_cast<std::size_t>(i)] = Card::from_code(i);
        shuffle(deck, n);
        std::vector<int> order;
        for (Card c : deck) order.push_back(c.code());
        ++seen[order];
    }
    REQUIRE(seen.size() == 24);
    std::vector<long> counts;
    for (const auto& [order, count] : seen) counts.push_back(count);
    const double x = chi_square(counts, kShuffles / 24.0);
    INFO("chi-square " << x << " against " << critical(23));
    CHECK(x < critical(23));
}

TEST_CASE("secure_shuffle: every order of four cards equally likely, every card at every place") {
    // 4 cards: the 24 orders, 240,000 shuffles.
    check_orders_of_four([](std::span<Card> deck, int) { secure_shuffle(deck); });
    // 52 cards: how often each card lands at each place, 52,000 shuffles (1,000 a cell). Each
    // place's counts are a multinomial with 51 degrees of freedom; the sum over the 52 places is
    // taken as a chi-square with 52 x 51 (its mean is exactly that).
    {
        constexpr int kShuffles = 52000;
        std::vector<long> counts(52 * 52);
        for (int n = 0; n < kShuffles; ++n) {
            std::array<Card, 52> deck;
            for (int i = 0; i < 52; ++i) deck[static_cast<std::size_t>(i)] = Card::from_code(i);
            secure_shuffle(deck);
            for (std::size_t place = 0; place < 52; ++place)
                ++counts[place * 52 + deck[place].code()];
        }
        const double x = chi_square(counts, kShuffles / 52.0);
        INFO("chi-square " << x << " against " << critical(52 * 51));
        CHECK(x < critical(52 * 51));
    }
}

TEST_CASE("seeded_shuffle (tests only): the same seed, the same deck; the hands of one seed's "
          "tournament, every order of four cards equally likely") {
    auto dealt = [](std::uint64_t seed) {
        std::array<Card, 52> deck;
        for (int i = 0; i < 52; ++i) deck[static_cast<std::size_t>(i)] = Card::from_code(i);
        seeded_shuffle(deck, seed);
        return deck;
    };
    CHECK(dealt(46) == dealt(46));
    CHECK(dealt(46) != dealt(47));
    // As a table deals them: the seed mixed with each hand's number.
    check_orders_of_four([](std::span<Card> deck, int n) {
        seeded_shuffle(deck, mix_seed(46, static_cast<std::uint64_t>(n)));
    });
}
