//! The text form for documentation authors, in the spirit of Mermaid:
//!
//! ```text
//! tensor w 12x6 bf16
//! source mesh 3 [S(0)]
//! destination mesh 2 [S(1)]
//! view tensor
//! ```
//!
//! Lines: `tensor [NAME] SHAPE [DTYPE]`; `source|destination mesh SHAPE LAYOUT [names a,b] [devices 0,1,…|colocated]
//! [dtype D] [order strided]` where LAYOUT is DTensor (`[Shard(0), Replicate()]`) or JAX (`P('tp', None)`)
//! notation; `split chunk|balanced`; `convert sender|receiver` (where a dtype change happens, so which dtype's
//! bytes cross the links); `topology [per_node N] [nvlink GBPS] [nic GBPS] [latency US]`;
//! `view tensor|mesh|totals|traffic|strategies|cycle`. `#` starts a comment. Errors name the line. The cycle of a
//! `view cycle` block is said by `cycle`, `stage`, `refit` and `speedup` lines ([`super::cycle_text`]); such a
//! block needs no layout lines.

use super::cycle_text::{CYCLE_KEYWORDS, CycleLines};
use crate::core::cycle::CycleSpec;
use crate::core::placement::{LayoutText, parse_layout_text_for_rank};
use crate::core::spec::{
    DevicesInput, MeshShapeInput, Problem, SideInput, SpecInput, TensorInput, TopologyInput, parse_input, validate,
};

/// The views a block may ask for.
pub const VIEWS: [&str; 6] = ["tensor", "mesh", "totals", "traffic", "strategies", "cycle"];

/// The keywords a block's lines start with, each at most once (`stage` may repeat).
const KEYWORDS: [&str; 10] =
    ["tensor", "source", "destination", "split", "convert", "topology", "view", "cycle", "refit", "speedup"];

/// A parsed block: the spec, which view to show, and the cycle if the block says one.
#[derive(Clone, Debug, PartialEq)]
pub struct TextBlock {
    pub spec: SpecInput,
    pub view: String,
    /// From the block's cycle lines; `None` when it has none (the app's default cycle then).
    pub cycle: Option<CycleSpec>,
    /// Where each keyword's line is (each `stage` line in order), to place the problems [`TextBlock::check`]
    /// finds by the line they come from.
    lines: Vec<(String, usize)>,
}

impl TextBlock {
    /// Checks the meaning of the layout and the cycle, each problem placed at its line (`line 3,
    /// destination.placements[0]: …`): a docs author fixes the block, not a JSON path.
    pub fn check(&self) -> Result<(), Vec<Problem>> {
        let mut problems: Vec<Problem> = validate(&self.spec).err().map(|e| e.problems).unwrap_or_default();
        if let Some(Err(found)) = self.cycle.as_ref().map(CycleSpec::validate) {
            problems.extend(found);
        }
        if problems.is_empty() {
            return Ok(());
        }
        // Top to bottom, as the block reads (stable: one line's problems keep the core's order); those of no
        // line (a line that is missing) last.
        Err(super::in_line_order(problems.into_iter().map(|p| self.placed(p)).collect()))
    }

    /// A problem of meaning with the line its path comes from (`line 3, destination.placements[0]`), and
    /// that line (`usize::MAX` when no line says it).
    fn placed(&self, p: Problem) -> (usize, Problem) {
        match self.line_of(&p.path) {
            Some(line) => (line, Problem { path: format!("line {line}, {}", p.path), ..p }),
            None => (usize::MAX, p),
        }
    }

    /// Whether the block describes a layout (a cycle's block may not: its spec is then the toy's).
    pub fn says_layout(&self) -> bool {
        self.lines.iter().any(|(keyword, _)| keyword == "tensor")
    }

    /// The line a problem's path comes from: `destination.…` from the `destination` line, `stages[2].…` from
    /// the third `stage` line, `convert_at` from `convert`.
    fn line_of(&self, path: &str) -> Option<usize> {
        let head = path.split(['.', '[']).next().unwrap_or("");
        let keyword = match head {
            "convert_at" => "convert",
            "stages" => "stage",
            other => other,
        };
        let mut lines = self.lines.iter().filter(|(k, _)| k == keyword).map(|(_, line)| *line);
        let index = path.strip_prefix("stages[").and_then(|rest| rest.split(']').next()?.parse::<usize>().ok());
        match index {
            Some(i) => lines.nth(i),
            None => lines.next(),
        }
        .or_else(|| (keyword == "stage").then(|| self.line_of("cycle")).flatten())
    }
}

