#include "join/half_boards.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <optional>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "join/south_key_cache.hpp"

namespace nqueens::join {

namespace {

// Keys an append may write past its last kept one (a vector's worth).
constexpr std::size_t kAppendSlack = 8;

}  // namespace

// How one quadrant's local diagonals map to a half's key. A square (r, c) of the quadrant lies
// on board sum r + c + row0 + col0 and board difference r - c + row0 - col0 + n - 1; the key
// keeps the crossing diagonals only. Fixed queens' diagonals are moved to local numbering once,
// so that filtering an entry is two 32-bit ANDs.
struct QuadrantView {
  int sum_shift = 0, difference_shift = 0;
  std::uint32_t forbidden_sums = 0, forbidden_differences = 0;
  int crossing_low = 0, crossing_bits = 0;
  std::uint64_t crossing_mask = 0;

  QuadrantView(const UnitLayout& layout, const Quadrant& quadrant)
      : sum_shift(quadrant.row0 + quadrant.col0),
        difference_shift(quadrant.row0 - quadrant.col0 + layout.n - layout.k),
        forbidden_sums(static_cast<std::uint32_t>(layout.forbidden_sums >> sum_shift)),
        forbidden_differences(static_cast<std::uint32_t>(layout.forbidden_differences >> difference_shift)),
        crossing_low(layout.crossing_low),
        crossing_bits(layout.crossing_bits),
        crossing_mask((std::uint64_t{1} << layout.crossing_bits) - 1) {}

  bool sees_no_fixed_queen() const { return forbidden_sums == 0 && forbidden_differences == 0; }

  bool attacks_fixed_queen(const QuarterEntry& entry) const {
    return ((entry.sums & forbidden_sums) | (entry.differences & forbidden_differences)) != 0;
  }

  // The fixed queens' diagonals as key bits, when every one of them that crosses the quadrant
  // is a crossing diagonal (then an entry attacks a fixed queen iff its key meets these bits);
  // nullopt otherwise (the middle column's queen on the border row, b = k, forbids a diagonal
  // that only the south quadrants reach).
  std::optional<std::uint64_t> forbidden_key(int k) const {
    const std::uint32_t local = (std::uint32_t{1} << (2 * k - 1)) - 1;
    const QuarterEntry forbidden{forbidden_sums & local, forbidden_differences & local};

    const std::uint64_t in_key = key(forbidden);
    if (std::popcount(in_key) != std::popcount(forbidden.sums) + std::popcount(forbidden.differences))
      return std::nullopt;
    return in_key;
  }

  std::uint64_t key(const QuarterEntry& entry) const {
    const std::uint64_t sums = ((std::uint64_t{entry.sums} << sum_shift) >> crossing_low) & crossing_mask;
    const std::uint64_t differences =
        ((std::uint64_t{entry.differences} << difference_shift) >> crossing_low) & crossing_mask;
    return sums | (differences << crossing_bits);
  }
};

namespace {

// Appends every n | s with n & s == 0. A north and a south quadrant of one half can only meet
// on crossing diagonals, so the keys alone decide whether the two placements fit. `out` has room
// for every pair and kAppendSlack keys more.
std::size_t append_compatible_scalar(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                     std::uint64_t* out) {
  std::size_t written = 0;
  for (const std::uint64_t n : north) {
    for (const std::uint64_t s : south) {
      out[written] = n | s;
      written += (n & s) == 0 ? 1u : 0u;
    }
  }
  return written;
}

#if defined(__x86_64__)
// Eight south keys at a time: the fitting ones are packed to the front of a register, which is
// stored whole (the slack takes what lies past them): a compressing store to memory is slow on
// some CPUs that have AVX-512.
__attribute__((target("avx512f"))) std::size_t append_compatible_avx512(std::span<const std::uint64_t> north,
                                                                        std::span<const std::uint64_t> south,
                                                                        std::uint64_t* out) {
  std::size_t written = 0;
  const std::size_t whole = south.size() / 8 * 8;
  const auto tail = static_cast<__mmask8>((1u << (south.size() % 8)) - 1);
  for (const std::uint64_t n : north) {
    const __m512i north_key = _mm512_set1_epi64(static_cast<long long>(n));
    for (std::size_t i = 0; i < south.size(); i += 8) {
      const __mmask8 lanes = i < whole ? static_cast<__mmask8>(0xff) : tail;
      const __m512i south_keys = _mm512_maskz_loadu_epi64(lanes, south.data() + i);
      const __mmask8 fits = _mm512_mask_testn_epi64_mask(lanes, north_key, south_keys);
      _mm512_storeu_si512(out + written, _mm512_maskz_compress_epi64(fits, _mm512_or_si512(north_key, south_keys)));
      written += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(fits)));
    }
  }
  return written;
}
#endif

