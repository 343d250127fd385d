#include "limits/fair_pool.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace felt::server {

bool FairQueue::push(const std::string& key, Job job) {
    auto& jobs = waiting_[key];
    if (jobs.size() >= most_waiting_) {
        if (jobs.empty()) waiting_.erase(key);
        return false;
    }
    jobs.push_back(std::move(job));
    if (jobs.size() == 1 && !in_pool_.count(key)) turns_.push_back(key);
    return true;
}

std::optional<std::pair<std::string, FairQueue::Job>> FairQueue::next() {
    if (running_ >= slots_ || turns_.empty()) return std::nullopt;
    std::string key = std::move(turns_.front());
    turns_.pop_front();
    auto it = waiting_.find(key);
    Job job = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) waiting_.erase(it);
    in_pool_.insert(key);
    ++running_;
    return std::pair{std::move(key), std::move(job)};
}

void FairQueue::done(const std::string& key) {
    if (!in_pool_.erase(key)) return;
    --running_;
    if (waiting_.count(key)) turns_.push_back(key);
}

std::size_t FairQueue::waiting(const std::string& key) const {
    auto it = waiting_.find(key);
    return it == waiting_.end() ? 0 : it->second.size();
}

bool FairPool::submit(const std::string& key, FairQueue::Job job) {
    std::lock_guard lock(mutex_);
    if (!queue_.push(key, std::move(job))) return false;
    start_next();
    return true;
}

void FairPool::start_next() {
    while (auto next = queue_.next())
        net::post(pool_, [this, key = std::move(next->first), job = std::move(next->second)] {
            try {
                job();
            } catch (const std::exception& e) {
                spdlog::error("a job of {} failed (a bug): {}", key, e.what());
            }
            std::lock_guard lock(mutex_);
            queue_.done(key);
            start_next();
        });
}

} // namespace felt::server
