// The server's counters, gauges and histograms, rendered as Prometheus text for GET /metrics.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace felt::server {

// A histogram of durations in seconds, over fixed buckets; safe from any thread.
class Histogram {
  public:
    static constexpr std::array<double, 10> kBounds = {0.0001, 0.00025, 0.0005, 0.001, 0.0025,
                                                       0.005,  0.01,    0.025,  0.1,   1.0};
    void observe(double seconds);
    // name_bucket{le="..."} lines, name_sum and name_count.
    void render(std::string& out, const char* name, const char* help) const;

  private:
    std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};
    std::atomic<std::uint64_t> count_{0};
    std::atomic<std::uint64_t> sum_ns_{0};
};

struct Metrics {
    std::atomic<std::int64_t> connections{0}; // open WebSocket connections
    std::atomic<std::int64_t> tables{0};
    std::atomic<std::uint64_t> hands_played{0};
    std::atomic<std::uint64_t> messages_in{0};
    std::atomic<std::uint64_t> messages_out{0};
    std::atomic<std::uint64_t> http_requests{0};
    std::atomic<std::uint64_t> http_refused{0};     // connections closed at once: too many open
    std::atomic<std::uint64_t> storage_failures{0}; // database writes that failed
    std::atomic<std::uint64_t> hands_void{0};       // hands voided because they could not be stored
    std::atomic<std::uint64_t> storage_commits{0};  // write transactions committed
    std::atomic<std::uint64_t> storage_writes{0};   // units of work in them (group commit)
    Histogram request_latency; // from a request's arrival to its reply being queued
    Histogram db_write;        // one write transaction (a group, or one write alone)

    std::string render() const;
};

} // namespace felt::server
