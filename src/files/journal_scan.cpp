// A journal read: its header (repaired where one bit of it was damaged), its records sorted into
// sound, repeated, conflicting and damaged, and the lines of the format as they are written.
#include "nqueens/files/journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <numeric>
#include <optional>

#include "engine/catalogue.hpp"
#include "files/file_io.hpp"
#include "files/journal_reading.hpp"
#include "files/line_repair.hpp"
#include "records/format3.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

using namespace journal_reading;  // this file's own: read unqualified here

namespace {

constexpr std::string_view kMagic = "nqueens-journal ";
// kJournalFormat, the one this build writes: the engine's settings in the header as words of
// their own. Format 3 (the header's fixed symmetry and split_depth words, records bound to them)
// is read too (records/format3.hpp), and rewritten in this format when a run opens it. Formats
// 1 (records checked on their own text) and 2 (records without the time) were written by
// development builds before the first release; they are refused, never read.
constexpr std::string_view kFormatPrefix = "4 ";
constexpr std::string_view kFormat3Prefix = "3 ";
constexpr std::string_view kFormat3Preamble = "nqueens-journal 3 ";
// The first bytes of every journal of this build; a file whose first bytes differ from them in
// at most kMaxPreambleDamage places is taken for a journal whose header is damaged (one flipped
// bit made "not an nqueens journal" of a journal of 183,481 records).
constexpr std::string_view kPreamble = "nqueens-journal 4 ";
constexpr std::size_t kMaxPreambleDamage = 2;
constexpr std::string_view kCrcKey = " crc=";
// A journal whose header is damaged, read with no run to bound its size (`check`): at most this.
constexpr std::size_t kMaxUnknownRunBytes = std::size_t{256} << 20;
// The end of a file is searched for its last byte that is not zero in blocks of this size.
constexpr std::size_t kZeroSearchBlock = std::size_t{1} << 20;

using detail::kMaxCorrectedJournalLine;
using detail::kMaxHeaderBytes;
using detail::kMaxTornBytes;
using detail::without_cr;

}  // namespace

namespace journal_reading {

std::string io_error(const char* what, const std::filesystem::path& path) {
  return detail::io_error(what, path, errno);
}

// What to do about a damaged journal: never to throw its finished units away.
std::string repair_advice(std::string_view name) {
  return "; the journal is damaged and was left as it is: `nqueens check " + std::string(name) +
         "` lists the damage, and the same count command with --repair keeps every sound record (and a copy of the "
         "file) and counts only the damaged or missing units again";
}

}  // namespace journal_reading

