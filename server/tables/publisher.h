// What a table sends, and to whom. Its watchers are the connections of its players and
// spectators. Each message is numbered (`seq`), written once for everyone who sees it alike and
// once more for each seat with its own copy (protocol::Told), and, inside a Batch, gathered so
// that each recipient gets its share of one turn of the table in one hand-over (and its
// connection in one write). On the table's strand only.
#pragma once

#include "protocol/told.h"
#include "tables/recipient.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace felt::server {

class Publisher {
  public:
    explicit Publisher(std::int64_t table) : table_(table) {}

    // The last message's number.
    std::int64_t seq() const { return seq_; }

    void watch(const std::shared_ptr<Recipient>& s) { watchers_[s.get()] = s; }
    void unwatch(Recipient* s) { watchers_.erase(s); }
    bool watching(Recipient* s) const { return watchers_.contains(s); }
    void unwatch_all() { watchers_.clear(); }
    // Calls f(session) for every live watcher; those gone are forgotten.
    template <class F>
    void for_each(F&& f) {
        for (auto it = watchers_.begin(); it != watchers_.end();) {
            auto s = it->second.lock();
            if (!s) {
                it = watchers_.erase(it);
                continue;
            }
            f(s);
            ++it;
        }
    }

    // One recipient's message (a reply, a snapshot).
    void send(const std::shared_ptr<Recipient>& s, std::string text) {
        if (s) deliver(s, std::make_shared<const std::string>(std::move(text)));
    }
    // Every message goes through here: at once, or inside a Batch gathered for its end.
    void deliver(const std::shared_ptr<Recipient>& s, Message m) {
        if (batching_)
            outbox_.emplace_back(s, std::move(m));
        else
            s->send(std::move(m));
    }

    // Each message to every watcher: numbered, stamped with the clock (stamp(protocol::Stamp&)
    // fills its fields), and each watcher given everyone's copy or, where the message has one,
    // its seat's own (seat_of(session): the watcher's seat, -1 for a spectator).
    template <class Stamp, class SeatOf>
    void publish(std::vector<std::unique_ptr<protocol::Told>>& told, Stamp&& stamp,
                 SeatOf&& seat_of) {
        for (auto& t : told) {
            protocol::Stamp s{table_, ++seq_};
            stamp(s); // written where the message has a turn
            t->stamp(s);
            auto shared = std::make_shared<const std::string>(t->write(-1));
            for_each([&](const std::shared_ptr<Recipient>& r) {
                const int seat = seat_of(r);
                if (!t->own(seat)) return deliver(r, shared);
                send(r, t->write(seat));
            });
        }
    }

    // For one handler on the strand: what it sends to each recipient goes out together when it
    // ends (an action's reply with its update; a hand's last update, its end and the next deal).
    // Batches nest; the outermost sends.
    class Batch {
      public:
        explicit Batch(Publisher& p) : p_(p), outer_(!p.batching_) { p.batching_ = true; }
        ~Batch() {
            if (outer_) p_.flush();
        }
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;

      private:
        Publisher& p_;
        bool outer_;
    };

  private:
    void flush();

    const std::int64_t table_;
    std::int64_t seq_ = 0;
    std::map<Recipient*, std::weak_ptr<Recipient>> watchers_;
    bool batching_ = false; // a Batch is open: deliver() gathers into outbox_
    std::vector<std::pair<std::shared_ptr<Recipient>, Message>> outbox_;
};

} // namespace felt::server
