// The Store on SQLite: one connection, used by one thread at a time.
#pragma once

#include "storage/accounts.h"
#include "storage/sqlite.h"
#include "storage/store.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace felt::server {

class SqliteStore final : public Store {
  public:
    enum class Role {
        writer, // migrates the schema, then recovers from an unclean stop (see recover())
        reader, // opens the database as it is; for reads alongside the writer (WAL)
    };
    // `grant`: chips a new account starts with; `life`: how long session tokens live.
    SqliteStore(const std::string& path, Chips grant, Role role, TokenLife life = {});

    Outcome<Account> create_account(std::string_view name, const std::string& hash) override;
    Outcome<Account> create_guest() override;
    std::vector<Account> bot_accounts() override;
    Account create_bot() override;
    std::optional<Refusal> fund_bot(std::int64_t account, Chips amount, Chips bank) override;
    std::optional<std::pair<Account, std::string>> find_with_hash(std::string_view name) override;
    std::optional<Account> find_account(std::int64_t id) override;
    std::string open_session(std::int64_t account) override;
    Outcome<Account> resume(std::string_view token) override;
    void revoke(std::string_view token) override;
    void revoke_all(std::int64_t account, std::string_view keep) override;
    void change_password(std::int64_t account, const std::string& hash,
                         std::string_view keep) override;

    std::int64_t create_table(const std::string& config, std::int64_t creator) override;
    void close_table(std::int64_t table) override;
    std::vector<OpenTable> left_open() override { return std::exchange(left_open_, {}); }
    std::optional<Refusal> buy_in(std::int64_t table, int seat, std::int64_t account,
                                  Chips amount) override;
    std::optional<Refusal> top_up(std::int64_t table, int seat, std::int64_t account,
                                  Chips amount) override;
    void cash_out(std::int64_t table, int seat, std::int64_t account, Chips stack,
                  std::string_view reason) override;

    std::int64_t last_hand_id() override;
    std::pair<std::int64_t, std::int64_t> reserve_hand_ids() override;
    void start_hand(const HandStart& hand) override;
    void finish_hand(const HandEnd& hand) override;
    void void_hand(std::int64_t hand_id) override;
    std::vector<std::int64_t> hands_to_count(std::int64_t after, int limit) override;
    bool count_hand_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows,
                          const std::string& day) override;
    stats::Totals stats_of(std::int64_t account, const StatsFilter& filter) override;
    std::vector<StatsDay> stats_days(std::int64_t account, const StatsFilter& filter) override;
    std::vector<SearchHit> search_hands(std::int64_t account, const HandSearch& search) override;
    std::vector<OpponentStats> opponent_stats(std::int64_t viewer,
                                              const std::vector<std::string>& names) override;

    std::variant<std::int64_t, Refusal>
    create_tournament(const std::string& config, std::int64_t creator, Chips guarantee) override;
    std::optional<Refusal> enter_tournament(std::int64_t tournament, std::int64_t account,
                                            Chips buy_in, Chips fee, int max_entrants) override;
    std::optional<Refusal> leave_tournament(std::int64_t tournament, std::int64_t account) override;
    bool start_tournament(std::int64_t tournament, const std::string& state) override;
    void change_tournament(const TournamentChange& change) override;
    std::optional<Refusal> buy_in_tournament(std::int64_t tournament,
                                             const TournamentPurchase& purchase) override;
    void cancel_tournament(std::int64_t tournament,
                           const std::vector<std::pair<std::int64_t, Chips>>& stacks) override;
    std::optional<TournamentRow> tournament(std::int64_t tournament) override;
    std::vector<TournamentRow> open_tournaments() override;

    std::vector<PlayerHand> hands_of(std::int64_t account, std::int64_t before, int limit) override;
    std::vector<PlayerTournament> tournaments_of(std::int64_t account, int limit) override;
    std::optional<HandRecord> hand_record(std::int64_t hand_id) override;
    std::optional<std::vector<HandSummary>> finished_hands(std::int64_t table, int limit) override;
    std::optional<PlayerTotals> totals_of(const std::string& name) override;

    Tending tend() override { return {}; }
    void announce(const std::string&) override {}
    std::optional<std::string> node_url_of(std::int64_t) override { return std::nullopt; }
    std::optional<std::string> node_url_of_tournament(std::int64_t) override {
        return std::nullopt;
    }
    std::vector<TournamentElsewhere> tournaments_elsewhere() override { return {}; }
    std::vector<SeatElsewhere> seats_elsewhere(std::int64_t) override { return {}; }
    void release() override {}
    void notify(const std::string&) override {}

    std::optional<std::string> unready() const override { return unready_; }
    void ready() override;
    void probe() override;
    void check() override;

    void begin_group() override;
    void commit_group() override;
    void abandon_group() noexcept override;

  private:
    // A tournament change inside the caller's transaction.
    void apply(const TournamentChange& change);
    // The tournament's status, or "" when there is none.
    std::string status_of(std::int64_t tournament);
    // After a stop, clean or not: chips left on tables go back to their owners and unfinished
    // hands are void, in one transaction; nothing is created or lost. The tables left open stay
    // open, for left_open().
    void recover();

    db::Database db_;
    Accounts accounts_;
    const bool writer_;
    std::int64_t next_hand_id_ = 0;      // the next block's first id (0: not read yet)
    std::optional<std::string> unready_; // recovery waits for space: why
    std::vector<OpenTable> left_open_;
};

} // namespace felt::server
