#include "result.h"

namespace felt {

const char* error_code_name(Errc code) {
    switch (code) {
    case Errc::bad_card:
        return "bad_card";
    case Errc::duplicate_card:
        return "duplicate_card";
    case Errc::wrong_count:
        return "wrong_count";
    case Errc::bad_option:
        return "bad_option";
    case Errc::bad_deck:
        return "bad_deck";
    case Errc::bad_config:
        return "bad_config";
    case Errc::hand_over:
        return "hand_over";
    case Errc::not_your_turn:
        return "not_your_turn";
    case Errc::illegal_action:
        return "illegal_action";
    case Errc::cannot_check:
        return "cannot_check";
    case Errc::bad_amount:
        return "bad_amount";
    case Errc::wrong_cards:
        return "wrong_cards";
    case Errc::middle_above_back:
        return "middle_above_back";
    case Errc::front_above_middle:
        return "front_above_middle";
    }
    return "unknown";
}

} // namespace felt
