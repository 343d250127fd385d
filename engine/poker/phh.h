// Hand histories in PHH, the open Poker Hand History format (TOML; https://phh.readthedocs.io).
//
// Players p1..pN are the seats dealt in, from the left of the button round to the button.
// Written: variant, antes (per player), blinds_or_straddles or bring_in, min_bet or
// small_bet/big_bet, starting_stacks, actions, finishing_stacks; and, for what PHH cannot say,
// fields of Felt's own (a leading underscore, which PHH leaves to users): _felt_variant,
// _felt_structure, _felt_ranking, _felt_wild, _felt_max_discard, _felt_reshuffle_seed,
// _felt_rake_percent, _felt_rake_cap. Heads-up, antes and blinds are written reversed, as PHH
// has them.
//
// Variant codes: PHH's own where it has one (NT, FT: hold'em; F7S: fixed-limit stud); else the
// same pattern, a structure letter (N, P, F) and a game: PT pot-limit hold'em, N7S and P7S stud,
// N5CD/P5CD/F5CD five-card draw, N5CS/P5CS/F5CS straight poker, NMS/PMS/FMS Mexican stud,
// NSD/PSD/FSD shrinking draw. Readers other than Felt know only PHH's codes.
//
// Actions: `d dh pN cards` for each player's cards of a deal (and for a draw's replacements),
// `d db cards`, `pN pb` (bring-in), `pN cbr total`, `pN cc`, `pN f`, `pN sd [cards]`,
// `pN sm cards` (shown at showdown).
#pragma once

#include "poker/hand.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::poker {

// Who reads a history. kEveryCard: the record as dealt, every card written. A seat, or kNoSeat
// for a reader who held none, sees what the hand made public (up cards, the board, the cards a
// seat turned up or showed while holding them) and its own cards; every other card (face-down
// cards never shown, discards, draws) is written "??", as PHH writes unknown cards.
inline constexpr int kEveryCard = -2;
inline constexpr int kNoSeat = -1;

// A finished (or unfinished) hand as PHH text: its configuration and every event since the start,
// as `reader` may see it.
std::string to_phh(const HandConfig& config, std::span<const Event> events, const HandState& state,
                   int reader = kEveryCard);

struct Replay {
    HandState state;
    std::int64_t scale = 1;              // chips to the file's unit: 10^(its most decimal places)
    // In PHH player order, in chips; after a rake the recorded winnings show, less the rake.
    std::vector<Chips> finishing_stacks;
    std::vector<Chips> winnings; // what each player took from the pots
    std::uint16_t deep = 0;              // bit per player: a stack given as inf (unknown)
    // A pot contested at showdown by hands nobody knows only: nothing could be judged, so neither
    // the finishing stacks nor the winnings were checked.
    bool undecided = false;
    bool winnings_checked =
        false;    // the file records winnings (not all zeros) and they were checked
    Chips rake{}; // taken, as the recorded winnings show (docs/betting.md)
    bool walk_counts_blind = false; // a walk whose winnings count the big blind's own chips
    std::string winnings_mismatch;  // empty unless the recorded winnings disagree
    std::vector<Event> events;      // the hand as the engine played it
};

// Plays a PHH hand through the engine: the dealing actions give the deck order, with stand-ins
// for unknown cards (`??`). Amounts with decimals are scaled to whole chips. At showdown a hand
// whose cards are unknown, or whose last show is `????` or a muck, loses to every known hand; a
// pot only unknown hands contest leaves the hand undecided. Refuses a file that is not TOML, lacks
// a field, names a variant Felt cannot play, or whose actions the engine refuses (the error names
// the action, its number and the reason); and one whose finishing_stacks disagree with the
// engine's. Recorded winnings that disagree are reported in winnings_mismatch.
Result<Replay> replay_phh(std::string_view text);

// An amount in the file's units: chips / scale, without trailing zeros ("15.65", "2").
std::string format_amount(Chips chips, std::int64_t scale);

// The hands of a text, each as a .phh of its own: a .phhs text's hands (TOML tables [1], [2], ...),
// each named by its table, or a .phh text's one hand, named "".
struct HandText {
    std::string name;
    std::string text;
};
std::vector<HandText> split_hands(std::string_view text);

// Many hands: a .phhs text, whose hands are TOML tables ([1], [2], ...), or one .phh hand.
struct CorpusEntry {
    std::string where; // file [hand]
    std::string reason;
};
struct Corpus {
    long hands = 0, replayed = 0, failed = 0, undecided = 0;
    long winnings_checked = 0, winnings_mismatches = 0, raked = 0, walks_counting_blind = 0;
    std::vector<CorpusEntry> failures, mismatches; // the first few
};
void replay_corpus(std::string_view text, std::string_view name, Corpus& into,
                   std::size_t keep = 5);

} // namespace felt::poker
