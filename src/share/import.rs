//! Opening a file the user dropped or picked: a spec (one tensor or an inventory), a cycle, measured cycle
//! times, or a text block. The kind is told from the content, not trusted from the file name; every problem
//! names its field and the line it sits on, so a 700-line inventory with one bad placement is fixable.

use crate::core::cycle::{CYCLE_COLUMNS, CycleSpec, parse_cycle};
use crate::core::spec::{NotText, Problem, SpecInput, not_text, parse_input, validate};
use std::collections::HashMap;

use super::text::{TextBlock, parse_block};

/// Files larger than this are refused before parsing (an inventory of a large model is ~100 KB).
pub const MAX_IMPORT_BYTES: usize = 8 * 1024 * 1024;

/// What a file turned out to hold.
#[derive(Clone, Debug, PartialEq)]
pub enum Imported {
    /// A valid layout change (one tensor or an inventory).
    Spec(SpecInput),
    /// A valid RL cycle.
    Cycle(CycleSpec),
    /// Measured per-cycle stage times (CSV or a JSON array); bad rows are reported by the cycle view.
    Measurements(String),
    /// A text block (`tensor w 12x6 …`).
    Block(TextBlock),
}

impl Imported {
    /// In words, for the message after a successful import.
    pub fn describe(&self) -> &'static str {
        match self {
            Imported::Spec(spec) if spec.tensors.is_some() => "an inventory",
            Imported::Spec(_) => "a layout change",
            Imported::Cycle(_) => "an RL cycle",
            Imported::Measurements(_) => "measured cycle times",
            Imported::Block(_) => "a text block",
        }
    }

    /// What to add to the message after the import: an inventory's tensor names used more than once (a
    /// per-tensor table then lists two rows of one name, told apart only by their place), opened without a
    /// word before (review 51).
    pub fn aside(&self) -> Option<String> {
        let Imported::Spec(spec) = self else { return None };
        // Counted in a map: an inventory may hold 100,000 tensors. Said in the order of first use.
        let names: Vec<&str> = spec.tensors.iter().flatten().filter_map(|t| t.name.as_deref()).collect();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for name in &names {
            *counts.entry(name).or_default() += 1;
        }
        let mut repeated: Vec<(&str, usize)> = Vec::new();
        for name in names {
            if let Some(count) = counts.remove(name).filter(|&count| count > 1) {
                repeated.push((name, count));
            }
        }
        let said: Vec<String> = repeated.iter().take(3).map(|(name, count)| format!("“{name}” ({count})")).collect();
        let more = match repeated.len().saturating_sub(3) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        (!said.is_empty()).then(|| {
            format!(
                "Tensor names used more than once: {}{more}; their rows are told apart only by their place.",
                said.join(", ")
            )
        })
    }
}

/// Why a file of `bytes` is not opened, if it is too large: asked before reading it (reading 20 MB only
/// to refuse it blocked the page for seconds) and again of the text read.
pub fn refuse_size(name: &str, bytes: u64) -> Option<Problem> {
    // The limit in MiB as the README says it, and both to the byte, grouped (review 43: "8537956 bytes"; a
    // file's own size in MiB read "8 MiB … files above 8 MiB" one byte over, review 44).
    use crate::core::traffic::{format_bytes, grouped_digits};
    let limit = MAX_IMPORT_BYTES as u64;
    (bytes > limit).then(|| {
        problem(
            "",
            format!(
                "{name} is {} bytes; files above {} ({} bytes) are not opened",
                grouped_digits(&bytes.to_string()),
                format_bytes(limit),
                grouped_digits(&limit.to_string())
            ),
        )
    })
}