namespace {

std::string damaged(std::string_view name, std::size_t line, std::string_view problem) {
  return std::string(name) + " line " + std::to_string(line) + ": " + std::string(problem) + repair_advice(name);
}

std::optional<std::uint64_t> parse_u64(std::string_view text) { return detail::parse_whole<std::uint64_t>(text); }

// "U <id> <total> <o1> <o2> <o4> <o8> <nodes> <microseconds>" in its canonical spelling (no
// leading zeros, single spaces), or nullopt.
std::optional<UnitCount> parse_unit(std::string_view text) {
  constexpr std::size_t kFields = 8;
  if (!text.starts_with("U ")) return std::nullopt;
  std::array<std::uint64_t, kFields> fields{};
  std::size_t count = 0;
  for (std::string_view rest = text.substr(2); !rest.empty() || count == 0;) {
    const std::size_t space = rest.find(' ');
    const auto value = parse_u64(rest.substr(0, space));
    if (!value || count == kFields) return std::nullopt;
    fields[count++] = *value;
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  if (count != kFields) return std::nullopt;
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

// Whether a journal's first line is of format 3, whose records are bound to the header as that
// format wrote it: by its format digit, so that damage elsewhere in its first words still
// leaves its records checked under the right binding.
bool format3_line(std::string_view line) {
  return line.size() > kFormat3Preamble.size() && line.substr(kMagic.size(), kFormat3Prefix.size()) == kFormat3Prefix;
}

std::uint32_t run_checksum(const RunHeader& header, bool format3) { return detail::record_binding(header, format3); }

// The unit of a record line that checks out under the run whose checksum is `run_crc`.
std::optional<UnitCount> checked_unit(std::string_view line, std::uint32_t run_crc) {
  const auto text = checked_text(line, " ", run_crc);
  return text ? parse_unit(*text) : std::nullopt;
}

// A line shaped like a record (its fields and an 8-digit checksum), whatever run it checks under.
bool record_shaped(std::string_view line) {
  const std::size_t space = line.rfind(' ');
  if (space == std::string_view::npos || line.size() - space - 1 != 8) return false;
  return detail::parse_whole<std::uint32_t>(line.substr(space + 1), 16) && parse_unit(line.substr(0, space));
}

// The complete lines after the header, each without its line end, with their line numbers.
template <typename Visit>
void for_each_record_line(std::string_view bytes, std::size_t begin, Visit visit) {
  std::size_t line_number = 1;
  for (std::size_t end; (end = bytes.find('\n', begin)) != std::string_view::npos; begin = end + 1)
    visit(++line_number, without_cr(bytes.substr(begin, end - begin)));
}

std::size_t records_checking_out(std::string_view bytes, std::size_t begin, const RunHeader& run) {
  const std::uint32_t run_crc = run_checksum(run, format3_line(bytes));
  std::size_t count = 0;
  for_each_record_line(bytes, begin, [&](std::size_t, std::string_view line) {
    if (const auto unit = checked_unit(line, run_crc); unit && unit->id < run.unit_count) ++count;
  });
  return count;
}

bool exact_magic(std::string_view bytes) {
  return bytes.starts_with(kMagic.substr(0, std::min(bytes.size(), kMagic.size())));
}

// Refuses a journal of another format than this build's, given the bytes of the file from its
// start: an older one in one line that says so, even when its header is cut short; any other
// once its header line is whole (a header cut short is damage, told by the caller). A whole
// header line whose checksum fails is this format's, damaged: one flipped bit turns "3" into "2".
void check_format(std::string_view bytes, std::string_view name) {
  const std::string_view after_magic = bytes.substr(std::min(bytes.size(), kMagic.size()));
  if (after_magic.starts_with(kFormatPrefix) || after_magic.starts_with(kFormat3Prefix)) return;
  const std::size_t end = bytes.find('\n');
  if (end != std::string_view::npos && !checked_text(without_cr(bytes.substr(0, end)), kCrcKey)) return;
  for (const std::string_view older : {"1 ", "2 "})
    if (after_magic.starts_with(older))
      throw JournalMismatch(std::string(name) + ": a format " + older[0] +
                            " journal, written by a development build of nqueens; this build reads formats 3 and " +
                            std::to_string(kJournalFormat) + " only: count the run again");
  if (end == std::string_view::npos) return;
  throw JournalMismatch(std::string(name) + " is a journal in a format this build does not read ('" +
                        std::string(bytes.substr(0, std::min<std::size_t>(end, 40))) + "...')");
}

// The run of a header line's text (without its checksum), if it is one of this format.
std::optional<RunHeader> header_of_text(std::string_view text) {
  if (text.starts_with(kFormat3Preamble))
    return detail::parse_format3_header_text(text.substr(kFormat3Preamble.size()));
  if (!text.starts_with(kPreamble)) return std::nullopt;
  return parse_header_text(text.substr(kPreamble.size()));
}

// What the first line of a journal says: its run, or why not and the runs it may name.
struct HeaderRead {
  std::optional<RunHeader> sound;     //!< the checksum holds and the line reads
  std::string problem;                //!< otherwise, why not
  std::vector<RunHeader> candidates;  //!< runs a damaged line may name, each one this build can have
};

// The checksum at the end of a header line and the text before it, the key allowed to be
// damaged ("... crc=1a2b3c4d", "... crb=1a2b3c4d").
std::optional<std::pair<std::string_view, std::uint32_t>> split_checksum(std::string_view line) {
  const std::size_t space = line.rfind(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::string_view word = line.substr(space + 1);
  if (word.size() != 12 || word[3] != '=') return std::nullopt;
  const auto value = detail::parse_whole<std::uint32_t>(word.substr(4), 16);
  if (!value) return std::nullopt;
  return std::pair{line.substr(0, space), *value};
}

// A damaged header line's candidates: the line with one bit flipped where that makes its
// checksum hold, and the line read as it is, whatever its checksum says.
std::vector<RunHeader> header_candidates(std::string_view line) {
  std::vector<RunHeader> candidates;
  auto add = [&candidates](const std::optional<RunHeader>& header) {
    if (!header || !header_problem(*header).empty()) return;
    for (const RunHeader& known : candidates)
      if (run_identity(known) == run_identity(*header)) return;
    candidates.push_back(*header);
  };
  const auto split = split_checksum(line);
  if (split && split->first.size() <= kMaxCorrectedJournalLine)
    for (const std::string& text : detail::single_bit_repairs(split->first, split->first.size(), split->second))
      add(header_of_text(text));
  const std::string_view text = split ? split->first : line;
  if (text.size() > kPreamble.size())
    add(format3_line(text) ? detail::parse_format3_header_text(text.substr(kPreamble.size()))
                           : parse_header_text(text.substr(kPreamble.size())));
  return candidates;
}

HeaderRead read_header(std::string_view line, std::string_view name) {
  HeaderRead read;
  if (const auto text = checked_text(line, kCrcKey)) {
    // The checksum may close the line before the version does ("nqueens-journal 3 crc=..."):
    // found by fuzz_journal, it made substr() throw std::out_of_range past every handler.
    if (const auto header = header_of_text(*text)) {
      // Sound but of no run this build can do: refused before its unit count sizes anything.
      if (const std::string why = header_problem(*header); !why.empty())
        throw JournalMismatch(std::string(name) + " is not the journal of any run this build can do: " + why);
      read.sound = header;
      return read;
    }
    read.problem = "the run header is not readable";
  } else {
    read.problem = "the run header fails its checksum";
  }
  read.candidates = header_candidates(line);
  return read;
}

// A journal's first line, read: a file that is no journal (or one of another format) refused,
// one of another run than `expected` too. Throws JournalCorrupt for a first line cut short.
HeaderRead read_head(std::string_view bytes, std::string_view name, const RunHeader* expected) {
  if (bytes.empty() || !looks_like_journal(bytes))
    throw JournalMismatch(std::string(name) + " is not an nqueens journal");
  if (exact_magic(bytes)) check_format(bytes, name);
  const std::size_t first_end = bytes.find('\n');
  if (first_end == std::string_view::npos) throw JournalCorrupt(damaged(name, 1, "the run header is incomplete"));
  HeaderRead head = read_header(without_cr(bytes.substr(0, first_end)), name);
  // Compared before anything is sized by the file's unit count.
  if (head.sound && expected)
    if (const std::string why = header_mismatch(*expected, *head.sound); !why.empty())
      throw JournalMismatch(std::string(name) + " is the journal of a different run: " + why);
  return head;
}

// The word `key`=... of a damaged header line, or "".
std::string header_word(std::string_view line, std::string_view key) {
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t space = std::min(line.find(' ', at), line.size());
    const std::string_view word = line.substr(at, space - at);
    if (word.size() > key.size() && word.starts_with(key) && word[key.size()] == '=')
      return std::string(word.substr(key.size() + 1));
    at = space + 1;
  }
  return {};
}

// Why a journal whose header is damaged, with no run to check it under, cannot be read, and the
// way on: the command that repairs it, N and the engine named where the damaged line still says
// them (its records bind their run, but do not name it).
std::string unknown_run(std::string_view bytes, std::size_t begin, std::string_view line, std::string_view name,
                        const std::string& problem) {
  std::size_t records = 0, lines = 0;
  for_each_record_line(bytes, begin, [&](std::size_t, std::string_view text) {
    ++lines;
    if (record_shaped(text)) ++records;
  });
  const std::string n = header_word(line, "n");
  const std::string engine = header_word(line, "engine");
  const bool n_read = detail::parse_whole<int>(n).has_value();
  const bool engine_read = find_engine(engine) != nullptr;
  return std::string(name) + " line 1: " + problem +
         ", and no run it may name fits its records: " + std::to_string(records) + " of its " + std::to_string(lines) +
         " other lines are records, bound to a run this header no longer names; `nqueens count -n " +
         (n_read ? n : "N") + (engine_read ? " --engine " + engine : " --engine ENGINE") +
         " [the run's other options] --checkpoint " + std::string(name) +
         " --repair` with the options of the run that wrote the journal" +
         (n_read ? " (the header still reads N=" + n + ")" : "") +
         " keeps every record that checks out under that run and counts the other units again; a run they do not "
         "fit is refused, and the journal was left as it is";
}

// The records of a journal, line by line, sorted into sound, repeated, conflicting and damaged.
// Nothing is sized by the header's unit count: only by the records the file holds.
class RecordSorter {
 public:
  RecordSorter(const RunHeader& header, bool format3, JournalScan& scan)
      : header_(header), run_crc_(run_checksum(header, format3)), scan_(scan) {}

  void add(std::size_t line_number, std::string_view line) {
    ++scan_.lines;
    const std::string problem = check(line);
    if (!problem.empty()) scan_.damaged.push_back({line_number, problem});
  }

  // Each unit once, in file order, by its first record; later records with equal counts are
  // repeats, with other counts a conflict: a unit recorded with different counts is not used at
  // all, since neither record can be trusted.
  void finish() {
    scan_.checked = records_.size();
    std::vector<std::size_t> order(records_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [this](std::size_t a, std::size_t b) { return records_[a].id < records_[b].id; });
    std::vector<char> keep(records_.size(), 1);
    for (std::size_t first = 0, next; first < order.size(); first = next) {
      const UnitCount& unit = records_[order[first]];
      bool conflict = false;
      for (next = first + 1; next < order.size() && records_[order[next]].id == unit.id; ++next) {
        keep[order[next]] = 0;
        if (records_[order[next]].tally == unit.tally)
          ++scan_.repeated;  // harmless: the same counts twice (the time may differ: counted twice)
        else
          conflict = true;
      }
      if (!conflict) continue;
      keep[order[first]] = 0;
      scan_.conflicting.push_back(unit.id);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records_.size(); ++i)
      if (keep[i]) records_[kept++] = records_[i];
    records_.resize(kept);
    scan_.units = std::move(records_);
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
    records_.push_back(*unit);
    return {};
  }

  const RunHeader& header_;
  std::uint32_t run_crc_;
  JournalScan& scan_;
  std::vector<UnitCount> records_;  //!< every record that checks out, in file order
};

// A torn line holds only what a record line can hold, followed by any number of the zeros a
// crashed file system may leave behind (a whole zero-filled block after a power cut); anything
// else at the end of the file is damage.
bool looks_torn(std::string_view tail) {
  tail = tail.substr(0, tail.find_last_not_of('\0') + 1);
  if (tail.size() > kMaxTornBytes) return false;
  return tail.find_first_not_of(std::string_view("U 0123456789abcdef\r\0", 20)) == std::string_view::npos;
}

}  // namespace

namespace journal_reading {

[[noreturn]] void refuse_non_regular(const std::filesystem::path& path) {
  throw JournalMismatch(path.string() +
                        " is not a regular file (a device, a pipe or a socket); a journal is a regular file");
}

// Where the bytes of a file of `size` bytes end once the zeros at its end are left out, found
// from the end a block at a time, the holes of a sparse file skipped without reading them:
// zeros after the records are a torn tail however many a crash left, and cost no memory.
std::size_t end_of_content(int fd, const std::filesystem::path& path, std::size_t size) {
  for (std::size_t end = size; end > 0;) {
    const std::size_t begin = end > kZeroSearchBlock ? end - kZeroSearchBlock : 0;
    const off_t data = lseek(fd, static_cast<off_t>(begin), SEEK_DATA);
    if ((data < 0 && errno == ENXIO) || (data >= 0 && static_cast<std::size_t>(data) >= end)) {
      end = begin;  // a hole: zeros, not stored
      continue;
    }
    const std::string block = detail::read_from(fd, path, begin, end - begin);
    const std::size_t last = block.find_last_not_of('\0');
    if (last != std::string::npos) return begin + last + 1;
    end = begin;
  }
  return 0;
}

// The bytes of a journal file, its header read first: a file that does not start like a journal,
// belongs to another run than `expected`, or is larger than a journal of its run can be, is
// refused before it is read whole (a 2 GB sparse file, /dev/zero behind a symlink ended in
// std::bad_alloc). Zeros at the end are not read into memory.
JournalBytes read_journal_file(int fd, const std::filesystem::path& path, const RunHeader* expected) {
  struct stat info {};
  if (fstat(fd, &info) != 0) throw std::runtime_error(io_error("cannot read journal", path));
  if (!S_ISREG(info.st_mode)) refuse_non_regular(path);
  const auto size = static_cast<std::size_t>(info.st_size);
  const std::size_t end = end_of_content(fd, path, size);
  if (end == 0 && size > 0) throw JournalMismatch(path.string() + " is not an nqueens journal (it holds only zeros)");
  std::string head = detail::read_from(fd, path, 0, std::min(end, kMaxHeaderBytes));
  const std::size_t header_end = head.find('\n');
  if (header_end == std::string::npos) {
    if (end <= head.size()) return {std::move(head), size - end};  // scan_journal says what it is
    read_head(head, path.string(), expected);                      // not a journal: refused as such
    throw JournalCorrupt(damaged(path.string(), 1, "the first line is longer than any run header"));
  }
  const HeaderRead read = read_head(std::string_view(head).substr(0, header_end + 1), path.string(), expected);
  std::size_t units = read.sound ? read.sound->unit_count : expected ? expected->unit_count : 0;
  for (const RunHeader& candidate : read.candidates)
    if (!read.sound && !expected) units = std::max(units, candidate.unit_count);
  std::size_t most = header_end + 1 + (2 * units + 1) * kMaxTornBytes;
  if (!read.sound && !expected) most = std::max(most, kMaxUnknownRunBytes);
  if (end > most)
    throw JournalCorrupt(path.string() + " is " + std::to_string(size) + " bytes, more than a journal of " +
                         std::to_string(units) + " units can hold; it was left as it is");
  return {detail::read_from(fd, path, 0, end), size - end};
}

}  // namespace journal_reading

bool looks_like_journal(std::string_view head) {
  if (exact_magic(head)) return true;
  if (head.size() < kPreamble.size()) return false;
  std::size_t differences = 0;
  for (std::size_t i = 0; i < kPreamble.size(); ++i) differences += head[i] != kPreamble[i];
  return differences <= kMaxPreambleDamage;
}

std::string journal_header_line(const RunHeader& header) {
  const std::string text = std::string(kMagic) + std::string(kFormatPrefix) + header_text(header);
  return text + std::string(kCrcKey) + checksum_hex(crc32(text)) + '\n';
}

std::string read_journal(const std::filesystem::path& path, std::size_t* zero_tail) {
  if (struct stat info{}; ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) refuse_non_regular(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(io_error("cannot read", path));
  try {
    JournalBytes file = read_journal_file(fd, path, nullptr);
    ::close(fd);
    if (zero_tail) *zero_tail = file.zero_tail;
    return std::move(file.bytes);
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::string journal_record_line(const RunHeader& header, const UnitCount& unit) {
  return unit_record_text(unit) + ' ' + checksum_hex(unit_checksum(header, unit)) + '\n';
}

JournalScan scan_journal(std::string_view bytes, std::string_view name, const RunHeader* expected) {
  const HeaderRead head = read_head(bytes, name, expected);
  const std::size_t begin = bytes.find('\n') + 1;
  JournalScan scan;
  if (head.sound) {
    scan.header = *head.sound;
  } else if (expected) {
    // Records are bound to their run: under the run's own header they still check out.
    scan.header = *expected;
    scan.header_damaged = true;
    scan.damaged.push_back({1, head.problem});
  } else {
    // The run is the one its records check out under, of those the damaged line may name.
    std::size_t best = 0;
    for (const RunHeader& candidate : head.candidates)
      if (const std::size_t fit = records_checking_out(bytes, begin, candidate); fit > best) {
        best = fit;
        scan.header = candidate;
      }
    if (best == 0)
      throw JournalCorrupt(unknown_run(bytes, begin, without_cr(bytes.substr(0, begin - 1)), name, head.problem));
    scan.header_damaged = true;
    scan.damaged.push_back({1, head.problem + " (the run it names was recovered from the " + std::to_string(best) +
                                   " records that check out under it)"});
  }
  const bool format3 = format3_line(bytes);
  if (format3) scan.format = 3;
  RecordSorter records(scan.header, format3, scan);
  for_each_record_line(bytes, begin, [&records](std::size_t line, std::string_view text) { records.add(line, text); });
  records.finish();
  std::size_t end = begin;
  for (std::size_t next; (next = bytes.find('\n', end)) != std::string_view::npos;) end = next + 1;
  scan.valid_bytes = end;
  scan.torn_bytes = bytes.size() - end;
  scan.tail_damaged = !looks_torn(bytes.substr(end));
  if (scan.tail_damaged)
    scan.damaged.push_back(
        {scan.lines + 2, "the file ends in " + std::to_string(scan.torn_bytes) + " bytes that are not a record"});
  // A damaged header with records none of which checks out under the run asked for: the
  // journal of another run, never to be emptied by a repair under this one.
  if (scan.header_damaged && expected && scan.checked == 0 && scan.lines > 0) {
    std::string owner;
    for (const RunHeader& candidate : head.candidates)
      if (records_checking_out(bytes, begin, candidate) > 0) {
        owner = " (the journal of `nqueens count " + run_options_text(candidate) + "`)";
        break;
      }
    throw JournalMismatch(std::string(name) + ": its run header is damaged, and none of its " +
                          std::to_string(scan.lines) + " records checks out under this run (" +
                          run_identity(*expected) + "): it belongs to another run" + owner + "; it was left as it is");
  }
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

}  // namespace nqueens
