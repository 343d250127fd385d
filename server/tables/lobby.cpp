#include "tables/lobby.h"

#include "metrics.h"
#include "table_messages.h"
#include "tables/table.h"

#include <algorithm>

namespace felt::server {

void Lobby::add(std::shared_ptr<Table> table, std::int64_t creator) {
    {
        std::lock_guard lock(mutex_);
        if (creator != 0) creators_[table->id()] = creator;
        tables_[table->id()] = table;
        ++metrics_.tables;
    }
    table->open();
}

void Lobby::remove(std::int64_t id) {
    {
        std::lock_guard lock(mutex_);
        if (tables_.erase(id)) --metrics_.tables;
        creators_.erase(id);
    }
    tell(protocol::lobby_closed_json(id));
}

int Lobby::created_by(std::int64_t account) {
    std::lock_guard lock(mutex_);
    return static_cast<int>(std::ranges::count_if(
        creators_, [account](const auto& kv) { return kv.second == account; }));
}

std::shared_ptr<Table> Lobby::find(std::int64_t id) {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Table>> Lobby::all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Table>> out;
    for (auto& [id, t] : tables_) out.push_back(t);
    return out;
}

void Lobby::note_seat(std::int64_t account, std::int64_t table, bool seated) {
    std::lock_guard lock(mutex_);
    auto [first, last] = seated_.equal_range(account);
    for (auto it = first; it != last; ++it)
        if (it->second == table) {
            if (!seated) seated_.erase(it);
            return;
        }
    if (seated) seated_.emplace(account, table);
}

std::vector<std::int64_t> Lobby::seats_of(std::int64_t account) {
    std::lock_guard lock(mutex_);
    std::vector<std::int64_t> out;
    auto [first, last] = seated_.equal_range(account);
    for (auto it = first; it != last; ++it) out.push_back(it->second);
    return out;
}

void Lobby::watch(const std::shared_ptr<Recipient>& r) {
    std::lock_guard lock(mutex_);
    watchers_[r.get()] = r;
}

void Lobby::unwatch(const Recipient* r) {
    std::lock_guard lock(mutex_);
    watchers_.erase(r);
}

bool Lobby::watched() {
    std::lock_guard lock(mutex_);
    return !watchers_.empty();
}

void Lobby::changed(nlohmann::json line) {
    tell(protocol::lobby_changed_json(std::move(line)));
}

void Lobby::tell(const nlohmann::json& message) {
    std::vector<std::shared_ptr<Recipient>> to;
    {
        std::lock_guard lock(mutex_);
        for (auto it = watchers_.begin(); it != watchers_.end();)
            if (auto r = it->second.lock()) {
                to.push_back(std::move(r));
                ++it;
            } else {
                it = watchers_.erase(it);
            }
    }
    if (to.empty()) return;
    auto text = std::make_shared<const std::string>(message.dump());
    for (auto& r : to) r->send(text);
}

} // namespace felt::server
