// Limits that keep one address or one name from wearing the server down: backoff after failed
// sign-ins, and a cap on new accounts in a window. Shared by every connection, so thread-safe.
#pragma once

#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace felt::server {

using SteadyTime = std::chrono::steady_clock::time_point;

// The key an address counts under in every limit kept by address: an IPv4 address as it is (and
// an IPv4-mapped IPv6 address, ::ffff:a.b.c.d, as that IPv4 address); an IPv6 address by its
// first `ipv6_prefix` bits, as "2001:db8:1:2::/64", since one subscriber commonly holds a whole
// /64 (2^64 addresses).
std::string address_key(const boost::asio::ip::address& address, int ipv6_prefix);

// Failures by key (an address, or a name). The first `free` failures cost nothing; each one after
// makes the key wait, `first` after the first of them and twice as long after each further one,
// up to `most`. A success forgets the key, and so does a pause longer than `most` between two
// failures; keys that failed long ago are swept out, so the map holds only recent failures.
class Backoff {
  public:
    Backoff(int free, std::chrono::milliseconds first, std::chrono::milliseconds most)
        : free_(free), first_(first), most_(most) {}

    // How long the key must still wait (zero: it may try now).
    std::chrono::milliseconds wait(const std::string& key, SteadyTime now);
    void fail(const std::string& key, SteadyTime now);
    void succeed(const std::string& key);

  private:
    struct Entry {
        int failures = 0;
        SteadyTime last{};  // the last failure
        SteadyTime until{}; // the wait ends
    };
    void prune(SteadyTime now);

    const int free_;
    const std::chrono::milliseconds first_, most_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
};

// A token bucket by key: `rate` a second, up to `burst` at once.
class RateByKey {
  public:
    RateByKey(double rate, double burst) : rate_(rate), burst_(burst) {}

    // Takes a token and returns true, or returns false when the key has none left.
    bool take(const std::string& key, SteadyTime now);

  private:
    struct Bucket {
        double tokens = 0;
        SteadyTime refilled{};
    };
    const double rate_, burst_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

// At most `count` events by key in any `window` (a sliding window).
class WindowCap {
  public:
    WindowCap(int count, std::chrono::seconds window) : count_(count), window_(window) {}

    // Counts the event and returns true, or returns false (counting nothing) when the key is full.
    bool take(const std::string& key, SteadyTime now);

  private:
    const int count_;
    const std::chrono::seconds window_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::deque<SteadyTime>> events_;
};

} // namespace felt::server
