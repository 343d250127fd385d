// What the felt subcommands share: how a problem reaches the user.
#pragma once

#include "result.h"

#include <string>
#include <utility>

namespace felt::cli {

// A problem with the command line or its cards: reported in main, exit status 2.
struct UsageError {
    std::string message;
};

template <class T>
T unwrap(Result<T> r) {
    if (!r) throw UsageError{r.error().message};
    return std::move(r).value();
}

} // namespace felt::cli
