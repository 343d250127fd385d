#include "metrics.h"

#include <cstdio>

namespace felt::server {

void Histogram::observe(double seconds) {
    std::size_t i = 0;
    while (i < kBounds.size() && seconds > kBounds[i]) ++i;
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    sum_ns_.fetch_add(static_cast<std::uint64_t>(seconds * 1e9), std::memory_order_relaxed);
}

void Histogram::render(std::string& out, const char* name, const char* help) const {
    char line[160];
    std::snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    out += line;
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= kBounds.size(); ++i) {
        cumulative += buckets_[i].load(std::memory_order_relaxed);
        if (i < kBounds.size())
            std::snprintf(line, sizeof line, "%s_bucket{le=\"%g\"} %llu\n", name, kBounds[i],
                          static_cast<unsigned long long>(cumulative));
        else
            std::snprintf(line, sizeof line, "%s_bucket{le=\"+Inf\"} %llu\n", name,
                          static_cast<unsigned long long>(cumulative));
        out += line;
    }
    std::snprintf(line, sizeof line, "%s_sum %.9f\n%s_count %llu\n", name,
                  static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9, name,
                  static_cast<unsigned long long>(count_.load(std::memory_order_relaxed)));
    out += line;
}

std::string Metrics::render() const {
    std::string out;
    char line[200];
    auto metric = [&](const char* name, const char* type, const char* help, long long v) {
        std::snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s %s\n%s %lld\n", name, help, name,
                      type, name, v);
        out += line;
    };
    metric("felt_connections", "gauge", "Open WebSocket connections", connections.load());
    metric("felt_tables", "gauge", "Tables open", tables.load());
    metric("felt_hands_played_total", "counter", "Hands played to the end",
           static_cast<long long>(hands_played.load()));
    metric("felt_messages_in_total", "counter", "WebSocket messages received",
           static_cast<long long>(messages_in.load()));
    metric("felt_messages_out_total", "counter", "WebSocket messages sent",
           static_cast<long long>(messages_out.load()));
    metric("felt_http_requests_total", "counter", "HTTP requests answered",
           static_cast<long long>(http_requests.load()));
    metric("felt_http_refused_total", "counter",
           "HTTP connections closed at once because too many were open",
           static_cast<long long>(http_refused.load()));
    metric("felt_storage_failures_total", "counter", "Database writes that failed",
           static_cast<long long>(storage_failures.load()));
    metric("felt_storage_commits_total", "counter", "Write transactions committed",
           static_cast<long long>(storage_commits.load()));
    metric("felt_storage_writes_total", "counter",
           "Writes committed (several share a transaction under group commit)",
           static_cast<long long>(storage_writes.load()));
    metric("felt_hands_void_total", "counter", "Hands void because they could not be stored",
           static_cast<long long>(hands_void.load()));
    request_latency.render(out, "felt_request_latency_seconds",
                           "From a request's arrival to its reply being queued");
    db_write.render(out, "felt_db_write_seconds", "One database write transaction");
    return out;
}

} // namespace felt::server