/// The keyword `word` is most likely a misspelling of (two edits at most, a swap of neighbours counting
/// one, and fewer than half the keyword's letters), if any: `destinaton` → `destination`, `veiw` → `view`.
fn nearest_keyword(word: &str) -> Option<&'static str> {
    let word = word.to_ascii_lowercase();
    KEYWORDS
        .iter()
        .chain(CYCLE_KEYWORDS.iter())
        .map(|&k| (strsim::osa_distance(&word, k), k))
        .filter(|&(distance, k)| distance <= 2 && distance * 2 < k.len())
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, k)| k)
}

fn problem(line: usize, message: impl Into<String>) -> Problem {
    Problem { path: format!("line {line}"), message: message.into() }
}

/// Problems of lines in a row that say the same, said once for all of them: `lines 1–39 (20 lines)`.
fn same_words_once(problems: Vec<Problem>) -> Vec<Problem> {
    let mut said: Vec<(Problem, String, usize)> = Vec::new();
    for p in problems {
        match said.last_mut() {
            Some((first, last, count)) if first.message == p.message && p.path.starts_with("line ") => {
                *last = p.path;
                *count += 1;
            }
            _ => said.push((p.clone(), p.path, 1)),
        }
    }
    said.into_iter()
        .map(|(first, last, count)| match (first.path.strip_prefix("line "), last.strip_prefix("line ")) {
            (Some(from), Some(to)) if count > 1 => {
                Problem { path: format!("lines {from}–{to} ({count} lines)"), message: first.message }
            }
            _ => first,
        })
        .collect()
}

/// `12x6`, `12×6` or `12` → `[12, 6]` / `[12]`.
fn parse_shape(token: &str) -> Option<Vec<i64>> {
    let dims: Option<Vec<i64>> = token.split(['x', '×', '*']).map(|d| d.trim().parse().ok()).collect();
    dims.filter(|d| !d.is_empty())
}

/// How many lines that do not read a block may have before its reading stops: a file of 4 million bad lines
/// (within the 8 MiB a file may be) built a message per line until the page ran out of memory, and a
/// message of 100,000 lines took 7 s and a gigabyte to lay out (review 43). A block is a dozen lines.
pub const MAX_LINE_PROBLEMS: usize = 20;

