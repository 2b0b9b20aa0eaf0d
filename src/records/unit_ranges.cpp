#include "nqueens/files/unit_ranges.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "text/echo.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

std::string run_text(std::size_t first, std::size_t last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

std::size_t parse_id(std::string_view word, std::string_view list) {
  const auto id = detail::parse_whole<std::size_t>(word);
  if (!id)
    throw std::invalid_argument(detail::echo(word) + " in unit list " + detail::echo(list) +
                                " is not a unit id (give ids and ranges such as 3,7-9)");
  return *id;
}

}  // namespace

std::string format_id_ranges(std::span<const std::size_t> ids, std::size_t max_runs) {
  std::string text;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < ids.size(); ++runs) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (runs == max_runs) return text.append(",... (").append(std::to_string(ids.size())).append(" units in all)");
    if (!text.empty()) text += ',';
    text += run_text(ids[i], ids[j]);
    i = j + 1;
  }
  return text;
}

std::vector<std::size_t> parse_id_ranges(std::string_view text, std::size_t unit_count) {
  if (text.find_first_not_of(' ') == std::string_view::npos)
    throw std::invalid_argument("empty unit list: give ids and ranges such as 3,7-9");
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::string_view rest = text;;) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    item.remove_prefix(std::min(item.find_first_not_of(' '), item.size()));
    const std::size_t dash = item.find('-');
    const std::size_t first = parse_id(item.substr(0, dash), text);
    const std::size_t last = dash == std::string_view::npos ? first : parse_id(item.substr(dash + 1), text);
    if (last < first) throw std::invalid_argument("range " + detail::echo(item) + " runs backwards");
    if (last >= unit_count)
      throw std::invalid_argument("unit " + std::to_string(last) + " is out of range: the run has " +
                                  std::to_string(unit_count) + " units");
    runs.emplace_back(first, last);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  // Sorted, the runs must not touch each other's ids; only then are they expanded (at most
  // unit_count ids).
  std::sort(runs.begin(), runs.end());
  std::vector<std::size_t> ids;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0 && runs[i].first <= runs[i - 1].second)
      throw std::invalid_argument("unit " + std::to_string(runs[i].first) + " is named twice in the unit list");
    for (std::size_t id = runs[i].first; id <= runs[i].second; ++id) ids.push_back(id);
  }
  return ids;
}

}  // namespace nqueens
