// libFuzzer: a PHH hand history (engine/poker/phh.h), replayed. Text that is not a hand the
// engine can play is an error, never a crash.
#include "poker/phh.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)felt::poker::replay_phh(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
