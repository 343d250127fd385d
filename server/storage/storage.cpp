#include "storage/storage.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace felt::server {

namespace {

struct Timer {
    Histogram& h;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~Timer() {
        h.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
};

} // namespace

Storage::Storage(std::unique_ptr<Store> writer, std::unique_ptr<Store> reader, Metrics& metrics)
    : metrics_(metrics) {
    writer_.store = std::move(writer);
    writer_.writes = true;
    if (auto why = writer_.store->unready()) fails(*why);
    writer_.thread = std::thread([this] { loop(writer_); });
    if (reader) {
        reader_ = std::make_unique<Worker>();
        reader_->store = std::move(reader);
        reader_->writes = false;
        reader_->thread = std::thread([this] { loop(*reader_); });
    }
}

Storage::~Storage() {
    for (Worker* w : {&writer_, reader_.get()}) {
        if (!w) continue;
        {
            std::lock_guard lock(w->mutex);
            w->stop = true;
        }
        w->wake.notify_one();
        w->thread.join();
    }
}

std::int64_t Storage::take_hand_id(Store& writer) {
    if (next_hand_id_ == end_hand_id_) {
        const auto [first, count] = writer.reserve_hand_ids();
        next_hand_id_ = first;
        end_hand_id_ = first + count;
    }
    return next_hand_id_++;
}

void Storage::push(Worker& w, Job job) {
    {
        std::lock_guard lock(w.mutex);
        w.queue.push_back(std::move(job));
        ++w.queued;
    }
    w.wake.notify_one();
}

void Storage::drain() {
    std::unique_lock lock(writer_.mutex);
    const std::uint64_t until = writer_.queued;
    writer_.idle.wait(lock, [&] { return writer_.finished >= until; });
}

// Takes everything queued (up to kMaxGroup), runs it, and goes back for more; stops once asked to
// and nothing is left.
void Storage::loop(Worker& w) {
    std::deque<Job> jobs;
    for (;;) {
        {
            std::unique_lock lock(w.mutex);
            w.wake.wait(lock, [&] { return w.stop || !w.queue.empty(); });
            if (w.queue.empty()) return;
            // A group ends before a job that runs alone; that one runs by itself.
            std::size_t n = 1;
            if (w.writes && !w.queue.front().alone)
                while (n < std::min(w.queue.size(), kMaxGroup) && !w.queue[n].alone) ++n;
            for (std::size_t i = 0; i < n; ++i) {
                jobs.push_back(std::move(w.queue.front()));
                w.queue.pop_front();
            }
        }
        if (jobs.size() > 1)
            run_group(w, jobs);
        else
            run_alone(w, jobs.front());
        const std::size_t n = jobs.size();
        jobs.clear();
        {
            std::lock_guard lock(w.mutex);
            w.finished += n;
        }
        w.idle.notify_all();
    }
}

void Storage::run_group(Worker& w, std::deque<Job>& jobs) {
    {
        Timer t(metrics_.db_write);
        try {
            w.store->ready();
            w.store->begin_group();
            for (Job& j : jobs) j.run(*w.store);
            w.store->commit_group();
        } catch (const std::exception& e) {
            w.store->abandon_group();
            spdlog::debug("a group of {} writes failed ({}): each runs alone", jobs.size(),
                          e.what());
            for (Job& j : jobs) run_alone(w, j);
            return;
        }
    }
    ++metrics_.storage_commits;
    metrics_.storage_writes += jobs.size();
    works();
    for (Job& j : jobs) j.done(true);
}

void Storage::run_alone(Worker& w, Job& job) {
    bool ok = true;
    {
        std::optional<Timer> t;
        if (w.writes) t.emplace(metrics_.db_write);
        try {
            if (w.writes) w.store->ready();
            job.run(*w.store);
        } catch (const std::exception& e) {
            ok = false;
            if (w.writes)
                fails(e.what());
            else
                spdlog::warn("a read failed: {}", e.what());
        }
    }
    if (ok && w.writes) {
        ++metrics_.storage_commits;
        ++metrics_.storage_writes;
        works();
    }
    job.done(ok);
}

bool Storage::probe_due(std::chrono::steady_clock::time_point now) {
    auto due = next_probe_.load(std::memory_order_relaxed);
    const auto ticks = now.time_since_epoch().count();
    if (ticks < due) return false;
    const auto next =
        (now + std::chrono::seconds(1)).time_since_epoch().count(); // one wins a second
    return next_probe_.compare_exchange_strong(due, next, std::memory_order_relaxed);
}

std::optional<std::string> Storage::failure() const {
    if (!failing()) return std::nullopt;
    std::lock_guard lock(failure_mutex_);
    return failure_;
}

void Storage::works() {
    if (!failing_.load(std::memory_order_relaxed)) return;
    std::lock_guard lock(failure_mutex_);
    if (!failing_) return;
    failing_ = false;
    spdlog::warn("storage works again (it failed with: {})", failure_);
    failure_.clear();
}

void Storage::fails(const std::string& cause) {
    ++metrics_.storage_failures;
    std::lock_guard lock(failure_mutex_);
    if (failing_) return;
    failure_ = cause;
    failing_ = true;
    spdlog::error("storage is failing: {} (tables pause; refused or void until it works again)",
                  cause);
}

} // namespace felt::server
