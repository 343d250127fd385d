// Open-face Chinese poker and Pineapple as a table's game (open-face.md): the cards placed face
// up a street at a time in turn from the dealer's left, a Fantasyland hand dealt at once and set
// last, face down until the end; the bot places for whoever runs out of time or leaves; the end
// settles a pair at a time through the engine. Fantasyland and the held button go from one hand
// to the next through End::carry and End::hold_button.
#pragma once

#include "protocol/openface_config.h"
#include "tables/game.h"

#include <memory>

namespace felt::server {

std::unique_ptr<Game> openface_game(protocol::OpenFaceConfig config);

} // namespace felt::server
