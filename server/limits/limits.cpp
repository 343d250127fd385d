#include "limits/limits.h"

#include <algorithm>

namespace felt::server {

std::string address_key(const boost::asio::ip::address& address, int ipv6_prefix) {
    if (!address.is_v6()) return address.to_string();
    const boost::asio::ip::address_v6 v6 = address.to_v6();
    if (v6.is_v4_mapped())
        return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
    if (ipv6_prefix >= 128) return v6.to_string();
    auto bytes = v6.to_bytes();
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const int keep = std::clamp(ipv6_prefix - 8 * static_cast<int>(i), 0, 8);
        bytes[i] = static_cast<unsigned char>(bytes[i] & (0xff00 >> keep));
    }
    return boost::asio::ip::address_v6(bytes).to_string() + "/" + std::to_string(ipv6_prefix);
}

namespace {

constexpr std::size_t kPruneAbove = 10'000; // keys kept before expired ones are swept

} // namespace

std::chrono::milliseconds Backoff::wait(const std::string& key, SteadyTime now) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.until <= now) return std::chrono::milliseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(it->second.until - now);
}

void Backoff::fail(const std::string& key, SteadyTime now) {
    std::lock_guard lock(mutex_);
    if (entries_.size() > kPruneAbove) prune(now);
    Entry& e = entries_[key];
    if (e.last + most_ < now) e.failures = 0; // its earlier failures are long past
    e.last = now;
    ++e.failures;
    if (e.failures <= free_) return;
    auto wait = first_;
    for (int i = free_ + 1; i < e.failures && wait < most_; ++i) wait *= 2;
    e.until = now + std::min(wait, most_);
}

void Backoff::succeed(const std::string& key) {
    std::lock_guard lock(mutex_);
    entries_.erase(key);
}

// Forgets keys whose last failure is older than the longest wait: they would start afresh.
void Backoff::prune(SteadyTime now) {
    std::erase_if(entries_, [&](const auto& kv) { return kv.second.last + most_ < now; });
}

bool RateByKey::take(const std::string& key, SteadyTime now) {
    std::lock_guard lock(mutex_);
    if (buckets_.size() > kPruneAbove) // full buckets hold nothing worth keeping
        std::erase_if(buckets_, [&](const auto& kv) {
            return kv.second.tokens +
                       std::chrono::duration<double>(now - kv.second.refilled).count() * rate_ >=
                   burst_;
        });
    auto [it, fresh] = buckets_.try_emplace(key, Bucket{burst_, now});
    Bucket& b = it->second;
    b.tokens = std::min(burst_,
                        b.tokens + std::chrono::duration<double>(now - b.refilled).count() * rate_);
    b.refilled = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
}

bool WindowCap::take(const std::string& key, SteadyTime now) {
    std::lock_guard lock(mutex_);
    if (events_.size() > kPruneAbove)
        std::erase_if(events_, [&](const auto& kv) {
            return kv.second.empty() || kv.second.back() + window_ < now;
        });
    std::deque<SteadyTime>& times = events_[key];
    while (!times.empty() && times.front() + window_ <= now) times.pop_front();
    if (static_cast<int>(times.size()) >= count_) return false;
    times.push_back(now);
    return true;
}

} // namespace felt::server
