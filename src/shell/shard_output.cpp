#include "shard_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "report.hpp"

namespace nqueens::shell {

namespace {

void write_durably(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".partial";
  auto fail = [&](const char* what) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error(std::string(what) + " " + path + ": " + reason);
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create");
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t wrote = ::write(fd, text.data() + written, text.size() - written);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) {
      ::close(fd);
      fail("cannot write");
    }
    written += static_cast<std::size_t>(wrote);
  }
  if (fsync(fd) != 0 || ::close(fd) != 0) fail("cannot write");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot write");
}

}  // namespace

void write_shard_file(const SessionResult& session, ShardSpec shard, const std::string& path) {
  ShardFile file;
  file.header = session.header;
  file.shard = shard;
  file.threads = session.result.threads;
  file.seconds = session.result.seconds;
  file.units = session.units;
  const std::string text = shard_json(file);
  if (path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    check_written(stdout);
  } else {
    write_durably(path, text);
  }
  spdlog::info("N={}: shard {}/{} ({} of {} units) written to {}", session.header.n, shard.index, shard.count,
               file.units.size(), session.header.unit_count, path.empty() ? "stdout" : path);
}

}  // namespace nqueens::shell
