// A seat bot at a feltd table (bots/table_seat.h) reads the protocol's messages, as its seat
// receives them, into the same view the engine-side watcher builds from the whole state.
#include "chinese_seat.h"
#include "protocol/poker_config.h"
#include "protocol/poker_messages.h"
#include "simulate.h"
#include "table_seat.h"

#include <doctest/doctest.h>

#include <functional>
#include <vector>

using namespace felt;
using namespace felt::bots;
using json = nlohmann::json;

namespace {

#ifdef FELT_SANITIZE
constexpr int kHands = 3;
#else
constexpr int kHands = 20;
#endif

void same_view(const View& got, const View& want) {
    CHECK(got.cards == want.cards);
    CHECK(got.board == want.board);
    CHECK(got.round == want.round);
    REQUIRE(got.seats.size() == want.seats.size());
    for (std::size_t i = 0; i < got.seats.size(); ++i) {
        CAPTURE(i);
        CHECK(got.seats[i].seat == want.seats[i].seat);
        CHECK(got.seats[i].live == want.seats[i].live);
        CHECK(got.seats[i].stack == want.seats[i].stack);
        CHECK(got.seats[i].bet == want.seats[i].bet);
        CHECK(got.seats[i].total == want.seats[i].total);
        CHECK(got.seats[i].up == want.seats[i].up);
    }
    REQUIRE(got.seen.size() == want.seen.size());
    for (std::size_t i = 0; i < got.seen.size(); ++i) {
        CHECK(got.seen[i].seat == want.seen[i].seat);
        CHECK(got.seen[i].type == want.seen[i].type);
        CHECK(got.seen[i].amount == want.seen[i].amount);
        CHECK(got.seen[i].round == want.seen[i].round);
        CHECK(got.seen[i].board == want.seen[i].board);
    }
    for (int s = 0; s < poker::kMaxSeats; ++s) {
        CHECK(got.stats[static_cast<std::size_t>(s)].hands ==
              want.stats[static_cast<std::size_t>(s)].hands);
        CHECK(got.stats[static_cast<std::size_t>(s)].vpip ==
              want.stats[static_cast<std::size_t>(s)].vpip);
    }
    CHECK(got.legal.phase == want.legal.phase);
    CHECK(got.legal.min_to == want.legal.min_to);
    CHECK(got.legal.max_to == want.legal.max_to);
    CHECK(got.legal.call_amount == want.legal.call_amount);
}

} // namespace

