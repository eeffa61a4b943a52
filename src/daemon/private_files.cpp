#include "daemon/private_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dissem::daemon {
namespace {

std::runtime_error failure(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// mkdir -p, each directory created with `mode` (chmod afterwards: the umask
// may have masked bits off).
void create_directories(const std::filesystem::path& dir, mode_t mode) {
  if (dir.empty() || std::filesystem::exists(dir)) return;
  create_directories(dir.parent_path(), mode);
  if (::mkdir(dir.c_str(), mode) != 0) {
    if (errno == EEXIST) return;  // created concurrently
    throw failure("cannot create directory '" + dir.string() + "'");
  }
  if (::chmod(dir.c_str(), mode) != 0) throw failure("cannot set the mode of '" + dir.string() + "'");
}

// A directory holding the daemon's files: writable by its owner only, and
// under /tmp (where anyone can create names) owned by us.
void check_directory(const std::filesystem::path& dir, const char* holds) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) throw failure(std::string("cannot inspect the ") + holds + " directory '" + dir.string() + "'");
  if (!S_ISDIR(st.st_mode)) throw std::runtime_error(std::string("the ") + holds + " directory '" + dir.string() + "' is not a directory");
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    throw std::runtime_error(std::string("the ") + holds + " directory '" + dir.string() +
                             "' is writable by other users; refusing to use it (chmod go-w, or choose another)");
  if (dir.string().rfind("/tmp/", 0) == 0 && st.st_uid != ::geteuid())
    throw std::runtime_error(std::string("the ") + holds + " directory '" + dir.string() +
                             "' is not owned by this user; refusing to use it");
}

// `path` private to us if it exists and is ours.
void make_private(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return;
  if ((st.st_mode & 0077) != 0 && ::chmod(path.c_str(), 0600) != 0) throw failure("cannot set the mode of '" + path + "'");
}

// The payload directory beside the cache (cache/payload_files.h), if it
// exists: a real directory of ours, private to us.
void check_payload_directory(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // made with the first payload file, mode 0700
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
    throw std::runtime_error("the cache payload directory '" + path +
                             "' is not a directory of this user; refusing to use it");
  if ((st.st_mode & 0077) != 0 && ::chmod(path.c_str(), 0700) != 0)
    throw failure("cannot set the mode of '" + path + "'");
}

}  // namespace

void prepare_cache_files(const std::string& db_path) {
  if (db_path.empty() || db_path == ":memory:" || db_path.rfind("file:", 0) == 0) return;
  const std::filesystem::path dir = std::filesystem::absolute(db_path).parent_path();
  create_directories(dir, 0700);
  check_directory(dir, "cache");
  const int fd = ::open(db_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) throw failure("cannot create the cache file '" + db_path + "'");
  ::close(fd);
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) make_private(db_path + suffix);
  check_payload_directory(db_path + "-payload");
}

void prepare_socket_directory(const std::filesystem::path& dir) {
  if (dir.empty()) return;
  const std::filesystem::path abs = std::filesystem::absolute(dir);
  create_directories(abs, 0755);
  check_directory(abs, "socket");
}

}  // namespace dissem::daemon
