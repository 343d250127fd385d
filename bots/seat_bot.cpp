#include "seat_bot.h"

#include "chinese_seat.h"
#include "leap_seat.h"
#include "openface_seat.h"
#include "table_seat.h"

namespace felt::bots {

using nlohmann::json;

std::optional<json> SeatBot::on_message(const json& m) {
    try {
        return read(m);
    } catch (const json::exception& e) {
        problem_ = std::string("a message it cannot read: ") + e.what();
        return std::nullopt;
    }
}

std::unique_ptr<SeatBot> make_seat_bot(std::string_view game, Profile profile, std::uint64_t seed) {
    if (game == "poker") return std::make_unique<TableSeat>(profile, seed);
    if (game == "chinese") return std::make_unique<ChineseSeat>(profile);
    if (game == "leap") return std::make_unique<LeapSeat>(profile, seed);
    if (game == "open-face") return std::make_unique<OpenFaceSeat>(profile, seed);
    return nullptr;
}

} // namespace felt::bots
