fn main() {
    println!(
        "subdual {}: the rules core is in the library; the command line is not built yet",
        env!("CARGO_PKG_VERSION")
    );
}
