#include "paths.h"

namespace felt::test {

const std::string& feltd_path() {
    static const std::string path = FELTD_PATH;
    return path;
}

const std::string& felt_path() {
    static const std::string path = FELT_PATH;
    return path;
}

const std::string& source_dir() {
    static const std::string dir = FELT_SOURCE_DIR;
    return dir;
}

} // namespace felt::test
