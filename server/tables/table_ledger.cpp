#include "tables/table_ledger.h"

#include "storage/storage.h"

namespace felt::server {

TableLedger::TableLedger(std::int64_t table, Storage& storage, const Strand& strand,
                         std::function<void()> resumed,
                         std::function<void(std::int64_t account, Chips balance)> balance)
    : table_(table), storage_(storage), strand_(strand), resumed_(std::move(resumed)),
      balance_(std::move(balance)), retry_(strand) {}

void TableLedger::moved(std::function<std::optional<protocol::Refusal>(Store&)> write,
                        std::int64_t account, Moved done) {
    using Written = std::pair<std::optional<protocol::Refusal>, std::optional<Chips>>;
    storage_.write(
        [write = std::move(write), account](Store& store) {
            Written w{write(store), std::nullopt};
            if (!w.first)
                if (auto a = store.find_account(account)) w.second = a->balance;
            return w;
        },
        strand_,
        [this, account, done = std::move(done)](std::optional<Written> w) {
            if (!w) return done(std::nullopt);
            done(w->first);
            if (w->second && balance_) balance_(account, *w->second); // after the reply
        });
}

void TableLedger::buy_in(int seat, std::int64_t account, Chips amount, Moved done) {
    moved([table = table_, seat, account,
           amount](Store& store) { return store.buy_in(table, seat, account, amount); },
          account, std::move(done));
}

void TableLedger::top_up(int seat, std::int64_t account, Chips amount, Moved done) {
    moved([table = table_, seat, account,
           amount](Store& store) { return store.top_up(table, seat, account, amount); },
          account, std::move(done));
}

void TableLedger::cash_out(int seat, std::int64_t account, Chips stack, std::string reason,
                           std::function<void(bool ok)> done) {
    moved(
        [table = table_, seat, account, stack, reason = std::move(reason)](Store& store) {
            store.cash_out(table, seat, account, stack, reason);
            return std::optional<protocol::Refusal>();
        },
        account,
        [done = std::move(done)](std::optional<std::optional<protocol::Refusal>> ok) {
            done(ok.has_value());
        });
}

void TableLedger::start_hand(HandStart h, std::function<void(std::optional<std::int64_t>)> done) {
    storage_.write(
        [h = std::move(h), &storage = storage_](Store& store) mutable {
            h.id = storage.take_hand_id(store);
            store.start_hand(h);
            return h.id;
        },
        strand_, std::move(done));
}

void TableLedger::finish_hand(HandEnd h, std::function<void(bool ok)> done) {
    storage_.write(
        [h = std::move(h)](Store& store) {
            store.finish_hand(h);
            return true;
        },
        strand_, [done = std::move(done)](std::optional<bool> ok) { done(ok.has_value()); });
}

void TableLedger::close_table() {
    storage_.write(
        [id = table_](Store& s) {
            s.close_table(id);
            return true;
        },
        strand_, [](std::optional<bool>) {});
}

void TableLedger::record_void(std::int64_t hand_id, std::shared_ptr<void> keep) {
    storage_.write(
        [hand_id](Store& store) {
            store.void_hand(hand_id);
            return true;
        },
        strand_,
        [this, keep = std::move(keep), hand_id](std::optional<bool> ok) {
            if (ok) return;
            unwritten_voids_.push_back(hand_id);
            pause(keep);
        });
}

void TableLedger::pause(std::shared_ptr<void> keep) {
    paused_ = true;
    if (retrying_) return;
    retrying_ = true;
    retry_.expires_after(kRetry);
    retry_.async_wait([this, keep = std::move(keep)](error_code ec) {
        if (ec) {
            retrying_ = false;
            return;
        }
        storage_.write(
            [](Store& store) {
                store.probe();
                return true;
            },
            strand_,
            [this, keep](std::optional<bool> ok) {
                retrying_ = false;
                if (!ok) return pause(keep);
                paused_ = false;
                auto voids = std::move(unwritten_voids_);
                unwritten_voids_.clear();
                for (std::int64_t id : voids) record_void(id, keep);
                resumed_();
            });
    });
}

} // namespace felt::server