// A run of entries filtered in one pass: the keys of those that attack no fixed queen, packed
// from `out` on (which has room for the run and kAppendSlack keys more), and for each eight
// entries the mask of the kept ones and how many were kept before them, so that any group's kept
// keys are found without a pass of its own (QuadrantKeys::kept_before()). At odd n a group holds
// about seven entries, and a pass per group cost more than its keys. Returns how many were kept.
std::size_t keep_run_scalar(std::span<const QuarterEntry> run, const QuadrantView& view, std::uint64_t* out,
                            std::uint8_t* masks, std::uint32_t* before) {
  std::size_t kept = 0;
  for (std::size_t first = 0; first < run.size(); first += 8) {
    before[first / 8] = static_cast<std::uint32_t>(kept);
    unsigned mask = 0;
    for (std::size_t i = first; i < std::min(first + 8, run.size()); ++i) {
      out[kept] = view.key(run[i]);
      const unsigned keep = view.attacks_fixed_queen(run[i]) ? 0u : 1u;
      mask |= keep << (i - first);
      kept += keep;
    }
    masks[first / 8] = static_cast<std::uint8_t>(mask);
  }
  return kept;
}

#if defined(__x86_64__)
// Eight entries at a time, as one 64-bit word each (sums low, differences high): the keys are
// the scalar key()'s shifts, the kept ones packed to the front of a register stored whole.
// One family's diagonals of eight entries as key bits: shifted to board numbering, then to the
// crossing diagonals. (A function of its own, not a lambda: a lambda does not take the target.)
__attribute__((target("avx512f"))) __m512i crossing_key(__m512i diagonals, __m512i shift, __m512i low,
                                                        __m512i crossing) {
  constexpr auto all = static_cast<__mmask8>(0xff);
  const __m512i moved = _mm512_maskz_sllv_epi64(all, diagonals, shift);
  return _mm512_and_si512(_mm512_maskz_srlv_epi64(all, moved, low), crossing);
}

__attribute__((target("avx512f"))) std::size_t keep_run_avx512(std::span<const QuarterEntry> run,
                                                               const QuadrantView& view, std::uint64_t* out,
                                                               std::uint8_t* masks, std::uint32_t* before) {
  static_assert(sizeof(QuarterEntry) == sizeof(std::uint64_t) && offsetof(QuarterEntry, differences) == 4);
  const __m512i low_half = _mm512_set1_epi64(0xffffffff);
  const __m512i forbidden_sums = _mm512_set1_epi64(view.forbidden_sums);
  const __m512i forbidden_differences = _mm512_set1_epi64(view.forbidden_differences);
  const __m512i crossing = _mm512_set1_epi64(static_cast<long long>(view.crossing_mask));
  const __m512i sum_shift = _mm512_set1_epi64(view.sum_shift);
  const __m512i difference_shift = _mm512_set1_epi64(view.difference_shift);
  const __m512i low = _mm512_set1_epi64(view.crossing_low);
  const __m512i bits = _mm512_set1_epi64(view.crossing_bits);
  // The zero-masking forms of the shifts: GCC 12 warns that the plain ones read an undefined value.
  constexpr auto all = static_cast<__mmask8>(0xff);
  const auto* words = reinterpret_cast<const std::uint64_t*>(run.data());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < run.size(); i += 8) {
    const std::size_t left = run.size() - i;
    const auto lanes = static_cast<__mmask8>(left >= 8 ? 0xff : (1u << left) - 1);
    const __m512i entries = _mm512_maskz_loadu_epi64(lanes, words + i);
    const __m512i sums = _mm512_and_si512(entries, low_half);
    const __m512i differences = _mm512_maskz_srli_epi64(all, entries, 32);
    const __mmask8 attacks =
        _mm512_test_epi64_mask(sums, forbidden_sums) | _mm512_test_epi64_mask(differences, forbidden_differences);
    const __m512i keys =
        _mm512_or_si512(crossing_key(sums, sum_shift, low, crossing),
                        _mm512_maskz_sllv_epi64(all, crossing_key(differences, difference_shift, low, crossing), bits));
    const auto keep = static_cast<__mmask8>(lanes & ~attacks);
    _mm512_storeu_si512(out + kept, _mm512_maskz_compress_epi64(keep, keys));
    masks[i / 8] = keep;
    before[i / 8] = static_cast<std::uint32_t>(kept);
    kept += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(keep)));
  }
  return kept;
}
#endif