/// Reads a file's text. Nothing is half-applied: either the whole file is usable or every problem is
/// returned, each with its line.
pub fn import_file(name: &str, text: &str) -> Result<Imported, Vec<Problem>> {
    if let Some(too_large) = refuse_size(name, text.len() as u64) {
        return Err(vec![too_large]);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(vec![problem("", format!("{name} is empty"))]);
    }
    // A picture opened by mistake was read as a text block: a message per line, each quoting its bytes.
    if let Some(not_text) = not_text(text) {
        let message = match not_text {
            NotText::Binary { line } => format!(
                "{name} is not text (binary data at line {line}: a picture, a compressed or a spreadsheet file?); \
                 expected a JSON spec or cycle, a text block, or CSV measurements"
            ),
            NotText::NotUtf8 { line } => format!(
                "{name} is not UTF-8 text (line {line}; saved as Windows-1252 or Latin-1?): save it as UTF-8 and \
                 open it again"
            ),
        };
        return Err(vec![problem("", message)]);
    }
    // An object is JSON whatever the name says: a cycle minified onto one line has `,`, `stage` and
    // `seconds` on its first line, like a CSV header, and was opened as measured times.
    let lower_name = name.to_ascii_lowercase();
    if trimmed.starts_with('{') {
        // JSON Lines of measured times: one object per line, so not one JSON value.
        if lower_name.ends_with(".jsonl")
            || (serde_json::from_str::<serde_json::Value>(text).is_err() && looks_like_json_lines(trimmed))
        {
            return measurements(text);
        }
        return import_json(text);
    }
    if trimmed.starts_with('[')
        || [".csv", ".tsv"].iter().any(|extension| lower_name.ends_with(extension))
        || looks_like_csv(trimmed)
    {
        return measurements(text);
    }
    // Named JSON, it is not JSON: said so, rather than read as a text block, whose problem was "`this` is not
    // a keyword; expected tensor, source, …" for a file of prose (review 51).
    if lower_name.ends_with(".json") {
        let first: String = trimmed.lines().next().unwrap_or("").chars().take(40).collect();
        return Err(vec![problem(
            "line 1",
            format!(
                "{name} is not JSON: it starts with “{}” where a spec, an inventory or a cycle starts with {{",
                first.trim_end()
            ),
        )]);
    }
    // As a JSON file with problems of meaning is refused, so is a block: nothing half-applied.
    let block = parse_block(text)?;
    block.check()?;
    Ok(Imported::Block(block))
}

/// Measured cycle times, unless none of the first thousand lines reads as one: a binary or unrelated file
/// named `.csv` replaced the measurements on screen with nothing but problems. Bad rows among good ones still
/// load (the cycle view lists them).
fn measurements(text: &str) -> Result<Imported, Vec<Problem>> {
    let head = match text.match_indices('\n').nth(999) {
        Some((at, _)) => &text[..at],
        None => text,
    };
    let read = crate::core::cycle::parse_measurements(head);
    // Also a header alone: it loaded nothing and said nothing (review 34).
    if read.rows.is_empty() {
        let mut problems = vec![problem("", "no line reads as a measured stage time (cycle,stage,seconds)")];
        problems.extend(read.problems.into_iter().take(3));
        return Err(problems);
    }
    Ok(Imported::Measurements(text.to_string()))
}

/// A first line such as `cycle,stage,seconds` (or tab- or semicolon-separated), or a wide table's header
/// naming its `cycle` or `step` column; never text that opens with `{` or `[`, which is JSON.
fn looks_like_csv(text: &str) -> bool {
    if text.trim_start().starts_with(['{', '[']) {
        return false;
    }
    let first = text.lines().next().unwrap_or("").to_ascii_lowercase();
    let fields: Vec<&str> = first.split([',', '\t', ';']).map(|field| field.trim().trim_matches('"')).collect();
    let has = |name: &str| fields.contains(&name);
    fields.len() >= 2 && ((has("stage") && has("seconds")) || CYCLE_COLUMNS.iter().any(|name| has(name)))
}

