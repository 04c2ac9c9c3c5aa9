#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod args;
mod demo;
mod error;
mod input;
mod output;
mod output_file;
mod queries;
mod robot;
mod svg;
mod threads;
mod tree_kind;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clash: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(mut cli: args::Cli) -> Result<(), error::CliError> {
    let pool = match &mut cli.command {
        args::Command::Build(a) => Some(&mut a.pool),
        args::Command::Collide(a) => Some(&mut a.pool),
        args::Command::Distance(a) => Some(&mut a.pool),
        args::Command::Raycast(a) => Some(&mut a.pool),
        args::Command::Robot(a) => Some(&mut a.pool),
        args::Command::Demo(a) => Some(&mut a.pool),
        args::Command::Info(_) => None,
    };
    if let Some(pool) = pool {
        pool.threads = threads::capped(pool.threads);
    }
    match cli.command {
        args::Command::Build(a) => queries::build(&a),
        args::Command::Info(a) => queries::info(&a),
        args::Command::Collide(a) => queries::collide(&a),
        args::Command::Distance(a) => queries::distance(&a),
        args::Command::Raycast(a) => queries::raycast(&a),
        args::Command::Robot(a) => robot::run(&a),
        args::Command::Demo(a) => demo::run(&a),
    }
}
