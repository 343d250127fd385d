// What a table publishes: one message, written once for everyone and once for each seat whose
// copy differs (its own cards, what it may do). The table stamps it, then hands each watcher its
// copy (Table::publish). Two kinds: a JSON message with seats' own parts merged in (JsonTold),
// and poker's update written straight to text (UpdateText, poker_messages.h), the message sent
// most.
#pragma once

#include "protocol/messages.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace felt::protocol {

// The envelope a table puts on each message it publishes: the table, the message's number, and
// the clock of the seat to act (written where the message has a turn).
struct Stamp {
    std::int64_t table = 0;
    std::int64_t seq = 0;
    std::int64_t deadline_ms = 0;
    std::int64_t time_bank_ms = 0;
};

class Told {
  public:
    virtual ~Told() = default;
    // Once, before the copies are written.
    virtual void stamp(const Stamp& s) = 0;
    // Whether the seat's copy differs from everyone's; never for -1 (a spectator).
    virtual bool own(int seat) const = 0;
    // Everyone's copy (-1), or the seat's own.
    virtual std::string write(int seat) const = 0;
};

// A message as JSON: everyone gets `message`, except that a seat given a part of its own gets it
// merged in (dump_over): a field of the part replaces the message's, except that an object merges
// into the message's object under the same key (its own cards; `turn.legal`, what it may do;
// `fairness.yours`). `clock`, when set, is where the stamp's clock goes: deadline_ms (time left)
// and time_bank_ms (the bank of the seat on the clock).
class JsonTold final : public Told {
  public:
    explicit JsonTold(json message, std::optional<json::json_pointer> clock = std::nullopt)
        : message_(std::move(message)), clock_(std::move(clock)) {}
    JsonTold& with_own(int seat, json part) {
        own_.emplace_back(seat, std::move(part));
        return *this;
    }

    void stamp(const Stamp& s) override;
    bool own(int seat) const override;
    std::string write(int seat) const override;

  private:
    json message_;
    std::optional<json::json_pointer> clock_;
    std::vector<std::pair<int, json>> own_;
    // Everyone's members, written once for everyone's text and every seat's copy.
    std::vector<DumpedMember> members_;
};

} // namespace felt::protocol
