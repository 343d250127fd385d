// Fairness (docs/protocol.md, "Fairness"): a deal is committed to card by card, so that its end
// opens what became public to everyone and each player's own cards to that player alone, and
// never a mucked card or a card left in the stock.
//
// Every position i of the shuffled deck (dealing order, position 0 first) gets a fresh 16-byte
// salt and a leaf, SHA-256(salt_i ‖ card_i), the card as its text ("As", "Xx"). A game that may
// reshuffle (a draw that empties the stock) adds one more leaf, SHA-256(salt_seed ‖ seed), the
// seed as decimal text. The commitment, published before the first card, is SHA-256 of the
// leaves (32 bytes each) concatenated in dealing order, then the seed leaf. Written as
// lower-case hex everywhere.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

// Who saw the card at one position of a deal.
struct Sight {
    bool everyone = false;
    std::uint16_t seats = 0; // a bit per table seat

    void show(int seat) { seats = static_cast<std::uint16_t>(seats | 1u << seat); }
    bool seen_by(int seat) const { return everyone || (seat >= 0 && (seats >> seat & 1u)); }
};

// What a deal is committed to. The server alone knows it until the end.
struct Sealed {
    std::vector<std::string> cards; // the deck as dealt, by position, as text
    std::vector<std::string> salts; // by position: 16 bytes as 32 hex digits
    std::string seed;               // the reshuffle seed as decimal text; "" when none
    std::string seed_salt;          // "" when no seed

    // A shuffled deck (its cards' texts separated by spaces) and its seed ("" for a game that
    // never reshuffles), with fresh salts from libsodium.
    static Sealed seal(std::string_view deck, std::string seed);

    std::vector<std::string> leaves() const;
    std::string seed_leaf() const; // "" when the game has no seed
    std::string commitment() const;
};

// SHA-256 of `bytes`, as hex.
std::string sha256_hex(std::string_view bytes);
// A leaf: SHA-256 of the salt's 16 bytes (given as hex) followed by the text.
std::string leaf_hex(std::string_view salt_hex, std::string_view text);

// What the end of a deal opens to `viewer` (a table seat; -1 for a spectator or any reader who
// was not dealt in): `fairness` in hand_end, deal_end and game_end, and in the history's hand.
// Every leaf; the card and salt of every position everyone saw (`shown`); the seed and its salt
// when the seed was used; and, for a seat, the positions it alone (or with some others) saw
// (`yours`). `seen` is by position; positions past its end were seen by nobody.
json reveal_json(const Sealed& sealed, std::span<const Sight> seen, bool seed_used, int viewer);
// The same with the deal's leaves given (`sealed.leaves()`): hashed once by a caller that opens
// one deal to several viewers.
json reveal_json(const Sealed& sealed, const std::vector<std::string>& leaves,
                 std::span<const Sight> seen, bool seed_used, int viewer);

// The positions `viewer` saw that not everyone saw, opened: `yours` in reveal_json.
json yours_json(const Sealed& sealed, std::span<const Sight> seen, int viewer);

// The salts, who saw each position and whether the seed was used, as stored with a finished hand
// (JSON text), and back with the deck and seed stored beside them; nullopt if it is unreadable.
std::string opened_record(const Sealed& sealed, std::span<const Sight> seen, bool seed_used);
struct Opened {
    Sealed sealed;
    std::vector<Sight> seen;
    bool seed_used = false;
};
std::optional<Opened> read_opened(std::string_view deck, std::string seed, std::string_view record);

} // namespace felt::protocol
