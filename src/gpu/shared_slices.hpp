#pragma once
// The quarter table's slices a device holds once for every matcher that counts on it: the first
// matcher that reads a slice sends it, and the others read it where it lies. Each slice crosses
// the bus once a run and takes device memory once, where the matchers' own rooms would hold (and
// send) a copy per counting thread. Where the run's whole quarter table does not fit the room the
// device gives it, or the device cannot allocate it, the matchers keep slices in their own rooms
// (built_matcher.hpp): the counts are the same either way.
// Beside the entries, the device holds the table's group index (pairing_spec.hpp), each slice's
// group starts sent with it, so that a row set's sides are sent as their descriptions.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "join/quarter_slice.hpp"

namespace nqueens::gpu {

//! A device gives its shared slices at most its memory over this: the rest is its batches'.
inline constexpr std::size_t kSharedSlicesShare = 4;

//! Where a run's quarter table lies on a device.
enum class TableHome : std::uint8_t {
  shared,     //!< once, for every matcher on the device
  too_large,  //!< in each matcher's own room: the table does not fit what is left of the share
  no_memory,  //!< in each matcher's own room: the device could not allocate the table
};

//! "held once on the device", "...": for the log.
const char* table_home_text(TableHome home);

class SharedSlices {
 public:
  //! `room_entries`: the most entries the device gives the tables (of every k it meets: a
  //! process may count several N).
  explicit SharedSlices(std::size_t room_entries) : room_(room_entries) {}
  virtual ~SharedSlices() = default;
  SharedSlices(const SharedSlices&) = delete;
  SharedSlices& operator=(const SharedSlices&) = delete;

  //! Where the quarter table of `k` lies: decided once, by the first call for k (here or in
  //! place()), which makes room for the whole table where it fits what is left of the room and
  //! the device can allocate it. Thread-safe.
  TableHome home(int k);

  //! Where `slice`'s entries start among the shared ones of its k, sent there the first time any
  //! matcher asks (under the lock, so that none reads it before it is there); nullopt where its
  //! k's table is not held here (home()). Thread-safe.
  std::optional<std::uint64_t> place(const join::QuarterSlice& slice);

  //! Entries sent so far, each slice's once, over every k.
  std::uint64_t entries_sent() const;

 protected:
  //! Makes room for the `entries` entries of k's whole table and its group index
  //! (group_index_words(k)), once, before any of k is sent; false where the device is out of
  //! memory (other errors throw).
  virtual bool reserve(int k, std::size_t entries) = 0;
  //! Copies `entries` to k's shared ones from `first` on, and `starts` to k's group index from
  //! word `index_first` on; done when it returns.
  virtual void send(int k, std::uint64_t first, std::span<const join::QuarterEntry> entries, std::uint64_t index_first,
                    std::span<const std::uint32_t> starts) = 0;

 private:
  struct Table {
    TableHome home = TableHome::too_large;
    std::size_t reserved = 0;
    std::uint64_t used = 0;
    std::unordered_map<std::uint32_t, std::uint64_t> placed;  // a slice's rows -> its first entry
  };

  Table& table(int k);  // decided, under the lock

  std::size_t room_;
  mutable std::mutex mutex_;
  std::unordered_map<int, Table> tables_;  // by k, once decided
  std::size_t reserved_ = 0;               // over every k
  std::uint64_t sent_ = 0;
};

//! The entries a quarter table of `k` holds: every slice's, summed.
std::uint64_t quarter_table_entries(int k);
//! The bytes a device holds for k's table: its entries and its group index.
std::uint64_t quarter_table_device_bytes(int k);

//! Shared slices in this process's memory: the host form, for the tests and the device model.
class HostSharedSlices final : public SharedSlices {
 public:
  //! `out_of_memory`: acts as a device that cannot allocate any table.
  explicit HostSharedSlices(std::size_t room_entries = std::size_t{1} << 26, bool out_of_memory = false)
      : SharedSlices(room_entries), out_of_memory_(out_of_memory) {}
  //! k's shared entries and group index; stable once its first slice is placed.
  const join::QuarterEntry* entries(int k) const { return entries_.at(k).data(); }
  const std::uint32_t* group_index(int k) const { return index_.at(k).data(); }

 protected:
  bool reserve(int k, std::size_t entries) override;
  void send(int k, std::uint64_t first, std::span<const join::QuarterEntry> entries, std::uint64_t index_first,
            std::span<const std::uint32_t> starts) override;

 private:
  bool out_of_memory_;
  std::unordered_map<int, std::vector<join::QuarterEntry>> entries_;
  std::unordered_map<int, std::vector<std::uint32_t>> index_;
};

}  // namespace nqueens::gpu
