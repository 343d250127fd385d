// A bot in a seat at a feltd table, whatever the game: it reads the table's messages as its seat
// receives them (docs/protocol.md) and answers its turns with an `act` request's body. Nothing
// but those messages reaches it, so it sees only what its seat may see. feltd's own bots
// (server/bots/bot_host.h) hold one of these a seat.
#pragma once

#include "poker_bot.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace felt::bots {

class SeatBot {
  public:
    virtual ~SeatBot() = default;
    // A table message (`"type": "table"`), in the order received: the body of the `act` request
    // to send when the seat is to act, else nothing. A message it cannot read (another game's, a
    // field of the wrong type wherever the reading meets it) is passed over, and `problem()` says
    // why: the game as seen so far may be short of it, and the seat's clock acts if it must.
    std::optional<nlohmann::json> on_message(const nlohmann::json& m);
    const std::string& problem() const { return problem_; }
    virtual int seat() const = 0;
    virtual void set_seat(int seat) = 0; // the join's reply

  protected:
    // The game's own reading; it may throw nlohmann::json's exceptions on a malformed message.
    virtual std::optional<nlohmann::json> read(const nlohmann::json& m) = 0;
    std::string problem_;
};

// The bot for a table of `game` ("poker", "chinese", "leap", "open-face"); null for a game it does
// not play.
std::unique_ptr<SeatBot> make_seat_bot(std::string_view game, Profile profile, std::uint64_t seed);

} // namespace felt::bots
