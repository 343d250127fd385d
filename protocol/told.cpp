#include "protocol/told.h"

#include <algorithm>

namespace felt::protocol {

void JsonTold::stamp(const Stamp& s) {
    message_["type"] = "table";
    message_["table"] = s.table;
    message_["seq"] = s.seq;
    if (clock_) {
        json& at = message_[*clock_];
        at["deadline_ms"] = s.deadline_ms;
        at["time_bank_ms"] = s.time_bank_ms;
    }
    // A seat's own copy is its part merged into everyone's, written without building it. The
    // clock stays in the copy: a part of the seat's own merges into `turn`.
    if (!own_.empty()) members_ = dump_members(message_);
}

bool JsonTold::own(int seat) const {
    return seat >= 0 && std::ranges::find(own_, seat, &std::pair<int, json>::first) != own_.end();
}

std::string JsonTold::write(int seat) const {
    auto it = seat < 0 ? own_.end() : std::ranges::find(own_, seat, &std::pair<int, json>::first);
    if (it != own_.end()) return dump_over(it->second, members_);
    return own_.empty() ? message_.dump() : dump_object(members_);
}

} // namespace felt::protocol
