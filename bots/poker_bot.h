// Seat bots for the betting games: what a seat sees, who plays it, and the action each kind of
// bot chooses. Pure: a decision is a function of the view, the bot and the caller's generator.
//
// The kinds (docs/bots.md):
//   random           any legal action, amounts at random
//   calling-station  checks or calls, never folds nor raises
//   maniac           raises whenever it may (a pot-sized raise), else calls
//   nit              plays the top 5 % of starting hands, raising and calling with them
//   shove            all in every hand
//   baseline         the Chen formula before the flop, hand strength after
//   easy             mostly checks and calls, sometimes the smallest bet, now and then a fold
//   fair, strong     PokerTH's AiEngine4 in outline: equity against each opponent's range
//                    (narrowed by what they were seen to play), opening ranges by position,
//                    push or fold when short, bets and calls by equity against the pot odds,
//                    a personality; strong also narrows the ranges by each bet and call of the
//                    hand and sizes its bets by its equity
#pragma once

#include "holdem_equity.h"
#include "poker/hand.h"

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace felt::bots {

enum class Kind : unsigned char {
    random,
    calling_station,
    maniac,
    nit,
    shove,
    baseline,
    easy,
    fair,
    strong
};
std::string_view kind_name(Kind k); // "calling-station" ...
std::optional<Kind> parse_kind(std::string_view name);
std::span<const Kind> all_kinds();

// How a fair or strong bot leans: looseness scales the hands it plays, aggression its bets and
// raises against its calls, bluff how often it bets without the cards.
struct Personality {
    std::string_view name;
    double looseness = 1, aggression = 1, bluff = 0.08;
};
std::span<const Personality> personalities(); // tight, loose, aggressive, passive
const Personality& default_personality();     // tight
std::optional<Personality> parse_personality(std::string_view name);

struct Profile {
    Kind kind = Kind::fair;
    Personality personality = default_personality();
};

// What one player has been seen to do over the hands watched (public actions only).
struct Stats {
    int hands = 0;      // dealt in
    int vpip = 0;       // put chips in voluntarily in the first betting round
    int pfr = 0;        // raised in the first betting round
    int aggressive = 0; // bets and raises after the first round
    int passive = 0;    // calls and checks after the first round
    int calls = 0;      // calls after the first round
    // Estimates with a prior worth ten hands: a new opponent plays like a typical one.
    double vpip_rate() const;
    double pfr_rate() const;
    double aggression_rate() const; // aggressive / (aggressive + passive)
};

// A public action of the hand: who, what, the total bet to (bets and raises) or chips added
// (calls), and where: the betting round and the board cards out then.
struct Seen {
    int seat = -1;
    poker::EventType type = poker::EventType::check;
    Chips amount{};
    int round = 0; // betting rounds played before it (0: the first)
    int board = 0;
};

struct SeatView {
    int seat = -1;
    bool live = false;             // dealt in, not folded
    Chips stack{}, bet{}, total{}; // behind; this round; this hand
    std::vector<Card> up;          // face-up cards (stud)
};

// Everything a seat may see when it is to act.
struct View {
    const poker::HandConfig* config = nullptr; // variant, structure, stakes, seats
    poker::Legal legal;                        // the seat to act is `legal.seat`
    std::vector<Card> cards;                   // its own, down and up
    std::vector<Card> board;
    std::vector<SeatView> seats;                 // every seat dealt in, this one's too
    std::vector<Seen> seen;                      // this hand's actions so far, in order
    int round = 0;                               // betting rounds played before this one
    std::array<Stats, poker::kMaxSeats> stats{}; // what each seat was seen to do before
};

poker::Action decide(const View& v, const Profile& p, Rng& rng);

// Builds views from the engine's state and events, and keeps the players' statistics: for play
// in-process (felt duel, tests), where nothing is hidden from the caller, so the view is built
// with care to hold only what the seat may see.
class Watcher {
  public:
    // A hand begins: its opening events (blinds, deals).
    void start(const poker::HandState& s, std::span<const poker::Event> events);
    // Events of an action (or anything the hand did after it).
    void observe(const poker::HandState& s, std::span<const poker::Event> events);
    // The view of the seat to act.
    View view(const poker::HandState& s) const;
    // The hand ended: each seat's statistics take it in. Stats are by seat.
    void finish();
    // Each dealt seat's statistics take in a hand's actions.
    static void tally(std::span<const Seen> seen, const std::array<bool, poker::kMaxSeats>& dealt,
                      std::array<Stats, poker::kMaxSeats>& stats);
    const Stats& stats(int seat) const { return stats_[static_cast<std::size_t>(seat)]; }
    void clear_stats() { stats_ = {}; }

  private:
    std::vector<Seen> seen_;
    int round_ = 0, board_ = 0;
    std::array<bool, poker::kMaxSeats> dealt_{};
    std::array<Stats, poker::kMaxSeats> stats_{};
};

} // namespace felt::bots
