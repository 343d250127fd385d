// A seat bot at a feltd leap rummy table: the game as its seat has seen it (its own hand from the
// deal, its draws and what it melded or discarded; every meld, token and the public state of each
// `turn` message) mirrored into the engine's State, with the other hands and the stock as counts
// only, and each of its turns' steps decided by leap_decide (bots/leap_bot.h).
#pragma once

#include "leap/leap_game.h"
#include "seat_bot.h"

#include <map>
#include <memory>
#include <vector>

namespace felt::bots {

class LeapSeat final : public SeatBot {
  public:
    LeapSeat(Profile profile, std::uint64_t seed) : profile_(profile), rng_(seed) {
        holder_.fill(-1);
    }

    int seat() const override { return seat_; }
    void set_seat(int seat) override { seat_ = seat; }

  private:
    std::optional<nlohmann::json> read(const nlohmann::json& m) override;
    // The game's players (table seats, in the engine's order) and their engine indexes.
    int index_of(int seat) const;
    std::vector<Card> cards(const nlohmann::json& text) const;
    void set_meld(int id, int seat, int leap, std::vector<Card> cards);
    void take_from_hand(const std::vector<Card>& cards);
    std::optional<nlohmann::json> turn(const nlohmann::json& m);

    Profile profile_;
    Rng rng_;
    int seat_ = -1;
    leap::Rules rules_;
    bool configured_ = false;
    std::vector<int> players_; // table seats in the game, in the engine's order
    std::shared_ptr<const leap::Table> table_;
    std::vector<Card> hand_;
    std::map<int, leap::Meld> melds_;               // by id
    std::array<int, leap::kMaxLeaps + 1> holder_{}; // table seat holding leaptoken k, -1 free
    int idle_turns_ = 0;                            // own turns in a row without melding
    bool played_ = false;                           // a turn of its own has begun this game
    bool melded_this_turn_ = false;
};

} // namespace felt::bots
