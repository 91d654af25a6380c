//! Sharing state without a server: the URL fragment codec, the text form documentation authors write, the
//! embed snippet, and reading files the user opens.
//!
//! No browser types: the UI reads and writes `location.hash`, the clipboard and files, and calls these.

pub mod cycle_text;
pub mod embed;
pub mod fragment;
pub mod import;
pub mod text;

use crate::core::spec::Problem;

/// Problems in the order of their lines (`usize::MAX` for none: last), those of one line in the order
/// given. An insertion, not a sort: a few problems, and one small function rather than a sort's code for
/// each caller in the bundle.
pub(crate) fn in_line_order(lined: Vec<(usize, Problem)>) -> Vec<Problem> {
    let mut ordered: Vec<(usize, Problem)> = Vec::with_capacity(lined.len());
    for (line, problem) in lined {
        let at = ordered.iter().rposition(|(l, _)| *l <= line).map_or(0, |i| i + 1);
        ordered.insert(at, (line, problem));
    }
    ordered.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_go_in_line_order_keeping_the_order_within_a_line() {
        let problem = |name: &str| Problem { path: name.into(), message: String::new() };
        let lined = vec![
            (6, problem("a")),
            (usize::MAX, problem("b")),
            (2, problem("c")),
            (6, problem("d")),
            (2, problem("e")),
        ];
        let paths: Vec<String> = in_line_order(lined).into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["c", "e", "a", "d", "b"]);
    }
}
