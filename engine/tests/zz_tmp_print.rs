use ludus_engine::fences::Fences;
use ludus_engine::Game;
#[test]
fn print() {
    let mut g = Fences::new(17, 11, 120);
    for a in ["MOVE 3 5 3 2", "MOVE 13 5 13 2", "MOVE 13 2 16 5"] {
        let mut ans = [Some("WAIT"), Some("WAIT")];
        ans[g.to_move()] = Some(a);
        assert!(g.step(&ans).is_empty());
    }
    let mut s = String::new();
    g.observation(0, &mut s);
    println!("{s}");
}
