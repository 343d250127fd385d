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
    case Errc::row_full:
        return "row_full";
    case Errc::too_short:
        return "too_short";
    case Errc::wrong_suit:
        return "wrong_suit";
    case Errc::not_a_sequence:
        return "not_a_sequence";
    case Errc::no_adjacent_naturals:
        return "no_adjacent_naturals";
    case Errc::adjacent_wilds:
        return "adjacent_wilds";
    case Errc::not_abutting:
        return "not_abutting";
    case Errc::leap_taken:
        return "leap_taken";
    case Errc::not_your_leap:
        return "not_your_leap";
    case Errc::leap_used:
        return "leap_used";
    case Errc::no_conjoining:
        return "no_conjoining";
    case Errc::must_pursue:
        return "must_pursue";
    case Errc::must_discard:
        return "must_discard";
    case Errc::already_melded:
        return "already_melded";
    case Errc::not_in_hand:
        return "not_in_hand";
    case Errc::no_such_meld:
        return "no_such_meld";
    case Errc::not_your_meld:
        return "not_your_meld";
    case Errc::game_over:
        return "game_over";
    case Errc::bad_range:
        return "bad_range";
    }
    return "unknown";
}

} // namespace felt