/// A first line that is a JSON object naming a stage or a cycle (`step`: a logger's line, a stage per key),
/// as JSON Lines of measured times have.
fn looks_like_json_lines(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("");
    matches!(
        serde_json::from_str::<serde_json::Value>(first),
        Ok(serde_json::Value::Object(row)) if row.keys().any(|key| {
            let key = key.trim().to_ascii_lowercase();
            key == "stage" || CYCLE_COLUMNS.contains(&key.as_str())
        })
    )
}

fn import_json(text: &str) -> Result<Imported, Vec<Problem>> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![problem("", format!("not JSON: {e}"))])?;
    // Each problem names its line, and the list reads top to bottom as the file does (the core reports in
    // the order it checks: a layout's problems before the tensor's shape above it). Stable: problems of
    // one line keep the core's order; those without a line come last.
    let with_lines = |problems: Vec<Problem>| -> Vec<Problem> {
        // One scan of the text for every problem's path (a scan per problem and per enclosing path froze
        // the page for seconds on a large file with problems near its end).
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        let lines = lines_of_paths(text, &paths);
        let lined: Vec<(usize, Problem)> = problems
            .into_iter()
            .zip(lines)
            .map(|(p, line)| match line {
                Some(line) if !p.message.contains(" at line ") => {
                    let path =
                        if p.path.is_empty() { format!("line {line}") } else { format!("line {line}, {}", p.path) };
                    (line, Problem { path, ..p })
                }
                _ => (usize::MAX, p),
            })
            .collect();
        super::in_line_order(lined)
    };
    if value.get("stages").is_some() {
        return parse_cycle(text).map(Imported::Cycle).map_err(with_lines);
    }
    if ["source", "destination", "tensor", "tensors"].iter().any(|key| value.get(key).is_some()) {
        let input = parse_input(text).map_err(|e| with_lines(e.problems))?;
        validate(&input).map_err(|e| with_lines(e.problems))?;
        return Ok(Imported::Spec(input));
    }
    // The plan export is what the tool computed from a spec, not a spec: say which file to open instead.
    if value.get("totals").is_some() && value.get("links").is_some() {
        return Err(vec![problem(
            "",
            "this is a plan export (pieces, links and totals the tool computed), not a layout: open the spec \
             it was made from (Export → Spec as JSON) to see it here",
        )]);
    }
    Err(vec![problem(
        "",
        "this JSON is neither a layout change (it needs `source` and `destination`) nor a cycle (it needs \
         `stages`) nor measured cycle times (a JSON array of {cycle, stage, seconds})",
    )])
}

fn problem(path: &str, message: impl Into<String>) -> Problem {
    Problem { path: path.to_string(), message: message.into() }
}

/// Where a container or value sits while scanning JSON text.
enum Frame {
    Object { key: Option<String>, expecting_key: bool },
    Array { index: usize },
}

/// The line (1-based) where the value at `path` (the core's notation: `source.placements[0]`,
/// `tensors[3].shape`) starts in `json`; the nearest enclosing value's line when the path itself is not
/// written (a missing field is reported at its parent). `None` for the empty path.
pub fn line_of_path(json: &str, path: &str) -> Option<usize> {
    lines_of_paths(json, &[path]).pop().flatten()
}

/// [`line_of_path`] for each of `paths`, in one scan of `json`.
pub fn lines_of_paths(json: &str, paths: &[&str]) -> Vec<Option<usize>> {
    // Every path and each path enclosing it (`a.b[2]`, `a.b`, `a`), each at the line found, `NOT_FOUND`
    // until then. (A map type the app already has: another costs the web build its own copy.)
    const NOT_FOUND: usize = usize::MAX;
    let mut wanted: HashMap<&str, usize> = HashMap::new();
    for path in paths {
        for prefix in enclosing(path) {
            wanted.insert(prefix, NOT_FOUND);
        }
    }
    if !wanted.is_empty() {
        scan_for(json, &mut wanted);
    }
    paths
        .iter()
        .map(|path| enclosing(path).find_map(|prefix| wanted.get(prefix).copied().filter(|&line| line != NOT_FOUND)))
        .collect()
}

