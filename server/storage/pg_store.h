// The Store on PostgreSQL: one connection, used by one thread at a time, that connects again by
// itself after the server restarts (the unit of work that found it broken fails; the next one
// reconnects). The same schema steps as SQLite (migrations/postgresql/), the same refusals and
// the same guarantees; the ledger is safe under concurrent writers by row locks (move_chips).
#pragma once

#include "accounts/account.h"
#include "storage/postgres.h"
#include "storage/store.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace felt::server {

// The channel on which nodes tell each other what changed (Store::notify, storage/bulletin.h).
inline constexpr const char* kBulletinChannel = "felt_bulletin";

class PgStore final : public Store {
  public:
    enum class Role {
        // Migrates the schema, takes this node's lease (waiting out the lease of a previous run
        // of the same node that stopped uncleanly), then recovers this node's tables.
        writer,
        reader, // reads beside the writer, on a connection of its own
    };
    // `conninfo`: a postgresql:// URL or libpq's key=value form. `grant`: chips a new account
    // starts with; `life`: how long session tokens live; `node`: this node, for the writer.
    PgStore(const std::string& conninfo, Chips grant, Role role, TokenLife life = {},
            NodeIdentity node = {});

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
    // Adds rows to the statistics, in the open transaction.
    void add_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows, const std::string& day);

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

    Tending tend() override;
    void announce(const std::string& url) override;
    std::optional<std::string> node_url_of(std::int64_t table) override;
    std::optional<std::string> node_url_of_tournament(std::int64_t tournament) override;
    std::vector<TournamentElsewhere> tournaments_elsewhere() override;
    std::vector<SeatElsewhere> seats_elsewhere(std::int64_t account) override;
    void release() override;
    void notify(const std::string& message) override;

    void probe() override;
    void check() override;

    void begin_group() override;
    void commit_group() override;
    void abandon_group() noexcept override;

    // Moves chips into (amount > 0) or out of an account with a ledger row, in the caller's
    // transaction. Refusals: insufficient_chips, no_such_account. Public for the tests.
    std::optional<Refusal> move_chips(std::int64_t account, Chips amount, std::string_view reason);

  private:
    // The connection, connected again first if it broke.
    pg::Connection& db();
    // Takes this node's lease, waiting up to one lease for another run's to lapse.
    void take_lease();
    // Inside tend()'s transaction: the tournaments of a node whose lease lapsed, and their open
    // tables, become this node's (their running hands void), for it to take them up.
    void take_tournaments(const std::string& node, Tending& out);
    // Returns the stacks on the open tables of `node` (and on any open table from before nodes
    // existed) to their owners and voids their running hands, in the caller's transaction. Then
    // the open tables are closed (another node's, whose lease lapsed), or with `keep` become this
    // node's again, kept for left_open() (this node's own, at its start). The tables recovered.
    int recover_tables(const std::string& node, bool keep = false);
    // Throws unless the table is open on this node: a node whose lease was taken writes nothing.
    void check_table(std::int64_t table);
    Account insert_account(std::string_view name, const std::string* hash, bool guest);
    // A tournament change inside the caller's transaction.
    void apply(const TournamentChange& change);
    // The tournament's status, its row locked until the transaction ends; "" when there is none.
    std::string lock_tournament(std::int64_t tournament);

    pg::Connection db_;
    bool in_group_ = false; // a group's transaction is open: a lost connection fails it whole
    Chips grant_;
    TokenLife life_;
    const bool writer_;
    std::vector<OpenTable> left_open_; // this node's tables from its last run
    NodeIdentity node_;
    // Since when this node has reached the database without a failed renewal: it judges other
    // nodes' leases only after a whole lease of this, so that after an outage every node has had
    // the time to renew its own first.
    std::chrono::steady_clock::time_point connected_since_;
};

} // namespace felt::server
