// The best draw (engine/poker/draw_advice.*): the psychic exercise's published sample, properties
// over random deals, published category counts, and the exact count of every hand once.
#include "poker/draw_advice.h"
#include "rankings/ranking.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

using namespace felt;
using namespace felt::poker;

namespace {

std::unique_ptr<const Ranking> ranking(const char* name, Wild wild = Wild::none) {
    RankingOptions o;
    o.wild = wild;
    return make_ranking(name, o).value();
}

std::vector<Card> cards(const Ranking& r, const char* text) {
    return r.parse_cards(text).value();
}

double choose(int n, int k) {
    double out = 1;
    for (int i = 1; i <= k; ++i) out = out * (n - k + i) / i;
    return out;
}

} // namespace

TEST_CASE("best exchange: the Psychic Poker Player's sample (UVa 131), one hand of each value") {
    // Hand, the top five cards of the deck, the best value the published sample output gives.
    struct Case {
        const char *hand, *deck, *category;
    };
    const auto r = ranking("standard");
    for (const Case& c : {Case{"TH JH QC QD QS", "QH KH AH 2S 6S", "straight_flush"},
                          Case{"2H 2S 3H 3S 3C", "2D 3D 6C 9C TH", "four_of_a_kind"},
                          Case{"2H 2S 3H 3S 3C", "2D 9C 3D 6C TH", "full_house"},
                          Case{"2H AD 5H AC 7H", "AH 6H 9H 4H 3C", "flush"},
                          Case{"AC 2D 9C 3S KD", "5S 4D KS AS 4C", "straight"},
                          Case{"KS AH 2H 3C 4H", "KC 2C TC 2D AS", "three_of_a_kind"},
                          Case{"AH 2C 9S AD 3C", "QH KS JS JD KD", "two_pair"},
                          Case{"6C 9C 8C 2D 7C", "2H TC 4C 9S AH", "one_pair"},
                          Case{"3D 5S 2H QD TD", "6S KH 9H AD QH", "high_card"}}) {
        CAPTURE(c.hand);
        auto x = best_exchange(*r, cards(*r, c.hand), cards(*r, c.deck));
        REQUIRE(x.ok());
        CHECK(x->judgement.category == c.category);
    }
    // The royal flush of the first: throw the three queens, draw Qh Kh Ah.
    auto x = best_exchange(*r, cards(*r, "Th Jh Qc Qd Qs"), cards(*r, "Qh Kh Ah 2s 6s"));
    CHECK(x->thrown == 0b11100);
    CHECK(r->to_string(x->hand) == "Th Jh Qh Kh Ah");
    // No more than the table lets one throw: two cards cannot make it.
    x = best_exchange(*r, cards(*r, "Th Jh Qc Qd Qs"), cards(*r, "Qh Kh Ah 2s 6s"), 2);
    CHECK(r->to_string(x->hand) == "Qc Qd Qs Qh Kh"); // four queens, the king beside them
    CHECK(x->count == 2);
    // A tie goes to fewer cards: the straight kept beats a pair, and ties the nine for a nine.
    x = best_exchange(*r, cards(*r, "5c 6d 7h 8s 9c"), cards(*r, "9d 8c 8d 2h 2s"), 1);
    CHECK(x->judgement.category == "straight");
    CHECK(x->count == 0);
    // Bad input names the problem.
    CHECK(best_exchange(*r, cards(*r, "2c 3d 4h 5s"), cards(*r, "9d 8c 8d 2h 2s")).error().code ==
          Errc::wrong_count);
    CHECK(best_exchange(*r, cards(*r, "2c 3d 4h 5s 9c"), cards(*r, "9c 8c 8d 2h 2s"))
              .error()
              .message == "9c is given more often than the deck holds it");
    CHECK(best_exchange(*r, cards(*r, "2c 3d 4h 5s 9c"), cards(*r, "9d 8c")).error().code ==
          Errc::wrong_count);
    CHECK(best_exchange(*r, cards(*r, "2c 3d 4h 5s 9c"), cards(*r, "9d 8c 8d 2h 2s"), 6)
              .error()
              .code == Errc::bad_option);
}

#ifdef FELT_SANITIZE
constexpr int kDeals = 200; // sanitizers are slow
#else
constexpr int kDeals = 2000;
#endif

TEST_CASE("best exchange over random deals: nothing beats it, and nothing as good throws fewer") {
    std::mt19937_64 rng(19);
    for (auto [name, wild] :
         {std::pair{"standard", Wild::none}, std::pair{"standard", Wild::joker},
          std::pair{"standard", Wild::deuces}, std::pair{"vertical", Wild::none}}) {
        CAPTURE(name);
        CAPTURE(wild_name(wild));
        const auto r = ranking(name, wild);
        std::vector<Card> deck = r->cards();
        for (int deal = 0; deal < kDeals; ++deal) {
            std::shuffle(deck.begin(), deck.end(), rng);
            const std::span<const Card> hand(deck.data(), 5), next(deck.data() + 5, 5);
            const int max = deal % 6;
            auto x = best_exchange(*r, hand, next, max);
            REQUIRE(x.ok());
            CHECK(x->count <= max);
            for (unsigned m = 0; m < 32; ++m) {
                const int k = std::popcount(m);
                if (k > max) continue;
                std::vector<Card> h;
                for (int i = 0; i < 5; ++i)
                    if (!(m >> i & 1)) h.push_back(hand[static_cast<std::size_t>(i)]);
                for (int i = 0; i < k; ++i) h.push_back(next[static_cast<std::size_t>(i)]);
                const Strength s = r->judge(h)->strength;
                CHECK(s <= x->judgement.strength);
                if (s == x->judgement.strength) CHECK(k >= x->count);
            }
        }
    }
}

