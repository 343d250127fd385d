// What the reducer harnesses share: the fuzzer's bytes read one at a time, and a check that stops
// the run (libFuzzer reports the abort with its input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace felt::fuzz {

// The fuzzer's bytes, read one at a time; zeros once they run out.
class Bytes {
  public:
    Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    unsigned next() { return at_ < size_ ? data_[at_++] : 0; }
    bool done() const { return at_ >= size_; }

  private:
    const std::uint8_t* data_;
    std::size_t size_, at_ = 0;
};

inline void check(bool ok) {
    if (!ok) std::abort();
}

} // namespace felt::fuzz
