// The games' message codecs in protocol/: what a table writes reads back the same, over many
// random values, and every malformed field is refused with the code the protocol documents.
#include "protocol/chinese_messages.h"
#include "protocol/leap_messages.h"
#include "protocol/messages.h"
#include "protocol/poker_messages.h"
#include "protocol/told.h"
#include "rankings/ranking.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using felt::Card;
using felt::protocol::json;
namespace chinese = felt::chinese;
namespace leap = felt::leap;
namespace protocol = felt::protocol;

TEST_CASE("Chinese poker messages: a split reads back as written, bad rows are refused") {
    std::mt19937 rng(17);
    std::vector<Card> deck = protocol::chinese_pack().cards();
    const chinese::Special specials[] = {chinese::Special::three_flushes,
                                         chinese::Special::three_straights,
                                         chinese::Special::six_pairs};
    for (int n = 0; n < 2000; ++n) {
        std::shuffle(deck.begin(), deck.end(), rng);
        chinese::Player p;
        std::copy_n(deck.begin(), 3, p.split.front.begin());
        std::copy_n(deck.begin() + 3, 5, p.split.middle.begin());
        std::copy_n(deck.begin() + 8, 5, p.split.back.begin());
        if (n % 3 == 0) p.declare = specials[n % 9 / 3];
        const json written = protocol::chinese_split_json(p);
        auto read = protocol::parse_chinese_split(written);
        REQUIRE(read.ok());
        CHECK(read.value->split.front == p.split.front);
        CHECK(read.value->split.middle == p.split.middle);
        CHECK(read.value->split.back == p.split.back);
        CHECK(read.value->declare == p.declare);
        CHECK(protocol::chinese_split_json(*read.value) == written);
    }
    const json good = {{"action", "split"},
                       {"front", "As Ks Qs"},
                       {"middle", "Ah Kh Qh Jh Th"},
                       {"back", "2c 3c 4c 5c 6c"}};
    CHECK(protocol::parse_chinese_action(good).ok());
    auto refused = [&](const char* key, const json& value) {
        json bad = good;
        bad[key] = value;
        return protocol::parse_chinese_action(bad).refusal.code;
    };
    CHECK(refused("action", "fold") == "bad_request");
    CHECK(refused("action", 3) == "bad_request");
    CHECK(refused("front", 7) == "bad_request");
    CHECK(refused("front", "As Ks") == "wrong_count");
    CHECK(refused("middle", "Ah Kh Qh Jh Zz") == "bad_card");
    CHECK(refused("back", "2c 3c 4c 5c 6c 7c") == "wrong_count");
    CHECK(refused("declare", 1) == "bad_request");
    CHECK(refused("declare", "royal_mess") == "bad_declare");
    CHECK(protocol::parse_chinese_action({{"action", "surrender"}}).value->surrender);
}

