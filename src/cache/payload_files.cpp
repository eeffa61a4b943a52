#include "cache/payload_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace dissem::cache {
namespace {

// Descriptors kept open: a node receives few large messages at once, and one
// open() per file per burst would cost more than the write it serves.
constexpr std::size_t kMaxOpen = 16;

}  // namespace

PayloadFiles::PayloadFiles(std::filesystem::path dir) : dir_(std::move(dir)) {
  struct stat st {};
  if (::stat(dir_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    throw StoreError("cache payload directory '" + dir_.string() + "': exists and is not a directory");
}

PayloadFiles::~PayloadFiles() {
  for (auto& [number, open] : open_) ::close(open.fd);
}

std::filesystem::path PayloadFiles::path_of(std::int64_t file) const { return dir_ / std::to_string(file); }

void PayloadFiles::fail(const std::string& what, std::int64_t file, int err) const {
  throw StoreError("cache payload file '" + path_of(file).string() + "': " + what + ": " + std::strerror(err));
}

int PayloadFiles::fd_of(std::int64_t file, bool create) {
  if (auto it = open_.find(file); it != open_.end()) {
    it->second.last_use = ++uses_;
    return it->second.fd;
  }
  const auto path = path_of(file);
  const int flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0);
  int fd = ::open(path.c_str(), flags, 0600);
  if (fd < 0 && create && errno == ENOENT) {
    // The directory is made with the first file: a cache that never holds a
    // large message has none.
    if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST)
      throw StoreError("cache payload directory '" + dir_.string() + "': cannot create: " + std::strerror(errno));
    fd = ::open(path.c_str(), flags, 0600);
  }
  if (fd < 0) {
    if (!create && errno == ENOENT) return -1;
    fail("cannot open", file, errno);
  }
  if (open_.size() >= kMaxOpen) {
    const auto oldest = std::min_element(open_.begin(), open_.end(), [](const auto& a, const auto& b) {
      return a.second.last_use < b.second.last_use;
    });
    close_one(oldest->first);
  }
  open_[file] = OpenFile{fd, ++uses_};
  return fd;
}

void PayloadFiles::close_one(std::int64_t file) {
  auto it = open_.find(file);
  if (it == open_.end()) return;
  // A closed file can still be synced later: fdatasync on a new descriptor
  // flushes the same inode.
  ::close(it->second.fd);
  open_.erase(it);
}

void PayloadFiles::write(std::int64_t file, std::uint32_t offset, std::span<const std::uint8_t> data) {
  auto [it, fresh] = pending_.try_emplace(file);
  Run& run = it->second;
  if (!fresh && run.offset + run.bytes.size() != offset) flush_one(file, run);
  if (run.bytes.empty()) run.offset = offset;
  run.bytes.insert(run.bytes.end(), data.begin(), data.end());
  pending_bytes_ += data.size();
  if (pending_bytes_ >= kMaxPendingBytes) flush();
}

void PayloadFiles::flush_one(std::int64_t file, Run& run) {
  if (run.bytes.empty()) return;
  const int fd = fd_of(file, true);
  std::size_t done = 0;
  while (done < run.bytes.size()) {
    const ssize_t n = ::pwrite(fd, run.bytes.data() + done, run.bytes.size() - done,
                               static_cast<off_t>(run.offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", file, errno);
    }
    done += static_cast<std::size_t>(n);
  }
  pending_bytes_ -= run.bytes.size();
  run.bytes.clear();
  unsynced_.insert(file);
}

void PayloadFiles::flush() {
  for (auto& [file, run] : pending_) flush_one(file, run);
  // Messages written in this burst are seldom the next one's: no buffer is kept.
  pending_.clear();
}

void PayloadFiles::sync() {
  for (const std::int64_t file : unsynced_) {
    const int fd = fd_of(file, false);
    if (fd >= 0 && ::fdatasync(fd) != 0) fail("cannot sync", file, errno);
  }
  unsynced_.clear();
}

void PayloadFiles::adopt(const std::unordered_set<std::int64_t>& used) {
  spares_.clear();
  released_.clear();
  next_ = 1;
  for (const std::int64_t file : used) next_ = std::max(next_, file + 1);
  for (const std::int64_t file : list()) {
    next_ = std::max(next_, file + 1);
    if (!used.contains(file)) retire(file);
  }
}

std::int64_t PayloadFiles::allocate() {
  if (spares_.empty()) return next_++;
  const std::int64_t file = spares_.back();
  spares_.pop_back();
  return file;
}

void PayloadFiles::release(std::int64_t file) {
  if (auto it = pending_.find(file); it != pending_.end()) {
    pending_bytes_ -= it->second.bytes.size();
    pending_.erase(it);
  }
  released_.push_back(file);
}

void PayloadFiles::committed() {
  for (const std::int64_t file : released_) retire(file);
  released_.clear();
}

void PayloadFiles::rolled_back() {
  pending_.clear();
  pending_bytes_ = 0;
  released_.clear();
}

void PayloadFiles::retire(std::int64_t file) {
  unsynced_.erase(file);
  if (spares_.size() < kMaxSpares) {
    const int fd = fd_of(file, false);
    if (fd >= 0) {
      if (::ftruncate(fd, 0) != 0) fail("cannot empty", file, errno);
      spares_.push_back(file);
      return;
    }
  }
  close_one(file);
  if (::unlink(path_of(file).c_str()) != 0 && errno != ENOENT) fail("cannot delete", file, errno);
}

std::size_t PayloadFiles::read(std::int64_t file, std::uint64_t offset, std::span<std::uint8_t> out) {
  if (auto it = pending_.find(file); it != pending_.end()) flush_one(file, it->second);
  const int fd = fd_of(file, false);
  if (fd < 0) return 0;
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", file, errno);
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::uint64_t PayloadFiles::size(std::int64_t file) {
  if (auto it = pending_.find(file); it != pending_.end()) flush_one(file, it->second);
  struct stat st {};
  if (::stat(path_of(file).c_str(), &st) != 0) {
    if (errno == ENOENT) return 0;
    fail("cannot stat", file, errno);
  }
  return static_cast<std::uint64_t>(st.st_size);
}

std::vector<std::int64_t> PayloadFiles::list() const {
  std::vector<std::int64_t> out;
  std::error_code ec;
  if (!std::filesystem::exists(dir_, ec)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.size() > 18 || !std::all_of(name.begin(), name.end(), [](char c) {
          return c >= '0' && c <= '9';
        }))
      continue;  // not a name this class gives
    out.push_back(std::stoll(name));
  }
  if (ec) throw StoreError("cache payload directory '" + dir_.string() + "': cannot list: " + ec.message());
  return out;
}

}  // namespace dissem::cache
