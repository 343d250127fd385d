// Storage off the event loop: a writer thread that owns the Store writes go to, and a reader
// thread beside it for history and sign-in lookups. A table strand or a connection hands over a
// unit of work and gets the result posted back to its own executor; it never waits on a disk.
//
// Writes queued together are committed together (group commit): one transaction for all of them,
// and each one's result is posted only after that commit, so a hand's end is durable before its
// chips can be seen, spent or cashed out anywhere. If the group fails, it is rolled back and each
// write runs again alone, so that one failing write does not take the others down with it.
//
// Writes run in the order they were queued. A write that fails marks storage as failing: the log
// names the cause once, /healthz reports it, and the next write that succeeds clears it.
#pragma once

#include "metrics.h"
#include "storage/store.h"

#include <boost/asio/post.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace felt::server {

class Storage {
  public:
    // The most writes committed in one transaction.
    static constexpr std::size_t kMaxGroup = 256;

    // `reader` may be null (an in-memory database has no second connection): reads then queue
    // behind the writes on the writer.
    Storage(std::unique_ptr<Store> writer, std::unique_ptr<Store> reader, Metrics& metrics);
    // Runs every write already queued, then stops the threads.
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    // Runs job(store) on the writer and posts done(std::optional<R>) to `ex`: the job's result
    // once committed, or empty when storage failed and nothing was written.
    template <class Job, class Executor, class Done>
    void write(Job job, const Executor& ex, Done done) {
        submit(writer_, std::move(job), ex, std::move(done));
    }
    // The same, in a transaction of its own: never grouped with other writes, so that it runs
    // once, and a failure is its own (a job that changes memory too, and takes it back when its
    // write fails).
    template <class Job, class Executor, class Done>
    void write_alone(Job job, const Executor& ex, Done done) {
        submit(writer_, std::move(job), ex, std::move(done), true);
    }
    // The same for a unit of work that changes nothing, on the reader.
    template <class Job, class Executor, class Done>
    void read(Job job, const Executor& ex, Done done) {
        submit(reader_ ? *reader_ : writer_, std::move(job), ex, std::move(done));
    }

    // A new hand's id, from this node's block (a new block is reserved when it runs out). On
    // the writer only: inside a unit of work, with its Store.
    std::int64_t take_hand_id(Store& writer);

    // Why storage is failing now (the first error since it last worked), or nothing while it
    // works. For /healthz.
    std::optional<std::string> failure() const;
    bool failing() const { return failing_.load(std::memory_order_relaxed); }
    // While failing: whether a probe write (/healthz) may run now. At most one a second, however
    // many ask: between probes, the answer is the last one's.
    bool probe_due(std::chrono::steady_clock::time_point now);

    // Waits until every write queued before the call has run (and its result been posted).
    void drain();

  private:
    struct Job {
        std::function<void(Store&)> run;
        std::function<void(bool ok)> done;
        bool alone = false;
    };
    struct Worker {
        std::unique_ptr<Store> store;
        bool writes; // groups its jobs, and tracks whether storage is failing
        std::mutex mutex;
        std::condition_variable wake, idle;
        std::deque<Job> queue;
        std::uint64_t queued = 0, finished = 0;
        bool stop = false;
        std::thread thread;
    };

    template <class F, class Executor, class Done>
    void submit(Worker& w, F job, const Executor& ex, Done done, bool alone = false) {
        using R = std::invoke_result_t<F&, Store&>;
        static_assert(!std::is_void_v<R>, "a unit of work returns its result");
        auto result = std::make_shared<std::optional<R>>();
        push(w, Job{[job = std::move(job), result](Store& s) mutable { result->emplace(job(s)); },
                    [ex, done = std::move(done), result](bool ok) mutable {
                        if (!ok) result->reset();
                        boost::asio::post(ex, [done = std::move(done), result]() mutable {
                            done(std::move(*result));
                        });
                    },
                    alone});
    }
    void push(Worker& w, Job job);
    void loop(Worker& w);
    void run_group(Worker& w, std::deque<Job>& jobs);
    void run_alone(Worker& w, Job& job);
    void works();
    void fails(const std::string& cause);

    Metrics& metrics_;
    Worker writer_;
    std::unique_ptr<Worker> reader_;
    std::int64_t next_hand_id_ = 0, end_hand_id_ = 0; // this node's block; the writer's alone
    std::atomic<bool> failing_{false};
    std::atomic<std::chrono::steady_clock::rep> next_probe_{0}; // steady_clock ticks
    mutable std::mutex failure_mutex_;
    std::string failure_; // the cause, while failing_
};

} // namespace felt::server
