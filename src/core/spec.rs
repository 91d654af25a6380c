//! The JSON spec a user writes (one tensor or an inventory) and its validation into a [`Reshard`].
//!
//! Parsing never panics. Type errors from serde carry the path of the field (via `serde_path_to_error`);
//! semantic checks collect *every* problem, each with its path and what was expected.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cycle::plural;
use super::geometry::{Dtype, MAX_RANK};
use super::model::{
    ConvertAt, Layout, Mesh, Reshard, ShardOrder, SplitRule, TensorChange, Topology, default_dim_names,
};
use super::placement::Placement;
use super::plan::{MAX_PIECES, count_pieces};
use super::traffic::format_count;

/// The most devices one mesh may hold: large enough for any real cluster, small enough to draw and plan.
pub const MAX_MESH_DEVICES: u64 = 65_536;
/// The most tensors one inventory may hold.
pub const MAX_TENSORS: usize = 100_000;

/// One thing wrong with a spec: where (`destination.placements[0]`) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.path, self.message) }
    }
}

/// Every problem found in a spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecError {
    pub problems: Vec<Problem>,
}

impl SpecError {
    pub fn single(path: impl Into<String>, message: impl Into<String>) -> SpecError {
        SpecError { problems: vec![Problem { path: path.into(), message: message.into() }] }
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecError {}

/// The spec as written. Numbers are signed so that a negative size is reported as such, not as a type error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor: Option<TensorInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensors: Option<Vec<TensorInput>>,
    pub source: SideInput,
    pub destination: SideInput,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convert_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<TopologyInput>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub shape: Vec<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
    /// Per-tensor placements in an inventory (`{"placements": [...]}` or `{"partition_spec": [...]}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SideInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<SideInput>,
    /// A label for grouping per-tensor totals (e.g. `attention`, `mlp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideInput {
    /// Mesh shape: `[3]`, `[2, 4]` (a bare number means a 1-D mesh).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mesh: Option<MeshShapeInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim_names: Option<Vec<String>>,
    /// Device ids in row-major mesh order, or `"colocated"` (destination: the source's devices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<DevicesInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<Vec<String>>,
    /// JAX-style: one entry per tensor dim, `null`, a mesh axis name, or a list of names (nested, in order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition_spec: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
    /// `"mesh"` (default, left to right) or `"strided"` (right to left, `_StridedShard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
}

impl SideInput {
    /// A tensor's own side settings on top of the inventory's shared side (`self`): the mesh, its names
    /// and devices are the side's; placements (given either way) and the dtype and order, where given,
    /// are the tensor's. The spec check and the editor both read a tensor's layout through this, so what
    /// the cards show is what the check validates.
    pub fn overlaid_by(&self, own: &SideInput) -> SideInput {
        let placements_given = own.placements.is_some() || own.partition_spec.is_some();
        SideInput {
            mesh: self.mesh.clone(),
            dim_names: self.dim_names.clone(),
            devices: self.devices.clone(),
            placements: if placements_given { own.placements.clone() } else { self.placements.clone() },
            partition_spec: if placements_given { own.partition_spec.clone() } else { self.partition_spec.clone() },
            dtype: own.dtype.clone().or_else(|| self.dtype.clone()),
            order: own.order.clone().or_else(|| self.order.clone()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MeshShapeInput {
    Dims(Vec<i64>),
    Size(i64),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DevicesInput {
    Ids(Vec<i64>),
    Named(String),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologyInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices_per_node: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlink_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_us: Option<f64>,
}

/// Parses JSON text into a validated [`Reshard`]; every error names its field.
pub fn parse_spec(json: &str) -> Result<Reshard, SpecError> {
    let input = parse_input(json)?;
    validate(&input)
}

/// Parses JSON text into a [`SpecInput`] without checking its meaning.
pub fn parse_input(json: &str) -> Result<SpecInput, SpecError> {
    // serde would take an array for the struct and name the struct's Rust type in its message.
    const WANTED: &str = "expected a spec: a JSON object with tensor, source and destination";
    match json.trim_start().chars().next() {
        None => return Err(SpecError::single("", format!("empty: {WANTED}"))),
        Some('{') => {}
        Some(first) => return Err(SpecError::single("", format!("starts with `{first}`: {WANTED}"))),
    }
    let de = &mut serde_json::Deserializer::from_str(json);
    let input = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let path = if path == "." { String::new() } else { path };
        SpecError::single(path, plain_message(&inner.to_string()))
    })?;
    // The path tracker stops at the spec's closing brace: text after it would be dropped unread.
    de.end().map_err(|e| SpecError::single("", after_the_end(&e, "spec")))?;
    Ok(input)
}

/// What is said of text after a whole JSON object (`{…} {…}`, a pasted tail): serde's "trailing
/// characters at line 3 column 2", with what ended.
pub fn after_the_end(error: &serde_json::Error, what: &str) -> String {
    format!(
        "text after the end of the {what} (line {}, column {}): one JSON object was expected",
        error.line(),
        error.column()
    )
}

/// serde's wording where it names Rust types, in the spec's own terms.
fn plain_message(serde: &str) -> String {
    if serde.contains("untagged enum DevicesInput") {
        return "expected a list of device ids (whole numbers from 0 to 4,294,967,295) or \"colocated\"".into();
    }
    if serde.contains("untagged enum MeshShapeInput") {
        return "expected a mesh shape: a list of sizes such as [2, 4], or one size".into();
    }
    // `invalid type: floating point `1e23`, expected i64`: a number JSON holds that no count can be.
    if let Some(rest) = serde.strip_prefix("invalid type: floating point ")
        && let Some((number, _)) = rest.split_once(", expected i64")
    {
        return format!("{}: expected a whole number", number.trim_matches('`'));
    }
    serde.to_string()
}

/// Messages echo what was typed; past this many characters the middle of one is left out.
pub const MAX_MESSAGE_CHARS: usize = 240;

/// The longest name a tensor, a mesh dim or a stage may have, in characters (real ones are under 100:
/// `model.layers.79.self_attn.q_proj.weight` is 39).
pub const MAX_NAME_CHARS: usize = 200;

/// Why `name` cannot name a tensor, a mesh dim or a stage, if it cannot. A direction control character
/// (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069) reorders the text a name is shown in: in a shared
/// link, a right-to-left override made the headline's "12 × 6" read "6 × 21". A name too long to show runs
/// across the pictures.
pub fn name_problem(name: &str) -> Option<String> {
    if let Some(control) = name.chars().find(|&c| reorders_text(c) || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}'))
    {
        return Some(format!(
            "holds an invisible direction control (U+{:04X}), which would reorder the text around the name; remove it",
            control as u32
        ));
    }
    let count = name.chars().count();
    (count > MAX_NAME_CHARS).then(|| format!("{count} characters: a name has at most {MAX_NAME_CHARS}"))
}

/// A bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069): it reorders the text after it.
/// Names refuse them (with the invisible direction marks), and messages show them as U+FFFD.
fn reorders_text(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A message as shown under its field: a long one keeps its start and its end (where the explanation is)
/// and says how much was left out (a 100,000-character shape was echoed whole, twice), and the
/// direction-changing controls of echoed text are replaced (they reversed the rest of the message).
pub fn for_display(message: &str) -> String {
    let tidy = |c: char| if reorders_text(c) { '\u{fffd}' } else { c };
    let count = message.chars().count();
    if count <= MAX_MESSAGE_CHARS {
        return message.chars().map(tidy).collect();
    }
    let (head, tail) = (MAX_MESSAGE_CHARS * 2 / 3, MAX_MESSAGE_CHARS / 4);
    let start: String = message.chars().take(head).map(tidy).collect();
    let end: String = message.chars().skip(count - tail).map(tidy).collect();
    format!("{start}… ({} characters left out) …{end}", count - head - tail)
}

/// Why text is not text the tool reads, with the line of the first character no such text holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotText {
    /// A NUL or another control character than tab, line feed and carriage return: a binary file (a
    /// picture dropped by mistake), refused as a whole rather than quoted line by line.
    Binary { line: usize },
    /// A few bytes that are not UTF-8 (read as U+FFFD, at most one character in ten) and no control
    /// characters: text saved in another encoding (a spreadsheet's CSV in Windows-1252), which was called
    /// binary.
    NotUtf8 { line: usize },
}

impl NotText {
    pub fn line(self) -> usize {
        match self {
            NotText::Binary { line } | NotText::NotUtf8 { line } => line,
        }
    }
}

/// Whether `text` is not text the tool reads, and why ([`NotText`]).
pub fn not_text(text: &str) -> Option<NotText> {
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let control = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r');
    let first = text.find(|c: char| c == '\u{fffd}' || control(c))?;
    // A text in another encoding has an accented letter here and there; a binary file's bytes are half
    // above 127 (a 4-byte "\x89PNG" read as text in another encoding was told to be saved as UTF-8).
    let replaced = text.matches('\u{fffd}').count();
    Some(if text.contains(control) || replaced * 10 > text.chars().count() {
        NotText::Binary { line: line_of(first) }
    } else {
        NotText::NotUtf8 { line: line_of(first) }
    })
}

/// How many problems a spec reports one by one; past that, one more says how many were left out. A
/// pasted layout of 20,000 repeated axes gave 20,000 messages (560 KB of text under one field, seconds of
/// layout) that said the same thing.
pub const MAX_REPORTED_PROBLEMS: usize = 20;

/// Collects problems while walking a spec: the first [`MAX_REPORTED_PROBLEMS`], and how many there were.
#[derive(Default)]
struct Problems {
    reported: Vec<Problem>,
    /// Every problem found, reported or not: what the walk compares to tell whether a part added any.
    count: usize,
    /// Where the first problem left out was found (its field gets the "and N more" line).
    first_left_out: Option<String>,
}

impl Problems {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.count += 1;
        if self.reported.len() < MAX_REPORTED_PROBLEMS {
            self.reported.push(Problem { path: path.into(), message: message.into() });
        } else if self.first_left_out.is_none() {
            self.first_left_out = Some(path.into());
        }
    }

    fn count(&self) -> usize {
        self.count
    }

    fn into_list(mut self) -> Vec<Problem> {
        if let Some(path) = self.first_left_out {
            let more = self.count - self.reported.len();
            self.reported.push(Problem { path, message: format!("and {more} more problems") });
        }
        self.reported
    }
}

/// Checks a [`SpecInput`] and builds the [`Reshard`] it describes, or returns every problem found.
pub fn validate(input: &SpecInput) -> Result<Reshard, SpecError> {
    let mut problems = Problems::default();

    let split = match input.split.as_deref().map(str::trim) {
        None | Some("chunk") | Some("torch.chunk") => SplitRule::Chunk,
        Some("balanced") | Some("array_split") => SplitRule::Balanced,
        Some(other) => {
            problems.add("split", format!("`{other}` is not a split rule; expected \"chunk\" or \"balanced\""));
            SplitRule::Chunk
        }
    };
    let convert_at = match input.convert_at.as_deref().map(str::trim) {
        None | Some("sender") => ConvertAt::Sender,
        Some("receiver") => ConvertAt::Receiver,
        Some(other) => {
            problems.add("convert_at", format!("`{other}` is not allowed; expected \"sender\" or \"receiver\""));
            ConvertAt::Sender
        }
    };
    let topology = validate_topology(input.topology.as_ref(), &mut problems);

    let source_mesh = validate_mesh("source", &input.source, 0, None, &mut problems);
    let first_destination = source_mesh.as_ref().map_or(0, |m| m.devices.iter().max().map_or(0, |&d| u64::from(d) + 1));
    let destination_mesh =
        validate_mesh("destination", &input.destination, first_destination, source_mesh.as_ref(), &mut problems);

    // One tensor, or an inventory of many.
    let entries: Vec<(String, &TensorInput)> = match (&input.tensor, &input.tensors) {
        (Some(t), None) => vec![("tensor".into(), t)],
        (None, Some(list)) => list.iter().enumerate().map(|(i, t)| (format!("tensors[{i}]"), t)).collect(),
        (Some(_), Some(_)) => {
            problems.add("tensor", "give either `tensor` (one) or `tensors` (an inventory), not both");
            vec![]
        }
        (None, None) => {
            problems.add("tensor", "missing: expected {\"shape\": [..]} (or `tensors` for an inventory)");
            vec![]
        }
    };
    if entries.len() > MAX_TENSORS {
        problems.add("tensors", format!("{} tensors; at most {MAX_TENSORS} are supported", entries.len()));
    }
    if input.tensors.as_ref().is_some_and(|t| t.is_empty()) {
        problems.add("tensors", "empty: expected at least one tensor");
    }

    let mut tensors = Vec::with_capacity(entries.len());
    let mut total_bytes: u64 = 0;
    let mut overflowed = false;
    for (path, tensor) in entries.iter().take(MAX_TENSORS) {
        let is_inventory = input.tensors.is_some();
        if let Some(change) = validate_tensor(
            path,
            tensor,
            is_inventory,
            &input.source,
            &input.destination,
            source_mesh.as_ref(),
            destination_mesh.as_ref(),
            &mut problems,
        ) {
            let src_bytes = change.entries().checked_mul(change.source.dtype.bytes());
            let dst_bytes = change.entries().checked_mul(change.destination.dtype.bytes());
            match (src_bytes, dst_bytes) {
                (Some(a), Some(b)) => match total_bytes.checked_add(a.max(b)) {
                    Some(t) => total_bytes = t,
                    None => overflowed = true,
                },
                _ => problems.add(format!("{path}.shape"), "the tensor's size in bytes overflows 64 bits"),
            }
            tensors.push(change);
        }
    }
    if overflowed {
        problems.add("tensors", "the inventory's total size in bytes overflows 64 bits");
    }

    match (problems.count() == 0, source_mesh, destination_mesh) {
        (true, Some(source_mesh), Some(destination_mesh)) => {
            let reshard = Reshard { source_mesh, destination_mesh, tensors, split, convert_at, topology };
            // Planning visits every device of both sides for every tensor, pieces or not, and gather's ring
            // sends every tensor to every destination: 2,000 one-entry tensors onto 65,536 devices froze the
            // page for 87 s (review 40). Refused before the pieces are counted, which costs as much.
            let devices = (reshard.source_mesh.size() + reshard.destination_mesh.size()) as u64;
            let visits = (reshard.tensors.len() as u64).saturating_mul(devices);
            if visits > MAX_PIECES {
                problems.add(
                    "tensors",
                    format!(
                        "{} tensors on {} devices (both sides) are {} tensor-device pairs to plan, more than {}; \
                         use fewer devices, or fewer, larger tensors",
                        format_count(reshard.tensors.len() as u64),
                        format_count(devices),
                        format_count(visits),
                        format_count(MAX_PIECES)
                    ),
                );
                return Err(SpecError { problems: problems.into_list() });
            }
            // A valid change can still be too large to plan at once (every shard of one side meeting every
            // shard of the other): said under the destination mesh, where such a change usually ends.
            if count_pieces(&reshard, MAX_PIECES) > MAX_PIECES {
                problems.add(
                    "destination.mesh",
                    format!(
                        "this change needs more than {} pieces, more than can be planned at once; use fewer \
                         devices, or shard both sides along the same dims",
                        format_count(MAX_PIECES)
                    ),
                );
                return Err(SpecError { problems: problems.into_list() });
            }
            Ok(reshard)
        }
        _ => Err(SpecError { problems: problems.into_list() }),
    }
}

/// The problems of a topology on its own (`topology.nic_gbps: …`), for a form that edits one apart from a
/// spec: the model inventory's cluster fields.
pub fn topology_problems(input: &TopologyInput) -> Vec<Problem> {
    let mut problems = Problems::default();
    validate_topology(Some(input), &mut problems);
    problems.into_list()
}

fn validate_topology(input: Option<&TopologyInput>, problems: &mut Problems) -> Topology {
    let mut topology = Topology::default();
    let Some(input) = input else { return topology };
    if let Some(n) = input.devices_per_node {
        if !(1..=1_000_000).contains(&n) {
            problems.add("topology.devices_per_node", format!("{n}: expected a whole number from 1 to 1,000,000"));
        } else {
            topology.devices_per_node = n as u32;
        }
    }
    // Ranges a real link has, with room on both sides: outside them the estimate is not a number anyone can
    // read (a latency of 1e300 µs printed 80 digits; a bandwidth of 1e-320 GB/s gave "inf s").
    let mut in_range = |name: &str, value: Option<f64>, slot: &mut f64, (low, high): (f64, f64), what: &str| {
        if let Some(v) = value {
            if !(low..=high).contains(&v) {
                // `1e300`, not its 301 digits.
                let shown = if v != 0.0 && !(1e-6..1e9).contains(&v.abs()) { format!("{v:e}") } else { format!("{v}") };
                problems.add(format!("topology.{name}"), format!("{shown}: expected {what}"));
            } else {
                *slot = v;
            }
        }
    };
    let bandwidth = (0.001, 1e6);
    let bandwidth_text = "a bandwidth from 0.001 to 1,000,000 GB/s";
    in_range("nvlink_gbps", input.nvlink_gbps, &mut topology.nvlink_gbps, bandwidth, bandwidth_text);
    in_range("nic_gbps", input.nic_gbps, &mut topology.nic_gbps, bandwidth, bandwidth_text);
    in_range("latency_us", input.latency_us, &mut topology.latency_us, (0.0, 1e6), "a latency from 0 to 1,000,000 µs");
    topology
}

fn validate_mesh(
    side: &str,
    input: &SideInput,
    first_device: u64,
    colocate_with: Option<&Mesh>,
    problems: &mut Problems,
) -> Option<Mesh> {
    let dims = match &input.mesh {
        None => {
            problems.add(format!("{side}.mesh"), "missing: expected the mesh shape, e.g. [2, 4]");
            return None;
        }
        Some(MeshShapeInput::Size(n)) => vec![*n],
        Some(MeshShapeInput::Dims(d)) => d.clone(),
    };
    let before = problems.count();
    if dims.is_empty() {
        problems.add(format!("{side}.mesh"), "empty: expected at least one mesh dim, e.g. [4]");
    }
    if dims.len() > MAX_RANK {
        problems.add(format!("{side}.mesh"), format!("{} mesh dims; at most {MAX_RANK} are supported", dims.len()));
    }
    for (i, &n) in dims.iter().enumerate() {
        if n <= 0 {
            problems.add(format!("{side}.mesh[{i}]"), format!("{n}: a mesh dim needs at least one device"));
        }
    }
    if problems.count() > before {
        return None;
    }
    let shape: Vec<u64> = dims.iter().map(|&n| n as u64).collect();
    let size = shape.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n)).filter(|&s| s <= MAX_MESH_DEVICES);
    let Some(size) = size else {
        problems.add(format!("{side}.mesh"), format!("{dims:?} holds more than {MAX_MESH_DEVICES} devices"));
        return None;
    };

