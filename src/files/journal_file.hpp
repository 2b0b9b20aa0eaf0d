#pragma once
// The open journal behind nqueens::Journal (nqueens/files/journal.hpp): the file, its lock, the one
// writer that appends finished units and the thread that syncs them at least once a second.
// Its members are those Journal promises; their comments are there.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nqueens/files/journal.hpp"

namespace nqueens {

class NQUEENS_NO_EXPORT Journal::Impl {
 public:
  Impl(const std::filesystem::path& path, const RunHeader& header, bool repair);
  ~Impl();
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  const std::vector<UnitCount>& recorded() const { return recorded_; }
  const std::optional<JournalRepair>& repaired() const { return repaired_; }
  std::size_t dropped_bytes() const { return dropped_bytes_; }
  const std::filesystem::path& path() const { return path_; }
  const std::string& unwritable() const { return unwritable_; }
  std::size_t units() const;
  void append(const UnitCount& unit);
  void append(std::span<const UnitCount> units);
  void sync();
  void seal();

 private:
  void open_file();      //!< open_and_lock(), checked to be the file named path_ and no other write's target
  void open_and_lock();  //!< throws when another process holds the file
  void close_file();
  void open_existing(const RunHeader& header, const std::string& bytes, std::size_t zero_tail, bool repair);
  void rewrite(const std::string& bytes, std::size_t zero_tail, JournalScan& scan);
  void write_sound(const JournalScan& scan);  //!< replaces the file by scan's units in this format
  void write_all(std::string_view bytes);
  void flush_loop(std::stop_token stop);

  std::filesystem::path path_;
  RunHeader header_;
  int fd_ = -1;
  std::vector<UnitCount> recorded_;
  std::size_t dropped_bytes_ = 0;
  std::string unwritable_;
  std::optional<JournalRepair> repaired_;

  mutable std::mutex write_lock_;     //!< one writer at a time; taken once per finished unit
  bool sealed_ = false;               //!< guarded by write_lock_
  std::size_t appended_ = 0;          //!< guarded by write_lock_
  std::size_t end_ = 0;               //!< the end of the last whole line; guarded by write_lock_
  std::atomic<bool> dirty_ = false;   //!< written since the last fsync
  std::atomic<int> flush_error_ = 0;  //!< errno of a failed background fsync
  std::condition_variable_any wake_;  //!< ends the flusher's sleep early on destruction
  std::mutex wake_lock_;
  //! fsyncs once a second while there is something new
  std::jthread flusher_;
};

}  // namespace nqueens
