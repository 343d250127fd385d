#include "cards/deck.h"

#include <doctest/doctest.h>

using namespace felt;

namespace {

std::string roundtrip(const Deck& d, std::string_view text) {
    auto r = d.parse_cards(text);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    return d.to_string(r.value());
}

} // namespace

TEST_CASE("card notation of the standard pack") {
    const Deck d = Deck::standard();
    CHECK(d.size() == 52);
    CHECK(d.cards().size() == 52);

    SUBCASE("separators: spaces, commas, written together") {
        CHECK(roundtrip(d, "As Kd") == "As Kd");
        CHECK(roundtrip(d, "As,Kd") == "As Kd");
        CHECK(roundtrip(d, "AsKd") == "As Kd");
        CHECK(roundtrip(d, " As , Kd,Qh  Jc ") == "As Kd Qh Jc");
    }
    SUBCASE("case-insensitive input, canonical output, 10 for T") {
        CHECK(roundtrip(d, "aS kD tc") == "As Kd Tc");
        CHECK(roundtrip(d, "10h 10S") == "Th Ts");
        CHECK(roundtrip(d, "10h9d") == "Th 9d");
    }
    SUBCASE("card encoding: rank << 3 | suit") {
        auto c = d.parse_card("Ah");
        REQUIRE(c.ok());
        CHECK(c->rank() == rank::ace);
        CHECK(c->suit() == suit::hearts);
        CHECK(c->code() == (12 << 3 | 1));
    }
    SUBCASE("a bad token is named") {
        auto r = d.parse_cards("As Zz Kd");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::bad_card);
        CHECK(r.error().message.find("Zz") != std::string::npos);
        CHECK_FALSE(d.parse_cards("A").ok());
        CHECK_FALSE(d.parse_cards("Ax").ok());
        CHECK_FALSE(d.parse_cards("1s").ok());
        CHECK_FALSE(d.parse_card("As Kd").ok());
    }
    SUBCASE("a duplicate in a one-copy deck is named") {
        auto r = d.parse_cards("As Kd as");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::duplicate_card);
        CHECK(r.error().message.find("As") != std::string::npos);
    }
    SUBCASE("no jokers in a pack without them") {
        auto r = d.parse_cards("Xx As");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::bad_card);
    }
}

TEST_CASE("jokers are numbered and limited to the deck's count") {
    const Deck d = Deck::standard(2);
    auto r = d.parse_cards("xx As XX");
    REQUIRE(r.ok());
    CHECK(r->at(0) == Card::joker(0));
    CHECK(r->at(2) == Card::joker(1));
    CHECK(d.to_string(r.value()) == "Xx As Xx");
    auto three = d.parse_cards("Xx Xx Xx");
    REQUIRE_FALSE(three.ok());
    CHECK(three.error().code == Errc::duplicate_card);
}

TEST_CASE("decks as data: stripped packs, several copies, custom labels") {
    SUBCASE("a stripped 8-rank pack") {
        auto d = Deck::make({"7", "8", "9", "T", "J", "Q", "K", "A"});
        REQUIRE(d.ok());
        CHECK(d->size() == 32);
        CHECK(roundtrip(*d, "7s Ah") == "7s Ah");
        CHECK_FALSE(d->parse_cards("6s").ok());
    }
    SUBCASE("two packs: a card may appear twice, not three times") {
        auto d = Deck::make({"2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"},
                            "shdc", 2);
        REQUIRE(d.ok());
        CHECK(d->size() == 104);
        CHECK(roundtrip(*d, "As As") == "As As");
        auto r = d->parse_cards("As As As");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::duplicate_card);
    }
    SUBCASE("17 ranks labelled 0..16: the longest label wins") {
        std::vector<std::string> labels;
        for (int i = 0; i <= 16; ++i) labels.push_back(std::to_string(i));
        auto d = Deck::make(labels);
        REQUIRE(d.ok());
        auto r = d->parse_cards("16s 1h 10d 0c");
        REQUIRE(r.ok());
        CHECK(r->at(0).rank() == Rank(16));
        CHECK(r->at(1).rank() == Rank(1));
        CHECK(r->at(2).rank() == Rank(10));
        CHECK(d->to_string(r.value()) == "16s 1h 10d 0c");
    }
    SUBCASE("impossible decks are refused") {
        CHECK_FALSE(Deck::make({}).ok());
        CHECK_FALSE(Deck::make({"A", "a"}).ok());
        CHECK_FALSE(Deck::make({"A"}, "").ok());
        CHECK_FALSE(Deck::make({"A"}, "ss").ok());
        CHECK_FALSE(Deck::make({"A"}, "sx").ok());
        CHECK_FALSE(Deck::make({"A"}, "s", 0).ok());
        CHECK_FALSE(Deck::make({"A"}, "s", 1, 9).ok());
        CHECK(Deck::make({"A"}, "s", 1, 9).error().code == Errc::bad_deck);
    }
}
