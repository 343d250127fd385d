#pragma once
// Where the tests find feltd, the source tree and their data. The folders are compiled into
// paths.cpp alone, so that a build of a clone in another folder compiles that one file again and
// a compiler cache (docs/benchmarks.md, "The test command's time") keeps every other.
#include <string>

namespace felt::test {

const std::string& feltd_path(); // the feltd this build made
const std::string& felt_path();  // the felt command this build made
const std::string& source_dir(); // the source tree's root

// A file of the tests' own data, by its path under tests/ ("data/tls_test_cert.pem").
inline std::string test_file(const std::string& path) {
    return source_dir() + "/tests/" + path;
}

} // namespace felt::test