TEST_CASE("bots: a seat bot reads the table's messages into the view the engine's state gives, "
          "in every variant") {
    long turns = 0;
    for (std::string_view variant : poker::builtin_variant_names()) {
        CAPTURE(variant);
        const int seats = std::min(4, poker::builtin_variant(variant)->max_seats);
        const json request = {{"variant", variant}, {"structure", "no-limit"}, {"seats", seats},
                              {"small_blind", 1},   {"big_blind", 2},          {"ante", 0},
                              {"min_buy_in", 40},   {"max_buy_in", 400}};
        json req = request;
        if (poker::builtin_variant(variant)->bring_in_opens()) {
            req.erase("small_blind");
            req.erase("big_blind");
            req["ante"] = 1;
            req["bring_in"] = 2;
            req["small_bet"] = 4;
            req["big_bet"] = 8;
        }
        auto decoded = protocol::decode_poker_config(req);
        REQUIRE_MESSAGE(decoded.ok(), decoded.refusal.message);
        const json config = decoded.value->first.to_json();
        const poker::HandConfig base = decoded.value->second;
        const Ranking& ranking = *base.ranking;
        Rng rng(std::hash<std::string_view>{}(variant));
        std::vector<TableSeat> bots;
        for (int s = 0; s < seats; ++s) {
            Profile p;
            p.kind = Kind::fair;
            bots.emplace_back(p, 1);
            bots.back().set_seat(s);
            bots.back().on_message(
                {{"type", "table"}, {"kind", "snapshot"}, {"config", config}, {"your_seat", s}});
        }
        Watcher watcher;
        for (int h = 0; h < kHands; ++h) {
            poker::HandConfig c = base;
            c.button = h % seats;
            for (int i = 0; i < seats; ++i)
                c.stacks[static_cast<std::size_t>(i)] =
                    Chips(static_cast<std::int64_t>(20 + rng.below(300)));
            sim::shuffle(std::span<Card>(c.deck), rng);
            c.reshuffle_seed = rng();
            json start = protocol::hand_start_json(
                h + 1, h + 1, c.button, std::span(c.stacks).first(static_cast<std::size_t>(seats)),
                "");
            start["type"] = "table";
            for (TableSeat& b : bots) b.on_message(start);
            auto started = poker::start_hand(std::make_shared<const poker::HandConfig>(c));
            REQUIRE(started.ok());
            poker::HandState s = std::move(started).value().state;
            std::vector<poker::Event> events = started.value().events;
            watcher.start(s, events);
            for (int guard = 0; guard < 2000; ++guard) {
                // Each seat's update: the events it may see, and its turn when it is to act.
                const poker::Legal l = poker::legal_actions(s);
                std::optional<json> answer;
                for (int seat = 0; seat < seats; ++seat) {
                    json update = {{"type", "table"}, {"kind", "update"}};
                    json list = json::array();
                    for (const poker::Event& e : events)
                        list.push_back(
                            protocol::event_json(e, ranking, protocol::visible_to(e, seat)));
                    update["events"] = list;
                    if (s.phase != poker::Phase::done && l.seat == seat)
                        update["turn"] = {{"seat", seat}, {"legal", protocol::legal_json(l)}};
                    auto a = bots[static_cast<std::size_t>(seat)].on_message(update);
                    if (s.phase != poker::Phase::done && l.seat == seat) {
                        REQUIRE(a);
                        answer = a;
                        same_view(bots[static_cast<std::size_t>(seat)].last_view(),
                                  watcher.view(s));
                        ++turns;
                    } else {
                        CHECK(!a);
                    }
                }
                if (s.phase == poker::Phase::done) break;
                // The answer, as feltd reads an act request.
                auto action = protocol::parse_poker_action(*answer, l.seat, ranking);
                REQUIRE(action.ok());
                events.clear();
                const auto err = poker::apply_in_place(s, *action.value, events);
                REQUIRE_MESSAGE(!err, (err ? err->message : ""));
                watcher.observe(s, events);
            }
            watcher.finish();
            for (TableSeat& b : bots)
                b.on_message({{"type", "table"}, {"kind", "hand_end"}, {"hand", h + 1}});
        }
    }
    MESSAGE(turns << " turns compared");
}

namespace {

// Every field of a message, at any depth, replaced by each wrong value in turn; and the message
// cut short (its arrays emptied). Each becomes a message to feed.
std::vector<json> garbled(const json& m) {
    static const std::vector<json> wrong = {nullptr,        -7,  1e300, "x", "Zz 99", json::array(),
                                            json::object(), true};
    std::vector<json> out;
    json copy = m;
    std::function<void(json&)> walk_copy = [&](json& at) {
        if (at.is_object()) {
            for (auto& [key, value] : at.items()) {
                const json keep = value;
                for (const json& w : wrong) {
                    value = w;
                    out.push_back(copy);
                }
                value = keep;
                walk_copy(value);
            }
        } else if (at.is_array()) {
            const json keep = at;
            at = json::array();
            out.push_back(copy);
            at = keep;
            for (json& v : at) walk_copy(v);
        }
    };
    walk_copy(copy);
    return out;
}

} // namespace

