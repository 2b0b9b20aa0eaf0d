#pragma once
// Measured figures as a reader takes them in at a glance: never in scientific notation, and in
// one notation for a whole column, so that "2.48e+08" and "9.87e+07" are not compared by eye.
#include <string>

namespace nqueens::shell {

//! A rate to three significant digits with an SI prefix: "950", "3.19k", "81.0M", "248M", "1.23G".
std::string rate_text(double per_second);

//! A decimal number to three significant digits in positional notation: "0.0000689", "0.123",
//! "14.5", "1234" (a whole part of more than three digits keeps them all).
std::string decimal_text(double value);

}  // namespace nqueens::shell