TEST_CASE("leap rummy messages: every action reads back as written, bad fields are refused") {
    leap::Rules rules;
    auto made = leap::Table::make(rules, 4);
    REQUIRE(made);
    const leap::Table& t = *made.value();
    std::mt19937 rng(5);
    std::vector<Card> deck = t.deck().cards();
    auto some = [&](int n) {
        std::shuffle(deck.begin(), deck.end(), rng);
        return std::vector<Card>(deck.begin(), deck.begin() + n);
    };
    for (int n = 0; n < 3000; ++n) {
        leap::Action a;
        a.seat = n % 4;
        a.type = static_cast<leap::ActionType>(n % 5);
        switch (a.type) {
        case leap::ActionType::meld:
            a.cards = some(3 + n % 4);
            a.leap = n % 3 == 0 ? 0 : 1 + n % leap::kMaxLeaps;
            break;
        case leap::ActionType::extend:
            for (int k = 0; k <= n % 3; ++k) {
                leap::Extension x;
                x.meld = 1 + (n + k) % 9;
                x.low = some(n % 2);
                x.high = some((n / 2) % 3);
                x.cards = some(n % 4 == 0 ? 1 : 0);
                x.join = n % 5 == 0 ? 2 : 0;
                a.extensions.push_back(std::move(x));
            }
            break;
        case leap::ActionType::discard:
            a.card = some(1).front();
            break;
        default:
            break;
        }
        const json written = protocol::leap_action_json(t, a);
        auto read = protocol::parse_leap_action(t, written, a.seat);
        REQUIRE(read.ok());
        CHECK(read.value->seat == a.seat);
        CHECK(read.value->type == a.type);
        CHECK(protocol::leap_action_json(t, *read.value) == written);
    }
    leap::Event over, dealt, drew;
    over.type = leap::EventType::game_over;
    dealt.type = leap::EventType::dealt;
    drew.type = leap::EventType::drew;
    CHECK_FALSE(protocol::leap_event_told(over)); // names no player: never told one by one
    CHECK_FALSE(protocol::leap_event_told(dealt));
    CHECK(protocol::leap_event_told(drew));
    auto code = [&](const json& body) {
        return protocol::parse_leap_action(t, body, 0).refusal.code;
    };
    CHECK(code({{"action", "fly"}}) == "bad_request");
    CHECK(code({{"action", "meld"}}) == "bad_request");
    CHECK(code({{"action", "meld"}, {"cards", 3}}) == "bad_request");
    CHECK(code({{"action", "meld"}, {"cards", "Zz Yy"}}) == "bad_card");
    CHECK(code({{"action", "meld"}, {"cards", "3h 5h 7h"}, {"leap", leap::kMaxLeaps + 1}}) ==
          "bad_request");
    CHECK(code({{"action", "extend"}, {"extensions", json::array()}}) == "bad_request");
    CHECK(code({{"action", "extend"}, {"extensions", {{{"low", "3h"}}}}}) == "bad_request");
    CHECK(code({{"action", "discard"}, {"card", "3h 5h"}}) == "bad_request");
    CHECK(code({{"action", "discard"}}) == "bad_request");
}

