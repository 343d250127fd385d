#include "storage/store.h"

#include <stdexcept>

namespace felt::server {

std::string hand_log_text(const std::vector<std::string>& events) {
    std::size_t size = events.size();
    for (std::size_t i = 0; i < events.size(); ++i) {
        // Named by its place, not its text: an event holds cards, and this goes to the log.
        if (events[i].find('\n') != std::string::npos)
            throw std::invalid_argument("event " + std::to_string(i) +
                                        " of a hand's log holds a line break");
        size += events[i].size();
    }
    std::string text;
    text.reserve(size);
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i > 0) text += '\n';
        text += events[i];
    }
    return text;
}

std::vector<std::string> hand_log_events(std::string_view text) {
    std::vector<std::string> events;
    if (text.empty()) return events;
    for (;;) {
        const std::size_t end = text.find('\n');
        events.emplace_back(text.substr(0, end));
        if (end == std::string_view::npos) return events;
        text.remove_prefix(end + 1);
    }
}

} // namespace felt::server
