// The hand histories a felt command is given: files as named, folders as every .phh and .phhs
// file under them (sorted), in the order given. `felt replay` and `felt stats` read them.
#pragma once

#include <string>
#include <vector>

namespace felt::cli {

std::vector<std::string> phh_files(const std::vector<std::string>& paths);

} // namespace felt::cli
