//! The `damas` command-line engine.

fn main() {
    println!(
        "damas {}: the engine protocol is not built yet",
        env!("CARGO_PKG_VERSION")
    );
}
