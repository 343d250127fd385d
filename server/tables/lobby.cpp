#include "tables/lobby.h"

#include "metrics.h"
#include "tables/table.h"

namespace felt::server {

void Lobby::add(std::shared_ptr<Table> table) {
    std::lock_guard lock(mutex_);
    tables_[table->id()] = std::move(table);
    ++metrics_.tables;
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

} // namespace felt::server