using KeepRun = std::size_t (*)(std::span<const QuarterEntry>, const QuadrantView&, std::uint64_t*, std::uint8_t*,
                                std::uint32_t*);

KeepRun best_keep_run() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return &keep_run_avx512;
#endif
  return &keep_run_scalar;
}

const KeepRun keep_run = best_keep_run();

// append_compatible() for each pairing in turn, its halves after the last one's: a side of odd n
// pairs some sixty column sets of a few keys each, and a call per set cost more than its pairs.
std::size_t append_pairings_scalar(std::span<const Pairing> pairings, std::uint64_t* out) {
  std::size_t written = 0;
  for (const Pairing& pairing : pairings)
    written += append_compatible_scalar({pairing.north, pairing.north_size}, {pairing.south, pairing.south_size},
                                        out + written);
  return written;
}

#if defined(__x86_64__)
// Lane i of a register pairs north key i / s with south key i % s, for a south group of s keys:
// eight / s north keys a register (rows 1 to 8 by s; lanes past the last pair are masked off).
struct PairingLanes {
  alignas(64) std::array<std::array<std::int64_t, 8>, 9> north, south;
  std::array<std::uint8_t, 9> per_register;
};

constexpr PairingLanes make_pairing_lanes() {
  PairingLanes lanes{};
  for (std::size_t s = 1; s <= 8; ++s) {
    lanes.per_register[s] = static_cast<std::uint8_t>(8 / s);
    for (std::size_t i = 0; i < 8; ++i) {
      const std::size_t pairs = 8 / s * s;  // lanes that hold a pair
      lanes.north[s][i] = static_cast<std::int64_t>(i < pairs ? i / s : 0);
      lanes.south[s][i] = static_cast<std::int64_t>(i < pairs ? i % s : 0);
    }
  }
  return lanes;
}

constexpr PairingLanes kPairingLanes = make_pairing_lanes();

// A south group of at most eight keys (most of them, at odd n) is loaded once for all its north
// keys, and a group of s <= 4 keys meets eight / s north keys a register: one compressing store
// (the loop's costliest step) then keeps the fitting halves of several north keys, in the order
// one north key at a time would keep them.
__attribute__((target("avx512f"))) std::size_t append_pairings_avx512(std::span<const Pairing> pairings,
                                                                      std::uint64_t* out) {
  std::size_t written = 0;
  for (const Pairing& pairing : pairings) {
    const std::uint64_t* north = pairing.north;
    const std::size_t north_size = pairing.north_size, south_size = pairing.south_size;
    if (south_size > 8) {
      written += append_compatible_avx512({north, north_size}, {pairing.south, south_size}, out + written);
      continue;
    }
    const auto group = static_cast<__mmask8>((1u << south_size) - 1);
    const __m512i south_keys = _mm512_maskz_loadu_epi64(group, pairing.south);
    const std::size_t per_register = kPairingLanes.per_register[south_size];
    const __m512i north_lanes = _mm512_load_si512(kPairingLanes.north[south_size].data());
    // The zero-masking form: GCC 12 warns that the plain one reads an undefined value.
    constexpr auto all = static_cast<__mmask8>(0xff);
    const __m512i south_lanes =
        _mm512_maskz_permutexvar_epi64(all, _mm512_load_si512(kPairingLanes.south[south_size].data()), south_keys);
    for (std::size_t i = 0; i < north_size; i += per_register) {
      const std::size_t taken = std::min(per_register, north_size - i);
      const __m512i north_keys = _mm512_maskz_permutexvar_epi64(
          all, north_lanes, _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << taken) - 1), north + i));
      const auto pairs = static_cast<__mmask8>((1u << (taken * south_size)) - 1);
      const __mmask8 fits = _mm512_mask_testn_epi64_mask(pairs, north_keys, south_lanes);
      _mm512_storeu_si512(out + written, _mm512_maskz_compress_epi64(fits, _mm512_or_si512(north_keys, south_lanes)));
      written += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(fits)));
    }
  }
  return written;
}
#endif

