//! Conquest's answers: the rule book's action strings and the JSON form,
//! `legal_actions` tested both ways on thousands of random turns, and
//! hostile answers.

mod conquest_common;

use conquest_common::*;
use ludus_engine::conquest::{kind, parse_answer, Conquest, Order};
use ludus_engine::Game;
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use serde_json::{json, Value};

fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    rng.next_u64() % n.max(1)
}

/// An answer the documented closure of `legal` allows: an entry itself, or
/// for `ALLOCATE` any shares, for `GARRISON n` / `WITHDRAW n` any count from
/// 1 to n, for `MIRV` up to three of its listed targets; sometimes in the
/// JSON form.
fn vary(rng: &mut ChaCha8Rng, legal: &[String], pick: &str) -> String {
    let words: Vec<&str> = pick.split(' ').collect();
    let text = match words[0] {
        "ALLOCATE" => {
            let s: Vec<u64> = (0..3).map(|_| below(rng, 5)).collect();
            if s.iter().all(|&v| v == 0) {
                pick.to_string()
            } else {
                format!("ALLOCATE {} {} {}", s[0], s[1] as f64 / 4.0, s[2])
            }
        }
        "GARRISON" | "WITHDRAW" => {
            let n: u64 = words[1].parse().unwrap();
            format!("{} {}", words[0], 1 + below(rng, n))
        }
        "MIRV" if words.len() == 3 => {
            let mut singles: Vec<&str> = legal
                .iter()
                .filter(|a| a.starts_with("MIRV ") && a.split(' ').count() == 3)
                .map(|a| &a[5..])
                .collect();
            let k = 1 + below(rng, 3) as usize;
            let mut chosen = Vec::new();
            while chosen.len() < k && !singles.is_empty() {
                chosen.push(singles.swap_remove(below(rng, singles.len() as u64) as usize));
            }
            format!("MIRV {}", chosen.join(" "))
        }
        _ => pick.to_string(),
    };
    if below(rng, 3) == 0 {
        json_form(&text)
    } else {
        text
    }
}

/// The JSON form of a text answer.
fn json_form(text: &str) -> String {
    let w: Vec<&str> = text.split(' ').collect();
    let n = |i: usize| -> i64 { w[i].parse().unwrap() };
    let cells = |from: usize| -> Vec<Value> {
        (from..w.len())
            .step_by(2)
            .map(|i| json!([n(i), n(i + 1)]))
            .collect()
    };
    let v = match w[0] {
        "NORTH" | "EAST" | "SOUTH" | "WEST" => json!({"kind": "move", "direction": &w[0][..1]}),
        "WAIT" => json!({"kind": "wait"}),
        "RELOCATE" => json!({"kind": "relocate"}),
        "BUILD" => json!({"kind": "build", "building": w[1].to_lowercase()}),
        "ALLOCATE" => {
            let f = |i: usize| -> f64 { w[i].parse().unwrap() };
            json!({"kind": "allocate", "attack": f(1), "defense": f(2), "reserve": f(3)})
        }
        "GARRISON" | "WITHDRAW" => json!({"kind": w[0].to_lowercase(), "soldiers": n(1)}),
        "CAPITAL" => json!({"kind": "capital", "position": [n(1), n(2)]}),
        "MIRV" => json!({"kind": "mirv", "targets": cells(1)}),
        weapon if w.len() == 3 => json!({"kind": weapon.to_lowercase(), "target": [n(1), n(2)]}),
        weapon => json!({"kind": weapon.to_lowercase()}),
    };
    v.to_string()
}

/// Whether the documented closure of `legal` contains `answer` (text).
fn allowed(legal: &[String], answer: &str) -> bool {
    if legal.iter().any(|a| a == answer) {
        return true;
    }
    let w: Vec<&str> = answer.split(' ').collect();
    let listed = |prefix: &str| legal.iter().find(|a| a.starts_with(prefix));
    match w[0] {
        "ALLOCATE" => {
            let s: Vec<f64> = w[1..].iter().map(|v| v.parse().unwrap()).collect();
            listed("ALLOCATE ").is_some()
                && s.iter().all(|&v| v >= 0.0)
                && s.iter().any(|&v| v > 0.0)
        }
        "GARRISON" | "WITHDRAW" => {
            let k: i64 = w[1].parse().unwrap();
            listed(&format!("{} ", w[0])).is_some_and(|a| {
                let n: i64 = a.split(' ').nth(1).unwrap().parse().unwrap();
                (1..=n).contains(&k)
            })
        }
        "MIRV" if w.len() > 1 => {
            let cells: Vec<String> = w[1..].chunks(2).map(|p| p.join(" ")).collect();
            let mut distinct = cells.clone();
            distinct.sort();
            distinct.dedup();
            w.len() % 2 == 1
                && cells.len() <= 3
                && distinct.len() == cells.len()
                && cells.iter().all(|c| legal.contains(&format!("MIRV {c}")))
        }
        _ => false,
    }
}

