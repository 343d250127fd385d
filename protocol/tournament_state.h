// Where a tournament stands between hands (tournament::Standing), as JSON for the database, and
// read back strictly after a restart.
#pragma once

#include "tournament/director.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace felt::protocol {

nlohmann::json standing_json(const tournament::Standing& s);
// Nothing when the JSON is not a standing written by standing_json (a field missing or of the
// wrong type, a seat or table out of range).
std::optional<tournament::Standing> read_standing(const nlohmann::json& j);

} // namespace felt::protocol