/// Parses a whole block; every bad line is reported (up to [`MAX_LINE_PROBLEMS`]), good lines still count.
pub fn parse_block(text: &str) -> Result<TextBlock, Vec<Problem>> {
    let mut spec = SpecInput::default();
    let mut view = "tensor".to_string();
    let mut problems = Vec::new();
    let mut seen_tensor = false;
    let mut seen: Vec<(&str, usize)> = Vec::new();
    // Keywords a misspelt line was probably meant as: what they would have said is not said missing.
    let mut misspelt: Vec<&str> = Vec::new();
    let mut lines = Vec::new();
    let mut cycle = CycleLines::default();
    // The tensor line's rank, wherever it stands: `Shard(-1)` is the last dim, as in PyTorch, the app's
    // layout field and a JSON spec (a block refused what the field took; only below
    // the tensor line).
    let rank = text.lines().find_map(|raw| {
        let rest = raw.split('#').next()?.trim().strip_prefix("tensor")?;
        rest.starts_with(char::is_whitespace).then(|| rest.split_whitespace().find_map(parse_shape))?.map(|s| s.len())
    });
    let mut stopped_at = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if problems.len() >= MAX_LINE_PROBLEMS {
            stopped_at = Some(line_no);
            break;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        // Each keyword says one thing once: a second line would silently replace the first.
        if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == keyword) {
            problems.push(problem(line_no, format!("a second `{keyword}` line (the first is line {first})")));
            continue;
        }
        if KEYWORDS.contains(&keyword) {
            seen.push((keyword, line_no));
        }
        lines.push((keyword.to_string(), line_no));
        match keyword {
            "tensor" => {
                seen_tensor = true;
                let tokens: Vec<&str> = rest.split_whitespace().collect();
                let shape_at = tokens.iter().position(|t| parse_shape(t).is_some());
                match shape_at {
                    None => problems.push(problem(line_no, "tensor: expected a shape such as 12x6")),
                    Some(i) => {
                        let name = tokens[..i].join(" ");
                        spec.tensor = Some(TensorInput {
                            name: (!name.is_empty()).then_some(name),
                            shape: parse_shape(tokens[i]).unwrap_or_default(),
                            dtype: tokens.get(i + 1).map(|s| s.to_string()),
                            ..Default::default()
                        });
                        if tokens.len() > i + 2 {
                            problems
                                .push(problem(line_no, format!("tensor: unexpected `{}`", tokens[i + 2..].join(" "))));
                        }
                    }
                }
            }
            "source" | "destination" => match parse_side(rest, rank) {
                Ok(side) if keyword == "source" => spec.source = side,
                Ok(side) => spec.destination = side,
                Err(e) => problems.push(problem(line_no, format!("{keyword}: {e}"))),
            },
            "split" => spec.split = Some(rest.to_string()),
            "convert" => match rest {
                "sender" | "receiver" => spec.convert_at = Some(rest.to_string()),
                _ => problems.push(problem(line_no, format!("convert `{rest}`: expected sender or receiver"))),
            },
            "view" => {
                if VIEWS.contains(&rest) {
                    view = rest.to_string();
                } else {
                    problems.push(problem(line_no, format!("view `{rest}`: expected one of {}", VIEWS.join(", "))));
                }
            }
            "topology" => match parse_topology(rest) {
                Ok(t) => spec.topology = Some(t),
                Err(e) => problems.push(problem(line_no, format!("topology: {e}"))),
            },
            keyword if CYCLE_KEYWORDS.contains(&keyword) => {
                if let Err(message) = cycle.read(keyword, rest) {
                    problems.push(problem(line_no, message));
                }
            }
            other => {
                let nearest = nearest_keyword(other);
                if let Some(meant) = nearest {
                    misspelt.push(meant);
                }
                problems.push(problem(
                    line_no,
                    match nearest {
                        Some(meant) => format!("`{other}` is not a keyword: did you mean `{meant}`?"),
                        None => format!(
                            "`{other}` is not a keyword; expected tensor, source, destination, split, convert, \
                             topology, view, or for the cycle: cycle, stage, refit, speedup"
                        ),
                    },
                ));
            }
        }
    }
    if let Some(line_no) = stopped_at {
        // What the lines not read would have said is unknown: nothing is said missing. Said first, and the
        // same words for many lines said once (a hundred lines of `x` made a box 4,000 px tall, review 44).
        let mut said = vec![problem(
            line_no,
            format!(
                "not read, nor the lines after it: {MAX_LINE_PROBLEMS} lines before it did not read (is this a \
                 Reshard Lens text block?)"
            ),
        )];
        said.extend(same_words_once(problems));
        return Err(said);
    }
    // A cycle's block needs no layout: the app's toy stands in (it only matters for "take s from the layout").
    // A block of cycle lines whose `view` line did not read is such a block too: its problem is the view.
    let view_unread = problems.iter().any(|p| p.message.starts_with("view `"));
    let cycle_only = !seen_tensor && seen.iter().all(|(k, _)| !matches!(*k, "source" | "destination"));
    if cycle_only && (view == "cycle" || (view_unread && !cycle.is_empty())) {
        spec = crate::core::presets::find("toy").and_then(|toy| parse_input(toy.spec).ok()).unwrap_or_default();
    } else if cycle_only && !cycle.is_empty() && !seen.iter().any(|(k, _)| *k == "view") {
        // Cycle lines alone, and no view: "missing a tensor line" sent the author to add a layout.
        problems.push(Problem {
            path: "block".into(),
            message: "a block of cycle lines draws the cycle with a `view cycle` line (a layout needs a \
                      `tensor NAME SHAPE` line)"
                .into(),
        });
    } else if !seen_tensor && !misspelt.contains(&"tensor") {
        problems.push(Problem { path: "block".into(), message: "missing a `tensor NAME SHAPE` line".into() });
    }
    let cycle = (!cycle.is_empty()).then(|| cycle.spec());
    let block = TextBlock { spec, view, cycle, lines };
    if problems.is_empty() {
        return Ok(block);
    }
    // Every problem at once: what the lines that did read mean is checked too (`S(5)` on a rank-2 tensor
    // was said only once a misspelt `view` was put right), except on lines that did not read, where the
    // check would only repeat that something is missing.
    let line_number = |p: &Problem| -> usize {
        p.path.strip_prefix("line ").and_then(|rest| rest.split(',').next()?.parse().ok()).unwrap_or(usize::MAX)
    };
    let unread: Vec<usize> = problems.iter().map(line_number).collect();
    // Nor for a part whose line was misspelt: "destination.mesh: missing" only repeated `destinaton`.
    let of_misspelt = |p: &Problem| misspelt.iter().any(|k| p.path == *k || p.path.starts_with(&format!("{k}.")));
    if seen_tensor && let Err(meaning) = block.check() {
        problems.extend(meaning.into_iter().filter(|p| !unread.contains(&line_number(p)) && !of_misspelt(p)));
    } else if let Some(Err(found)) = block.cycle.as_ref().map(CycleSpec::validate) {
        // A cycle's block: the cycle's own problems, by line.
        problems.extend(found.into_iter().map(|p| block.placed(p).1).filter(|p| !unread.contains(&line_number(p))));
    }
    Err(super::in_line_order(problems.into_iter().map(|p| (line_number(&p), p)).collect()))
}

