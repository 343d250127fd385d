// A seat bot at a feltd open-face table: the table's variant from its snapshot, every row placed
// face up as the messages tell it, and on its turn the placement of place_openface: random for
// the random kind, greedy for easy and the fixed kinds, rollouts for fair and strong (a
// Fantasyland hand: the solver, against the rows it has seen finished).
#pragma once

#include "openface_bot.h"
#include "seat_bot.h"

#include <array>
#include <cstdint>

namespace felt::bots {

class OpenFaceSeat final : public SeatBot {
  public:
    OpenFaceSeat(Profile profile, std::uint64_t seed) : profile_(profile), seed_(seed) {}

    int seat() const override { return seat_; }
    void set_seat(int seat) override { seat_ = seat; }

  private:
    std::optional<nlohmann::json> read(const nlohmann::json& m) override;

    Profile profile_;
    std::uint64_t seed_;
    int seat_ = -1;
    openface::Variant variant_ = openface::Variant::pineapple;
    openface::Stay stay_ = openface::Stay::standard;
    std::array<openface::Board, 9> boards_; // by table seat, as seen
    std::vector<int> players_;              // the hand's seats
    std::vector<Card> discards_;            // the bot's own
    int streets_ = 5;
};

} // namespace felt::bots
