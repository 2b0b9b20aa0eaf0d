// A journal written (Journal::Impl, files/journal_file.hpp): opened and locked for one run, its records appended and
// synced, and a damaged one repaired (--repair) with the damaged file kept beside it.
#include "files/journal_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "files/file_io.hpp"
#include "files/journal_reading.hpp"

namespace nqueens {

using namespace journal_reading;  // the journal as read: read unqualified here

namespace {

// Whether the file at `backup` holds `bytes` and then `zero_tail` zeros: the copy a --repair
// killed between its backup and its rewrite already made of the same damaged journal.
bool holds_copy(const std::filesystem::path& backup, const std::string& bytes, std::size_t zero_tail) {
  try {
    const detail::ReadFile file(backup);
    return file.size() == bytes.size() + zero_tail && end_of_content(file.fd(), backup, file.size()) == bytes.size() &&
           detail::read_from(file.fd(), backup, 0, bytes.size()) == bytes;
  } catch (const std::exception&) {  // unreadable, or not a regular file: not that copy
    return false;
  }
}

}  // namespace

Journal::Impl::Impl(const std::filesystem::path& path, const RunHeader& header, bool repair)
    : path_(path), header_(header) {
  // Checked before open(): opening a pipe would block, and a device is no journal.
  if (struct stat info{}; ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) refuse_non_regular(path);
  detail::create_parent_directory(path);
  open_file();
  try {
    const JournalBytes file = read_journal_file(fd_, path, &header);
    const std::string first_line = journal_header_line(header);
    // Empty, or this run's header cut short by a crash: nothing was recorded yet, so start afresh.
    const bool torn_header = file.bytes.find('\n') == std::string::npos && first_line.starts_with(file.bytes);
    if (file.bytes.empty() || torn_header) {
      if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
      if (ftruncate(fd_, 0) != 0) throw std::runtime_error(io_error("cannot truncate journal", path));
      dropped_bytes_ = file.bytes.size() + file.zero_tail;
      write_all(first_line);
      sync();
      detail::sync_directory(path);
    } else {
      open_existing(header, file.bytes, file.zero_tail, repair);
    }
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    throw;
  }
  flusher_ = std::jthread([this](std::stop_token stop) { flush_loop(stop); });
}

// Opens and locks the file, creating it when missing. O_CREAT leaves an existing file's bytes
// alone; nothing writes before the file has been read and found to be a journal of this run. A
// file another process holds, or is about to rename over this one (it holds FILE.partial: the
// write policy's temporary name), is refused with nothing written (detail::FileInUse).
void Journal::Impl::open_file() {
  for (int attempt = 1;; ++attempt) {
    const bool existed = ::access(path_.c_str(), F_OK) == 0;
    open_and_lock();
    // Renamed over between open() and flock(): the lock is on a file no longer named path_.
    struct stat held {
    }, named{};
    const bool current = fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
                         held.st_ino == named.st_ino;
    if (current) {
      if (const std::string use = detail::locked_by_another(detail::temporary_path(path_)); !use.empty()) {
        // Created here and still empty: removed, as if this command had never run.
        if (!existed && held.st_size == 0) ::unlink(path_.c_str());
        close_file();
        throw detail::FileInUse(path_.string() + " is being written by another nqueens process (it holds " +
                                detail::temporary_path(path_).string() +
                                "), which will replace it: nothing was counted; give --checkpoint another name");
      }
      return;
    }
    close_file();
    if (attempt == 3)
      throw detail::FileInUse(path_.string() + " is being replaced by another nqueens process: nothing was counted");
  }
}

void Journal::Impl::open_and_lock() {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
    // A journal that cannot be written (a read-only file, disk or mount) can still answer a
    // run it holds whole; Session refuses it for a run with units left to count.
    const int error = errno;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ >= 0) unwritable_ = detail::io_error("cannot write to journal", path_, error);
    errno = error;
  }
  if (fd_ < 0) throw std::runtime_error(io_error("cannot open journal", path_));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string use = error == EWOULDBLOCK ? detail::use_of_locked_file(fd_, path_) : "";
    close_file();
    if (error != EWOULDBLOCK) throw std::runtime_error(detail::io_error("cannot lock journal", path_, error));
    throw detail::FileInUse(path_.string() + " is " + use + ": nothing was counted; give --checkpoint another name");
  }
}

void Journal::Impl::close_file() {
  ::close(fd_);
  fd_ = -1;
}

void Journal::Impl::open_existing(const RunHeader& header, const std::string& bytes, std::size_t zero_tail,
                                  bool repair) {
  // Of another run: refused (by read_journal_file already when its header is sound).
  JournalScan scan = scan_journal(bytes, path_.string(), &header);
  scan.torn_bytes += zero_tail;
  end_ = scan.valid_bytes;
  if (!scan.sound()) {
    if (!repair) throw JournalCorrupt(scan.problem(path_.string()) + repair_advice(path_.string()));
    rewrite(bytes, zero_tail, scan);
  } else if (scan.format != kJournalFormat && unwritable_.empty()) {
    // Appended records are bound to this format's header: the file is rewritten in it first.
    write_sound(scan);
  } else if (scan.torn_bytes > 0 && unwritable_.empty()) {
    if (ftruncate(fd_, static_cast<off_t>(scan.valid_bytes)) != 0)
      throw std::runtime_error(io_error("cannot cut the torn last line of journal", path_));
    sync();
  }
  dropped_bytes_ = scan.torn_bytes;
  recorded_ = std::move(scan.units);
}