using AppendPairings = std::size_t (*)(std::span<const Pairing>, std::uint64_t*);

AppendPairings best_append_pairings() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return &append_pairings_avx512;
#endif
  return &append_pairings_scalar;
}

const AppendPairings best_pairings = best_append_pairings();

using AppendCompatible = std::size_t (*)(std::span<const std::uint64_t>, std::span<const std::uint64_t>,
                                         std::uint64_t*);

AppendCompatible best_append_compatible() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return &append_compatible_avx512;
#endif
  return &append_compatible_scalar;
}

const AppendCompatible append_compatible = best_append_compatible();

}  // namespace

namespace detail {

std::size_t append_pairings(std::span<const Pairing> pairings, std::uint64_t* out) {
  return best_pairings(pairings, out);
}

}  // namespace detail

// Serial: a slice is built by the worker thread that needs it, beside others building theirs.
QuadrantKeyTables::QuadrantKeyTables(std::span<const QuarterEntry> entries, int n)
    : entries_(entries.size()), keys_(4 * entries.size()) {
  // Any unit of n has the same quadrants; the unfolded even-kind layout has no fixed queen.
  const UnitLayout layout = layout_of(n, JoinUnit{});
  for (const Quadrant& quadrant : {layout.east.north, layout.east.south, layout.west.north, layout.west.south}) {
    const QuadrantView view(layout, quadrant);
    std::uint64_t* keys = keys_.data() + position(quadrant) * entries_;
    for (std::size_t i = 0; i < entries.size(); ++i) keys[i] = view.key(entries[i]);
  }
}

bool computes_keys_in_vectors() {
#if defined(__x86_64__)
  return keep_run == &keep_run_avx512;
#else
  return false;
#endif
}

bool wants_quadrant_key_tables(int n) { return n % 2 == 1 && n / 2 <= 10 && !computes_keys_in_vectors(); }

// The keys of every entry of the slice whose column set is one of `sets` and that attacks no
// fixed queen, grouped by column set, into storage sized once: at odd n most units are small,
// and resizing per group (zero-filling included) cost more than the keys themselves.
void QuadrantKeys::load(const QuarterSlice& slice, const QuadrantKeyTables* precomputed, const UnitLayout& layout,
                        const Quadrant& quadrant, std::span<const std::uint32_t> sets) {
  const QuadrantView view(layout, quadrant);
  const std::size_t column_masks = std::size_t{1} << slice.k();
  if (ranges_.size() < column_masks) ranges_.resize(column_masks);
  const std::size_t capacity = slice.entries().size() + kAppendSlack;
  if (keys_.size() < capacity) keys_.resize(capacity);
  const std::optional<std::uint64_t> forbidden = precomputed ? view.forbidden_key(layout.k) : std::nullopt;
  if (!forbidden && !view.sees_no_fixed_queen()) return filter_in_one_run(slice, view, sets);
  const QuarterEntry* first_entry = slice.entries().data();
  std::uint32_t kept = 0;
  for (const std::uint32_t set : sets) {
    ranges_[set].begin = kept;
    const auto group = slice.group(set);
    if (forbidden) {
      const std::uint64_t* keys = precomputed->of(quadrant).data() + (group.data() - first_entry);
      for (std::size_t i = 0; i < group.size(); ++i) {
        keys_[kept] = keys[i];
        kept += (keys[i] & *forbidden) == 0 ? 1u : 0u;
      }
    } else {  // even n: every entry kept, a loop the compiler vectorizes
      std::uint64_t* keys = keys_.data() + kept;
      for (std::size_t i = 0; i < group.size(); ++i) keys[i] = view.key(group[i]);
      kept += static_cast<std::uint32_t>(group.size());
    }
    ranges_[set].end = kept;
  }
}

