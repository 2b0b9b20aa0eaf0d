#include "nqueens/solutions.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include "board/bitboard.hpp"
#include "board/canonical.hpp"
#include "engine/thread_allowance.hpp"
#include "engine/tsan_handoff.hpp"
#include "nqueens/board.hpp"
#include "nqueens/count.hpp"

// Why solve does not go through the Engine interface (engine/engine.hpp): its contract is one
// lexicographic stream of boards, in order, from the first row down. The counting engines give
// up exactly that order to go fast: the dfs splitter folds mirror images into canonical prefixes
// and its kernel expands rows breadth-first in SIMD lanes that never materialise a board; the
// join engine never holds a whole board at all, only diagonal keys of half-boards. Emitting
// boards from either would mean unfolding symmetries and re-sorting unbounded output. So solve
// keeps its own ordered prefix pipeline, and shares with counting what does not constrain order:
// the canonical-board classifier (canonical.hpp) and the thread allowance.
namespace nqueens {

namespace {

// Rows left to the parallel stage. A prefix's subtree then holds few solutions (measured at most
// 1639 for N = 12, about 600 for N = 14..17), so a batch stays well under a megabyte, yet each
// prefix is enough search to outweigh passing it through the pipeline.
constexpr int kTailRows = 11;

// Prefixes per pipeline token. Deep prefixes of large boards often have no completion at all,
// so they travel in groups to keep the per-token overhead below the search cost.
constexpr std::size_t kPrefixesPerBatch = 32;

// Tokens in flight per thread: enough that no thread waits for the ordered output stage to
// catch up, few enough that memory is a small constant.
constexpr std::size_t kTokensPerThread = 4;

// A board whose first `rows` rows hold a queen, and the squares they attack on the next row.
struct Partial {
  std::array<std::uint8_t, kMaxN> columns{};
  int rows = 0;
  Mask cols = 0;   //!< columns taken
  Mask left = 0;   //!< attacked along diagonals running down towards higher columns
  Mask right = 0;  //!< attacked along diagonals running down towards lower columns
};

// Which columns each row may use. Under `unique` the row-0 queen stays in the left half: a
// board whose first queen is right of centre is larger than its mirror image, so never canonical.
struct Rules {
  Mask all = 0;
  Mask first_row = 0;

  Rules(int n, bool unique) : all(board_mask(n)), first_row(unique ? board_mask((n + 1) / 2) : all) {}
  Mask free(int row, Mask cols, Mask left, Mask right) const {
    return (row == 0 ? first_row : all) & ~(cols | left | right);
  }
};

// A resumable depth-first search from one partial board down to `target` rows. Each call to
// next() yields the following board of that depth in lexicographic order (lowest column bit
// first), so the same code lazily feeds the pipeline with prefixes and completes each prefix.
class Descent {
 public:
  Descent(const Partial& start, int target, const Rules& rules)
      : board_(start), base_(start.rows), target_(target), row_(start.rows), rules_(rules) {
    stack_[row_] = {start.cols, start.left, start.right, rules_.free(row_, start.cols, start.left, start.right)};
    yield_start_ = start.rows == target;
  }

  bool next(Partial& out) {
    if (yield_start_) {  // the start itself is the only board of the target depth
      yield_start_ = false;
      out = board_;
      return true;
    }
    if (base_ == target_) return false;
    while (true) {
      Frame& frame = stack_[row_];
      if (frame.untried == 0) {
        if (row_ == base_) return false;
        --row_;
        continue;
      }
      const Mask bit = frame.untried & (0 - frame.untried);
      frame.untried ^= bit;
      board_.columns[row_] = static_cast<std::uint8_t>(column_of(bit));
      const Mask cols = frame.cols | bit;
      const Mask left = ((frame.left | bit) << 1) & rules_.all;
      const Mask right = (frame.right | bit) >> 1;
      if (row_ + 1 == target_) {
        out = board_;
        out.rows = target_;
        out.cols = cols;
        out.left = left;
        out.right = right;
        return true;
      }
      ++row_;
      stack_[row_] = {cols, left, right, rules_.free(row_, cols, left, right)};
    }
  }