    let dim_names = match &input.dim_names {
        None => default_dim_names(shape.len()),
        Some(names) => {
            if names.len() != shape.len() {
                problems.add(
                    format!("{side}.dim_names"),
                    format!(
                        "{} for a mesh of {}; expected one name per mesh dim",
                        plural(names.len(), "name"),
                        plural(shape.len(), "dim")
                    ),
                );
            }
            let mut seen = HashSet::new();
            for (i, name) in names.iter().enumerate() {
                if name.trim().is_empty() {
                    problems.add(format!("{side}.dim_names[{i}]"), "empty: expected a name such as \"tp\"");
                } else if let Some(why) = name_problem(name) {
                    problems.add(format!("{side}.dim_names[{i}]"), why);
                } else if !seen.insert(name.as_str()) {
                    problems
                        .add(format!("{side}.dim_names[{i}]"), format!("`{name}` is used twice; names must differ"));
                }
            }
            names.clone()
        }
    };

    let devices: Vec<u32> = match &input.devices {
        // Numbered on from `first_device`: past u32's last id they would repeat it (one GPU listed twice).
        None if first_device + size > u64::from(u32::MAX) + 1 => {
            problems.add(
                format!("{side}.devices"),
                format!(
                    "no room for {size} device ids after the source's last ({}): list the ids, or give the \
                     source smaller ones",
                    first_device - 1
                ),
            );
            return None;
        }
        None => (first_device..first_device + size).map(|id| id as u32).collect(),
        Some(DevicesInput::Named(name)) if name == "colocated" || name == "source" => match colocate_with {
            Some(source) if source.size() as u64 == size => source.devices.clone(),
            Some(source) => {
                problems.add(
                    format!("{side}.devices"),
                    format!(
                        "\"colocated\" needs the same number of devices as the source ({}), not {size}",
                        source.size()
                    ),
                );
                return None;
            }
            // The destination with a source mesh that did not validate: the source's own problem says why;
            // "colocated" is not wrong here.
            None if side == "destination" => return None,
            None => {
                problems.add(format!("{side}.devices"), "\"colocated\" only applies to the destination");
                return None;
            }
        },
        Some(DevicesInput::Named(other)) => {
            problems
                .add(format!("{side}.devices"), format!("`{other}`: expected a list of device ids or \"colocated\""));
            return None;
        }
        Some(DevicesInput::Ids(ids)) => {
            if ids.len() as u64 != size {
                problems.add(
                    format!("{side}.devices"),
                    format!(
                        "{} device{} for mesh {:?} which holds {size}; the mesh product must equal the number of devices",
                        ids.len(),
                        if ids.len() == 1 { "" } else { "s" },
                        shape
                    ),
                );
            }
            let mut seen = HashSet::new();
            let mut out = Vec::with_capacity(ids.len());
            for (i, &id) in ids.iter().enumerate() {
                if !(0..=i64::from(u32::MAX)).contains(&id) {
                    problems.add(
                        format!("{side}.devices[{i}]"),
                        format!("{id}: expected a device id from 0 to {}", u32::MAX),
                    );
                } else if !seen.insert(id) {
                    problems.add(format!("{side}.devices[{i}]"), format!("device {id} appears twice in the mesh"));
                } else {
                    out.push(id as u32);
                }
            }
            out
        }
    };
    if problems.count() > before {
        return None;
    }
    Some(Mesh { shape, dim_names, devices })
}

#[allow(clippy::too_many_arguments)]
fn validate_tensor(
    path: &str,
    tensor: &TensorInput,
    is_inventory: bool,
    source_side: &SideInput,
    destination_side: &SideInput,
    source_mesh: Option<&Mesh>,
    destination_mesh: Option<&Mesh>,
    problems: &mut Problems,
) -> Option<TensorChange> {
    let before = problems.count();
    if tensor.shape.is_empty() {
        problems.add(format!("{path}.shape"), "empty: expected a rank from 1 to 8, e.g. [12, 6]");
    }
    if tensor.shape.len() > MAX_RANK {
        problems
            .add(format!("{path}.shape"), format!("rank {} is more than the supported {MAX_RANK}", tensor.shape.len()));
    }
    for (i, &n) in tensor.shape.iter().enumerate() {
        if n <= 0 {
            problems.add(format!("{path}.shape[{i}]"), format!("{n}: every tensor dim needs a size of at least 1"));
        }
    }
    let shape: Vec<u64> = tensor.shape.iter().map(|&n| n.max(0) as u64).collect();
    if shape.iter().try_fold(1u64, |a, &n| a.checked_mul(n)).is_none() {
        problems.add(format!("{path}.shape"), "the number of entries overflows 64 bits");
    }
    let rank_ok = problems.count() == before;

    let name = tensor.name.clone().unwrap_or_else(|| if is_inventory { path.to_string() } else { "w".into() });
    if name.trim().is_empty() {
        // Every heading and caption writes the name first: "w · 12 × 6 bf16" read " · 12 × 6 bf16".
        problems.add(format!("{path}.name"), "empty: expected a name such as \"w\"");
    } else if let Some(why) = name_problem(&name) {
        problems.add(format!("{path}.name"), why);
    }
    let tensor_dtype = parse_dtype(&format!("{path}.dtype"), tensor.dtype.as_deref(), Dtype::Bf16, problems);

    // In an inventory the tensor's own side holds its placements; the top-level side holds the mesh.
    let side_for = |own: &Option<SideInput>, top: &SideInput, name: &str| -> (String, SideInput) {
        match own {
            Some(own) => (format!("{path}.{name}"), top.overlaid_by(own)),
            None if is_inventory => (format!("{path}.{name}"), top.clone()),
            None => (name.to_string(), top.clone()),
        }
    };
    let (src_path, src_side) = side_for(&tensor.source, source_side, "source");
    let (dst_path, dst_side) = side_for(&tensor.destination, destination_side, "destination");
    let source = validate_layout(&src_path, &src_side, source_mesh, &shape, rank_ok, false, tensor_dtype, problems);
    let destination =
        validate_layout(&dst_path, &dst_side, destination_mesh, &shape, rank_ok, true, tensor_dtype, problems);

    if problems.count() > before {
        return None;
    }
    Some(TensorChange { name, group: tensor.group.clone(), shape, source: source?, destination: destination? })
}

fn parse_dtype(path: &str, text: Option<&str>, default: Dtype, problems: &mut Problems) -> Dtype {
    match text {
        None => default,
        Some(t) => Dtype::parse(t).unwrap_or_else(|| {
            problems.add(path, format!("`{t}` is not a known dtype; expected fp32, bf16, fp16, fp8, int8 or int32"));
            default
        }),
    }
}

#[allow(clippy::too_many_arguments)]
fn validate_layout(
    side_path: &str,
    side: &SideInput,
    mesh: Option<&Mesh>,
    shape: &[u64],
    rank_ok: bool,
    is_destination: bool,
    tensor_dtype: Dtype,
    problems: &mut Problems,
) -> Option<Layout> {
    let before = problems.count();
    let dtype = parse_dtype(&format!("{side_path}.dtype"), side.dtype.as_deref(), tensor_dtype, problems);
    let mut order = match side.order.as_deref() {
        None | Some("mesh") => ShardOrder::Mesh,
        Some("strided") => ShardOrder::Strided,
        Some(other) => {
            problems.add(format!("{side_path}.order"), format!("`{other}`: expected \"mesh\" or \"strided\""));
            ShardOrder::Mesh
        }
    };
    let mesh = mesh?;
    let rank = shape.len();
    let placements_path = format!("{side_path}.placements");
    let placements: Vec<Placement> = match (&side.placements, &side.partition_spec) {
        (Some(_), Some(_)) => {
            problems.add(side_path, "give either `placements` or `partition_spec`, not both");
            return None;
        }
        (None, None) => {
            problems.add(&placements_path, "missing: expected one placement per mesh dim, e.g. [\"S(0)\"]");
            return None;
        }
        (Some(list), None) => {
            let mut out = Vec::new();
            // A negative dim counts back from the last, as in PyTorch, the layout field and a text block.
            for (i, text) in list.iter().enumerate() {
                match Placement::parse_for_rank(text, rank_ok.then_some(rank)) {
                    Ok(p) => out.push(p),
                    Err(e) => problems.add(format!("{placements_path}[{i}]"), e),
                }
            }
            out
        }
        (None, Some(spec)) => {
            let spec_path = format!("{side_path}.partition_spec");
            let (placements, strided) = translate_partition_spec(&spec_path, spec, mesh, rank, problems)?;
            if strided {
                order = ShardOrder::Strided;
            }
            placements
        }
    };
    if problems.count() > before {
        return None;
    }
    if placements.len() != mesh.shape.len() {
        problems.add(&placements_path, {
            let (given, dims) = (placements.len(), mesh.shape.len());
            // The layout text cannot say a mesh dim's size, so it does not add or remove dims itself. Said in
            // terms every input has (the cards' buttons, a block's `mesh 3x2`, JSON's `mesh`).
            let fix = if given > MAX_RANK {
                format!("a mesh has at most {MAX_RANK} dims: change the layout")
            } else {
                format!("give the mesh {}, or change the layout", plural(given, "dim"))
            };
            format!(
                "{} for a mesh of {}: one placement per mesh dim ({fix})",
                plural(given, "placement"),
                plural(dims, "dim")
            )
        });
        return None;
    }
    for (i, p) in placements.iter().enumerate() {
        let at = format!("{placements_path}[{i}]");
        if let Some(d) = p.shard_dim()
            && rank_ok
            && d >= rank
        {
            problems.add(&at, format!("{} but the tensor has rank {rank}", p.dtensor_short()));
        }
        if *p == Placement::Partial && is_destination {
            problems.add(&at, "Partial on a destination: a destination must hold real values (Shard or Replicate)");
        }
    }
    if problems.count() > before {
        return None;
    }
    let layout = Layout { placements, order, dtype };
    if let Err(message) = super::region::shard_orders(&layout, &mesh.shape, rank) {
        problems.add(&placements_path, message);
        return None;
    }
    Some(layout)
}

impl Placement {
    /// The spelling used in messages: `Shard(2)`.
    fn dtensor_short(self) -> String {
        match self {
            Placement::Shard(d) => format!("Shard({d})"),
            other => other.dtensor(),
        }
    }
}

/// JAX `PartitionSpec` → placements: each mesh axis named for tensor dim `d` becomes `Shard(d)` on that mesh
/// dim; unnamed mesh dims replicate. Axes listed together shard in the listed order; if that order is the
/// reverse of mesh order the side uses the strided order. Returns `(placements, strided)`.
fn translate_partition_spec(
    path: &str,
    spec: &[Value],
    mesh: &Mesh,
    rank: usize,
    problems: &mut Problems,
) -> Option<(Vec<Placement>, bool)> {
    let before = problems.count();
    if spec.len() > rank {
        problems.add(
            path,
            format!("{} entries but the tensor has rank {rank}; expected at most one per tensor dim", spec.len()),
        );
    }
    let mut placements = vec![Placement::Replicate; mesh.shape.len()];
    let mut assigned = vec![false; mesh.shape.len()];
    let mut strided = false;
    let mut mesh_order = false;
    for (dim, entry) in spec.iter().enumerate() {
        let at = format!("{path}[{dim}]");
        let names: Vec<&str> = match entry {
            Value::Null => vec![],
            Value::String(s) => vec![s.as_str()],
            Value::Array(items) => {
                let mut names = Vec::new();
                for item in items {
                    match item {
                        Value::String(s) => names.push(s.as_str()),
                        other => problems.add(&at, format!("{other}: expected a mesh axis name")),
                    }
                }
                names
            }
            other => {
                problems.add(&at, format!("{other}: expected null, a mesh axis name or a list of names"));
                continue;
            }
        };
        let mut mesh_dims = Vec::new();
        for name in names {
            match mesh.dim_names.iter().position(|n| n == name) {
                None => problems
                    .add(&at, format!("`{name}` is not a mesh dim name; the mesh has {}", names_text(&mesh.dim_names))),
                Some(m) if assigned[m] => problems.add(&at, format!("mesh axis `{name}` is used twice")),
                Some(m) => {
                    assigned[m] = true;
                    placements[m] = Placement::Shard(dim);
                    mesh_dims.push(m);
                }
            }
        }
        if mesh_dims.windows(2).all(|w| w[0] < w[1]) {
            mesh_order |= mesh_dims.len() > 1;
        } else if mesh_dims.windows(2).all(|w| w[0] > w[1]) {
            strided = true;
        } else {
            problems.add(&at, "mesh axes listed in an order that is neither mesh order nor its reverse");
        }
    }
    if strided && mesh_order {
        problems.add(path, "one tensor dim lists axes in mesh order and another in reverse; pick one order per side");
    }
    (problems.count() == before).then_some((placements, strided))
}

/// A mesh's dim names as a reader writes them: `` `dp`, `tp` `` (a debug list printed `["dp", "tp"]`).
fn names_text(names: &[String]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(json: &str) -> Vec<String> {
        match parse_spec(json) {
            Ok(_) => vec![],
            Err(e) => e.problems.iter().map(|p| p.to_string()).collect(),
        }
    }

    const TOY: &str = r#"{
      "tensor": {"name": "w", "shape": [12, 6], "dtype": "bf16"},
      "source": {"mesh": [3], "dim_names": ["tp"], "devices": [0, 1, 2], "placements": ["S(0)"], "dtype": "bf16"},
      "destination": {"mesh": [2], "placements": ["Shard(dim=1)"]},
      "split": "chunk",
      "topology": {"devices_per_node": 8, "nvlink_gbps": 450, "nic_gbps": 50, "latency_us": 5}
    }"#;

