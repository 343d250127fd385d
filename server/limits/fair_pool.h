// Slow work from many keys (password hashing, by address) on a few threads, fairly: each key has
// at most one job in the pool, waiting or running, at a time. Its further jobs wait in a queue of
// its own, outside the pool, at most `most_waiting` of them, and the keys with jobs waiting take
// turns (round-robin). One address flooding the pool then delays only itself.
#pragma once

#include "io.h"

#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace felt::server {

// The order alone, with no threads: which job starts next.
class FairQueue {
  public:
    using Job = std::function<void()>;

    // `slots`: jobs running at once.
    FairQueue(std::size_t slots, std::size_t most_waiting)
        : slots_(slots), most_waiting_(most_waiting) {}

    // Queues a job for `key`: false (nothing queued) when `key` has most_waiting jobs waiting.
    bool push(const std::string& key, Job job);
    // The next job to start, with its key, while a slot is free: from the key whose turn it is,
    // which then has a job in the pool until done(key).
    std::optional<std::pair<std::string, Job>> next();
    // A job of `key` has ended, and freed its slot; the key's next job goes to the back of the
    // line.
    void done(const std::string& key);

    std::size_t waiting(const std::string& key) const;

  private:
    const std::size_t slots_, most_waiting_;
    std::size_t running_ = 0;
    std::unordered_map<std::string, std::deque<Job>> waiting_; // keys with jobs waiting
    std::unordered_set<std::string> in_pool_;                  // keys with a job running
    std::deque<std::string> turns_; // keys with jobs waiting and none running, in turn
};

// A FairQueue whose jobs run on a thread pool; thread-safe.
class FairPool {
  public:
    FairPool(net::thread_pool& pool, std::size_t slots, std::size_t most_waiting)
        : pool_(pool), queue_(slots, most_waiting) {}

    // Runs `job` on the pool in `key`'s turn: false (nothing queued) when the key has too many
    // jobs waiting.
    bool submit(const std::string& key, FairQueue::Job job);

  private:
    void start_next(); // with mutex_ held

    net::thread_pool& pool_;
    std::mutex mutex_;
    FairQueue queue_;
};

} // namespace felt::server