/// `path` and each path enclosing it: `a.b[2]`, `a.b`, `a`.
fn enclosing(path: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(path), |prefix| prefix.rfind(['.', '[']).map(|cut| &prefix[..cut]))
        .filter(|prefix| !prefix.is_empty())
}

/// Scans `json` once, writing into `wanted` the line where each of its paths' values starts (the first,
/// should a key be written twice; a path not yet found holds `usize::MAX`).
fn scan_for(json: &str, wanted: &mut HashMap<&str, usize>) {
    let found = |wanted: &mut HashMap<&str, usize>, path: String, line: usize| {
        if let Some(slot) = wanted.get_mut(path.as_str()).filter(|slot| **slot == usize::MAX) {
            *slot = line;
        }
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut chars = json.chars().peekable();
    let path_of = |stack: &[Frame]| -> String {
        let mut path = String::new();
        for frame in stack {
            match frame {
                Frame::Object { key: Some(key), .. } => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Frame::Object { key: None, .. } => {}
                Frame::Array { index } => path.push_str(&format!("[{index}]")),
            }
        }
        path
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '{' | '[' => {
                if !stack.is_empty() {
                    found(wanted, path_of(&stack), line);
                }
                stack.push(if c == '{' {
                    Frame::Object { key: None, expecting_key: true }
                } else {
                    Frame::Array { index: 0 }
                });
            }
            '}' | ']' => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { expecting_key, .. }) => *expecting_key = true,
                None => {}
            },
            ':' => {
                if let Some(Frame::Object { expecting_key, .. }) = stack.last_mut() {
                    *expecting_key = false;
                }
            }
            '"' => {
                let start_line = line;
                let mut text = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                text.push(escaped);
                            }
                        }
                        '\n' => {
                            line += 1;
                            text.push(c);
                        }
                        _ => text.push(c),
                    }
                }
                if let Some(Frame::Object { key, expecting_key: true }) = stack.last_mut() {
                    *key = Some(text);
                } else {
                    found(wanted, path_of(&stack), start_line);
                }
            }
            _ => {
                // A number or a literal: the value starts here.
                found(wanted, path_of(&stack), line);
                while let Some(&next) = chars.peek() {
                    if matches!(next, ',' | '}' | ']') || next.is_whitespace() {
                        break;
                    }
                    chars.next();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"{
  "tensor": {"name": "w", "shape": [12, 6]},
  "source": {
    "mesh": [3],
    "placements": ["S(0)"]
  },
  "destination": {
    "mesh": [2],
    "placements": ["S(7)"]
  }
}"#;

    #[test]
    fn a_plan_export_says_which_file_to_open_instead() {
        let plan = crate::core::export::plan_json_text(
            &crate::core::presets::toy(),
            crate::core::plan::Strategy::Intersection,
            true,
        )
        .unwrap();
        let problems = import_file("w-plan.json", &plan).err().unwrap_or_default();
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.starts_with("this is a plan export"), "{problems:?}");
    }

    #[test]
    fn a_loggers_files_open_as_measured_times() {
        let verl = "{\"step\": 1, \"timing_s/gen\": 41.2, \"timing_s/update_weights\": 4.2}\n\
                    {\"step\": 2, \"timing_s/gen\": 40.8, \"timing_s/update_weights\": 4.0}\n";
        assert!(matches!(import_file("metrics.log", verl), Ok(Imported::Measurements(_))));
        let wandb = "_step,timing_s/gen,timing_s/update_weights\n1,41.2,4.2\n";
        assert!(matches!(import_file("export.txt", wandb), Ok(Imported::Measurements(_))));
    }

    #[test]
    fn text_in_another_encoding_is_told_apart_from_binary_data() {
        // A spreadsheet's CSV saved as Windows-1252: its é read as U+FFFD, and it was called a picture.
        let latin1 = "cycle,stage,seconds\n1,r\u{fffd}compense,10\n";
        let problems = import_file("s.csv", latin1).err().unwrap_or_default();
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "s.csv is not UTF-8 text (line 2; saved as Windows-1252 or Latin-1?): save it as UTF-8 and open it again"
        );
        // A few bytes, most of them not UTF-8, are no text in another encoding.
        assert_eq!(crate::core::spec::not_text("\u{fffd}PNG"), Some(NotText::Binary { line: 1 }));
        let pasted = crate::core::cycle::parse_measurements(latin1);
        assert!(pasted.rows.is_empty());
        assert_eq!(pasted.problems[0].path, "line 2");
        assert!(pasted.problems[0].message.starts_with("not UTF-8 text"), "{:?}", pasted.problems);
    }

    #[test]
    fn a_binary_file_is_one_problem_whatever_its_name() {
        let png = "\u{fffd}PNG\r\n\u{1a}\n\0\0\0\rIHDR";
        for name in ["chart.png", "notes.txt", "spec.json"] {
            let problems = import_file(name, png).err().unwrap_or_default();
            assert_eq!(problems.len(), 1, "{name}: {problems:?}");
            assert!(
                problems[0].message.starts_with(&format!("{name} is not text (binary data at line 1")),
                "{problems:?}"
            );
            assert!(!problems[0].message.contains("PNG"));
        }
        // A CSV names the file's line where the binary data starts, after the rows that read.
        let problems = import_file("times.csv", "cycle,stage,seconds\n1,refit,10\n\0").err().unwrap_or_default();
        assert!(problems[0].message.contains("binary data at line 3"), "{problems:?}");
    }

    #[test]
    fn paths_are_found_on_their_lines() {
        assert_eq!(line_of_path(SPEC, "tensor.shape"), Some(2));
        assert_eq!(line_of_path(SPEC, "tensor.shape[1]"), Some(2));
        assert_eq!(line_of_path(SPEC, "source"), Some(3));
        assert_eq!(line_of_path(SPEC, "source.placements[0]"), Some(5));
        assert_eq!(line_of_path(SPEC, "destination.placements[0]"), Some(9));
        // A field that is not written is reported where its parent is.
        assert_eq!(line_of_path(SPEC, "destination.dtype"), Some(7));
        assert_eq!(line_of_path(SPEC, ""), None);
        // Many paths in one scan give what each gives alone; one enclosing another shares the scan.
        let paths = ["tensor.shape[1]", "source.placements[0]", "destination.dtype", "source", "nowhere.at.all", ""];
        let each: Vec<Option<usize>> = paths.iter().map(|path| line_of_path(SPEC, path)).collect();
        assert_eq!(each, [Some(2), Some(5), Some(7), Some(3), None, None]);
        assert_eq!(lines_of_paths(SPEC, &paths), each);
    }

    #[test]
    fn a_bad_placement_names_its_field_and_line() {
        let problems = import_file("spec.json", SPEC).unwrap_err();
        let text = problems[0].to_string();
        assert!(text.starts_with("line 9, destination.placements[0]:"), "{text}");
    }

    #[test]
    fn problems_are_listed_in_the_order_of_their_lines() {
        // The core checks the meshes' devices (line 6) before the dtypes (lines 2 and 11).
        let spec = r#"{
  "tensor": {"name": "w", "shape": [12, 6], "dtype": "bf17"},
  "source": {
    "mesh": [3],
    "placements": ["S(0)"],
    "devices": [0, 0, 1]
  },
  "destination": {
    "mesh": [2],
    "placements": ["S(1)"],
    "dtype": "fp9"
  }
}"#;
        let problems = import_file("spec.json", spec).unwrap_err();
        let lines: Vec<String> = problems.iter().map(|p| p.path.split(',').next().unwrap_or("").to_string()).collect();
        assert_eq!(lines.len(), 3, "{problems:?}");
        let numbers: Vec<usize> = lines.iter().filter_map(|l| l.strip_prefix("line ")?.parse().ok()).collect();
        assert_eq!(numbers.len(), lines.len(), "{problems:?}");
        assert_eq!(numbers, [2, 6, 11], "{problems:?}");
    }

    #[test]
    fn type_errors_keep_serdes_line() {
        let problems =
            import_file("spec.json", r#"{"tensor": {"shape": "12x6"}, "source": {}, "destination": {}}"#).unwrap_err();
        assert!(problems[0].to_string().contains("line 1"), "{:?}", problems);
        assert!(problems[0].path.contains("tensor.shape"), "{:?}", problems);
    }

    #[test]
    fn each_kind_is_told_from_its_content() {
        assert!(matches!(import_file("x.json", SPEC.replace("S(7)", "S(1)").as_str()), Ok(Imported::Spec(_))));
        let inventory = crate::core::presets::llama_inventory_json(1);
        let imported = import_file("inventory.json", &inventory).unwrap();
        assert_eq!(imported.describe(), "an inventory");
        let cycle = include_str!("../../examples/cycle-120.json");
        assert!(matches!(import_file("c.json", cycle), Ok(Imported::Cycle(_))), "{:?}", import_file("c.json", cycle));
        assert!(matches!(import_file("m.txt", "cycle,stage,seconds\n1,refit,10\n"), Ok(Imported::Measurements(_))));
        let rows = r#"[{"cycle": 1, "stage": "refit", "seconds": 10}]"#;
        assert!(matches!(import_file("m.json", rows), Ok(Imported::Measurements(_))));
        assert!(import_file("m.json", "[]").is_err(), "no stage time in it");
        // The other shapes timings come in, by their content: tab-separated, a wide table, JSON Lines.
        for measured in [
            "cycle\tstage\tseconds\n1\trefit\t10\n",
            "step,gen,train,sync\n1,70,30,10\n",
            "{\"cycle\": 1, \"stage\": \"refit\", \"seconds\": 10}\n{\"cycle\": 2, \"stage\": \"refit\", \"seconds\": 9}\n",
        ] {
            assert!(matches!(import_file("m.txt", measured), Ok(Imported::Measurements(_))), "{measured}");
        }
        let block = import_file("w.txt", "tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]\n");
        assert!(matches!(block, Ok(Imported::Block(_))));
    }

    #[test]
    fn an_inventory_with_a_name_used_twice_is_opened_and_says_so() {
        let inventory = r#"{"source": {"mesh": [2], "dim_names": ["x"]}, "destination": {"mesh": [2], "dim_names": ["x"]},
            "tensors": [{"name": "wq", "shape": [4, 4], "source": {"placements": ["S(0)"]}, "destination": {"placements": ["R"]}},
                        {"name": "wk", "shape": [4, 4], "source": {"placements": ["S(0)"]}, "destination": {"placements": ["R"]}},
                        {"name": "wq", "shape": [4, 4], "source": {"placements": ["S(1)"]}, "destination": {"placements": ["R"]}}]}"#;
        let imported = import_file("dup.json", inventory).expect("a valid inventory");
        assert_eq!(
            imported.aside().as_deref(),
            Some("Tensor names used more than once: “wq” (2); their rows are told apart only by their place.")
        );
        let unique = import_file(
            "one.json",
            &inventory.replacen(
                "\"wq\", \"shape\": [4, 4], \"source\": {\"placements\": [\"S(1)\"]",
                "\"wv\", \"shape\": [4, 4], \"source\": {\"placements\": [\"S(1)\"]",
                1,
            ),
        );
        assert_eq!(unique.expect("valid").aside(), None);
    }

    #[test]
    fn a_json_file_of_prose_is_said_to_be_no_json() {
        let problems = import_file("notes.json", "this is not a spec at all, just some words\nand more").unwrap_err();
        assert_eq!(
            problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "line 1: notes.json is not JSON: it starts with “this is not a spec at all, just some wor” where a spec, \
              an inventory or a cycle starts with {"
            ]
        );
        // The same text in a file named otherwise is read as a text block, and refused as one.
        assert!(
            import_file("notes.txt", "this is not a spec").unwrap_err()[0].to_string().contains("is not a keyword")
        );
    }

    #[test]
    fn a_block_with_problems_of_meaning_is_refused_like_json() {
        // It opened and replaced the state, while the same change as JSON was refused.
        let layout = import_file("w.txt", "tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(9)]\n");
        let problems = layout.unwrap_err();
        assert!(problems[0].to_string().starts_with("line 3, destination.placements[0]: "), "{problems:?}");
        let cycle = import_file("c.txt", "stage generation 70\nstage refit 10 overlap 80\nview cycle\n");
        assert!(cycle.unwrap_err()[0].to_string().starts_with("line 2, stages[1].overlap: "));
    }

    #[test]
    fn json_on_one_line_is_never_taken_for_csv() {
        // A minified cycle has `,`, `stage` and `seconds` on its first line, like a CSV header: it was opened
        // as measured cycle times.
        let cycle: serde_json::Value =
            serde_json::from_str(include_str!("../../examples/cycle-160.json")).unwrap_or_default();
        let one_line = format!("  {cycle}");
        assert!(!one_line.trim().contains('\n'));
        let imported = import_file("cycle-160.json", &one_line);
        assert!(matches!(imported, Ok(Imported::Cycle(_))), "{imported:?}");
        // Even named .csv: text opening with `{` is JSON, so its problems are JSON's.
        let imported = import_file("cycle.csv", &one_line);
        assert!(matches!(imported, Ok(Imported::Cycle(_))), "{imported:?}");
        let broken = import_file("cycle.csv", "{\"stages\": [{\"name\": \"refit\", \"seconds\": ");
        assert!(broken.as_ref().is_err_and(|p| p[0].message.starts_with("not JSON")), "{broken:?}");
        // A JSON array of rows is still measured times, and so is a header line.
        let rows = r#"[{"cycle": 1, "stage": "refit", "seconds": 10}]"#;
        assert!(matches!(import_file("m.json", rows), Ok(Imported::Measurements(_))));
        assert!(matches!(import_file("m.txt", "stage,seconds,cycle\nrefit,10,1\n"), Ok(Imported::Measurements(_))));
        // A file named .csv that holds no stage time at all is refused, nothing changed.
        let refused = import_file("weights.csv", "a,b\nmore,garbage\n").expect_err("refused");
        assert_eq!(refused[0].message, "no line reads as a measured stage time (cycle,stage,seconds)");
        assert!(refused.len() > 1, "{refused:?}");
        // A header and nothing under it, as a logger's empty export is.
        let header = import_file("times.csv", "cycle,stage,seconds\n").expect_err("refused");
        assert_eq!(header[0].message, "no line reads as a measured stage time (cycle,stage,seconds)");
        // One good row among bad ones loads.
        assert!(matches!(
            import_file("m.csv", "cycle,stage,seconds\n1,refit,oops\n2,refit,10\n"),
            Ok(Imported::Measurements(_))
        ));
    }

    #[test]
    fn bad_files_say_why() {
        let cycle = "{\n  \"stages\": [\n    {\"name\": \"refit\", \"seconds\": -3}\n  ]\n}";
        let problems = import_file("c.json", cycle).unwrap_err();
        assert!(problems[0].to_string().starts_with("line 3, stages[0].seconds:"), "{problems:?}");
        assert!(import_file("x.json", "{\"hello\": 1}").unwrap_err()[0].message.contains("neither"));
        assert!(import_file("x.json", "{oops").unwrap_err()[0].message.contains("line 1"));
        assert!(import_file("x.txt", "   ").unwrap_err()[0].message.contains("empty"));
        let block = import_file("w.txt", "tensor w 12x6\nsource mesh 3\n").unwrap_err();
        assert!(block[0].to_string().starts_with("line 2"), "{block:?}");
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_text(text in ".{0,200}") {
            let _ = import_file("x", &text);
            let _ = line_of_path(&text, "a.b[0]");
        }
    }
}
