// A table's writes: the ledger's buy-ins, top-ups and cash-outs, each hand's row at its start and
// end, the voids, and the table's closing. Each is one write on the storage thread, its answer
// posted back to the table's strand; the chips move in the database before they move at the
// table.
//
// When storage fails, the table pauses: no hand starts until a small write succeeds (tried every
// kRetry). Then the voids that could not be written are written, and `resumed` runs (the table's
// cash-outs left over, then its next hand).
#pragma once

#include "chips.h"
#include "io.h"
#include "protocol/refusal.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

class Storage;
class Store;
struct HandStart;
struct HandEnd;

class TableLedger {
  public:
    using Strand = net::strand<net::io_context::executor_type>;
    static constexpr std::chrono::seconds kRetry{1};

    // `balance`: told an account's new balance after each buy-in, top-up and cash-out written.
    TableLedger(std::int64_t table, Storage& storage, const Strand& strand,
                std::function<void()> resumed,
                std::function<void(std::int64_t account, Chips balance)> balance = {});

    // Moves chips from the account's balance to its seat: done(no refusal), done(a refusal:
    // nothing moved), or done(nothing) when storage failed (rolled back: nothing moved).
    using Moved = std::function<void(std::optional<std::optional<protocol::Refusal>>)>;
    void buy_in(int seat, std::int64_t account, Chips amount, Moved done);
    void top_up(int seat, std::int64_t account, Chips amount, Moved done);
    // Moves the seat's stack to the account's balance: done(true), or done(false) when storage
    // failed (rolled back: the chips stay in table_seats, and are recovered at a restart).
    void cash_out(int seat, std::int64_t account, Chips stack, std::string reason,
                  std::function<void(bool ok)> done);
    // The hand's row, written as running with its commitment: done(its id, taken on the writer
    // from this node's block), or done(nothing) when storage failed.
    void start_hand(HandStart h, std::function<void(std::optional<std::int64_t>)> done);
    // The hand's end, its seats and its log, in one write: done(false) when storage failed.
    void finish_hand(HandEnd h, std::function<void(bool ok)> done);
    // The table's row, closed (if that fails, the next start closes it).
    void close_table();
    // The hand's row, void. One that cannot be written stays 'running' and the table pauses; it
    // is written when storage works again (or voided at the next start). `keep` keeps the table
    // alive while it waits.
    void record_void(std::int64_t hand_id, std::shared_ptr<void> keep);

    // Storage failed: no hand starts until it works again.
    bool paused() const { return paused_; }
    void pause(std::shared_ptr<void> keep);

  private:
    const std::int64_t table_;
    Storage& storage_;
    Strand strand_;
    std::function<void()> resumed_;
    std::function<void(std::int64_t account, Chips balance)> balance_;
    // A write that moved the account's chips, with its balance after it, then `done`.
    void moved(std::function<std::optional<protocol::Refusal>(Store&)> write, std::int64_t account,
               Moved done);
    net::steady_timer retry_;
    bool paused_ = false;
    bool retrying_ = false; // retry_ is armed
    std::vector<std::int64_t> unwritten_voids_;
};

} // namespace felt::server
