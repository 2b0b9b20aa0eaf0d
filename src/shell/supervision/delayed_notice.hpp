#pragma once
// Warnings about a command (its cost, announce_costs) that wait for the checks made before it
// counts: a refusal those checks find at once is then the command's one line, not preceded by a
// warning about a run that will not happen. A check that takes longer (a memory plan at N = 26
// takes half a minute) does not keep them back past the delay: the user learns of a run of days
// while it is being set up, not after.
//
//   DelayedNotice notice(announce_costs(...));
//   check_every_run(...);  // a refusal throws: the notice is dropped unsaid if still waiting
//   notice.say();
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace nqueens::shell {

//! How long the checks get to refuse the command before its warnings are logged anyway.
inline constexpr std::chrono::milliseconds kNoticeDelay{2000};

class DelayedNotice {
 public:
  //! Logs `lines` as warnings (warn_each) after `delay`, unless say() or the destructor comes first.
  explicit DelayedNotice(std::vector<std::string> lines, std::chrono::milliseconds delay = kNoticeDelay);
  //! Drops the lines not yet logged: the command was refused, and its refusal is its one line.
  ~DelayedNotice();
  DelayedNotice(const DelayedNotice&) = delete;
  DelayedNotice& operator=(const DelayedNotice&) = delete;

  //! Logs the lines now, if the delay has not logged them already.
  void say();

 private:
  void finish(bool logged);

  std::vector<std::string> lines_;
  std::mutex lock_;
  std::condition_variable settled_;
  bool done_ = false;  //!< guarded by lock_: said, or dropped
  std::thread timer_;
};

}  // namespace nqueens::shell
