#include "tables/publisher.h"

#include <algorithm>
#include <functional>

namespace felt::server {

void Publisher::flush() {
    batching_ = false;
    // By recipient, each one's messages in the order sent.
    std::ranges::stable_sort(outbox_, std::less<>(), [](const auto& e) { return e.first.get(); });
    for (auto it = outbox_.begin(); it != outbox_.end();) {
        Messages messages;
        auto run = it;
        for (; run != outbox_.end() && run->first == it->first; ++run)
            messages.push_back(std::move(run->second));
        it->first->send(std::move(messages));
        it = run;
    }
    outbox_.clear();
}

} // namespace felt::server
