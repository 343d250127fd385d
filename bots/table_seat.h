// A seat bot at a feltd poker table: it reads the table's messages as its seat receives them
// (the protocol's JSON, docs/protocol.md) into a View, and answers its turns with an `act`
// request's body. Nothing but those messages reaches it, so it sees only what its seat may see.
// Used by `felt bot` over a WebSocket and by feltd's own bots.
#pragma once

#include "poker_bot.h"
#include "seat_bot.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace felt::bots {

class TableSeat final : public SeatBot {
  public:
    explicit TableSeat(Profile profile, std::uint64_t seed = 1);

    // on_message (seat_bot.h) answers with an `act` body ({"action": ..., "amount"/"cards"}).

    int seat() const override { return seat_; }
    void set_seat(int seat) override { seat_ = seat; } // the join's reply, a tournament's seating
    // The view its last turn was decided from.
    const View& last_view() const { return last_; }

  private:
    struct Mirror; // the hand as the seat has seen it
    std::optional<nlohmann::json> read(const nlohmann::json& m) override;
    void configure(const nlohmann::json& config);
    void start_hand(const nlohmann::json& m);
    void apply(const nlohmann::json& event);
    std::optional<nlohmann::json> turn(const nlohmann::json& legal);

    Profile profile_;
    Rng rng_;
    int seat_ = -1;
    nlohmann::json config_json_;
    std::shared_ptr<const poker::HandConfig> config_;      // the table's
    std::shared_ptr<const poker::HandConfig> hand_config_; // this hand's (a mixed game's own)
    std::shared_ptr<Mirror> hand_;
    std::array<Stats, poker::kMaxSeats> stats_{};
    std::array<std::string, poker::kMaxSeats> names_{};
    View last_;
};

} // namespace felt::bots
