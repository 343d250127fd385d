#include "state.h"

#include "protocol/table_messages.h"
#include "storage/pg_store.h"
#include "storage/sqlite_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

namespace felt::server {

namespace {

constexpr std::chrono::minutes kLongestBackoff{15};

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "felt";
    return name;
}

// Memory the allocator holds free goes back to the system: jemalloc's arenas purged (feltd links
// it; looked up at run time, as the tests' builds do not), or glibc's heap trimmed.
void return_free_memory() {
    using Mallctl = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
    static const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
    if (mallctl) {
        // MALLCTL_ARENAS_ALL: every arena.
        mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
        return;
    }
    malloc_trim(0);
}

std::unique_ptr<Storage> open_storage(const Config& c, const std::string& node_id,
                                      Metrics& metrics) {
    const TokenLife life{std::chrono::seconds(c.token_idle_s), std::chrono::seconds(c.token_max_s)};
    if (pg::is_postgres(c.db)) {
        NodeIdentity node;
        node.id = node_id;
        node.lease = std::chrono::seconds(c.lease_s);
        return std::make_unique<Storage>(
            std::make_unique<PgStore>(c.db, Chips(c.grant), PgStore::Role::writer, life, node),
            std::make_unique<PgStore>(c.db, Chips(c.grant), PgStore::Role::reader, life), metrics);
    }
    auto writer =
        std::make_unique<SqliteStore>(c.db, Chips(c.grant), SqliteStore::Role::writer, life);
    // A second connection reads beside the writer (WAL); an in-memory database has only one.
    std::unique_ptr<Store> reader;
    if (c.db != ":memory:")
        reader =
            std::make_unique<SqliteStore>(c.db, Chips(c.grant), SqliteStore::Role::reader, life);
    return std::make_unique<Storage>(std::move(writer), std::move(reader), metrics);
}

} // namespace

SharedState::SharedState(Config config)
    : config_(std::move(config)), node_id_(config_.node_id.empty() ? host_name() : config_.node_id),
      storage_(open_storage(config_, node_id_, metrics_)),
      name_failures_(config_.login_attempts, std::chrono::milliseconds(config_.login_backoff_ms),
                     kLongestBackoff),
      address_failures_(4 * config_.login_attempts,
                        std::chrono::milliseconds(config_.login_backoff_ms), kLongestBackoff),
      new_accounts_(config_.accounts_per_hour, std::chrono::hours(1)),
      http_requests_(config_.http_rate, config_.http_burst) {}

bool SharedState::admit(const std::string& address) {
    std::lock_guard lock(sessions_mutex_);
    auto& share = per_address_[address];
    if (!share) share = std::make_shared<AddressShare>();
    if (share->connections >= config_.per_address) return false;
    ++share->connections;
    return true;
}

void SharedState::release(const std::string& address) {
    std::lock_guard lock(sessions_mutex_);
    auto it = per_address_.find(address);
    if (it != per_address_.end() && --it->second->connections <= 0) per_address_.erase(it);
}

std::shared_ptr<AddressShare> SharedState::share_of(const std::string& address) {
    std::lock_guard lock(sessions_mutex_);
    auto& share = per_address_[address];
    if (!share) share = std::make_shared<AddressShare>();
    return share;
}

void SharedState::shed(const AddressShare* share) {
    std::vector<std::pair<std::size_t, std::shared_ptr<Connection>>> held;
    std::size_t kept = 0; // queued for the connections not being dropped already
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [raw, weak] : sessions_) {
            auto c = weak.lock();
            if (!c || (share && c->share() != share) || c->dropping()) continue;
            const std::size_t q = c->queued();
            kept += q;
            if (q > 0) held.emplace_back(q, std::move(c));
        }
    }
    const auto budget = static_cast<std::size_t>(share ? config_.write_queue_per_address
                                                       : config_.write_queue_total);
    if (kept <= budget) return;
    spdlog::warn("{} bytes queued for clients{}, over the budget of {}: the clients with the most "
                 "waiting are dropped",
                 kept, share ? " of one address" : "", budget);
    std::sort(held.begin(), held.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [q, c] : held) {
        if (kept <= budget) break;
        c->drop();
        kept -= q;
    }
}

void SharedState::release_memory_soon() {
    if (!ioc_ || releasing_.exchange(true)) return;
    auto t = std::make_shared<net::steady_timer>(*ioc_, std::chrono::milliseconds(100));
    t->async_wait([this, t](error_code) {
        releasing_ = false;
        return_free_memory();
    });
}

void SharedState::join(Connection* c, std::weak_ptr<Connection> w) {
    std::lock_guard lock(sessions_mutex_);
    sessions_[c] = std::move(w);
}