// --repair: the damaged file is kept byte for byte next to the journal, and the journal is
// replaced by its sound records (atomically: a crash leaves the old file or the new one). The
// lock moves to the new file; the old one, renamed over, is no longer anyone's journal.
void Journal::Impl::rewrite(const std::string& bytes, std::size_t zero_tail, JournalScan& scan) {
  if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
  std::filesystem::path backup = path_;
  backup += ".damaged";
  bool kept = false;  // by a repair of these same bytes that was killed before its rewrite
  for (int copy = 1; std::filesystem::exists(backup) && !(kept = holds_copy(backup, bytes, zero_tail)); ++copy) {
    backup = path_;
    backup += ".damaged." + std::to_string(copy);
  }
  if (!kept) {
    try {
      detail::write_file_atomically(backup, bytes);
    } catch (const detail::FileInUse&) {
      // The copy's name is chosen here, not by the user: "give the output another name" could
      // not be followed. Another process is writing it: a --repair of the same journal.
      throw detail::FileInUse(backup.string() + ", where the repair keeps the damaged journal, is being written by " +
                              "another nqueens process: nothing was changed; run the repair again once it has ended");
    }
    // The zeros at its end, never read, are put back as a hole.
    if (zero_tail > 0 && ::truncate(backup.c_str(), static_cast<off_t>(bytes.size() + zero_tail)) != 0)
      throw std::runtime_error(io_error("cannot write", backup));
  }
  write_sound(scan);
  repaired_ = JournalRepair{scan.units.size(), scan.damaged.size(), scan.conflicting.size(), backup};
  scan.torn_bytes = 0;
}

// Atomically, as --repair rewrites (a crash leaves the old file or the new one); the lock moves
// to the new file.
void Journal::Impl::write_sound(const JournalScan& scan) {
  std::string sound = journal_header_line(header_);
  for (const UnitCount& unit : scan.units) sound += journal_record_line(header_, unit);
  detail::WritePolicy ours;
  ours.target_locked_by_caller = true;  // the lock on the journal is this run's own
  detail::write_file_atomically(path_, sound, ours);
  close_file();
  open_file();
  end_ = sound.size();
}

Journal::Impl::~Impl() {
  flusher_.request_stop();
  if (flusher_.joinable()) flusher_.join();
  if (dirty_.exchange(false)) fdatasync(fd_);
  ::close(fd_);
}

void Journal::Impl::append(const UnitCount& unit) { append(std::span<const UnitCount>(&unit, 1)); }

// The units' lines in one write. A full disk may have taken part of them: they are cut off, so
// that the file still ends in whole records and no other worker's line lands after the fragment;
// if even that fails, nothing more is written and the fragment stays as a torn last line, which a
// resume drops.
void Journal::Impl::append(std::span<const UnitCount> units) {
  if (units.empty()) return;
  std::string lines;
  lines.reserve(units.size() * 96);
  for (const UnitCount& unit : units) lines += journal_record_line(header_, unit);
  if (const int error = flush_error_.load()) {
    errno = error;
    throw std::runtime_error(io_error("cannot sync journal", path_));
  }
  const std::lock_guard<std::mutex> guard(write_lock_);
  if (sealed_) return;
  if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
  if (const int error = detail::write_fully(fd_, lines)) {
    if (ftruncate(fd_, static_cast<off_t>(end_)) != 0) sealed_ = true;
    throw std::runtime_error(detail::io_error("cannot write to journal", path_, error));
  }
  end_ += lines.size();
  appended_ += units.size();
  dirty_ = true;
}

std::size_t Journal::Impl::units() const {
  const std::lock_guard<std::mutex> guard(write_lock_);
  return recorded_.size() + appended_;
}

void Journal::Impl::sync() {
  dirty_ = false;
  if (fdatasync(fd_) != 0) throw std::runtime_error(io_error("cannot sync journal", path_));
}

void Journal::Impl::seal() {
  const std::lock_guard<std::mutex> guard(write_lock_);
  sealed_ = true;
  sync();
}

void Journal::Impl::write_all(std::string_view bytes) {
  if (const int error = detail::write_fully(fd_, bytes))
    throw std::runtime_error(detail::io_error("cannot write to journal", path_, error));
  end_ += bytes.size();
}

// Records reach the page cache at once (a killed process loses none); this thread bounds what
// a power cut can lose to about a second, without an fsync per unit on the workers' path.
void Journal::Impl::flush_loop(std::stop_token stop) {
  std::unique_lock<std::mutex> lock(wake_lock_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
    if (dirty_.exchange(false) && fdatasync(fd_) != 0) flush_error_ = errno;
  }
}

}  // namespace nqueens
