#include "text/echo.hpp"

#include <algorithm>

namespace nqueens::detail {

namespace {

constexpr char kHex[] = "0123456789abcdef";

bool control(unsigned char c) { return c < 0x20 || c == 0x7f; }

// Where to cut `text` at most `max_bytes` in without splitting a UTF-8 sequence: back off over
// continuation bytes (10xxxxxx) to the start of the character.
std::size_t cut_point(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

void append_escaped(std::string& out, char ch, bool quotes) {
  const auto c = static_cast<unsigned char>(ch);
  switch (ch) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\\': out += quotes ? "\\\\" : "\\"; return;
    case '\'': out += quotes ? "\\'" : "'"; return;
    default: break;
  }
  if (control(c)) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
  } else {
    out += ch;
  }
}

// Built in one string, quotes included: GCC 12 warns falsely about "'" + std::string.
std::string escape(std::string_view text, std::size_t max_bytes, bool quotes) {
  const std::size_t cut = cut_point(text, max_bytes);
  std::string out;
  out.reserve(cut + 8);
  if (quotes) out += '\'';
  for (std::size_t i = 0; i < cut; ++i) append_escaped(out, text[i], quotes);
  if (cut < text.size()) out += "...";
  if (quotes) out += '\'';
  return out;
}

}  // namespace

std::string single_quoted(std::string_view text, std::size_t max_bytes) { return escape(text, max_bytes, true); }

std::string echo(std::string_view text) { return single_quoted(text, kEchoBytes); }

std::string echo_bare(std::string_view text) { return escape(text, kEchoBytes, false); }

std::string shown_path(const std::filesystem::path& path) {
  const std::string& text = path.native();
  const bool plain = !text.empty() && std::none_of(text.begin(), text.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return control(c) || ch == ' ' || ch == '\'' || ch == '"' || ch == '\\';
  });
  return plain ? text : single_quoted(text);
}

std::string cut_repeats(std::string message, std::string_view text, std::size_t longest) {
  if (text.size() <= longest) return message;
  const std::string cut = echo_bare(text);
  for (std::size_t at = 0; (at = message.find(text, at)) != std::string::npos; at += cut.size())
    message.replace(at, text.size(), cut);
  return message;
}

std::string cut_arguments(std::string message, std::span<char* const> arguments) {
  for (const char* argument : arguments) message = cut_repeats(std::move(message), argument ? argument : "");
  return message;
}

std::string one_line(std::string_view message) { return escape(message, kMaxMessageBytes, false); }

}  // namespace nqueens::detail