    #[test]
    fn a_name_that_would_reorder_the_headline_or_run_across_it_is_refused() {
        let with_name = |name: &str, dim: &str| {
            format!(
                r#"{{"tensor": {{"name": "{name}", "shape": [12, 6]}},
                    "source": {{"mesh": [3], "dim_names": ["{dim}"], "placements": ["S(0)"]}},
                    "destination": {{"mesh": [2], "placements": ["S(1)"]}}}}"#
            )
        };
        let problems = parse_spec(&with_name("w\u{202e}", "tp")).expect_err("refused").problems;
        assert_eq!(problems[0].path, "tensor.name");
        assert!(problems[0].message.contains("U+202E"), "{}", problems[0].message);
        let problems = parse_spec(&with_name(" ", "tp")).expect_err("refused").problems;
        assert_eq!(
            (problems[0].path.as_str(), problems[0].message.as_str()),
            ("tensor.name", "empty: expected a name such as \"w\"")
        );
        let problems = parse_spec(&with_name("w", "t\u{2066}p")).expect_err("refused").problems;
        assert_eq!(problems[0].path, "source.dim_names[0]");
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        let problems = parse_spec(&with_name(&long, "tp")).expect_err("refused").problems;
        assert_eq!(
            problems[0].message,
            format!("{} characters: a name has at most {MAX_NAME_CHARS}", MAX_NAME_CHARS + 1)
        );
        // Right-to-left text itself is a name like any other.
        assert!(parse_spec(&with_name("وزن", "tp")).is_ok());
    }

    #[test]
    fn the_issue_example_parses_with_defaults_filled_in() {
        let r = parse_spec(TOY).unwrap();
        assert_eq!(r.source_mesh.devices, vec![0, 1, 2]);
        assert_eq!(r.destination_mesh.devices, vec![3, 4], "destination defaults to the ids after the source");
        assert_eq!(r.tensors[0].source.placements, vec![Placement::Shard(0)]);
        assert_eq!(r.tensors[0].destination.placements, vec![Placement::Shard(1)]);
        assert_eq!(r.tensors[0].destination.dtype, Dtype::Bf16);
        assert_eq!(r.topology, Topology::default());
    }

    #[test]
    fn minimal_spec_uses_every_default() {
        let r = parse_spec(
            r#"{"tensor": {"shape": [8]}, "source": {"mesh": [2], "placements": ["R"]},
            "destination": {"mesh": [4], "placements": ["S(0)"]}}"#,
        )
        .unwrap();
        assert_eq!(r.tensors[0].name, "w");
        assert_eq!(r.destination_mesh.devices, vec![2, 3, 4, 5]);
        assert_eq!(r.split, SplitRule::Chunk);
        assert_eq!(r.convert_at, ConvertAt::Sender);
    }

    #[test]
    fn colocated_destination_reuses_source_ids() {
        let r = parse_spec(
            r#"{"tensor": {"shape": [8, 8]}, "source": {"mesh": [4], "placements": ["S(0)"]},
            "destination": {"mesh": [2, 2], "devices": "colocated", "placements": ["S(1)", "R"]}}"#,
        )
        .unwrap();
        assert_eq!(r.destination_mesh.devices, r.source_mesh.devices);
        assert!(r.same_devices());
        // The same GPUs in another order are still the same GPUs; disjoint ones are not.
        let reordered = parse_spec(
            r#"{"tensor": {"shape": [8, 8]}, "source": {"mesh": [4], "placements": ["S(0)"]},
            "destination": {"mesh": [4], "devices": [3, 2, 1, 0], "placements": ["S(1)"]}}"#,
        )
        .unwrap();
        assert!(reordered.same_devices());
        assert!(!crate::core::presets::toy().same_devices());
    }

    #[test]
    fn json_that_is_not_a_spec_object_is_told_in_the_spec_s_terms() {
        let message = |json: &str| parse_input(json).err().map(|e| e.problems[0].to_string()).unwrap_or_default();
        let wanted = "expected a spec: a JSON object with tensor, source and destination";
        assert_eq!(message("  "), format!("empty: {wanted}"));
        assert_eq!(message("[]"), format!("starts with `[`: {wanted}"));
        assert_eq!(message("null"), format!("starts with `n`: {wanted}"));
        // Whitespace after the object is fine; anything else was dropped unread.
        let toy = r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["S(1)"]}}"#;
        assert!(parse_spec(&format!("{toy}\n\n")).is_ok());
        assert_eq!(
            message(&format!("{toy}\n{{\"tensor\": {{}}}}")),
            "text after the end of the spec (line 3, column 1): one JSON object was expected"
        );
        let side = r#""source": {"mesh": [2], "placements": ["S(0)"]}"#;
        assert_eq!(
            message(&format!(
                r#"{{"tensor": {{"shape": [4]}}, {side}, "destination": {{"mesh": [2], "placements": ["R"],
                "devices": [18446744073709551615, 0]}}}}"#
            )),
            "destination.devices: expected a list of device ids (whole numbers from 0 to 4,294,967,295) or \
             \"colocated\""
        );
        assert_eq!(
            message(&format!(r#"{{"tensor": {{"shape": [99999999999999999999999]}}, {side}}}"#)),
            "tensor.shape[0]: 1e+23: expected a whole number"
        );
        assert!(
            message(&format!(r#"{{"tensor": {{"shape": [4]}}, {side}, "destination": {{"mesh": "x"}}}}"#))
                .ends_with("expected a mesh shape: a list of sizes such as [2, 4], or one size")
        );
    }

    #[test]
    fn topology_values_stay_within_what_a_link_can_be() {
        let spec = |topology: &str| {
            format!(
                r#"{{"tensor": {{"shape": [8]}}, "source": {{"mesh": [2], "placements": ["S(0)"]}},
                "destination": {{"mesh": [2], "placements": ["R"]}}, "topology": {topology}}}"#
            )
        };
        assert_eq!(
            paths(&spec(r#"{"latency_us": 1e300, "nvlink_gbps": 1e-320, "nic_gbps": 0}"#)),
            vec![
                "topology.nvlink_gbps: 1e-320: expected a bandwidth from 0.001 to 1,000,000 GB/s",
                "topology.nic_gbps: 0: expected a bandwidth from 0.001 to 1,000,000 GB/s",
                "topology.latency_us: 1e300: expected a latency from 0 to 1,000,000 µs",
            ]
        );
        assert!(parse_spec(&spec(r#"{"latency_us": 0, "nvlink_gbps": 0.001, "nic_gbps": 1000000}"#)).is_ok());
    }

    #[test]
    fn a_bad_source_mesh_is_blamed_on_the_source_not_on_a_colocated_destination() {
        let got = paths(
            r#"{"tensor": {"shape": [8, 8]}, "source": {"mesh": [0], "placements": ["S(0)"]},
            "destination": {"mesh": [4], "devices": "colocated", "placements": ["S(1)"]}}"#,
        );
        assert!(got.iter().all(|p| p.starts_with("source.")), "{got:?}");
        let got = paths(
            r#"{"tensor": {"shape": [8]}, "source": {"mesh": [2], "devices": "colocated", "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#,
        );
        assert_eq!(got, vec!["source.devices: \"colocated\" only applies to the destination"]);
    }

    #[test]
    fn shard_dim_out_of_range_names_the_field() {
        let got = paths(
            r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["Shard(2)"]}}"#,
        );
        assert_eq!(got, vec!["destination.placements[0]: Shard(2) but the tensor has rank 2"]);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let got = paths(
            r#"{"tensor": {"shape": [0, -3], "dtype": "fp64"},
            "source": {"mesh": [2, 2], "devices": [0, 1, 1], "placements": ["S(0)", "R"]},
            "destination": {"mesh": [0], "placements": ["P"]},
            "split": "weird", "topology": {"nic_gbps": -1}}"#,
        );
        let joined = got.join("\n");
        let one = paths(
            r#"{"tensor": {"shape": [4]}, "source": {"mesh": [2], "devices": [7], "placements": ["S(0)"]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert!(one.iter().any(|p| p.starts_with("source.devices: 1 device for mesh [2]")), "{one:?}");
        for want in [
            "split: `weird` is not a split rule",
            "topology.nic_gbps: -1: expected a bandwidth from 0.001 to 1,000,000 GB/s",
            "source.devices: 3 devices for mesh [2, 2] which holds 4",
            "source.devices[2]: device 1 appears twice",
            "destination.mesh[0]: 0: a mesh dim needs at least one device",
            "tensor.shape[0]: 0: every tensor dim needs a size of at least 1",
            "tensor.shape[1]: -3",
            "tensor.dtype: `fp64` is not a known dtype",
        ] {
            assert!(joined.contains(want), "missing `{want}` in:\n{joined}");
        }
    }

    #[test]
    fn partial_on_a_destination_is_refused() {
        let got = paths(
            r#"{"tensor": {"shape": [4]}, "source": {"mesh": [2], "placements": ["P"]},
            "destination": {"mesh": [2], "placements": ["Partial()"]}}"#,
        );
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("destination.placements[0]: Partial on a destination"), "{got:?}");
    }

    #[test]
    fn rank_above_eight_is_refused() {
        let got = paths(
            r#"{"tensor": {"shape": [1,1,1,1,1,1,1,1,1]}, "source": {"mesh": [1], "placements": ["R"]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert_eq!(got, vec!["tensor.shape: rank 9 is more than the supported 8"]);
    }

    #[test]
    fn byte_totals_that_overflow_are_refused() {
        let got = paths(
            r#"{"tensor": {"shape": [4294967296, 2147483648], "dtype": "fp32"},
            "source": {"mesh": [1], "placements": ["R"]}, "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert_eq!(got, vec!["tensor.shape: the tensor's size in bytes overflows 64 bits"]);
        let got = paths(
            r#"{"tensor": {"shape": [4294967296, 4294967297]},
            "source": {"mesh": [1], "placements": ["R"]}, "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert_eq!(got, vec!["tensor.shape: the number of entries overflows 64 bits"]);
    }

    #[test]
    fn a_negative_shard_dim_counts_back_from_the_last_as_in_the_text_forms() {
        // A block and the layout field took `Shard(-1)`; a spec file refused it.
        let reshard = parse_spec(
            r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["Shard(-2)"]},
            "destination": {"mesh": [2], "placements": ["Shard(dim=-1)"]}}"#,
        )
        .expect("valid");
        let dims = |layout: &Layout| layout.placements[0].shard_dim();
        assert_eq!((dims(&reshard.tensors[0].source), dims(&reshard.tensors[0].destination)), (Some(0), Some(1)));
        let got = paths(
            r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(-3)"]},
            "destination": {"mesh": [2], "placements": ["S(0)"]}}"#,
        );
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("source.placements[0]: "), "{got:?}");
    }

    #[test]
    fn default_destination_ids_never_run_past_the_last_id() {
        // Numbered on after a source on u32's last id, they saturated into one GPU listed twice, which was
        // also the source's, and the tool's own check then failed.
        let spec = |source: u32, destinations: u32| {
            format!(
                r#"{{"tensor": {{"shape": [8]}}, "source": {{"mesh": [1], "devices": [{source}], "placements": ["R"]}},
                "destination": {{"mesh": [{destinations}], "placements": ["S(0)"]}}}}"#
            )
        };
        assert_eq!(
            paths(&spec(u32::MAX, 2)),
            vec![
                "destination.devices: no room for 2 device ids after the source's last (4294967295): list the ids, \
                 or give the source smaller ones"
            ]
        );
        assert_eq!(paths(&spec(u32::MAX - 2, 3)).len(), 1);
        // Up to the last id itself, they fit.
        let fits = parse_spec(&spec(u32::MAX - 2, 2)).expect("valid");
        assert_eq!(fits.destination_mesh.devices, [u32::MAX - 1, u32::MAX]);
    }

    #[test]
    fn wrong_number_of_placements_and_bad_spelling_are_named() {
        let got = paths(
            r#"{"tensor": {"shape": [4, 4]}, "source": {"mesh": [2, 2], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["Bogus"]}}"#,
        );
        assert!(got[0].starts_with("source.placements: 1 placement for a mesh of 2 dims: one placement per mesh dim (give the mesh 1 dim, or change"), "{got:?}");
        assert!(got[1].starts_with("destination.placements[0]: `Bogus` is not a placement"), "{got:?}");
        // More placements than a mesh can have dims: no advice to add dims that cannot be added.
        let got = paths(
            r#"{"tensor": {"shape": [4, 4]}, "source": {"mesh": [2], "placements": ["R","R","R","R","R","R","R","R","R"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#,
        );
        assert!(got[0].ends_with("(a mesh has at most 8 dims: change the layout)"), "{got:?}");
    }

    #[test]
    fn type_errors_carry_the_path() {
        let got = paths(
            r#"{"tensor": {"shape": [4, "x"]}, "source": {"mesh": [2], "placements": ["R"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#,
        );
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("tensor.shape[1]: invalid type"), "{got:?}");
        assert!(paths("{not json").len() == 1);
        assert!(paths("").len() == 1);
    }

    #[test]
    fn unknown_fields_are_named() {
        let got = paths(
            r#"{"tensor": {"shape": [4], "shap": 1}, "source": {"mesh": [2], "placements": ["R"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#,
        );
        assert!(got[0].contains("unknown field `shap`"), "{got:?}");
    }

    #[test]
    fn oversized_meshes_and_bad_device_ids_are_refused() {
        let got = paths(
            r#"{"tensor": {"shape": [4]}, "source": {"mesh": [65536, 2], "placements": ["R", "R"]},
            "destination": {"mesh": [2], "devices": [-1, 5000000000], "placements": ["R"]}}"#,
        );
        assert!(got[0].starts_with("source.mesh: [65536, 2] holds more than 65536 devices"), "{got:?}");
        assert!(got.iter().any(|p| p.starts_with("destination.devices[0]: -1")), "{got:?}");
        assert!(got.iter().any(|p| p.starts_with("destination.devices[1]: 5000000000")), "{got:?}");
    }

    #[test]
    fn a_change_with_too_many_pieces_to_plan_is_refused_under_the_destination_mesh() {
        // Rows over 4,096 devices to columns over 4,096, twice (two replicas): every destination needs a
        // piece of every source shard, 33.6 million pieces. With one replica, 16,777,216: at the limit. The
        // same meshes sharding the same dim need one piece per destination.
        let crossing = r#"{"tensor": {"shape": [65536, 65536]},
            "source": {"mesh": [4096], "placements": ["S(0)"]},
            "destination": {"mesh": [4096, 2], "placements": ["S(1)", "R"]}}"#;
        let got = paths(crossing);
        assert_eq!(
            got,
            ["destination.mesh: this change needs more than 16,777,216 pieces, more than can be planned at once; \
              use fewer devices, or shard both sides along the same dims"]
        );
        assert!(parse_spec(&crossing.replace("[4096, 2]", "[4096, 1]")).is_ok(), "at the limit");
        assert!(parse_spec(&crossing.replace("S(1)", "S(0)")).is_ok());
    }

    #[test]
    fn a_change_of_too_many_tensor_device_pairs_is_refused_before_counting_its_pieces() {
        // 2,000 one-entry tensors onto 65,536 devices: 2,000 pieces, but planning (and counting them) visits
        // every device for every tensor, and gather's ring sends every tensor to every destination: the page
        // froze for 87 s (review 40).
        let many = |tensors: usize, devices: u64| {
            let list: Vec<String> = (0..tensors).map(|i| format!(r#"{{"name": "t{i}", "shape": [1]}}"#)).collect();
            format!(
                r#"{{"tensors": [{}], "source": {{"mesh": [1], "placements": ["R"]}},
                    "destination": {{"mesh": [{devices}], "placements": ["S(0)"]}}}}"#,
                list.join(",")
            )
        };
        assert_eq!(
            paths(&many(2000, 65536)),
            ["tensors: 2,000 tensors on 65,537 devices (both sides) are 131,074,000 tensor-device pairs to plan, \
              more than 16,777,216; use fewer devices, or fewer, larger tensors"]
        );
        // At the limit: 256 × 65,536 = 16,777,216 pairs.
        assert!(parse_spec(&many(256, 65535)).is_ok(), "at the limit");
        assert!(parse_spec(&many(256, 65536)).is_err(), "one pair past it");
    }

    #[test]
    fn long_messages_keep_their_start_and_end_and_lose_direction_controls() {
        let typed = "9".repeat(100_000);
        let message = format!("`{typed}` is not a whole number");
        let shown = for_display(&message);
        assert!(shown.starts_with("`999"), "{shown}");
        assert!(shown.ends_with("99` is not a whole number"), "{shown}");
        assert!(shown.contains("(99804 characters left out)"), "{shown}");
        assert!(shown.chars().count() < MAX_MESSAGE_CHARS + 40);
        assert_eq!(for_display("short"), "short");
        assert_eq!(for_display("`a\u{202e}b` is odd"), "`a\u{fffd}b` is odd");
    }

    #[test]
    fn partition_spec_translates_to_placements() {
        let r = parse_spec(
            r#"{"tensor": {"shape": [16, 6]},
            "source": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "partition_spec": [["dp", "tp"], null]},
            "destination": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "partition_spec": [null, "tp"]}}"#,
        )
        .unwrap();
        let t = &r.tensors[0];
        assert_eq!(t.source.placements, vec![Placement::Shard(0), Placement::Shard(0)]);
        assert_eq!(t.source.order, ShardOrder::Mesh);
        assert_eq!(t.destination.placements, vec![Placement::Replicate, Placement::Shard(1)]);
        let r = parse_spec(
            r#"{"tensor": {"shape": [16]},
            "source": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "partition_spec": [["tp", "dp"]]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        )
        .unwrap();
        assert_eq!(r.tensors[0].source.order, ShardOrder::Strided);
        let got = paths(
            r#"{"tensor": {"shape": [16]},
            "source": {"mesh": [2], "dim_names": ["dp"], "partition_spec": ["tp"]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert!(got[0].starts_with("source.partition_spec[0]: `tp` is not a mesh dim name"), "{got:?}");
        assert!(got[0].contains("; the mesh has `"), "the names as a reader writes them: {got:?}");
    }

    #[test]
    fn many_problems_are_reported_up_to_a_limit_and_counted() {
        // 500 entries naming one axis: a rank error and 499 "used twice", in 20 lines and one that counts the rest.
        let entries = vec!["[\"tp\"]"; 500].join(", ");
        let got = paths(&format!(
            r#"{{"tensor": {{"shape": [16, 6]}},
            "source": {{"mesh": [2], "dim_names": ["tp"], "partition_spec": [{entries}]}},
            "destination": {{"mesh": [1], "placements": ["R"]}}}}"#
        ));
        assert_eq!(got.len(), MAX_REPORTED_PROBLEMS + 1, "{got:?}");
        assert!(got[1].contains("mesh axis `tp` is used twice"), "{got:?}");
        let last = got.last().unwrap();
        assert!(last.starts_with("source.partition_spec["), "the count is shown under the same field: {last}");
        assert!(last.ends_with(&format!("and {} more problems", 500 - MAX_REPORTED_PROBLEMS)), "{last}");
        // A few problems are all listed, without a count.
        let got = paths(
            r#"{"tensor": {"shape": [16]},
            "source": {"mesh": [2], "dim_names": ["dp"], "partition_spec": ["tp"]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert!(got.iter().all(|p| !p.contains("more problems")), "{got:?}");
    }

    #[test]
    fn inventory_tensors_take_their_own_placements() {
        let r = parse_spec(
            r#"{"source": {"mesh": [2, 4], "dim_names": ["rep", "tp"]}, "destination": {"mesh": [4]},
            "tensors": [
              {"name": "a", "shape": [8, 8], "source": {"placements": ["R", "S(0)"]}, "destination": {"placements": ["S(1)"]}},
              {"name": "b", "shape": [8], "dtype": "fp32", "source": {"placements": ["R", "R"]}, "destination": {"placements": ["Shard(3)"]}}
            ]}"#,
        );
        let err = r.unwrap_err();
        assert_eq!(err.problems.len(), 1);
        assert_eq!(
            err.problems[0].to_string(),
            "tensors[1].destination.placements[0]: Shard(3) but the tensor has rank 1"
        );
    }

    #[test]
    fn strided_shard_must_match_the_later_mesh_dims() {
        let got = paths(
            r#"{"tensor": {"shape": [16]}, "source": {"mesh": [2, 4], "placements": ["SS0x3", "S0"]},
            "destination": {"mesh": [1], "placements": ["R"]}}"#,
        );
        assert!(got[0].contains("split_factor 3"), "{got:?}");
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        for text in ["null", "[]", "{\"tensor\":{}}", "{\"source\":1}", "\u{0}", "{\"tensor\":{\"shape\":[1e99]}}"] {
            assert!(parse_spec(text).is_err());
        }
    }

    #[test]
    fn a_tensors_own_placements_replace_the_sides_in_either_notation_and_the_mesh_stays_the_sides() {
        // A tensor giving a partition_spec must not keep the side's DTensor placements beside it (the
        // check would read two layouts); its dtype and order win only where it gives them.
        let side = SideInput {
            mesh: Some(MeshShapeInput::Dims(vec![2, 4])),
            placements: Some(vec!["Shard(0)".into(), "Replicate()".into()]),
            dtype: Some("bf16".into()),
            order: Some("strided".into()),
            ..SideInput::default()
        };
        let own = SideInput {
            mesh: Some(MeshShapeInput::Size(3)),
            partition_spec: Some(vec![Value::Null, Value::String("tp".into())]),
            dtype: Some("fp32".into()),
            ..SideInput::default()
        };
        let merged = side.overlaid_by(&own);
        assert_eq!(merged.mesh, side.mesh);
        assert_eq!(merged.placements, None);
        assert_eq!(merged.partition_spec, own.partition_spec);
        assert_eq!(merged.dtype.as_deref(), Some("fp32"));
        assert_eq!(merged.order.as_deref(), Some("strided"));
        assert_eq!(side.overlaid_by(&SideInput::default()), side);
    }
}