/// A random answer from the whole grammar, legal or not.
fn any_answer(rng: &mut ChaCha8Rng) -> String {
    let coord = |rng: &mut ChaCha8Rng| below(rng, 16) as i64 - 2;
    match below(rng, 11) {
        0 => ["NORTH", "EAST", "SOUTH", "WEST"][below(rng, 4) as usize].into(),
        1 => "WAIT".into(),
        2 => format!(
            "BUILD {}",
            ["MINE", "BARRACKS", "POST"][below(rng, 3) as usize]
        ),
        3 => format!(
            "ALLOCATE {} {} {}",
            below(rng, 4) as i64 - 1,
            below(rng, 4),
            below(rng, 4)
        ),
        4 => format!("GARRISON {}", below(rng, 400) as i64 - 5),
        5 => format!("WITHDRAW {}", below(rng, 400) as i64 - 5),
        6 => "RELOCATE".into(),
        7 => format!("CAPITAL {} {}", coord(rng), coord(rng)),
        8 => {
            let k = below(rng, 5);
            let cells: Vec<String> = (0..k)
                .map(|_| format!("{} {}", coord(rng), coord(rng)))
                .collect();
            format!("MIRV {}", cells.join(" ")).trim().to_string()
        }
        _ => {
            let w = ["BOMB", "MISSILE", "HBOMB"][below(rng, 3) as usize];
            if below(rng, 3) == 0 {
                w.into()
            } else {
                format!("{w} {} {}", coord(rng), coord(rng))
            }
        }
    }
}

/// Games at random states: the default board and the choose mode, played
/// by random legal answers.
fn random_states(seeds: std::ops::Range<u64>, mut visit: impl FnMut(&Conquest, &mut ChaCha8Rng)) {
    for seed in seeds {
        let config = if seed % 3 == 0 {
            json!({"capitals": "choose"})
        } else {
            Value::Null
        };
        let mut g = Conquest::from_config(&config, seed, 4).unwrap();
        let mut rng = ludus_engine::rng::stream(seed, "test/answers");
        while g.outcome().is_none() {
            visit(&g, &mut rng);
            let answers: Vec<String> = (0..4)
                .map(|s| {
                    let l = g.legal_actions(s);
                    if l.is_empty() {
                        "WAIT".into()
                    } else {
                        let pick = l[below(&mut rng, l.len() as u64) as usize].clone();
                        vary(&mut rng, &l, &pick)
                    }
                })
                .collect();
            let r = g.step(&answers.iter().map(|a| Some(a.as_str())).collect::<Vec<_>>());
            assert!(
                r.is_empty(),
                "seed {seed} turn {}: {r:?}\n{answers:?}",
                g.turn()
            );
        }
    }
}

#[test]
fn random_legal_answers_and_their_documented_variants_are_never_refused() {
    let mut turns = 0;
    random_states(0..12, |_, _| turns += 1);
    assert!(turns > 3000, "{turns} turns");
}

