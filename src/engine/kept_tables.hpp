#pragma once
// Tables one N's run leaves for the next N of the same command, which reads them again: the
// join's quarter slices serve N = 2k and 2k + 1 alike. A command that counts a range builds them
// once, not once per N. What a run may leave is decided with the memory plans, before the first N
// is counted (run/prepare.hpp, RunRequest::hand_on_bytes): never more than the next run's own plan
// gives those tables, so that each run stays within its budget while they are alive.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace nqueens {

class KeptTables {
 public:
  //! Leaves `tables` under `name` for the next run, in place of anything left there before.
  void leave(const std::string& name, std::shared_ptr<void> tables) {
    const std::scoped_lock lock(mutex_);
    left_[name] = std::move(tables);
  }

  //! What the run before left under `name`, taken (null if nothing): whoever takes it owns it.
  template <typename Tables>
  std::shared_ptr<Tables> take(const std::string& name) {
    const std::scoped_lock lock(mutex_);
    const auto found = left_.find(name);
    if (found == left_.end()) return nullptr;
    std::shared_ptr<void> tables = std::move(found->second);
    left_.erase(found);
    return std::static_pointer_cast<Tables>(tables);
  }

  //! Drops everything left: a run that leaves nothing for the next ends what the one before kept.
  void clear() {
    const std::scoped_lock lock(mutex_);
    left_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<void>> left_;
};

}  // namespace nqueens
