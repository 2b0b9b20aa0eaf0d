#pragma once
// Two nqueens processes drawing a status line on one terminal (two shards started side by side,
// `count ... & count ...`) would redraw the same line in turn, each erasing the other's. Each
// process that draws one marks the terminal with a record lock of its own (fcntl, on a byte of
// the terminal's device file: taken by no one else, let go when the process ends, however it
// ends), and looks for another process's mark before it draws. While there is one, both print
// a line per update instead, each naming its shard.
namespace nqueens::shell {

//! Marks stderr's terminal as showing this process's status (once; later calls only look), and
//! says whether another process has marked it too. False when stderr is no terminal, or its
//! device cannot be opened or locked (then nothing can be known, and the line is drawn).
bool terminal_shared_with_another_status();

}  // namespace nqueens::shell
