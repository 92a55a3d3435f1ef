//! What a password costs the server: one Argon2id hash (signing up,
//! `ludus user password`) and one verification (every sign-in, and every
//! sign-in of an unknown name, against a stand-in hash), at the `argon2`
//! crate's default parameters (m = 19 456 KiB, t = 2, p = 1).
//!
//! `cargo bench -p ludus-server --bench passwords --profile dev` (dependencies,
//! argon2 among them, are built at opt-level 2 in that profile).

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_server::password;

fn passwords(c: &mut Criterion) {
    let mut group = c.benchmark_group("argon2id");
    group.sample_size(30);
    group.bench_function("hash", |b| {
        b.iter(|| password::hash("tidy violet kettle drum").unwrap())
    });
    let phc = password::hash("tidy violet kettle drum").unwrap();
    group.bench_function("verify (a sign-in)", |b| {
        b.iter(|| assert!(password::verify("tidy violet kettle drum", &phc)))
    });
    group.bench_function("unknown name (a stand-in hash)", |b| {
        b.iter(|| password::verify_nothing("tidy violet kettle drum"))
    });
    group.finish();
}

criterion_group!(benches, passwords);
criterion_main!(benches);
