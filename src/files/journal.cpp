#include "nqueens/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <optional>

#include "files/file_io.hpp"
#include "files/text_numbers.hpp"

namespace nqueens {

namespace {

constexpr std::string_view kMagic = "nqueens-journal ";
// kJournalFormat, the one this build reads and writes: records end in the unit's time. Formats
// 1 (records checked on their own text) and 2 (records without the time) were written by
// development builds before the first release; they are refused, never read.
constexpr std::string_view kFormatPrefix = "3 ";
constexpr std::string_view kCrcKey = " crc=";
// A record line is under 200 bytes (10 numbers of at most 20 digits and a checksum); a longer
// unterminated tail is not a record cut short.
constexpr std::size_t kMaxTornBytes = 256;
// A run header line is under 300 bytes: the first line is looked for in this many.
constexpr std::size_t kMaxHeaderBytes = 4096;
// Zeros a crashed file system may leave at the end: a few blocks, allowed on top of the records.
constexpr std::size_t kMaxZeroTailBytes = std::size_t{16} << 20;

std::string io_error(const char* what, const std::filesystem::path& path) {
  return detail::io_error(what, path, errno);
}

// What to do about a damaged journal: never to throw its finished units away.
std::string repair_advice(std::string_view name) {
  return "; the journal is damaged and was left as it is: `nqueens check " + std::string(name) +
         "` lists the damage, and the same count command with --repair keeps every sound record (and a copy of the "
         "file) and counts only the damaged or missing units again";
}

std::string damaged(std::string_view name, std::size_t line, std::string_view problem) {
  return std::string(name) + " line " + std::to_string(line) + ": " + std::string(problem) + repair_advice(name);
}

std::optional<std::uint64_t> parse_u64(std::string_view text) { return detail::parse_whole<std::uint64_t>(text); }

// "U <id> <total> <o1> <o2> <o4> <o8> <nodes> <microseconds>" in its canonical spelling (no
// leading zeros, single spaces), or nullopt.
std::optional<UnitCount> parse_unit(std::string_view text) {
  constexpr std::size_t kFields = 8;
  if (!text.starts_with("U ")) return std::nullopt;
  std::vector<std::uint64_t> fields;
  for (std::string_view rest = text.substr(2); !rest.empty() || fields.empty();) {
    const std::size_t space = rest.find(' ');
    const auto value = parse_u64(rest.substr(0, space));
    if (!value || fields.size() == kFields) return std::nullopt;
    fields.push_back(*value);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  if (fields.size() != kFields) return std::nullopt;
  const Tally tally{fields[1], {fields[2], fields[3], fields[4], fields[5]}, fields[6]};
  const UnitCount unit{static_cast<std::size_t>(fields[0]), tally, fields[7]};
  if (unit_record_text(unit) != text) return std::nullopt;
  return unit;
}

// The part of a line before its checksum, if the checksum (continued from `before`: records
// are bound to their run) matches; nullopt otherwise.
std::optional<std::string_view> checked_text(std::string_view line, std::string_view separator,
                                             std::uint32_t before = 0) {
  const std::size_t at = line.rfind(separator);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view text = line.substr(0, at);
  if (line.substr(at + separator.size()) != checksum_hex(crc32(text, before))) return std::nullopt;
  return text;
}

std::uint32_t run_checksum(const RunHeader& header) { return crc32(run_identity(header) + '\n'); }

// Refuses a journal of another format than this build's, given the bytes of the file from its
// start: an older one in one line that says so, even when its header is cut short; any other
// once its header line is whole (a header cut short is damage, told by the caller).
void check_format(std::string_view bytes, std::string_view name) {
  const std::string_view after_magic = bytes.substr(std::min(bytes.size(), kMagic.size()));
  if (after_magic.starts_with(kFormatPrefix)) return;
  for (const std::string_view older : {"1 ", "2 "})
    if (after_magic.starts_with(older))
      throw JournalMismatch(std::string(name) + ": a format " + older[0] +
                            " journal, written by a development build of nqueens; this build reads format " +
                            std::to_string(kJournalFormat) + " only: count the run again");
  const std::size_t end = bytes.find('\n');
  if (end == std::string_view::npos) return;
  throw JournalMismatch(std::string(name) + " is a journal in a format this build does not read ('" +
                        std::string(bytes.substr(0, std::min<std::size_t>(end, 40))) + "...')");
}

RunHeader parse_header_line(std::string_view line, std::string_view name) {
  const auto text = checked_text(line, kCrcKey);
  if (!text) throw JournalCorrupt(damaged(name, 1, "the run header fails its checksum"));
  // The checksum may close the line before the version does ("nqueens-journal 3 crc=..."):
  // found by fuzz_journal, it made substr() throw std::out_of_range past every handler.
  const std::size_t preamble = kMagic.size() + kFormatPrefix.size();
  const auto header = text->size() < preamble ? std::nullopt : parse_header_text(text->substr(preamble));
  if (!header) throw JournalCorrupt(damaged(name, 1, "the run header is not readable"));
  // Sound but of no run this build can do: refused before its unit count sizes anything.
  if (const std::string why = header_problem(*header); !why.empty())
    throw JournalMismatch(std::string(name) + " is not the journal of any run this build can do: " + why);
  return *header;
}

// The records of a journal, line by line, sorted into sound, repeated, conflicting and damaged.
class RecordSorter {
 public:
  RecordSorter(const RunHeader& header, JournalScan& scan)
      : header_(header), run_crc_(run_checksum(header)), scan_(scan), seen_(header.unit_count) {}

  void add(std::size_t line_number, std::string_view line) {
    const std::string problem = check(line);
    if (!problem.empty()) scan_.damaged.push_back({line_number, problem});
  }

  // Units recorded with different counts are not used at all: neither record can be trusted.
  void finish() {
    if (conflicting_.empty()) return;
    std::erase_if(scan_.units, [this](const UnitCount& unit) { return conflicting_[unit.id] != 0; });
    for (std::size_t id = 0; id < conflicting_.size(); ++id)
      if (conflicting_[id]) scan_.conflicting.push_back(id);
  }

 private:
  std::string check(std::string_view line) {
    const auto text = checked_text(line, " ", run_crc_);
    if (!text) return "the record fails its checksum (damaged, or from a journal of another run)";
    const auto unit = parse_unit(*text);
    if (!unit) return "not a unit record";
    if (unit->id >= header_.unit_count)
      return "unit " + std::to_string(unit->id) + " is out of range (the run has " +
             std::to_string(header_.unit_count) + ")";
    std::optional<Tally>& slot = seen_[unit->id];
    if (!slot) {
      slot = unit->tally;
      scan_.units.push_back(*unit);
    } else if (*slot == unit->tally) {
      ++scan_.repeated;  // harmless: the same counts twice (the time may differ: counted twice)
    } else {
      if (conflicting_.empty()) conflicting_.resize(header_.unit_count);
      conflicting_[unit->id] = 1;
    }
    return {};
  }

  const RunHeader& header_;
  std::uint32_t run_crc_;
  JournalScan& scan_;
  std::vector<std::optional<Tally>> seen_;
  std::vector<char> conflicting_;  //!< sized on the first conflict
};

// A torn line holds only what a record line can hold, followed by any number of the zeros a
// crashed file system may leave behind (a whole zero-filled block after a power cut); anything
// else at the end of the file is damage.
bool looks_torn(std::string_view tail) {
  tail = tail.substr(0, tail.find_last_not_of('\0') + 1);
  if (tail.size() > kMaxTornBytes) return false;
  return tail.find_first_not_of(std::string_view("U 0123456789abcdef\0", 19)) == std::string_view::npos;
}

[[noreturn]] void refuse_non_regular(const std::filesystem::path& path) {
  throw JournalMismatch(path.string() +
                        " is not a regular file (a device, a pipe or a socket); a journal is a regular file");
}

// The bytes of a journal file, its header read first: a file that does not start like a
// journal, or is larger than a journal of its run can be, is refused before it is read whole
// (a 2 GB sparse file, /dev/zero behind a symlink ended in std::bad_alloc).
std::string read_journal_file(int fd, const std::filesystem::path& path, const RunHeader* expected) {
  struct stat info {};
  if (fstat(fd, &info) != 0) throw std::runtime_error(io_error("cannot read journal", path));
  if (!S_ISREG(info.st_mode)) refuse_non_regular(path);
  const auto size = static_cast<std::size_t>(info.st_size);
  std::string head = detail::read_from(fd, path, 0, kMaxHeaderBytes);
  const std::size_t header_end = head.find('\n');
  if (header_end == std::string::npos) {
    if (size <= head.size()) return head;  // scan_journal says what it is
    scan_journal(head, path.string());     // not a journal: refused as such
    throw JournalCorrupt(damaged(path.string(), 1, "the first line is longer than any run header"));
  }
  const std::size_t units = scan_journal(head.substr(0, header_end + 1), path.string(), expected).header.unit_count;
  const std::size_t most = header_end + 1 + 2 * units * kMaxTornBytes + kMaxZeroTailBytes;
  if (size > most)
    throw JournalCorrupt(path.string() + " is " + std::to_string(size) + " bytes, more than a journal of " +
                         std::to_string(units) + " units can hold; it was left as it is");
  return detail::read_from(fd, path, 0, size);
}

}  // namespace

std::string journal_header_line(const RunHeader& header) {
  const std::string text = std::string(kMagic) + std::string(kFormatPrefix) + header_text(header);
  return text + std::string(kCrcKey) + checksum_hex(crc32(text)) + '\n';
}

std::string read_journal(const std::filesystem::path& path) {
  if (struct stat info{}; ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) refuse_non_regular(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(io_error("cannot read", path));
  try {
    std::string bytes = read_journal_file(fd, path, nullptr);
    ::close(fd);
    return bytes;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::string journal_record_line(const RunHeader& header, const UnitCount& unit) {
  return unit_record_text(unit) + ' ' + checksum_hex(unit_checksum(header, unit)) + '\n';
}

JournalScan scan_journal(std::string_view bytes, std::string_view name, const RunHeader* expected) {
  const std::size_t first_end = bytes.find('\n');
  if (!bytes.starts_with(kMagic.substr(0, std::min(bytes.size(), kMagic.size()))) || bytes.empty())
    throw JournalMismatch(std::string(name) + " is not an nqueens journal");
  check_format(bytes, name);
  if (first_end == std::string_view::npos) throw JournalCorrupt(damaged(name, 1, "the run header is incomplete"));

  JournalScan scan;
  try {
    scan.header = parse_header_line(bytes.substr(0, first_end), name);
  } catch (const JournalCorrupt&) {
    // Records are bound to their run: under the run's own header they still check out.
    if (!expected) throw;
    scan.header = *expected;
    scan.damaged.push_back({1, "the run header is damaged"});
  }
  RecordSorter records(scan.header, scan);
  std::size_t line_number = 1;
  std::size_t begin = first_end + 1;
  for (std::size_t end; (end = bytes.find('\n', begin)) != std::string_view::npos; begin = end + 1)
    records.add(++line_number, bytes.substr(begin, end - begin));
  records.finish();
  scan.valid_bytes = begin;
  scan.torn_bytes = bytes.size() - begin;
  scan.tail_damaged = !looks_torn(bytes.substr(begin));
  if (scan.tail_damaged)
    scan.damaged.push_back(
        {line_number + 1, "the file ends in " + std::to_string(scan.torn_bytes) + " bytes that are not a record"});
  return scan;
}

std::string JournalScan::problem(std::string_view name) const {
  if (!damaged.empty()) {
    const std::size_t more = damaged.size() - 1 + (conflicting.empty() ? 0 : 1);
    return std::string(name) + " line " + std::to_string(damaged.front().line) + ": " + damaged.front().problem +
           (more ? " (and " + std::to_string(more) + " more problems)" : "");
  }
  if (!conflicting.empty())
    return std::string(name) + ": unit " + std::to_string(conflicting.front()) +
           " is recorded twice with different counts" +
           (conflicting.size() > 1 ? " (and " + std::to_string(conflicting.size() - 1) + " more units)" : "");
  return {};
}

Journal::Journal(const std::filesystem::path& path, const RunHeader& header, bool repair)
    : path_(path), header_(header) {
  // Checked before open(): opening a pipe would block, and a device is no journal.
  if (struct stat info{}; ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) refuse_non_regular(path);
  detail::create_parent_directory(path);
  open_file();
  try {
    const std::string bytes = read_journal_file(fd_, path, repair ? &header : nullptr);
    const std::string first_line = journal_header_line(header);
    // Empty, or this run's header cut short by a crash: nothing was recorded yet, so start afresh.
    const bool torn_header = bytes.find('\n') == std::string::npos && first_line.starts_with(bytes);
    if (bytes.empty() || torn_header) {
      if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
      if (ftruncate(fd_, 0) != 0) throw std::runtime_error(io_error("cannot truncate journal", path));
      dropped_bytes_ = bytes.size();
      write_all(first_line);
      sync();
      detail::sync_directory(path);
    } else {
      open_existing(header, bytes, repair);
    }
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    throw;
  }
  flusher_ = std::jthread([this](std::stop_token stop) { flush_loop(stop); });
}

// Opens and locks the file, creating it when missing. O_CREAT leaves an existing file's bytes
// alone; nothing writes before the file has been read and found to be a journal of this run.
void Journal::open_file() {
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
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(error == EWOULDBLOCK ? path_.string() + " is in use by another nqueens process"
                                                  : detail::io_error("cannot lock journal", path_, error));
  }
}

void Journal::open_existing(const RunHeader& header, const std::string& bytes, bool repair) {
  JournalScan scan = scan_journal(bytes, path_.string(), repair ? &header : nullptr);
  if (const std::string why = header_mismatch(header, scan.header); !why.empty())
    throw JournalMismatch(path_.string() + " is the journal of a different run: " + why);
  if (!scan.sound()) {
    if (!repair) throw JournalCorrupt(scan.problem(path_.string()) + repair_advice(path_.string()));
    rewrite(bytes, scan);
  } else if (scan.torn_bytes > 0 && unwritable_.empty()) {
    if (ftruncate(fd_, static_cast<off_t>(scan.valid_bytes)) != 0)
      throw std::runtime_error(io_error("cannot cut the torn last line of journal", path_));
    sync();
  }
  dropped_bytes_ = scan.torn_bytes;
  end_ = scan.valid_bytes;
  recorded_ = std::move(scan.units);
}

// --repair: the damaged file is kept byte for byte next to the journal, and the journal is
// replaced by its sound records (atomically: a crash leaves the old file or the new one). The
// lock moves to the new file; the old one, renamed over, is no longer anyone's journal.
void Journal::rewrite(const std::string& bytes, JournalScan& scan) {
  if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
  std::filesystem::path backup = path_;
  backup += ".damaged";
  for (int copy = 1; std::filesystem::exists(backup); ++copy) {
    backup = path_;
    backup += ".damaged." + std::to_string(copy);
  }
  detail::write_file_atomically(backup, bytes);
  std::string sound = journal_header_line(header_);
  for (const UnitCount& unit : scan.units) sound += journal_record_line(header_, unit);
  detail::write_file_atomically(path_, sound);
  ::close(fd_);
  fd_ = -1;
  open_file();
  repaired_ = JournalRepair{scan.units.size(), scan.damaged.size(), scan.conflicting.size(), backup};
  scan.valid_bytes = sound.size();
  scan.torn_bytes = 0;
}

Journal::~Journal() {
  flusher_.request_stop();
  if (flusher_.joinable()) flusher_.join();
  if (dirty_.exchange(false)) fdatasync(fd_);
  ::close(fd_);
}

void Journal::append(const UnitCount& unit) {
  const std::string line = journal_record_line(header_, unit);
  if (const int error = flush_error_.load()) {
    errno = error;
    throw std::runtime_error(io_error("cannot sync journal", path_));
  }
  const std::lock_guard<std::mutex> guard(write_lock_);
  if (sealed_) return;
  if (!unwritable_.empty()) throw std::runtime_error(unwritable_);
  if (const int error = detail::write_fully(fd_, line)) {
    // A full disk may have taken part of the line. Cut it off, so that the file still ends in
    // whole records and no other worker's line lands after the fragment; if even that fails,
    // write nothing more and leave the fragment as a torn last line, which a resume drops.
    if (ftruncate(fd_, static_cast<off_t>(end_)) != 0) sealed_ = true;
    throw std::runtime_error(detail::io_error("cannot write to journal", path_, error));
  }
  end_ += line.size();
  ++appended_;
  dirty_ = true;
}

// The batch form of append(): the same lines, one write, the same cut on failure.
void Journal::append(std::span<const UnitCount> units) {
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

std::size_t Journal::units() const {
  const std::lock_guard<std::mutex> guard(write_lock_);
  return recorded_.size() + appended_;
}

void Journal::sync() {
  dirty_ = false;
  if (fdatasync(fd_) != 0) throw std::runtime_error(io_error("cannot sync journal", path_));
}

void Journal::seal() {
  const std::lock_guard<std::mutex> guard(write_lock_);
  sealed_ = true;
  sync();
}

void Journal::write_all(std::string_view bytes) {
  if (const int error = detail::write_fully(fd_, bytes))
    throw std::runtime_error(detail::io_error("cannot write to journal", path_, error));
  end_ += bytes.size();
}

// Records reach the page cache at once (a killed process loses none); this thread bounds what
// a power cut can lose to about a second, without an fsync per unit on the workers' path.
void Journal::flush_loop(std::stop_token stop) {
  std::unique_lock<std::mutex> lock(wake_lock_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
    if (dirty_.exchange(false) && fdatasync(fd_) != 0) flush_error_ = errno;
  }
}

}  // namespace nqueens