// Filters the whole slice in one pass, groups that are not wanted included: a side's sets are
// most of its slice's groups (all of them for the east side), and skipping the others would
// cost a pass over the sets of its own.
void QuadrantKeys::filter_in_one_run(const QuarterSlice& slice, const QuadrantView& view,
                                     std::span<const std::uint32_t> sets) {
  if (sets.empty()) return;
  const std::span<const QuarterEntry> entries = slice.entries();
  const std::size_t blocks = entries.size() / 8 + 1;  // and the one past the last entry
  if (kept_masks_.size() < blocks) {
    kept_masks_.resize(blocks);
    kept_before_.resize(blocks);
  }
  const std::size_t kept = keep_run(entries, view, keys_.data(), kept_masks_.data(), kept_before_.data());
  if (entries.size() % 8 == 0) {  // the position past the last entry starts a block of its own
    kept_masks_[blocks - 1] = 0;
    kept_before_[blocks - 1] = static_cast<std::uint32_t>(kept);
  }
  for (const std::uint32_t set : sets) {
    const auto group = slice.group(set);
    const auto offset = static_cast<std::size_t>(group.data() - entries.data());
    ranges_[set] = {kept_before(offset), kept_before(offset + group.size())};
  }
}

bool HalfEnumerator::has_halves(const SideLayout& side) {
  return std::popcount(side.north_rows) + std::popcount(side.south_rows) == std::popcount(side.columns);
}

// The north column sets within the side's columns; with a fold, those ranking equal to its rank
// first, then those above it.
void HalfEnumerator::choose_north_sets(const SliceView& north, const SideLayout& side, const SideFold* fold) {
  north_sets_.clear();
  for (const std::uint32_t set : north.slice.column_sets())
    if ((set & ~side.columns) == 0 && (!fold || fold->value(set) == fold->rank)) north_sets_.push_back(set);
  tied_sets_ = north_sets_.size();
  if (!fold) return;
  for (const std::uint32_t set : north.slice.column_sets())
    if ((set & ~side.columns) == 0 && fold->value(set) > fold->rank) north_sets_.push_back(set);
}

// Each north column set in north_sets_ goes with the rest of the side's columns south (south_sets_).
void HalfEnumerator::load_quadrants(SliceView north, SliceView south, const UnitLayout& layout,
                                    const SideLayout& side) {
  // Compared field by field (the set list last): a hit costs less than a load of a small slice.
  const bool same_north = north_source_.slice == &north.slice && north_source_.rows == north.slice.rows() &&
                          north_source_.columns == side.columns && north_source_.quadrant == side.north &&
                          north_source_.forbidden_sums == layout.forbidden_sums &&
                          north_source_.forbidden_differences == layout.forbidden_differences &&
                          north_source_.keys == north.keys && north_source_.sets == north_sets_;
  if (!same_north) {
    north_.load(north.slice, north.keys, layout, side.north, north_sets_);
    north_source_ = {&north.slice,          north.slice.rows(),           side.columns, side.north,
                     layout.forbidden_sums, layout.forbidden_differences, north.keys,   north_sets_};
  }
  if (south_cache_) {
    cached_south_ = &south_cache_->keys(south, layout, side.south);
    return;
  }
  south_.load(south.slice, south.keys, layout, side.south, south_sets_);
  cached_south_ = nullptr;
}

void HalfEnumerator::load(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side,
                          const SideFold* fold, std::uint64_t most_halves) {
  // Without a fold, the sets depend only on the side's columns and the north quadrant's queens:
  // an off-centre unit's row sets all pair the same ones.
  const UnfoldedSets sets_for{north.slice.k(), std::popcount(north.slice.rows()), side.columns};
  if (!has_halves(side)) {
    north_sets_.clear();
    south_sets_.clear();
    tied_sets_ = 0;
    unfolded_sets_.reset();
  } else if (fold || unfolded_sets_ != sets_for) {
    choose_north_sets(north, side, fold);
    south_sets_.clear();
    for (const std::uint32_t set : north_sets_) south_sets_.push_back(side.columns & ~set);
    unfolded_sets_ = fold ? std::nullopt : std::optional{sets_for};
  }
  if (has_halves(side)) load_quadrants(north, south, layout, side);
  most_halves_ = most_halves;
  rewind();
}