/// Writes a spec as a block (the inverse of [`parse_block`]), for the "spec as text" export and for docs
/// authors who design a layout in the app and paste it into a page. A spec the text form cannot say (an
/// inventory of several tensors, per-tensor placements, names with `#`, whitespace or commas where the form
/// splits on them) is refused with the reason rather than written lossily.
pub fn to_block(spec: &SpecInput, view: &str) -> Result<String, String> {
    if spec.tensors.is_some() {
        return Err("an inventory of several tensors has no text form; export it as JSON".into());
    }
    let tensor = spec.tensor.as_ref().ok_or("the spec has no tensor")?;
    if tensor.source.is_some() || tensor.destination.is_some() || tensor.group.is_some() {
        return Err("per-tensor placements or groups have no text form; export the spec as JSON".into());
    }
    let mut lines = Vec::new();
    let mut line = String::from("tensor");
    if let Some(name) = &tensor.name {
        let words: Vec<&str> = name.split_whitespace().collect();
        let clean = words.join(" ") == *name && !name.contains('#');
        if !clean || words.iter().any(|w| parse_shape(w).is_some()) {
            return Err(format!(
                "the tensor name `{name}` cannot be written on a `tensor` line (it holds `#`, a shape-like word \
                 or repeated spaces); export the spec as JSON"
            ));
        }
        if !name.is_empty() {
            line.push(' ');
            line.push_str(name);
        }
    }
    let shape: Vec<String> = tensor.shape.iter().map(i64::to_string).collect();
    line.push(' ');
    line.push_str(&shape.join("x"));
    if let Some(dtype) = &tensor.dtype {
        line.push(' ');
        line.push_str(dtype);
    }
    lines.push(line);
    lines.push(side_line("source", &spec.source)?);
    lines.push(side_line("destination", &spec.destination)?);
    if let Some(split) = &spec.split {
        lines.push(format!("split {split}"));
    }
    if let Some(at) = &spec.convert_at {
        let at = at.trim();
        if !matches!(at, "sender" | "receiver") {
            return Err(format!("the conversion point `{at}` has no text form (sender or receiver)"));
        }
        lines.push(format!("convert {at}"));
    }
    if let Some(t) = &spec.topology {
        let mut line = String::from("topology");
        let mut add = |key: &str, value: Option<String>| {
            if let Some(value) = value {
                line.push_str(&format!(" {key} {value}"));
            }
        };
        add("per_node", t.devices_per_node.map(|v| v.to_string()));
        add("nvlink", t.nvlink_gbps.map(|v| v.to_string()));
        add("nic", t.nic_gbps.map(|v| v.to_string()));
        add("latency", t.latency_us.map(|v| v.to_string()));
        if line != "topology" {
            lines.push(line);
        }
    }
    lines.push(format!("view {view}"));
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(text)
}

