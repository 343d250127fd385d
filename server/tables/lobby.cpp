#include "tables/lobby.h"

#include "metrics.h"
#include "protocol/table_messages.h"
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
    std::function<void(nlohmann::json)> publish;
    {
        std::lock_guard lock(mutex_);
        if (tables_.erase(id)) --metrics_.tables;
        creators_.erase(id);
        publish = publish_;
    }
    auto message = protocol::lobby_closed_json(id);
    tell(message);
    if (publish) publish(std::move(message));
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
    return !watchers_.empty() || publish_;
}

void Lobby::changed(nlohmann::json line) {
    std::function<void(nlohmann::json)> publish;
    {
        std::lock_guard lock(mutex_);
        if (!url_.empty()) line["url"] = url_;
        publish = publish_;
    }
    auto message = protocol::lobby_changed_json(std::move(line));
    tell(message);
    if (publish) publish(std::move(message));
}

std::pair<nlohmann::json, nlohmann::json> Lobby::lines(std::int64_t after, std::int64_t limit) {
    std::map<std::int64_t, nlohmann::json> all; // the first limit + 1 of each node's, by id
    std::string url;
    {
        std::lock_guard lock(mutex_);
        std::int64_t n = 0;
        for (auto it = remote_.upper_bound(after); it != remote_.end() && n++ <= limit; ++it)
            all.insert(*it);
        url = url_;
    }
    std::int64_t n = 0;
    for (auto& t : this->all()) {
        if (t->id() <= after) continue;
        if (n++ > limit) break;
        auto line = t->lobby_line();
        if (!url.empty()) line["url"] = url;
        all.emplace(t->id(), std::move(line));
    }
    nlohmann::json list = nlohmann::json::array(), next = nullptr;
    for (auto& [id, line] : all) {
        if (static_cast<std::int64_t>(list.size()) == limit) {
            next = list.back()["id"];
            break;
        }
        list.push_back(std::move(line));
    }
    return {std::move(list), std::move(next)};
}

void Lobby::join_cluster(std::string url, std::function<void(nlohmann::json)> publish) {
    std::lock_guard lock(mutex_);
    url_ = std::move(url);
    publish_ = std::move(publish);
}

void Lobby::remote_tables(std::map<std::int64_t, nlohmann::json> lines) {
    std::vector<nlohmann::json> told;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, line] : remote_)
            if (!lines.contains(id)) told.push_back(protocol::lobby_closed_json(id));
        for (auto& [id, line] : lines)
            if (auto it = remote_.find(id); it == remote_.end() || it->second != line)
                told.push_back(protocol::lobby_changed_json(line));
        remote_ = std::move(lines);
    }
    for (auto& m : told) tell(m);
}

void Lobby::remote_changed(nlohmann::json line) {
    const std::int64_t id = line["id"];
    {
        std::lock_guard lock(mutex_);
        if (tables_.contains(id)) return; // this node's own: never another's
        remote_[id] = line;
    }
    tell(protocol::lobby_changed_json(std::move(line)));
}

void Lobby::remote_closed(std::int64_t id) {
    {
        std::lock_guard lock(mutex_);
        if (!remote_.erase(id)) return;
    }
    tell(protocol::lobby_closed_json(id));
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
    for (auto& r : to) r->send_later(text); // never ahead of a reply (recipient.h)
}

} // namespace felt::server