TEST_CASE("bots: a seat bot given garbled table messages passes them over (no exception, no "
          "crash) and answers a turn with an action or nothing") {
    auto decoded = protocol::decode_poker_config(json{{"variant", "holdem"}, {"seats", 3}});
    REQUIRE(decoded.ok());
    const json config = decoded.value->first.to_json();
    const json snapshot = {
        {"type", "table"}, {"kind", "snapshot"}, {"config", config}, {"your_seat", 0}};
    json start = protocol::hand_start_json(1, 1, 0, std::vector<Chips>{Chips(200), Chips(200)}, "");
    start["type"] = "table";
    const json update = {
        {"type", "table"},
        {"kind", "update"},
        {"events",
         {{{"kind", "blind"}, {"seat", 1}, {"amount", 1}},
          {{"kind", "blind"}, {"seat", 0}, {"amount", 2}},
          {{"kind", "deal_down"}, {"seat", 0}, {"count", 2}, {"cards", "As Kd"}},
          {{"kind", "deal_down"}, {"seat", 1}, {"count", 2}},
          {{"kind", "call"}, {"seat", 1}, {"amount", 1}}}},
        {"turn",
         {{"seat", 0},
          {"legal",
           {{"seat", 0}, {"check", true}, {"raise", true}, {"min_to", 4}, {"max_to", 200}}}}}};
    const json chinese_snapshot = {{"type", "table"},
                                   {"kind", "snapshot"},
                                   {"config", {{"game", "chinese"}, {"profile", "scoop"}}},
                                   {"your_seat", 0}};
    const json deal = {{"type", "table"},
                       {"kind", "deal"},
                       {"hand", 1},
                       {"seats", {0, 1}},
                       {"cards", "As Ks Js 8s 3s Qh Qd 9c 9s 7c 7d 4c 2h"}};
    long fed = 0, answered = 0;
    auto feed = [&](SeatBot& bot, const json& m) {
        ++fed;
        std::optional<json> a;
        CHECK_NOTHROW(a = bot.on_message(m));
        if (a) {
            ++answered;
            CHECK(a->is_object());
            // Every game's act names its action, but open-face's, which names the rows.
            CHECK((a->value("action", "") != "" || a->contains("front")));
        }
    };
    Profile p;
    p.kind = Kind::fair;
    // Poker: each garbled message in place of the snapshot, the hand's start or the update.
    const std::vector<json> sequence = {snapshot, start, update};
    for (std::size_t k = 0; k < sequence.size(); ++k)
        for (const json& bad : garbled(sequence[k])) {
            auto bot = make_seat_bot("poker", p, 1);
            bot->set_seat(0);
            for (std::size_t i = 0; i < sequence.size(); ++i)
                feed(*bot, i == k ? bad : sequence[i]);
        }
    // Chinese poker: the same with its snapshot and deal.
    for (int k = 0; k < 2; ++k)
        for (const json& bad : garbled(k == 0 ? chinese_snapshot : deal)) {
            auto bot = make_seat_bot("chinese", p, 1);
            bot->set_seat(0);
            feed(*bot, k == 0 ? bad : chinese_snapshot);
            feed(*bot, k == 1 ? bad : deal);
        }
    // Leap rummy: its snapshot, a deal and its first turn.
    const json leap_snapshot = {{"type", "table"},
                                {"kind", "snapshot"},
                                {"config", {{"game", "leap"}, {"seats", 2}}},
                                {"your_seat", 0}};
    const json leap_deal = {{"type", "table"},
                            {"kind", "deal"},
                            {"hand", 1},
                            {"players", {0, 1}},
                            {"cards", "3h 5h 7h Kd 2c"}};
    const json leap_turn = {{"type", "table"},      {"kind", "turn"},           {"seat", 0},
                            {"phase", "turn"},      {"may_meld", false},        {"stock", 42},
                            {"hand_sizes", {5, 5}}, {"retired", {false, false}}};
    const std::vector<json> leap_sequence = {leap_snapshot, leap_deal, leap_turn};
    for (std::size_t k = 0; k < leap_sequence.size(); ++k)
        for (const json& bad : garbled(leap_sequence[k])) {
            auto bot = make_seat_bot("leap", p, 1);
            bot->set_seat(0);
            for (std::size_t i = 0; i < leap_sequence.size(); ++i)
                feed(*bot, i == k ? bad : leap_sequence[i]);
        }
    // The ungarbled ones are answered: the leap bot pursues, then melds its run of hearts along
    // leap 2 and discards.
    auto leap_bot = make_seat_bot("leap", p, 1);
    leap_bot->set_seat(0);
    leap_bot->on_message(leap_snapshot);
    leap_bot->on_message(leap_deal);
    const auto pursue = leap_bot->on_message(leap_turn);
    REQUIRE(pursue.has_value());
    CHECK((*pursue)["action"] == "pursue");
    leap_bot->on_message(
        {{"type", "table"}, {"kind", "drew"}, {"seat", 0}, {"count", 2}, {"cards", "9s Qc"}});
    json melding = leap_turn;
    melding["phase"] = "melding";
    melding["may_meld"] = true;
    const auto meld = leap_bot->on_message(melding);
    REQUIRE(meld.has_value());
    CHECK((*meld)["action"] == "meld");
    CHECK((*meld)["cards"] == "3h 5h 7h");
    leap_bot->on_message({{"type", "table"},
                          {"kind", "melded"},
                          {"seat", 0},
                          {"meld", 1},
                          {"leap", 2},
                          {"cards", "3h 5h 7h"}});
    melding["may_meld"] = false;
    const auto discard = leap_bot->on_message(melding);
    REQUIRE(discard.has_value());
    CHECK((*discard)["action"] == "discard");
    // The ungarbled ones are answered.
    auto poker_bot = make_seat_bot("poker", p, 1);
    poker_bot->set_seat(0);
    poker_bot->on_message(snapshot);
    poker_bot->on_message(start);
    CHECK(poker_bot->on_message(update).has_value());
    auto chinese_bot = make_seat_bot("chinese", p, 1);
    chinese_bot->on_message(chinese_snapshot);
    const auto split = chinese_bot->on_message(deal);
    REQUIRE(split.has_value());
    CHECK((*split)["action"] == "split");
    // Open-face: its snapshot, a deal and the bot's first turn, each garbled in turn; then the
    // ungarbled turn is answered with its five cards placed.
    const json of_snapshot = {{"type", "table"},
                              {"kind", "snapshot"},
                              {"config", {{"game", "open-face"}, {"seats", 2}}},
                              {"your_seat", 0}};
    const json of_deal = {{"type", "table"},
                          {"kind", "open_face_deal"},
                          {"hand", 1},
                          {"seats", {1, 0}},
                          {"fantasyland", json::array()}};
    const json of_turn = {{"type", "table"},
                          {"kind", "open_face_turn"},
                          {"seat", 0},
                          {"street", 0},
                          {"fantasyland", false},
                          {"discards_due", 0},
                          {"cards", "As Ah Kd 7c 2s"}};
    const std::vector<json> of_sequence = {of_snapshot, of_deal, of_turn};
    for (std::size_t k = 0; k < of_sequence.size(); ++k)
        for (const json& bad : garbled(of_sequence[k])) {
            auto bot = make_seat_bot("open-face", p, 1);
            bot->set_seat(0);
            for (std::size_t i = 0; i < of_sequence.size(); ++i)
                feed(*bot, i == k ? bad : of_sequence[i]);
        }
    auto of_bot = make_seat_bot("open-face", p, 1);
    of_bot->set_seat(0);
    of_bot->on_message(of_snapshot);
    of_bot->on_message(of_deal);
    const auto placed = of_bot->on_message(of_turn);
    REQUIRE(placed.has_value());
    std::string all;
    for (const char* row : {"front", "middle", "back"})
        all += (*placed)[row].get<std::string>() + " ";
    CHECK(felt::Deck::standard().parse_cards(all)->size() == 5);
    CHECK(make_seat_bot("mahjong", p, 1) == nullptr);
    MESSAGE(fed << " messages fed, " << answered << " answered");
    CHECK(fed > 300);
}
