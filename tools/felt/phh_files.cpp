#include "phh_files.h"

#include <algorithm>
#include <filesystem>

namespace felt::cli {

std::vector<std::string> phh_files(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        if (!fs::is_directory(p)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (const auto& e : fs::recursive_directory_iterator(p)) {
            const auto ext = e.path().extension();
            if (e.is_regular_file() && (ext == ".phh" || ext == ".phhs"))
                found.push_back(e.path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

} // namespace felt::cli
