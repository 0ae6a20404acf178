//! The `ejctl` binary. See the library crate for everything it does.

fn main() {}
