//! The `clash` binary run as a user runs it, one module per topic: answers
//! equal to the library's, the collide modes, the demo, the messages of
//! malformed inputs, coordinates beyond the range queries answer in, the
//! output file of `build` and the thread pool.

mod answers;
mod collide;
mod common;
mod coordinate_range;
mod demo;
mod messages;
mod output_file;
mod robot;
mod threads;