TEST_CASE("integer fields: absent, wrong type, past 64 bits and out of range, each by name") {
    auto field = [](const json& body, std::optional<std::int64_t> fallback, std::int64_t lo,
                    std::int64_t hi) {
        protocol::Request r{"hint", 1, body};
        return protocol::integer_field(r, "count", fallback, lo, hi);
    };
    CHECK(*field(json::object(), 3, 1, 10).value == 3);
    CHECK(*field({{"count", 10}}, 3, 1, 10).value == 10);
    CHECK(*field({{"count", -7}}, 3, -7, 10).value == -7);
    for (const json& bad :
         {json{{"count", "3"}}, json{{"count", 2.5}}, json{{"count", nullptr}},
          json{{"count", true}}, json{{"count", 11}}, json{{"count", 0}},
          json{{"count", std::uint64_t{1} << 63}}, json{{"count", std::int64_t{4'294'967'299}}}}) {
        auto got = field(bad, 3, 1, 10);
        CHECK_FALSE(got.ok());
        CHECK(got.refusal.code == "bad_request");
        CHECK(got.refusal.field == "count");
    }
    auto missing = field(json::object(), std::nullopt, 0, 5);
    CHECK(missing.refusal.message == "\"hint\" needs an integer \"count\"");
    CHECK(field({{"count", 11}}, 3, 1, 10).refusal.message == "\"count\" must be 1 to 10");
}

TEST_CASE("chips in JSON: a plain integer both ways, in json and ordered_json") {
    for (std::int64_t n : {std::int64_t{-5}, std::int64_t{0}, std::int64_t{4'000'000'000'000}}) {
        const nlohmann::json j = felt::Chips(n);
        CHECK(j.is_number_integer());
        CHECK(j.get<std::int64_t>() == n);
        CHECK(j.get<felt::Chips>() == felt::Chips(n));
        const nlohmann::ordered_json o = {{"stack", felt::Chips(n)}};
        CHECK(o.dump() == "{\"stack\":" + std::to_string(n) + "}");
    }
    CHECK_THROWS(nlohmann::json("40").get<felt::Chips>());
    // Floats, even whole ones, and integers past 64 signed bits are refused, never converted.
    for (const char* text : {"1.5", "40.0", "1e30", "9223372036854775808", "-1e300"}) {
        CAPTURE(text);
        CHECK_THROWS_AS(nlohmann::json::parse(text).get<felt::Chips>(), nlohmann::json::exception);
        CHECK_THROWS_AS(nlohmann::ordered_json::parse(text).get<felt::Chips>(),
                        nlohmann::ordered_json::exception);
    }
    CHECK(nlohmann::json::parse("9223372036854775807").get<felt::Chips>() ==
          felt::Chips(std::numeric_limits<std::int64_t>::max()));
}

TEST_CASE("poker update: each recipient sees its own cards, the seat to act its choices") {
    auto ranking = felt::make_ranking("standard").value();
    const felt::Deck pack = felt::Deck::standard();
    auto cards = [&](const char* text) { return pack.parse_cards(text).value(); };
    std::vector<felt::poker::Event> batch(3);
    batch[0].type = felt::poker::EventType::deal_down;
    batch[0].seat = 1;
    batch[0].visibility = felt::poker::Visibility::owner;
    batch[0].count = 2;
    std::ranges::copy(cards("As Kd"), batch[0].cards.begin());
    batch[1].type = felt::poker::EventType::deal_down;
    batch[1].seat = 2;
    batch[1].visibility = felt::poker::Visibility::owner;
    batch[1].count = 2;
    std::ranges::copy(cards("7c 7d"), batch[1].cards.begin());
    batch[2].type = felt::poker::EventType::deal_board;
    batch[2].count = 1;
    std::ranges::copy(cards("2h"), batch[2].cards.begin());
    felt::poker::Legal turn;
    turn.seat = 0;
    turn.fold = true;
    turn.call_amount = felt::Chips(2);
    for (int seat = -1; seat < 4; ++seat) {
        CAPTURE(seat);
        const json m = felt::protocol::update_json(batch, &turn, *ranking, seat);
        CHECK(m["kind"] == "update");
        CHECK(m["events"][0].contains("cards") == (seat == 1));
        CHECK(m["events"][1].contains("cards") == (seat == 2));
        CHECK(m["events"][2]["cards"] == "2h"); // the board is everyone's
        CHECK(m["events"][0]["count"] == 2);
        CHECK(m["turn"]["seat"] == 0);
        CHECK(m["turn"].contains("legal") == (seat == 0));
        // A recipient gets a part of its own exactly when its view differs from a spectator's,
        // and that part merged into the spectator's view is its view.
        const json spectator = felt::protocol::update_json(batch, &turn, *ranking, -1);
        const json own = felt::protocol::own_update(batch, &turn, *ranking, seat);
        CHECK(own.is_null() == (m == spectator));
        if (!own.is_null())
            CHECK(felt::protocol::dump_over(own, felt::protocol::dump_members(spectator)) ==
                  m.dump());
    }
    CHECK_FALSE(felt::protocol::update_json(batch, nullptr, *ranking, 0).contains("turn"));
}

TEST_CASE("leap public state: engine players are told by their table seats") {
    auto made = leap::Table::make(leap::Rules{}, 2);
    REQUIRE(made.ok());
    std::vector<Card> deck = made.value()->deck().cards();
    std::mt19937_64 rng(7);
    std::shuffle(deck.begin(), deck.end(), rng);
    auto started = leap::start_game(made.value(), 0, deck);
    REQUIRE(started.ok());
    const leap::State& st = started.value().state;
    // Engine player 0 sits in table seat 2, player 1 in seat 0; seat 1 is empty.
    const std::vector<int> players = {2, 0};
    const json pub = felt::protocol::leap_public_json(st, players, 3);
    CHECK(pub["hand_sizes"][2] == st.players[0].hand.size());
    CHECK(pub["hand_sizes"][0] == st.players[1].hand.size());
    CHECK(pub["hand_sizes"][1].is_null());
    CHECK(pub["scores"][1].is_null());
    CHECK(pub["seat"] == players[static_cast<std::size_t>(st.to_act)]);
    const json view = felt::protocol::leap_game_view_json(st, players, 3, 1, 9, 2, "c", 100, 1);
    CHECK(view["your_hand"] == made.value()->deck().to_string(st.players[1].hand));
    CHECK(view["players"] == json(players));
    CHECK_FALSE(felt::protocol::leap_game_view_json(st, players, 3, 1, 9, 2, "c", 100, -1)
                    .contains("your_hand"));
}

TEST_CASE("dump_over and dump_object write what json::dump() writes, for one object merged into "
          "another and for one object") {
    std::mt19937 rng(23);
    // Keys that sort in every order and need escaping, values of every kind.
    const std::vector<std::string> keys = {"a",    "b",      "fairness", "kind",      "turn",
                                           "type", "Z",      "a\"q",     "é",         "\n",
                                           "",     "events", "a1",       "a\\b\u0001"};
    auto value = [&](auto& self, int depth) -> json {
        switch (rng() % (depth > 2 ? 6 : 8)) {
        case 0:
            return nullptr;
        case 1:
            return rng() % 2 == 0;
        case 2:
            return static_cast<std::int64_t>(rng()) - (1 << 30);
        case 3:
            return 0.5 * static_cast<double>(rng() % 1000);
        case 4:
            return "s\"" + std::to_string(rng() % 100) + "\t\u00e9";
        case 5:
            return std::string();
        case 6: {
            json a = json::array();
            for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
                a.push_back(self(self, depth + 1));
            return a;
        }
        default: {
            json o = json::object();
            for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
                o[keys[rng() % keys.size()]] = self(self, depth + 1);
            return o;
        }
        }
    };
    auto object = [&] {
        json o = json::object();
        for (const std::string& k : keys)
            if (rng() % 3 == 0) // half of them objects, to be merged where both have one
                o[k] = rng() % 2 == 0 ? value(value, 0)
                                      : json{{keys[rng() % keys.size()], value(value, 1)},
                                             {keys[rng() % keys.size()], value(value, 1)}};
        return o;
    };
    // The slow reference: own's members over base's, objects under one key merged the same way.
    auto merge = [](auto& self, const json& base, const json& own) -> json {
        json out = base;
        for (const auto& [k, v] : own.items())
            out[k] =
                out.contains(k) && out[k].is_object() && v.is_object() ? self(self, out[k], v) : v;
        return out;
    };
    int deep = 0; // pairs with an object under one key in both
    for (int n = 0; n < 5000; ++n) {
        const json base = object(), own = object();
        const json merged = merge(merge, base, own);
        for (const auto& [k, v] : own.items())
            deep += v.is_object() && base.contains(k) && base[k].is_object();
        const auto members = protocol::dump_members(base);
        REQUIRE(members.size() == base.size());
        CHECK(protocol::dump_over(own, members) == merged.dump());
        CHECK(protocol::dump_object(members) == base.dump());
    }
    CHECK(deep > 1000);
    CHECK(protocol::dump_over(json::object(), {}) == "{}");
    const json base = {{"b", 1}, {"d", 2}};
    CHECK(protocol::dump_over({{"a", 0}, {"d", "own"}, {"e", 3}}, protocol::dump_members(base)) ==
          R"({"a":0,"b":1,"d":"own","e":3})");
    // An object under one key in both is merged, not replaced; any other value replaces.
    const json nested = {{"turn", {{"seat", 2}, {"deadline_ms", 900}}}, {"x", {{"k", 1}}}};
    CHECK(protocol::dump_over({{"turn", {{"legal", {{"fold", true}}}}}, {"x", 5}},
                              protocol::dump_members(nested)) ==
          R"({"turn":{"deadline_ms":900,"legal":{"fold":true},"seat":2},"x":5})");
}

TEST_CASE("ObjectText writes what json::dump() writes: strings with every kind of character, and "
          "numbers") {
    std::mt19937 rng(7);
    for (int n = 0; n < 2000; ++n) {
        // Every byte below 0x80, and some UTF-8 (é, ♠, 東), in random strings.
        std::string text;
        for (int i = 0, len = static_cast<int>(rng() % 12); i < len; ++i) {
            const unsigned pick = rng() % 140;
            if (pick < 128)
                text += static_cast<char>(pick);
            else
                text += pick % 3 == 0 ? "\u00e9" : pick % 3 == 1 ? "\u2660" : "\u6771";
        }
        const auto number = static_cast<std::int64_t>(rng()) * (rng() % 2 ? -1 : 1) << (rng() % 31);
        const std::string key = "k" + text;
        json expected = {{"a", number}, {key, text}};
        protocol::ObjectText o;
        o.member("a", number).member(key, text);
        CHECK(std::move(o).done() == expected.dump());
    }
    CHECK(protocol::ObjectText().done() == "{}");
}

TEST_CASE("poker records: each event's and action's text is what json::dump() writes for it") {
    auto ranking = felt::make_ranking("standard").value();
    const std::vector<Card> pack = ranking->cards();
    std::mt19937 rng(11);
    auto chips = [&] {
        return rng() % 3 == 0 ? felt::Chips(0)
                              : felt::Chips(static_cast<std::int64_t>(rng() % 1000000) *
                                            (rng() % 5 == 0 ? 1000000 : 1));
    };
    auto cards = [&](std::size_t n) {
        std::vector<Card> out;
        for (std::size_t i = 0; i < n; ++i) out.push_back(pack[rng() % pack.size()]);
        return out;
    };
    const char* visibility[] = {"everyone", "owner", "nobody"};
    for (int n = 0; n < 20000; ++n) {
        felt::poker::Event e;
        e.type = static_cast<felt::poker::EventType>(
            rng() % (static_cast<unsigned>(felt::poker::EventType::hand_end) + 1));
        e.seat = static_cast<std::int8_t>(static_cast<int>(rng() % 11) - 1);
        e.visibility = static_cast<felt::poker::Visibility>(rng() % 3);
        e.count = static_cast<std::uint8_t>(rng() % 2 ? 0 : rng() % 10);
        std::ranges::copy(cards(e.count), e.cards.begin());
        e.pot = static_cast<std::int8_t>(static_cast<int>(rng() % 7) - 1);
        e.amount = chips();
        e.number = static_cast<std::int16_t>(rng() % 2 ? 0 : rng() % 60);
        // The slow reference: the json tree the update uses, with the visibility added.
        json full = felt::protocol::event_json(e, *ranking, true);
        full["visibility"] = visibility[static_cast<int>(e.visibility)];
        CHECK(felt::protocol::event_record(e, *ranking) == full.dump());

        felt::poker::Action a;
        a.type = static_cast<felt::poker::ActionType>(
            rng() % (static_cast<unsigned>(felt::poker::ActionType::rollover) + 1));
        a.seat = static_cast<int>(rng() % 10);
        a.amount = chips();
        a.cards = cards(rng() % 2 ? 0 : rng() % 6);
        const char* by = rng() % 2 ? "player" : "server";
        json j = {
            {"kind", "action"},
            {"seat", a.seat},
            {"action", felt::protocol::action_name(a.type)},
            {"by", by},
            {"visibility", a.type == felt::poker::ActionType::discard ? "owner" : "everyone"}};
        if (a.amount) j["amount"] = a.amount;
        if (!a.cards.empty()) j["cards"] = ranking->to_string(a.cards);
        CHECK(felt::protocol::action_record(a, *ranking, by) == j.dump());
    }
}

TEST_CASE("poker update as text: everyone's copy and each seat's are what json::dump() writes for "
          "the update's tree with the seat's own part merged in") {
    namespace poker = felt::poker;
    auto ranking = felt::make_ranking("standard").value();
    std::vector<Card> pack = ranking->cards();
    auto config = std::make_shared<poker::HandConfig>(
        poker::named_config("holdem", "no-limit", "standard", "none", 6).value());
    std::mt19937 rng(29);
    int merged = 0, showdowns = 0;
    for (int n = 0; n < 5000; ++n) {
        std::ranges::shuffle(pack, rng);
        std::size_t next = 0; // cards are dealt from the shuffled pack, each once
        poker::HandState s;
        s.config = config;
        s.phase = rng() % 3 == 0 ? poker::Phase::done : poker::Phase::betting;
        s.board_count = static_cast<int>(rng() % 6);
        for (int i = 0; i < s.board_count; ++i) s.board[static_cast<std::size_t>(i)] = pack[next++];
        std::vector<poker::Event> batch(rng() % 8);
        for (poker::Event& e : batch) {
            e.type = static_cast<poker::EventType>(
                rng() % (static_cast<unsigned>(poker::EventType::hand_end) + 1));
            if (rng() % 4 == 0) e.type = poker::EventType::show;
            e.seat = static_cast<std::int8_t>(static_cast<int>(rng() % 7) - 1);
            e.visibility = static_cast<poker::Visibility>(rng() % 3);
            e.count = static_cast<std::uint8_t>(rng() % 2 ? 0 : 1 + rng() % 4);
            for (int i = 0; i < e.count; ++i) e.cards[static_cast<std::size_t>(i)] = pack[next++];
            e.pot = static_cast<std::int8_t>(static_cast<int>(rng() % 4) - 1);
            e.amount = rng() % 3 == 0 ? felt::Chips(0)
                                      : felt::Chips(static_cast<std::int64_t>(rng() % 100000));
            e.number = static_cast<std::int16_t>(rng() % 2 ? 0 : rng() % 60);
        }
        std::optional<poker::Legal> turn;
        if (rng() % 3) {
            poker::Legal& l = turn.emplace();
            l.seat = static_cast<int>(rng() % 6);
            l.phase = static_cast<poker::Phase>(rng() % 3);
            l.fold = rng() % 2, l.check = rng() % 2, l.call = rng() % 2, l.bet = rng() % 2;
            l.raise = rng() % 2, l.bring_in = rng() % 2, l.two_sizes = rng() % 2;
            l.call_amount = felt::Chips(rng() % 500);
            l.min_to = felt::Chips(rng() % 500), l.max_to = felt::Chips(rng() % 5000);
            l.bring_in_amount = felt::Chips(rng() % 5);
            l.min_discard = static_cast<int>(rng() % 2),
            l.max_discard = static_cast<int>(rng() % 4);
            l.rollover = static_cast<int>(rng() % 2);
        }
        std::optional<json> pots;
        if (rng() % 4 == 0)
            pots = json::array({{{"amount", rng() % 900}, {"eligible", {0, 2, 3}}}});
        const protocol::Stamp stamp{
            static_cast<std::int64_t>(rng() % 100000), static_cast<std::int64_t>(rng() % 100000),
            static_cast<std::int64_t>(rng() % 30000), static_cast<std::int64_t>(rng() % 60000)};
        const poker::Legal* t = turn ? &*turn : nullptr;

        // The slow reference: the tree PokerHand::update built and Table::publish wrote.
        json m = protocol::update_json(batch, t, *ranking, -1);
        if (pots) m["pots"] = *pots;
        std::vector<json> own(6);
        for (int seat = 0; seat < 6; ++seat)
            own[static_cast<std::size_t>(seat)] = protocol::own_update(batch, t, *ranking, seat);
        if (s.phase == poker::Phase::done) {
            protocol::add_show_categories(m, batch, s, *ranking);
            for (json& o : own)
                if (o.contains("events")) protocol::add_show_categories(o, batch, s, *ranking);
            showdowns += m.dump().find("category") != std::string::npos;
        }
        m["type"] = "table";
        m["table"] = stamp.table;
        m["seq"] = stamp.seq;
        if (t) {
            m["turn"]["deadline_ms"] = stamp.deadline_ms;
            m["turn"]["time_bank_ms"] = stamp.time_bank_ms;
        }
        const auto members = protocol::dump_members(m);

        protocol::UpdateText text(batch, t, *ranking, s, pots);
        text.stamp(stamp); // as Table::publish writes it, through protocol::Told
        CHECK(text.write(stamp, -1) == m.dump());
        for (int seat = 0; seat < 6; ++seat) {
            CAPTURE(seat);
            const json& o = own[static_cast<std::size_t>(seat)];
            CHECK(text.own(seat) == !o.is_null());
            const std::string expected = o.is_null() ? m.dump() : protocol::dump_over(o, members);
            CHECK(text.write(stamp, seat) == expected);
            if (seat % 3 == 0) CHECK(text.write(seat) == expected);
            merged += !o.is_null();
        }
    }
    // The cases that matter were met: seats with parts of their own, and hands shown.
    CHECK(merged > 5000);
    CHECK(showdowns > 300);
}

TEST_CASE("told: a JSON message is stamped, its clock goes where it says, and a seat's part merges "
          "into its copy alone") {
    protocol::JsonTold t(json{{"kind", "turn"}, {"turn", {{"seat", 1}}}},
                         json::json_pointer("/turn"));
    t.with_own(1, json{{"turn", {{"legal", {{"fold", true}}}}}, {"cards", "Ah Kd"}});
    t.stamp({7, 42, 1500, 9000});
    const json everyone = json::parse(t.write(-1));
    CHECK(everyone == json{{"type", "table"},
                           {"table", 7},
                           {"seq", 42},
                           {"kind", "turn"},
                           {"turn", {{"seat", 1}, {"deadline_ms", 1500}, {"time_bank_ms", 9000}}}});
    CHECK_FALSE(t.own(-1));
    CHECK_FALSE(t.own(0));
    CHECK(t.own(1));
    CHECK(t.write(0) == t.write(-1));
    json mine = everyone;
    mine["turn"]["legal"] = {{"fold", true}};
    mine["cards"] = "Ah Kd";
    CHECK(t.write(1) == mine.dump());
}

TEST_CASE("requests: a key twice in one object, at any depth, is refused with the key named") {
    auto refusal = [](std::string_view text) -> protocol::Refusal {
        auto parsed = protocol::parse_request(text);
        if (auto* r = std::get_if<protocol::Refusal>(&parsed)) return *r;
        return {};
    };
    const auto top = refusal(R"({"type":"ping","id":1,"type":"guest"})");
    CHECK(top.code == "bad_request");
    CHECK(top.field == "type");
    CHECK(top.message.find("\"type\" appears twice") != std::string::npos);
    const auto deep = refusal(
        R"({"type":"create_table","id":2,"config":{"seats":2,"blinds":{"small":1,"small":50}}})");
    CHECK(deep.code == "bad_request");
    CHECK(deep.field == "small");
    // The same key in two objects, or in objects in an array, is no repeat.
    CHECK(refusal(R"({"type":"x","id":3,"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]})").code ==
          "");
    CHECK(refusal(R"({"type":"x","id":4,"a":{"id":1,"type":2}})").code == "");
    CHECK(refusal(R"({"type":"x","id":5,"id":5})").field == "id");
}