 private:
  struct Frame {
    Mask cols, left, right, untried;
  };
  std::array<Frame, kMaxN + 1> stack_{};
  Partial board_;
  int base_, target_, row_;
  Rules rules_;
  bool yield_start_ = false;
};

// One pipeline token: consecutive prefixes in, their solutions out, both in lexicographic order.
struct Batch {
  std::vector<Partial> prefixes;
  std::vector<std::uint8_t> boards;  //!< n bytes per solution
  std::vector<std::uint8_t> orbits;  //!< class size per solution (unique), else 0
};

// Completes every prefix of the batch. Under `unique` only canonical boards are kept.
void complete(Batch& batch, int n, const Rules& rules, bool unique) {
  Partial board;
  for (const Partial& prefix : batch.prefixes) {
    Descent search(prefix, n, rules);
    while (search.next(board)) {
      const std::span<const std::uint8_t> columns(board.columns.data(), static_cast<std::size_t>(n));
      int orbit_size = 0;
      if (unique) {
        const Orbit orbit = classify(columns);
        if (!orbit.canonical) continue;
        orbit_size = orbit.size;
      }
      batch.boards.insert(batch.boards.end(), columns.begin(), columns.end());
      batch.orbits.push_back(static_cast<std::uint8_t>(orbit_size));
    }
  }
}

// Hands a finished batch to the sink; false once the sink has asked to stop.
bool deliver(const Batch& batch, int n, const SolutionSink& sink) {
  const std::size_t width = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < batch.orbits.size(); ++i)
    if (!sink(std::span<const std::uint8_t>(batch.boards.data() + i * width, width), batch.orbits[i])) return false;
  return true;
}

}  // namespace

void for_each_solution(int n, const SolveOptions& options, const SolutionSink& sink) {
  if (!valid_board_size(n))
    throw std::invalid_argument("board size must be between " + std::to_string(kMinN) + " and " +
                                std::to_string(kMaxN) + ", got " + std::to_string(n));
  const int threads = resolve_threads(options.threads);
  const Rules rules(n, options.unique);
  Descent prefixes(Partial{}, std::max(0, n - kTailRows), rules);
  std::atomic<bool> stopped = false;  // set by the output stage, read by the other two

  const detail::ThreadAllowance allowance(threads);
  using BatchPtr = std::unique_ptr<Batch>;
  // For ThreadSanitizer only (tsan_handoff.hpp): the setup is seen by every stage; each serial
  // stage continues its previous call; a batch goes from stage to stage; the caller sees it all.
  const char setup = 0, finished = 0;
  detail::hand_over(&setup);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    // ---- the three pipeline stages: ordered input, parallel search, ordered output ----
    auto read = [&](tbb::flow_control& control) -> BatchPtr {
      detail::take_over(&setup);
      detail::take_over(&prefixes);
      auto batch = std::make_unique<Batch>();
      Partial prefix;
      while (batch->prefixes.size() < kPrefixesPerBatch && prefixes.next(prefix)) batch->prefixes.push_back(prefix);
      if (batch->prefixes.empty() || stopped.load(std::memory_order_relaxed)) control.stop();
      detail::hand_over(&prefixes);
      detail::hand_over(batch.get());
      detail::hand_over(&finished);
      return batch;
    };
    auto search = [&](BatchPtr batch) -> BatchPtr {
      detail::take_over(&setup);
      detail::take_over(batch.get());
      if (!stopped.load(std::memory_order_relaxed)) complete(*batch, n, rules, options.unique);
      detail::hand_over(batch.get());
      detail::hand_over(&finished);
      return batch;
    };
    auto write = [&](BatchPtr batch) {
      detail::take_over(&setup);
      detail::take_over(&sink);
      detail::take_over(batch.get());
      if (!stopped.load(std::memory_order_relaxed) && !deliver(*batch, n, sink))
        stopped.store(true, std::memory_order_relaxed);
      detail::hand_over(&sink);
      detail::hand_over(&finished);
    };
    tbb::parallel_pipeline(kTokensPerThread * static_cast<std::size_t>(threads),
                           tbb::make_filter<void, BatchPtr>(tbb::filter_mode::serial_in_order, read) &
                               tbb::make_filter<BatchPtr, BatchPtr>(tbb::filter_mode::parallel, search) &
                               tbb::make_filter<BatchPtr, void>(tbb::filter_mode::serial_in_order, write));
  });
  detail::take_over(&finished);
}

}  // namespace nqueens
