#include "board/canonical.hpp"

#include <array>

#include "nqueens/board.hpp"

namespace nqueens {

namespace {

// The seven non-identity symmetries, each written as "column of the queen on row i of the
// image", given the board p and its inverse (inv[c] = row of the queen in column c).
enum class Image { mirror, flip, rot180, transpose, antitranspose, rot90, rot270 };

int image_column(Image g, int i, int last, const std::uint8_t* p, const std::uint8_t* inv) {
  switch (g) {
    case Image::mirror: return last - p[i];
    case Image::flip: return p[last - i];
    case Image::rot180: return last - p[last - i];
    case Image::transpose: return inv[i];
    case Image::antitranspose: return last - inv[last - i];
    case Image::rot90: return last - inv[i];
    case Image::rot270: return inv[last - i];
  }
  return 0;
}

// <0 when the image is smaller than the board, 0 when equal, >0 when larger. Most images
// differ in their first row or two, so the early exit makes this cheap on average.
int compare_image(Image g, int n, const std::uint8_t* p, const std::uint8_t* inv) {
  for (int i = 0; i < n; ++i) {
    const int diff = image_column(g, i, n - 1, p, inv) - p[i];
    if (diff != 0) return diff;
  }
  return 0;
}

}  // namespace

Orbit classify(std::span<const std::uint8_t> columns) {
  const int n = static_cast<int>(columns.size());
  std::array<std::uint8_t, kMaxN> inv{};
  for (int r = 0; r < n; ++r) inv[columns[r]] = static_cast<std::uint8_t>(r);
  int fixed = 1;  // the identity
  for (Image g : {Image::mirror, Image::flip, Image::rot180, Image::transpose, Image::antitranspose, Image::rot90,
                  Image::rot270}) {
    const int order = compare_image(g, n, columns.data(), inv.data());
    if (order < 0) return {};
    if (order == 0) ++fixed;
  }
  return {true, 8 / fixed};
}

}  // namespace nqueens