// A north key makes at most one half per south key: a part takes as many north keys of a set as
// leave room for all their matches, so it never holds more than most_halves_ halves (unless one
// north key alone would make more: a part takes at least one).
// The tied sets come first, so the part's ties are all its keys as of its last tied append.
std::size_t HalfEnumerator::next_part(KeyBuffer& keys) {
  keys.clear();
  if (set_ == 0 && key_ == 0 && pair_whole_side()) return append_whole_side(keys);
  std::size_t ties = 0;
  const std::size_t most = most_halves_ >= SIZE_MAX - kAppendSlack ? SIZE_MAX : most_halves_ + kAppendSlack;
  for (; set_ < north_sets_.size(); ++set_, key_ = 0) {
    const auto north_keys = north_.of(north_sets_[set_]);
    const auto south_keys = south_quadrant().of(south_sets_[set_]);
    if (south_keys.empty()) continue;
    while (key_ < north_keys.size()) {
      const std::uint64_t room = most_halves_ - std::min<std::uint64_t>(keys.size(), most_halves_);
      const std::size_t taken =
          std::min<std::uint64_t>(north_keys.size() - key_, std::max<std::uint64_t>(room / south_keys.size(), 1));
      if (taken * south_keys.size() > room && keys.size() > 0) return ties;
      std::uint64_t* out = keys.make_room(taken * south_keys.size() + kAppendSlack, most);
      keys.commit(append_compatible(north_keys.subspan(key_, taken), south_keys, out));
      key_ += taken;
      if (set_ < tied_sets_) ties = keys.size();
    }
  }
  return ties;
}

// The side's pairings of north and south keys, when all their halves fit one part (at most
// most_halves_: the part the loop below would make too, set after set); false otherwise.
// Read through local pointers and written by index: through the members, every store into the
// list would make the compiler read them all again (this loop runs once per side of a row set).
bool HalfEnumerator::pair_whole_side() {
  const QuadrantKeys::Groups north = north_.groups(), south = south_quadrant().groups();
  const std::size_t sets = north_sets_.size();
  if (pairings_.size() < sets) pairings_.resize(sets);
  Pairing* pairings = pairings_.data();
  const std::uint32_t* north_sets = north_sets_.data();
  const std::uint32_t* south_sets = south_sets_.data();
  const std::size_t tied_sets = tied_sets_;
  std::size_t count = 0, tied = 0;
  std::uint64_t bound = 0;
  for (std::size_t set = 0; set < sets; ++set) {
    const QuadrantKeys::Range north_range = north.ranges[north_sets[set]];
    const QuadrantKeys::Range south_range = south.ranges[south_sets[set]];
    const std::uint32_t north_begin = north_range.begin, north_end = north_range.end;
    const std::uint32_t south_begin = south_range.begin, south_end = south_range.end;
    // Written always, and kept only when both groups have keys: at odd n which groups are
    // empty is unpredictable, and a branch on it cost more than the store.
    pairings[count] = {north.keys + north_begin, south.keys + south_begin, north_end - north_begin,
                       south_end - south_begin};
    count += (north_begin != north_end && south_begin != south_end) ? 1u : 0u;
    bound += std::uint64_t{north_end - north_begin} * (south_end - south_begin);
    tied = set < tied_sets ? count : tied;
  }
  pairing_count_ = count;
  tied_pairings_ = tied;
  whole_side_bound_ = bound;
  return bound <= most_halves_;
}

std::size_t HalfEnumerator::append_whole_side(KeyBuffer& keys) {
  const std::span<const Pairing> pairings(pairings_.data(), pairing_count_);
  std::uint64_t* out = keys.make_room(whole_side_bound_ + kAppendSlack);
  const std::size_t ties = detail::append_pairings(pairings.first(tied_pairings_), out);
  keys.commit(ties + detail::append_pairings(pairings.subspan(tied_pairings_), out + ties));
  set_ = north_sets_.size();
  return ties;
}

void HalfEnumerator::enumerate(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side,
                               KeyBuffer& keys) {
  load(north, south, layout, side, nullptr, UINT64_MAX);
  next_part(keys);
}

std::size_t HalfEnumerator::enumerate_folded(SliceView north, SliceView south, const UnitLayout& layout,
                                             const SideLayout& side, const SideFold& fold, KeyBuffer& keys) {
  load(north, south, layout, side, &fold, UINT64_MAX);
  return next_part(keys);
}

}  // namespace nqueens::join
