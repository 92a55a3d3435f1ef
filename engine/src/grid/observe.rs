//! Pieces of the JSON state every grid game writes.

use std::fmt::Write;

use super::{Action, Board};
use crate::Seat;

/// `[x,y]` of `cell`.
pub fn write_cell(out: &mut String, board: Board, cell: usize) {
    let (x, y) = board.xy(cell);
    out.push('[');
    write_int(out, x as i64);
    out.push(',');
    write_int(out, y as i64);
    out.push(']');
}

/// `[[x,y],...]` of `cells`, in the given order.
pub fn write_cells(out: &mut String, board: Board, cells: impl IntoIterator<Item = usize>) {
    out.push('[');
    for (k, c) in cells.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        write_cell(out, board, c);
    }
    out.push(']');
}

/// `owner[y][x]`: rows of seat ids, `-1` for neutral.
pub fn write_owner_grid(out: &mut String, board: Board, owner: &[Option<Seat>]) {
    write_grid(out, board, |c| match owner[c] {
        None => -1,
        Some(s) => s as i64,
    });
}

/// A number; the small values a board is full of go in without formatting.
pub fn write_int(out: &mut String, v: i64) {
    let digit = |d: i64| char::from(b'0' + d as u8);
    match v {
        0..=9 => out.push(digit(v)),
        10..=99 => {
            out.push(digit(v / 10));
            out.push(digit(v % 10));
        }
        100..=999 => {
            out.push(digit(v / 100));
            out.push(digit(v / 10 % 10));
            out.push(digit(v % 10));
        }
        -1 => out.push_str("-1"),
        _ => {
            let _ = write!(out, "{v}");
        }
    }
}

/// Rows of numbers, `grid[y][x]`.
pub fn write_grid(out: &mut String, board: Board, value: impl Fn(usize) -> i64) {
    out.push('[');
    for y in 0..board.height {
        if y > 0 {
            out.push(',');
        }
        out.push('[');
        for x in 0..board.width {
            if x > 0 {
                out.push(',');
            }
            write_int(out, value(board.index(x, y)));
        }
        out.push(']');
    }
    out.push(']');
}

/// `["NORTH",...]`.
pub fn write_legal(out: &mut String, actions: &[Action]) {
    out.push('[');
    for (k, a) in actions.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(a.name());
        out.push('"');
    }
    out.push(']');
}

/// `null` or `[x,y]`.
pub fn write_opt_cell(out: &mut String, board: Board, cell: Option<usize>) {
    match cell {
        None => out.push_str("null"),
        Some(c) => write_cell(out, board, c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers_are_written_like_any_other() {
        for v in -1001..=1001 {
            let mut out = String::new();
            write_int(&mut out, v);
            assert_eq!(out, v.to_string());
        }
    }
}
