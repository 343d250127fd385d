// Fairness (protocol/fairness.h): the leaves and the commitment against values computed outside
// Felt with coreutils (the worked example of docs/protocol.md), and what a reveal opens to whom.
#include "protocol/fairness.h"
#include "protocol/messages.h"
#include "protocol/table_messages.h"

#include <doctest/doctest.h>

#include <set>
#include <vector>

using felt::protocol::json;
using felt::protocol::Sealed;
using felt::protocol::Sight;

namespace {

// The worked example's deal: three cards and a seed, with salts a reader can type.
Sealed example(bool with_seed) {
    Sealed s;
    s.cards = {"As", "Kd", "Xx"};
    s.salts = {"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f",
               "202122232425262728292a2b2c2d2e2f"};
    if (with_seed) {
        s.seed = "42";
        s.seed_salt = "303132333435363738393a3b3c3d3e3f";
    }
    return s;
}

std::set<std::size_t> positions(const json& openings) {
    std::set<std::size_t> out;
    for (const json& o : openings) out.insert(o["position"].get<std::size_t>());
    return out;
}

} // namespace

TEST_CASE("fairness: leaves and commitment match sha256sum's") {
    // printf '\x00\x01...\x0fAs' | sha256sum, and so on (docs/protocol.md, "Fairness").
    const Sealed s = example(false);
    CHECK(s.leaves() == std::vector<std::string>{
                            "f988a2eaef90de7a80945e6b5b76cf33e107f4554ac9580e3396c5185363affc",
                            "c930d8546bc41a24d634bc415eafe38d9ee7f9bf6c21620eefff998d8b72619b",
                            "368f3194cd2cadfdcb893f0db389feba6fe1e3fc7d787c43641cbdc0a987d74f"});
    CHECK(s.seed_leaf().empty());
    CHECK(s.commitment() == "ba5430203d1c08cd7b7a476934c38796fd22f248fa856fab792d75bd7023244c");
    const Sealed t = example(true);
    CHECK(t.seed_leaf() == "3da86729affdbbda96c2c1c9aab47e1c4ff25cab83da0dd6b5913fd1a12620a2");
    CHECK(t.commitment() == "941bb89bda490411d29f5e2c1b05a75c920b392bdc61759f6d08ffa21756e838");
}

TEST_CASE("fairness: a fresh seal salts every position apart") {
    const Sealed a = Sealed::seal("As Kd Qh", "7");
    const Sealed b = Sealed::seal("As Kd Qh", "7");
    REQUIRE(a.cards == std::vector<std::string>{"As", "Kd", "Qh"});
    REQUIRE(a.salts.size() == 3);
    std::set<std::string> salts(a.salts.begin(), a.salts.end());
    salts.insert(a.seed_salt);
    CHECK(salts.size() == 4);
    for (const std::string& salt : salts) CHECK(salt.size() == 32);
    CHECK(a.commitment() != b.commitment()); // the same deck, committed to twice
    CHECK(Sealed::seal("As Kd", "").seed_salt.empty());
}

TEST_CASE("fairness: the reveal opens each position to those who saw it, and no more") {
    const Sealed s = example(true);
    std::vector<Sight> seen(2); // position 2 was seen by nobody
    seen[0].everyone = true;
    seen[1].show(3);
    const json spectator = felt::protocol::reveal_json(s, seen, false, -1);
    CHECK(spectator["leaves"] == s.leaves());
    CHECK(spectator["seed_leaf"] == s.seed_leaf());
    CHECK(positions(spectator["shown"]) == std::set<std::size_t>{0});
    CHECK(spectator["shown"][0] ==
          json{{"position", 0}, {"card", "As"}, {"salt", "000102030405060708090a0b0c0d0e0f"}});
    CHECK_FALSE(spectator.contains("yours"));
    CHECK_FALSE(spectator.contains("seed")); // not used
    const json three = felt::protocol::reveal_json(s, seen, true, 3);
    CHECK(positions(three["yours"]) == std::set<std::size_t>{1});
    CHECK(three["seed"] == json{{"value", "42"}, {"salt", s.seed_salt}});
    const json other = felt::protocol::reveal_json(s, seen, true, 2);
    CHECK(other["yours"].empty());
    CHECK(other["shown"] == three["shown"]);
    // A table hashes the leaves once for every viewer: the same reveal.
    const std::vector<std::string> leaves = s.leaves();
    CHECK(felt::protocol::reveal_json(s, leaves, seen, true, 3) == three);
    CHECK(felt::protocol::reveal_json(s, leaves, seen, false, -1) == spectator);
    // A seat's copy of a hand's end: its own part merged into everyone's reveal is its reveal.
    json end = {{"kind", "hand_end"}};
    felt::protocol::add_reveal(end, std::vector<felt::Chips>{felt::Chips(5), felt::Chips(7)}, s,
                               leaves, seen, true);
    const auto everyone = felt::protocol::dump_members(end);
    for (int seat = 0; seat < 5; ++seat) {
        CAPTURE(seat);
        json seats = end;
        seats["fairness"] = felt::protocol::reveal_json(s, leaves, seen, true, seat);
        CHECK(felt::protocol::dump_over(felt::protocol::own_reveal(s, seen, seat), everyone) ==
              seats.dump());
    }
}

TEST_CASE("fairness: what is stored reads back, and a damaged record is refused") {
    const Sealed s = example(true);
    std::vector<Sight> seen(3);
    seen[0].everyone = true;
    seen[2].show(0);
    seen[2].show(5);
    const std::string record = felt::protocol::opened_record(s, seen, true);
    const auto back = felt::protocol::read_opened("As Kd Xx", "42", record);
    REQUIRE(back);
    CHECK(back->sealed.commitment() == s.commitment());
    CHECK(back->seed_used);
    CHECK(felt::protocol::reveal_json(back->sealed, back->seen, true, 5) ==
          felt::protocol::reveal_json(s, seen, true, 5));
    CHECK_FALSE(felt::protocol::read_opened("As Kd", "42", record));    // a card short
    CHECK_FALSE(felt::protocol::read_opened("As Kd Xx", "42", "{"));    // not JSON
    CHECK_FALSE(felt::protocol::read_opened("As Kd Xx", "42", "null")); // not an object
    json bad = json::parse(record);
    bad["salts"][1] = "0011";
    CHECK_FALSE(felt::protocol::read_opened("As Kd Xx", "42", bad.dump())); // a short salt
    bad = json::parse(record);
    bad["seen"] = "everyone";
    CHECK_FALSE(felt::protocol::read_opened("As Kd Xx", "42", bad.dump()));
}
