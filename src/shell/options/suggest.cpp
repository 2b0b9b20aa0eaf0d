#include "shell/options/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <numeric>

namespace nqueens::shell {

namespace {

// Levenshtein distance: insertions, deletions and substitutions, one row at a time.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string>& known) {
  // A word that differs only in case (-N for -n, -T for -t) is that word, not its nearest neighbour.
  const auto lower = [](std::string_view text) {
    std::string folded(text);
    std::transform(folded.begin(), folded.end(), folded.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return folded;
  };
  for (const std::string& candidate : known)
    if (candidate != word && lower(candidate) == lower(word)) return candidate;
  std::string best;
  std::size_t best_distance = std::min<std::size_t>(3, std::max<std::size_t>(1, word.size() / 3)) + 1;
  for (const std::string& candidate : known)
    if (const std::size_t distance = edit_distance(word, candidate); distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  return best;
}

std::vector<std::string> split_short_equals(int argc, char** argv) {
  std::vector<std::string> words;
  for (int i = 0; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (i > 0 && word.size() > 3 && word[0] == '-' && word[1] != '-' && word[2] == '=') {
      words.emplace_back(word.substr(0, 2));
      words.emplace_back(word.substr(3));
    } else {
      words.emplace_back(word);
    }
  }
  return words;
}

}  // namespace nqueens::shell
