//! The `clash` binary run as a user runs it, one module per topic: answers
//! equal to the library's, the collide modes, the demo, the messages of
//! malformed inputs, the output file of `build` and the thread pool.

mod answers;
mod collide;
mod common;
mod demo;
mod messages;
mod output_file;
mod threads;
