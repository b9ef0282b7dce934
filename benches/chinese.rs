//! Placeholder until the core lands.
fn main() {}
