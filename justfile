# Recipes for `just` (https://github.com/casey/just); each is a plain
# command that also runs without it.

# What CI runs: fmt, clippy, the docs, the fuzz crate's check, the tests,
# the Python package's tests.
ci:
    bash .ci/run

# The README's test command.
test:
    cargo test --workspace --all-features --exclude clash-benches

# Formatting, lints, the docs and the fuzz crate as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --all-features -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features
    cargo fmt --manifest-path fuzz/Cargo.toml -- --check
    CARGO_TARGET_DIR=target/fuzz cargo check --locked --manifest-path fuzz/Cargo.toml --bins --no-default-features

# The long correctness runs of docs/long_checks.md (hours on 2 cores).
long:
    cargo test --release -p clash-narrow --test integration oracle_others:: -- --ignored million
    cargo test --release -p clash-convex --test convex million -- --ignored --nocapture
    cargo test --release -p clash-broad --test integration brute_force:: -- --ignored
    CLASH_SWEEP_SEEDS=40 cargo test --release -p clash-bvh --test integration -- --ignored touching_sweep
    CLASH_RANGE_CASES=400000 cargo test --release -p clash-narrow --test integration oracle_range::
    CLASH_NEIGHBOUR_CASES=1000000 cargo test --release -p clash-narrow --test integration oracle_neighbours::
    CLASH_FIT_ROUNDS=100000 cargo test --release -p clash-bv --test integration fit_rounding::

# The side-by-side comparison with python-fcl and coal (see benches/compare).
compare *ARGS:
    bash benches/compare/run.sh {{ARGS}}