TEST_CASE("hand share: published counts of five-card hands by category") {
    const auto r = ranking("standard");
    const double all = 2 * 2'598'960.0;
    // The worst hand, 7-5-4-3-2 of more than one suit: 4^5 - 4 hands, none below.
    CHECK(hand_share(*r, cards(*r, "7c 5d 4h 3s 2c")) ==
          doctest::Approx(1020 / all).epsilon(1e-12));
    // A royal flush ties three others and beats the rest.
    CHECK(hand_share(*r, cards(*r, "As Ks Qs Js Ts")) ==
          doctest::Approx((2 * 2'598'956.0 + 4) / all).epsilon(1e-12));
    // The worst flush beats every high card, pair, two pair, three of a kind and straight.
    const double below = 1'302'540.0 + 1'098'240 + 123'552 + 54'912 + 10'200;
    CHECK(hand_share(*r, cards(*r, "7s 5s 4s 3s 2s")) ==
          doctest::Approx((2 * below + 4) / all).epsilon(1e-12));
}

TEST_CASE("draw hint: exact counts, every five-card hand once, and a slow reference") {
    // Under the sanitizers only the standard ranking's fast path: the others take seconds there.
    std::vector<std::pair<const char*, Wild>> rankings = {{"standard", Wild::none}};
#ifndef FELT_SANITIZE
    rankings.push_back({"standard", Wild::joker});
    rankings.push_back({"standard", Wild::deuces});
    rankings.push_back({"standard", Wild::bug});
    rankings.push_back({"vertical", Wild::none});
#endif
    for (auto [name, wild] : rankings) {
        CAPTURE(name);
        const auto r = ranking(name, wild);
        const int n = static_cast<int>(r->cards().size());
        const auto hand = cards(*r, "7c 7d Ks 9h 3c");
        auto hint = draw_hint(*r, hand);
        REQUIRE(hint.ok());
        REQUIRE(hint->size() == 32);
        // Each five-card hand of the deck is one exchange's final hand, exactly once: the
        // shares of all of them add up to half the number of hands.
        double total = 0;
        std::uint64_t draws = 0;
        for (const DrawOption& o : *hint) {
            CHECK(o.draws == static_cast<std::uint64_t>(choose(n - 5, o.count)));
            total += o.expected * static_cast<double>(o.draws);
            draws += o.draws;
        }
        CHECK(static_cast<double>(draws) == choose(n, 5));
        CHECK(total == doctest::Approx(choose(n, 5) / 2).epsilon(1e-9));
        // Best first; a tie goes to fewer cards thrown.
        for (std::size_t i = 1; i < hint->size(); ++i) {
            CHECK((*hint)[i - 1].expected >= (*hint)[i].expected - 1e-12);
            if ((*hint)[i - 1].expected == (*hint)[i].expected)
                CHECK((*hint)[i - 1].count <= (*hint)[i].count);
        }
        // A slow reference for throwing at most one card: each final hand's share, one by one.
        auto one = draw_hint(*r, hand, 1);
        REQUIRE(one.ok());
        REQUIRE(one->size() == 6);
        std::vector<Card> unseen = r->cards();
        for (Card c : hand) unseen.erase(std::find(unseen.begin(), unseen.end(), c));
        for (const DrawOption& o : *one) {
            double sum = 0;
            if (o.count == 0) {
                sum = hand_share(*r, hand);
            } else {
                for (Card drawn : unseen) {
                    std::vector<Card> h;
                    for (int i = 0; i < 5; ++i)
                        h.push_back(o.thrown >> i & 1 ? drawn : hand[static_cast<std::size_t>(i)]);
                    sum += hand_share(*r, h);
                }
                sum /= static_cast<double>(unseen.size());
            }
            CHECK(o.expected == doctest::Approx(sum).epsilon(1e-12));
        }
    }
    // A pat royal flush stands pat.
    const auto r = ranking("standard");
    const auto royal = cards(*r, "As Ks Qs Js Ts");
    auto hint = draw_hint(*r, royal);
    REQUIRE(hint.ok());
    CHECK(hint->front().count == 0);
    CHECK(hint->front().expected == hand_share(*r, royal));
    // Four to a royal flush: throw the odd card (the classic play), not the pair's mate.
    hint = draw_hint(*r, cards(*r, "Ah Kh Qh Jh 2c"));
    CHECK(hint->front().thrown == 0b10000);
    CHECK(draw_hint(*r, cards(*r, "Ah Kh Qh Jh")).error().code == Errc::wrong_count);
    CHECK(draw_hint(*r, royal, 7).error().code == Errc::bad_option);
}
