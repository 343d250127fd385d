// What the feltd tests share for playing at a table: a reader's sight of a hand and the check that
// it was shown no card it may not see, a bot that plays random legal actions, and reading on to a
// lobby push or a hand's end.
#pragma once

#include "server/fairness_check.h"
#include "server/feltd_harness.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace feltd_test {

// Card tokens of a card string ("Ah Kd" -> {"Ah", "Kd"}).
std::vector<std::string> tokens(const std::string& cards);

// What one reader of a table's messages has been shown in the hand under way, and the check that
// it was shown nothing it may not see. The rule is written here from the game, not from the
// engine's visibility marks: an event names cards only if they are public (an up card, the board,
// a rollover, a show) or the reader's own (`seat`; -1 for a spectator). A snapshot names another
// seat's cards only where they were shown publicly before.
struct Sight {
    int seat = -1;
    std::vector<std::string> own;  // the reader's cards now, in the order it got them
    std::vector<std::string> down; // those still face down
    std::set<std::string> shown;   // every card shown publicly this hand
    int dealt = 0;                 // cards of its own it was dealt or drew, all hands
    int public_seen = 0;           // public cards it was shown, all hands
    std::vector<std::string> leaks;
    // The fairness reveal at each hand's end, checked as a client would (fairness_check.h): it
    // hashes to the commitment given at the start, opens every card the reader saw this hand and
    // nothing else, and gives no way to match a sealed leaf to a card.
    std::string commitment;
    std::set<std::string> saw; // this hand: the reader's own cards and the public ones
    int reveals = 0;           // reveals checked
    int sealed = 0;            // leaves left sealed to the reader, all hands
    bool attack = false;       // try every received salt on every sealed leaf (a spectator)

    void read(const json& m) {
        const std::string kind = m["kind"];
        if (kind == "hand_start") {
            own.clear();
            down.clear();
            shown.clear();
            saw.clear();
            commitment = m["commitment"];
        }
        if (kind == "hand_end") check_reveal(m["fairness"]);
        if (kind == "snapshot")
            for (const json& st : m["seats"]) {
                if (st["seat"] == seat || !st.contains("cards")) continue;
                for (const std::string& c : tokens(st["cards"]))
                    if (!shown.count(c)) leaks.push_back("snapshot: " + st.dump());
            }
        if (kind != "update") return;
        for (const json& e : m["events"]) {
            if (!e.contains("cards")) continue;
            const std::string k = e["kind"];
            const auto cards = tokens(e["cards"]);
            const bool is_public =
                k == "deal_up" || k == "deal_board" || k == "rollover" || k == "show";
            const bool mine = seat >= 0 && e.value("seat", -2) == seat;
            if (!is_public && !mine) leaks.push_back(e.dump());
            if (is_public || mine) saw.insert(cards.begin(), cards.end());
            if (is_public) {
                shown.insert(cards.begin(), cards.end());
                public_seen += static_cast<int>(cards.size());
            }
            if (!mine) continue;
            if (k == "deal_down" || k == "deal_up" || k == "receive")
                dealt += static_cast<int>(cards.size());
            if (k == "deal_down" || k == "receive") {
                own.insert(own.end(), cards.begin(), cards.end());
                down.insert(down.end(), cards.begin(), cards.end());
            }
            if (k == "deal_up") own.insert(own.end(), cards.begin(), cards.end());
            for (const std::string& c : cards)
                if (k == "discard" || k == "rollover") {
                    down.erase(std::remove(down.begin(), down.end(), c), down.end());
                    if (k == "discard")
                        own.erase(std::remove(own.begin(), own.end(), c), own.end());
                }
        }
    }

    void check_reveal(const json& f) {
        if (commitment.empty()) return; // joined after the hand's start
        ++reveals;
        const auto c = fairness_check::check(commitment, f);
        for (const std::string& p : c.problems) leaks.push_back(p);
        std::multiset<std::string> opened = c.shown;
        opened.insert(c.yours.begin(), c.yours.end());
        for (const std::string& card : saw)
            if (!opened.count(card)) leaks.push_back("fairness: " + card + " was not opened");
        for (const std::string& card : opened)
            if (!saw.count(card)) leaks.push_back("fairness: opened " + card + ", never seen");
        if (seat < 0 && f.contains("yours")) leaks.push_back("fairness: a spectator's own cards");
        sealed += static_cast<int>(f["leaves"].size() - c.opened.size());
        if (attack && fairness_check::derivable(f, c) > 0)
            leaks.push_back("fairness: a sealed leaf matched a card: " + f.dump());
    }
};

// `n` of `from`, chosen at random, as a card string.
std::string some(std::vector<std::string> from, int n, std::mt19937& rng);

// A bot's choice among the legal actions of an update's turn: mostly check or call, sometimes a
// minimum bet or raise, now and then a fold; in a draw, a random number of its cards within the
// limits; in a rollover, random face-down cards.
json random_action(const json& legal, const Sight& sight, std::mt19937& rng);

// What one seated bot saw: hands finished, and any card it should not have seen.
struct BotReport {
    int hands = 0;
    int actions = 0;
    int cards = 0;                      // of its own, dealt or drawn
    std::vector<std::int64_t> hand_ids; // of the hands whose end it was told
    std::vector<std::string> leaks;
    std::vector<std::string> errors;
    int reveals = 0; // fairness reveals it checked
};

// Plays until `hands` hands have ended, then leaves and reads on until its seat is gone. With
// `leave_on_turn`, it may instead leave on a turn of its last hand (a coin decides each turn),
// and the server acts for it from then on, in whatever phase the hand is.
BotReport play(Client& c, std::int64_t table, int seat, int hands, unsigned seed,
               bool leave_on_turn = false);

// Reads on to the next lobby push.
json next_lobby(Client& c);

// Folds for whichever of two players is to act in the hand just dealt (the other is told it is not
// their turn), and reads both on to the hand's end: the end.
json fold_first(Client& a, Client& b, std::int64_t table);

// Reads on until a hand is being played at the player's table: its start, or, when the
// connection was seated after the hand began (a tournament's `started` news is sent as the table
// deals, and may be taken up after the deal), the table's snapshot with the hand.
void hand_running(Client& c);

} // namespace feltd_test