void SharedState::leave(Connection* c) {
    std::lock_guard lock(sessions_mutex_);
    sessions_.erase(c);
}

int SharedState::close_all() {
    std::vector<std::shared_ptr<Connection>> open;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [raw, weak] : sessions_)
            if (auto s = weak.lock()) open.push_back(std::move(s));
    }
    for (auto& s : open) s->close();
    return static_cast<int>(open.size());
}

void SharedState::sign_out(const SignOut& which, const Connection* skip) {
    sign_out_here(which, skip);
    publish({{"kind", "sign_out"},
             {"account", which.account},
             {"token_hash", which.token_hash},
             {"other_tokens", which.other_tokens},
             {"reason", which.reason}});
}

std::vector<std::shared_ptr<Connection>> SharedState::open_connections() {
    std::vector<std::shared_ptr<Connection>> open;
    std::lock_guard lock(sessions_mutex_);
    for (auto& [raw, weak] : sessions_)
        if (auto s = weak.lock()) open.push_back(std::move(s));
    return open;
}

void SharedState::sign_out_here(const SignOut& which, const Connection* skip) {
    for (auto& s : open_connections())
        if (s.get() != skip) s->sign_out(which);
}

void SharedState::balance_changed(std::int64_t account, Chips balance) {
    balance_here(account, balance);
    publish({{"kind", "balance"}, {"account", account}, {"balance", balance}});
}

void SharedState::balance_here(std::int64_t account, Chips balance) {
    for (auto& s : open_connections()) s->balance(account, balance);
}

TournamentOutlet SharedState::tournament_outlet() {
    return {[this](std::shared_ptr<const TournamentNews> news) {
        for (auto& s : open_connections()) s->news(news);
    }};
}

void SharedState::join_cluster(const std::string& url) {
    lobby_.join_cluster(url, [this](protocol::json m) { publish(std::move(m)); });
    Bulletin::Handlers on;
    on.tables = [this](std::vector<RemoteTable> tables) {
        std::map<std::int64_t, protocol::json> lines;
        for (const RemoteTable& t : tables) {
            auto config = protocol::json::parse(t.config, nullptr, false);
            if (!config.is_object()) continue; // not written by feltd
            auto line = protocol::lobby_line_json(t.id, std::move(config), t.taken, 0);
            line["url"] = t.url;
            lines.emplace(t.id, std::move(line));
        }
        lobby_.remote_tables(std::move(lines));
    };
    on.message = [this](const std::string& m) { heard(m); };
    bulletin_ = std::make_unique<Bulletin>(config_.db, node_id_, std::move(on));
}

void SharedState::publish(protocol::json message) {
    if (!bulletin_) return;
    message["node"] = node_id_;
    storage_->read(
        [text = message.dump()](Store& s) {
            s.notify(text);
            return true;
        },
        workers_.get_executor(), [](std::optional<bool>) {});
}

void SharedState::heard(const std::string& text) {
    const auto m = protocol::json::parse(text, nullptr, false);
    auto field = [&m](const char* key, protocol::json::value_t type) -> const protocol::json* {
        if (!m.is_object()) return nullptr;
        auto it = m.find(key);
        return it != m.end() && it->type() == type ? &*it : nullptr;
    };
    using T = protocol::json::value_t;
    const auto* node = field("node", T::string);
    const auto* kind = field("kind", T::string);
    if (node && *node == node_id_) return; // this node's own
    const auto* table = field("table", T::object);
    auto integer = [&m](const char* key) -> std::optional<std::int64_t> {
        if (!m.is_object() || !m.contains(key) || !m[key].is_number_integer()) return {};
        return m[key].get<std::int64_t>();
    };
    const auto id = integer("id"), account = integer("account");
    const auto* token = field("token_hash", T::string);
    const auto* others = field("other_tokens", T::boolean);
    const auto* reason = field("reason", T::string);
    if (kind && *kind == "changed" && table && table->contains("id") &&
        (*table)["id"].is_number_integer())
        return lobby_.remote_changed(*table);
    if (kind && *kind == "closed" && id) return lobby_.remote_closed(*id);
    if (const auto balance = integer("balance"); kind && *kind == "balance" && account && balance)
        return balance_here(*account, Chips(*balance));
    if (kind && *kind == "sign_out" && account && token && others && reason)
        return sign_out_here(
            {*account, token->get<std::string>(), others->get<bool>(), reason->get<std::string>()},
            nullptr);
    spdlog::warn("a message from another node that this node does not understand: {}",
                 text.substr(0, 200));
}

} // namespace felt::server