#[test]
fn random_answers_are_accepted_exactly_when_legal_actions_allows_them() {
    let (mut accepted, mut refused) = (0, 0);
    random_states(0..6, |g, rng| {
        for _ in 0..4 {
            let seat = below(rng, 4) as usize;
            let legal = g.legal_actions(seat);
            let answer = any_answer(rng);
            let mut answers = vec![Some("WAIT"); 4];
            answers[seat] = Some(answer.as_str());
            let mut trial = g.clone();
            let r = trial.step(&answers);
            let mine: Vec<_> = r.iter().filter(|r| r.seat == seat).collect();
            if legal.is_empty() {
                continue;
            }
            let expect = allowed(&legal, &answer);
            assert_eq!(
                mine.is_empty(),
                expect,
                "turn {} seat {seat}: {answer:?} with legal_actions {legal:?}: {mine:?}",
                g.turn()
            );
            if expect {
                accepted += 1;
            } else {
                assert_ne!(mine[0].kind, kind::UNPARSEABLE, "{answer} is readable");
                refused += 1;
            }
        }
    });
    assert!(
        accepted > 1000 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn every_text_answer_and_its_json_form_play_the_same() {
    let mut g = front();
    own_row(&mut g, 0, 1, 0, 3);
    g.team_mut(0).gold = 5000;
    let legal = g.legal_actions(0);
    assert!(legal.len() > 15, "{legal:?}");
    for a in &legal {
        let mut text = g.clone();
        let mut json = g.clone();
        play(&mut text, [a, "WAIT", "WAIT", "WAIT"]);
        play(&mut json, [&json_form(a), "WAIT", "WAIT", "WAIT"]);
        assert_eq!(text.state_hash(), json.state_hash(), "{a}");
    }
    // As a JSON string (the SDK's way) and in any case, too.
    let mut quoted = g.clone();
    play(&mut quoted, ["\"build mine\"", "WAIT", "WAIT", "WAIT"]);
    assert!(quoted.building_at(at(&quoted, 3, 0)).is_some());
}

#[test]
fn unreadable_answers_are_unparseable_and_readable_illegal_ones_have_a_kind_of_their_own() {
    let mut g = front();
    for (answer, expected) in [
        ("FLY NORTH", kind::UNPARSEABLE),
        ("{\"kind\": \"teleport\"}", kind::UNPARSEABLE),
        ("BUILD", kind::UNPARSEABLE),
        ("NORTH", kind::CANNOT_MOVE),
        ("BOMB 7 7", kind::BAD_TARGET),
        ("HBOMB 4 0", kind::NOT_ENOUGH_GOLD),
        ("CAPITAL 1 1", kind::ILLEGAL),
        ("ALLOCATE 1 1 1", kind::ILLEGAL),
    ] {
        let r = step(&mut g, [answer, "WAIT", "WAIT", "WAIT"]);
        assert_eq!(r.len(), 1, "{answer}");
        assert_eq!(r[0].kind, expected, "{answer}: {}", r[0].reason);
        assert!(r[0].reason.ends_with("played as WAIT"), "{}", r[0].reason);
    }
}

#[test]
fn hostile_answers_are_refused_and_the_game_goes_on() {
    let huge = "EAST ".repeat(200_000);
    let deep = format!(
        "{{\"kind\": \"mirv\", \"targets\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let wide = format!(
        "{{\"kind\": \"mirv\", \"targets\": [{}]}}",
        vec!["[1, 1]"; 50_000].join(",")
    );
    let hostile = [
        huge.as_str(),
        deep.as_str(),
        wide.as_str(),
        "BOMB 99999999999999999999999999 1",
        "BOMB -4 -4",
        "{\"kind\": \"bomb\", \"target\": [-1, 18446744073709551615]}",
        "{\"kind\": \"bomb\", \"target\": [1e308, 2]}",
        "GARRISON 18446744073709551616",
        "GARRISON -9223372036854775808",
        "ALLOCATE 1e308 1e308 1e308",
        "ALLOCATE NaN 1 1",
        "{\"kind\": null}",
        "{\"kind\": [\"move\"]}",
        "{\"kind\": \"capital\", \"position\": [1]}",
        "\u{0}\u{1}\u{7f}",
        "\u{202e}EAST",
        "🙂",
    ];
    let mut g = front();
    for answer in hostile {
        let before = g.turn();
        let r = step(&mut g, [answer, answer, answer, answer]);
        assert_eq!(g.turn(), before + 1);
        assert!(!r.is_empty(), "{:.60}", answer);
        for x in &r {
            assert!(
                x.reason.len() < 500,
                "{:.60}: {} bytes of reason",
                answer,
                x.reason.len()
            );
        }
    }
    // A huge share is read, and shares every soldier to attack.
    let mut h = small();
    play(&mut h, ["ALLOCATE 1e300 0 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!((h.team(0).attack, h.team(0).defense), (1000, 0));
}

#[test]
fn the_reader_is_total_on_random_text() {
    let tokens = [
        "NORTH",
        "e",
        "WAIT",
        "BUILD",
        "MINE",
        "post",
        "ALLOCATE",
        "GARRISON",
        "WITHDRAW",
        "BOMB",
        "MIRV",
        "H-BOMB",
        "HBOMB",
        "MISSILE",
        "RELOCATE",
        "CAPITAL",
        "0",
        "1",
        "-1",
        "3",
        "12",
        "0.5",
        "1e9",
        "-0",
        "+7",
        "x",
        "{",
        "}",
        "[",
        "]",
        "\"",
        ":",
        ",",
        "\"kind\"",
        "\"move\"",
        "\"direction\"",
        "\"target\"",
        "\"targets\"",
        "null",
        "true",
        "\u{0}",
        "é",
        "  ",
        "\n",
    ];
    let mut rng = ludus_engine::rng::stream(1, "test/fuzz-answers");
    let mut g = front();
    g.team_mut(0).gold = 10_000;
    let mut parsed = 0;
    for i in 0..30_000 {
        let n = 1 + below(&mut rng, 8);
        let mut text = String::new();
        for _ in 0..n {
            text.push_str(tokens[below(&mut rng, tokens.len() as u64) as usize]);
            if below(&mut rng, 2) == 0 {
                text.push(' ');
            }
        }
        let read = parse_answer(&text);
        if let Ok(order) = &read {
            parsed += 1;
            // What is read writes back to an answer that reads the same.
            assert_eq!(parse_answer(&order.text()).as_ref(), Ok(order), "{text:?}");
        }
        if i % 10 == 0 {
            let mut trial = g.clone();
            let r = step(&mut trial, [&text, "WAIT", "WAIT", "WAIT"]);
            if text.trim().is_empty() {
                // Silence, refused as unreadable.
                assert_eq!(r.len(), 1, "{text:?}");
                assert_eq!(r[0].kind, kind::UNPARSEABLE);
                assert_eq!(trial.team(0).silent, 1);
            } else if read.is_err() {
                assert_eq!(r.len(), 1, "{text:?}");
                assert_eq!(r[0].kind, kind::UNPARSEABLE);
            } else {
                assert!(r.iter().all(|r| r.kind != kind::UNPARSEABLE), "{text:?}");
            }
        }
    }
    assert!(parsed > 500, "{parsed} of the random texts were answers");
    assert_eq!(
        parse_answer("ALLOCATE 0.5 0.35 0.15"),
        Ok(Order::Allocate([0.5, 0.35, 0.15]))
    );
}