/// One `source …` or `destination …` line.
fn side_line(keyword: &str, side: &SideInput) -> Result<String, String> {
    let shape = match &side.mesh {
        Some(MeshShapeInput::Dims(dims)) => dims.iter().map(i64::to_string).collect::<Vec<_>>().join("x"),
        Some(MeshShapeInput::Size(size)) => size.to_string(),
        None => return Err(format!("the {keyword} has no mesh shape")),
    };
    let layout = match (&side.placements, &side.partition_spec) {
        (Some(placements), None) => format!("[{}]", placements.join(", ")),
        (None, Some(dims)) => {
            let entry = |v: &serde_json::Value| -> Result<String, String> {
                match v {
                    serde_json::Value::Null => Ok("None".into()),
                    serde_json::Value::String(name) => Ok(format!("'{name}'")),
                    serde_json::Value::Array(names) => {
                        let names: Option<Vec<String>> =
                            names.iter().map(|n| n.as_str().map(|n| format!("'{n}'"))).collect();
                        names.map(|n| format!("({})", n.join(", "))).ok_or_else(|| "a partition spec entry".into())
                    }
                    other => Err(format!("the {keyword}'s partition spec holds `{other}`")),
                }
            };
            let entries: Result<Vec<String>, String> = dims.iter().map(entry).collect();
            format!("P({})", entries?.join(", "))
        }
        _ => return Err(format!("the {keyword} needs exactly one of placements or partition_spec")),
    };
    let mut line = format!("{keyword} mesh {shape} {layout}");
    if let Some(names) = &side.dim_names {
        if names.iter().any(|n| n.is_empty() || n.contains([',', '#']) || n.contains(char::is_whitespace)) {
            return Err(format!("the {keyword}'s dim names cannot hold commas, `#` or spaces in the text form"));
        }
        line.push_str(&format!(" names {}", names.join(",")));
    }
    match &side.devices {
        Some(DevicesInput::Named(name)) => line.push_str(&format!(" devices {name}")),
        Some(DevicesInput::Ids(ids)) => {
            line.push_str(&format!(" devices {}", ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
        }
        None => {}
    }
    if let Some(dtype) = &side.dtype {
        line.push_str(&format!(" dtype {dtype}"));
    }
    if let Some(order) = &side.order {
        line.push_str(&format!(" order {order}"));
    }
    Ok(line)
}

fn parse_side(rest: &str, rank: Option<usize>) -> Result<SideInput, String> {
    let rest = rest.strip_prefix("mesh").ok_or("expected `mesh SHAPE LAYOUT`, e.g. `mesh 2x4 [S(0), R]`")?.trim();
    let (shape_token, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let shape =
        parse_shape(shape_token).ok_or_else(|| format!("`{shape_token}` is not a mesh shape (e.g. 3 or 2x4)"))?;
    let rest = rest.trim();
    // The layout runs to its closing bracket.
    let (layout_text, tail) = if rest.starts_with('[') {
        let end = rest.find(']').ok_or("the layout's `[` is not closed")?;
        (&rest[..=end], &rest[end + 1..])
    } else if rest.starts_with("P(") || rest.starts_with("PartitionSpec(") {
        let mut depth = 0i32;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let end = end.ok_or("the partition spec's `(` is not closed")?;
        (&rest[..=end], &rest[end + 1..])
    } else {
        return Err("expected a layout after the mesh shape: [Shard(0), Replicate()] or P('tp', None)".into());
    };
    let mut side = SideInput { mesh: Some(MeshShapeInput::Dims(shape)), ..Default::default() };
    match parse_layout_text_for_rank(layout_text, rank)? {
        LayoutText::Placements(p) => side.placements = Some(p.iter().map(|p| p.short()).collect()),
        LayoutText::PartitionSpec(dims) => {
            side.partition_spec = Some(
                dims.into_iter()
                    .map(|names| match names.len() {
                        0 => serde_json::Value::Null,
                        1 => serde_json::Value::String(names[0].clone()),
                        _ => serde_json::Value::Array(names.into_iter().map(serde_json::Value::String).collect()),
                    })
                    .collect(),
            )
        }
    }
    let tokens: Vec<&str> = tail.split_whitespace().collect();
    let mut i = 0;
    while i < tokens.len() {
        let value = tokens.get(i + 1).copied().ok_or_else(|| format!("`{}` needs a value", tokens[i]))?;
        match tokens[i] {
            "names" => side.dim_names = Some(value.split(',').map(str::to_string).collect()),
            "dtype" => side.dtype = Some(value.to_string()),
            "order" => side.order = Some(value.to_string()),
            "devices" if value == "colocated" => side.devices = Some(DevicesInput::Named(value.into())),
            "devices" => {
                let ids: Result<Vec<i64>, _> = value.split(',').map(str::parse).collect();
                side.devices =
                    Some(DevicesInput::Ids(ids.map_err(|_| format!("devices `{value}`: expected ids like 0,1,2"))?));
            }
            other => return Err(format!("unexpected `{other}`; expected names, devices, dtype or order")),
        }
        i += 2;
    }
    Ok(side)
}

fn parse_topology(rest: &str) -> Result<TopologyInput, String> {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let mut topology = TopologyInput::default();
    for pair in tokens.chunks(2) {
        let [key, value] = pair else { return Err(format!("`{}` needs a value", pair[0])) };
        // A count of devices is read as a whole number: `2.5` was cut to 2 without a word (JSON refuses it).
        if *key == "per_node" {
            let count = value.parse().map_err(|_| format!("per_node `{value}`: expected a whole number of devices"))?;
            topology.devices_per_node = Some(count);
            continue;
        }
        let number: f64 = value.parse().map_err(|_| format!("{key} `{value}` is not a number"))?;
        match *key {
            "nvlink" => topology.nvlink_gbps = Some(number),
            "nic" => topology.nic_gbps = Some(number),
            "latency" => topology.latency_us = Some(number),
            other => return Err(format!("unexpected `{other}`; expected per_node, nvlink, nic or latency")),
        }
    }
    Ok(topology)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::{Strategy, plan};
    use crate::core::spec::validate;

    #[test]
    fn devices_per_node_is_a_whole_number() {
        let block = |per_node: &str| {
            parse_block(&format!(
                "tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]\ntopology per_node {per_node}\n"
            ))
        };
        for bad in ["2.5", "NaN", "4e0"] {
            let problems: Vec<String> = block(bad).expect_err("refused").iter().map(|p| p.to_string()).collect();
            assert_eq!(problems, [format!("line 4: topology: per_node `{bad}`: expected a whole number of devices")]);
        }
        let four = block("4").expect("valid");
        assert_eq!(validate(&four.spec).expect("valid").topology.devices_per_node, 4);
    }

    #[test]
    fn a_block_lists_its_problems_of_reading_and_of_meaning_at_once() {
        let problems = |block: &str| -> Vec<String> {
            parse_block(block).expect_err("problems").iter().map(|p| p.to_string()).collect()
        };
        // A misspelt view (line 4) and a placement beyond the tensor's rank (line 3): both, in line order.
        let text = problems("tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(5)]\nview tensorz\n");
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(text[0].starts_with("line 3, destination.placements[0]: "), "{text:?}");
        assert!(text[1].starts_with("line 4: view `tensorz`"), "{text:?}");
        // A line that did not read is not also reported as missing.
        let text = problems("tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)\nview tensorz\n");
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(text[0].starts_with("line 3") && text[1].starts_with("line 4"), "{text:?}");
        // A cycle's block: its stage's problem and the misspelt view, and no call for a tensor line.
        let text = problems("stage generation 70\nstage refit -5\nspeedup 4\nview cycel\n");
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(text[0].starts_with("line 2, stages[1].seconds: "), "{text:?}");
        assert!(text[1].starts_with("line 4: view `cycel`"), "{text:?}");
    }

    #[test]
    fn a_file_of_lines_that_do_not_read_stops_at_twenty_and_says_the_same_words_once() {
        // 4 million such lines fit in a file the app opens; a message each ran the page out of memory.
        // Where it stopped first, then the lines before it, the same words said once.
        let text = format!("tensor w 12x6\nsoruce mesh 3 [S(0)]\n{}", "x\n\n".repeat(150));
        let problems: Vec<String> = parse_block(&text).expect_err("refused").iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert_eq!(
            problems[0],
            "line 41: not read, nor the lines after it: 20 lines before it did not read (is this a Reshard Lens \
             text block?)"
        );
        assert!(problems[1].starts_with("line 2: `soruce` is not a keyword: did you mean `source`?"), "{problems:?}");
        assert!(problems[2].starts_with("lines 3–39 (19 lines): `x` is not a keyword"), "{problems:?}");
        // Twenty exactly are all listed, and nothing stops.
        let text = "x\n".repeat(MAX_LINE_PROBLEMS);
        let problems = parse_block(&text).expect_err("refused");
        assert!(problems.iter().all(|p| !p.message.starts_with("not read")), "{problems:?}");
    }

    #[test]
    fn the_issue_example_is_the_article_toy() {
        let block =
            parse_block("tensor w 12x6 bf16\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]\nview tensor\n").unwrap();
        assert_eq!(block.view, "tensor");
        let reshard = validate(&block.spec).unwrap();
        let toy = crate::core::presets::toy();
        assert_eq!(reshard.tensors, toy.tensors);
        assert_eq!(reshard.source_mesh.devices, toy.source_mesh.devices);
        assert_eq!(reshard.destination_mesh.devices, toy.destination_mesh.devices);
        assert_eq!(plan(&reshard, Strategy::Intersection).unwrap().pieces.len(), 6);
    }

    #[test]
    fn every_option_is_read() {
        let block = parse_block(
            "# a comment\ntensor 16x8\nsource mesh 2x4 P(('dp','tp'), None) names dp,tp dtype fp32\n\
             destination mesh 8 [R] devices colocated order strided\nsplit balanced\n\
             topology per_node 4 nvlink 900 nic 25 latency 2\nview traffic",
        )
        .unwrap();
        let reshard = validate(&block.spec).unwrap();
        assert_eq!(reshard.topology.devices_per_node, 4);
        assert_eq!(reshard.destination_mesh.devices, reshard.source_mesh.devices);
        assert_eq!(reshard.tensors[0].source.dtype, crate::core::geometry::Dtype::Fp32);
        assert_eq!(block.view, "traffic");
    }

    #[test]
    fn a_misspelt_keyword_is_answered_with_the_nearest_and_not_said_missing_too() {
        let problems = parse_block("tensor w 12x6\nsource mesh 3 [S(0)]\ndestinaton mesh 2 [S(1)]").unwrap_err();
        let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(text, ["line 3: `destinaton` is not a keyword: did you mean `destination`?"]);
        let tensor = parse_block("tensr w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]").unwrap_err();
        assert_eq!(tensor.len(), 1, "{tensor:?}");
        assert!(tensor[0].message.contains("did you mean `tensor`?"));
        assert_eq!(nearest_keyword("Stgae"), Some("stage"));
        assert_eq!(nearest_keyword("frobnicate"), None);
        assert_eq!(nearest_keyword("veiw"), Some("view"), "a swap is one edit");
        assert_eq!(nearest_keyword("mesh"), None, "a source's word, four edits from any keyword");
    }

    #[test]
    fn cycle_lines_without_a_view_are_told_to_add_view_cycle() {
        let problems = parse_block("stage generation 70\nstage refit 50\nspeedup 4").unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.contains("draws the cycle with a `view cycle` line"), "{problems:?}");
        assert!(parse_block("stage generation 70\nstage refit 50\nspeedup 4\nview cycle").is_ok());
    }

    #[test]
    fn bad_lines_are_named() {
        let problems =
            parse_block("tensor w 12x6\nsource mesh 3\ndestination mash 2 [S(1)]\nfrobnicate\nview pie").unwrap_err();
        let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert!(text[0].starts_with("line 2: source: expected a layout"), "{text:?}");
        assert!(text[1].starts_with("line 3: destination: expected `mesh"), "{text:?}");
        assert!(text[2].starts_with("line 4: `frobnicate` is not a keyword"), "{text:?}");
        assert!(text[3].starts_with("line 5: view `pie`"), "{text:?}");
        assert!(parse_block("").unwrap_err()[0].message.contains("missing a `tensor"));
        let twice =
            parse_block("tensor w 12x6\nsource mesh 3 [S(0)]\ntensor v 4x4\ndestination mesh 2 [S(1)]").unwrap_err();
        assert_eq!(twice.len(), 1);
        assert_eq!(twice[0].to_string(), "line 3: a second `tensor` line (the first is line 1)");
    }

    #[test]
    fn a_negative_shard_dim_counts_from_the_tensor_lines_rank() {
        let block = parse_block("tensor w 12x6\nsource mesh 3 [Shard(-1)]\ndestination mesh 2 [S(-2)]").unwrap();
        assert_eq!(block.spec.source.placements, Some(vec!["S(1)".to_string()]));
        assert_eq!(block.spec.destination.placements, Some(vec!["S(0)".to_string()]));
        assert!(block.check().is_ok());
        // Past the rank, or with no tensor line to count from: said on its line.
        let problems = parse_block("tensor w 12x6\nsource mesh 3 [Shard(-3)]\ndestination mesh 2 [S(1)]").unwrap_err();
        assert!(problems[0].to_string().starts_with("line 2: source: "), "{problems:?}");
        assert!(parse_block("source mesh 3 [Shard(-1)]\ndestination mesh 2 [S(1)]").is_err());
        // The tensor line below the sides counts as well.
        let below = parse_block("source mesh 3 [Shard(-1)]\ntensor w 12x6\ndestination mesh 2 [S(0)]").expect("read");
        assert_eq!(below.spec.source.placements, Some(vec!["S(1)".to_string()]));
    }

    #[test]
    fn a_cycle_block_needs_no_layout_and_carries_its_cycle() {
        let block = parse_block(
            "# the article's second cycle\nstage generation 70\nstage scoring 10\nstage training 30\n\
             stage refit 50\nspeedup 4\nview cycle\n",
        )
        .unwrap();
        assert_eq!(block.view, "cycle");
        assert!(!block.says_layout());
        let report = block.cycle.as_ref().expect("a cycle").report().unwrap();
        assert_eq!((report.before.cycle_seconds, report.after.cycle_seconds), (160.0, 122.5));
        assert!(block.check().is_ok());
        // A layout block without cycle lines keeps the app's cycle; a layout view still needs its tensor.
        assert_eq!(parse_block("tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]").unwrap().cycle, None);
        assert!(parse_block("speedup 4\nview traffic").unwrap_err()[0].message.contains("missing a `tensor"));
        let twice = parse_block("speedup 4\nspeedup 8\nview cycle").unwrap_err();
        assert_eq!(twice[0].to_string(), "line 2: a second `speedup` line (the first is line 1)");
    }

    #[test]
    fn problems_of_meaning_are_placed_at_their_line() {
        let block =
            parse_block("tensor w 12x6\n\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(9)]\nview tensor").unwrap();
        let problems: Vec<String> = block.check().unwrap_err().iter().map(|p| p.to_string()).collect();
        assert!(problems[0].starts_with("line 4, destination.placements[0]: "), "{problems:?}");
        let block = parse_block("stage generation 70\nstage refit 10 overlap 80\nspeedup 4\nview cycle").unwrap();
        let problems: Vec<String> = block.check().unwrap_err().iter().map(|p| p.to_string()).collect();
        assert!(problems[0].starts_with("line 2, stages[1].overlap: "), "{problems:?}");
        let block = parse_block("stage generation 70\nspeedup 0\nview cycle").unwrap();
        let problems: Vec<String> = block.check().unwrap_err().iter().map(|p| p.to_string()).collect();
        assert!(problems.iter().any(|p| p.starts_with("line 2, speedup: ")), "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("line 1, stages: ")), "no refit: {problems:?}");
    }

    #[test]
    fn every_single_tensor_preset_survives_text_and_back() {
        for preset in crate::core::presets::PRESETS {
            let spec = crate::core::spec::parse_input(preset.spec).unwrap();
            let text = to_block(&spec, "mesh").unwrap();
            let block = parse_block(&text).unwrap_or_else(|e| panic!("{}: {text}\n{e:?}", preset.name));
            assert_eq!(validate(&block.spec).unwrap(), validate(&spec).unwrap(), "{}: {text}", preset.name);
            assert_eq!(block.view, "mesh");
        }
    }

    #[test]
    fn options_and_partition_specs_survive_text_and_back() {
        let original = "tensor big w 16x8 fp32\nsource mesh 2x4 P(('dp', 'tp'), None) names dp,tp dtype fp32\n\
                        destination mesh 8 [R] devices colocated order strided dtype bf16\nsplit balanced\n\
                        convert receiver\n\
                        topology per_node 4 nvlink 900 nic 25 latency 2\nview traffic\n";
        let block = parse_block(original).unwrap();
        let text = to_block(&block.spec, &block.view).unwrap();
        assert_eq!(parse_block(&text).unwrap(), block, "{text}");
        // Converting at the receiver: fp32 crosses the links.
        let reshard = validate(&block.spec).unwrap();
        assert_eq!(reshard.convert_at, crate::core::model::ConvertAt::Receiver);
        assert_eq!(reshard.wire_dtype(&reshard.tensors[0]), crate::core::geometry::Dtype::Fp32);
        let problems =
            parse_block("tensor 4\nsource mesh 2 [S(0)]\ndestination mesh 2 [R]\nconvert later").unwrap_err();
        assert_eq!(problems[0].to_string(), "line 4: convert `later`: expected sender or receiver");
    }

    #[test]
    fn what_the_text_form_cannot_say_is_refused_with_a_reason() {
        let inventory = crate::core::spec::parse_input(&crate::core::presets::llama_inventory_json(1)).unwrap();
        assert!(to_block(&inventory, "tensor").unwrap_err().contains("inventory"));
        let mut spec = parse_block("tensor w 12x6\nsource mesh 3 [S(0)]\ndestination mesh 2 [S(1)]").unwrap().spec;
        spec.tensor.as_mut().unwrap().name = Some("a # b".into());
        assert!(to_block(&spec, "tensor").unwrap_err().contains("cannot be written"));
        spec.tensor.as_mut().unwrap().name = Some("layer 4x4".into());
        assert!(to_block(&spec, "tensor").is_err(), "a shape-like word would be read as the shape");
        // A hostile name is only characters here; it survives the round trip as such.
        spec.tensor.as_mut().unwrap().name = Some("<img src=x onerror=alert(1)>".into());
        let text = to_block(&spec, "tensor").unwrap();
        assert_eq!(parse_block(&text).unwrap().spec, spec);
    }
}
