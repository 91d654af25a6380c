//! The whole-cycle arithmetic of an RL loop: what a faster refit transfer does to the length of one cycle.
//!
//! A refit (domain.md §7) is one stage of a cycle that also generates, scores and trains. Making its
//! transfer `s` times faster shortens the cycle by much less than `s`: in the article's 120 s cycle a
//! 4× faster 10 s refit makes the whole cycle only 1.067× faster. This module keeps that whole-cycle
//! denominator in view. It lays the cycle out as a timeline (stages may overlap), shrinks only the transfer
//! part of the refit, and reports the new cycle, the whole-cycle speedup, the bound for an instant transfer
//! and the closed formula `new/old = 1 - f + f/s` with its numbers filled in. It also turns measured
//! per-cycle stage times into distributions, keeping the startup cycles apart from the steady state.
//!
//! ## The cycle JSON
//!
//! ```json
//! {
//!   "stages": [
//!     { "name": "generation", "seconds": 70 },
//!     { "name": "scoring",    "seconds": 10 },
//!     { "name": "training",   "seconds": 30 },
//!     { "name": "refit",      "seconds": 10 }
//!   ],
//!   "refit": { "wait": 0, "transfer": 10, "preparation": 0 },
//!   "speedup": 4
//! }
//! ```
//!
//! - `stages` (required, 1 to 64): the stages of one cycle in the order they run.
//!   - `name` (required, not empty): what the stage does.
//!   - `seconds` (required, ≥ 0): how long the stage takes.
//!   - `overlap` (default 0, ≥ 0): how many seconds this stage starts before the previous stage ends, e.g.
//!     generation starting while weights still arrive. It may not be longer than this stage or the
//!     previous one. The first stage has no previous stage, so its overlap must be 0: start the list at a
//!     stage that does not overlap the one before it (a cycle is a loop, so any rotation describes it).
//!   - `refit` (optional, `true`/`false`): marks the refit stage. Exactly one stage is the refit: the one
//!     marked `"refit": true`, or, when no stage is marked, the stage named `refit` (any case).
//!     `"refit": false` keeps a stage named `refit` from being taken for it.
//! - `refit` (optional): how the refit's seconds split, in the order they happen. All default to 0 except
//!   `transfer`, which defaults to whatever remains of the refit stage's seconds; so leaving the object
//!   out means the whole refit is transfer. When all three are given they must add up to the stage's
//!   seconds.
//!   - `wait`: waiting before the transfer starts (a queue, a barrier).
//!   - `transfer`: moving the bytes; the only part a faster transport shrinks.
//!   - `preparation`: the receivers preparing and accepting the new version after the bytes arrive.
//! - `speedup` (default 1, > 0): how many times faster the transfer becomes. Below 1 is a slowdown
//!   (`0.5` = twice as slow) and is reported as such.
//!
//! Unknown fields are rejected, so a misspelt `"overlapp"` is reported instead of silently ignored.
//!
//! ## How the timeline is laid out
//!
//! - The first stage starts at 0 s. Each later stage starts `overlap` seconds before the previous stage
//!   ends; with no overlap the cycle is strictly sequential. Stages occupy half-open intervals
//!   `[start, end)`.
//! - The cycle lasts as long as its timeline: latest end minus earliest start. Overlapping seconds are
//!   counted once, never twice, so the stage durations may add up to more than the cycle.
//! - A stage never starts before the previous stage starts and never ends before the previous stage ends
//!   (it consumes what that stage produces). That is why a written overlap may not be longer than either
//!   stage it joins.
//! - A refit overlapping the tail of the stage before it (training) sent, in those seconds, the weights
//!   training made as it made them. However fast its transfer, it cannot send them sooner: it waits for
//!   them until training ends, then sends the rest faster. Only the part of it after training gets faster
//!   (a 10 s refit starting 8 s before training ends takes 8 s + 2 s / s), and a stage that waited for the
//!   whole refit still does.
//! - An overlap is written for the refit as measured. A stage overlapping the refit starts, after a
//!   speedup, at the same point of the refit's progress, since what it waits for is the same weights:
//!   generation that started when 4 s of a 10 s transfer had run starts when 40 % of the faster transfer
//!   has run (1 s of 2.5 s at s = 4), and one that started with the transfer, or during the wait or the
//!   preparation, keeps its place there (no speedup moves it into a wait, before any weight is sent). The
//!   overlapped part of a refit was already hidden behind other work, so speeding it up saves less than
//!   the formula predicts.
//! - The refit runs its parts in order: wait, transfer, preparation.
//!
//! ## The formula, and when to trust it
//!
//! With `f` the transfer's share of the old cycle (`transfer / cycle`; it equals `refit / cycle` when the
//! whole refit is transfer) and `s` the transfer speedup, the article's formula is
//! `new/old = 1 - f + f/s`, the whole-cycle speedup is its reciprocal and the bound as `s → ∞` is
//! `1 / (1 - f)`. For a sequential cycle it is exact. With overlap it is an approximation: it assumes every
//! second taken off the transfer comes off the cycle, which fails when the transfer was partly hidden
//! behind other work. The report's own numbers (`ratio`, `cycle_speedup`, `percent_saved`, `bound`) always
//! come from the timelines, which are the truth; the formula is shown beside them and says whether it
//! agrees.
//!
//! ## Measured cycles
//!
//! Per-cycle stage times, as CSV with the columns `cycle,stage,seconds` (the header line is optional; with
//! a header the columns may come in any order and extra columns are ignored):
//!
//! ```text
//! cycle,stage,seconds
//! 1,generation,70.2
//! 1,refit,10.4
//! ```
//!
//! or as a JSON array `[{"cycle": 1, "stage": "generation", "seconds": 70.2}, ...]`, or as JSON Lines (one
//! such object per line); other keys are ignored and keys are read in any case. In CSV, blank lines and
//! lines starting with `#` are skipped and fields may be quoted (`"a, b"`); tabs or semicolons separate the
//! fields instead of commas when the first line has them and no comma (text pasted from a spreadsheet).
//! A "wide" table, one row per cycle and a column of seconds per stage (`step,gen,reward,train,sync`, as
//! training loggers write it), is read when its header names a `cycle` or `step` column and no `stage`
//! column; an empty cell is a stage the cycle did not run. Loggers' exports are read as they come: a cycle
//! column named `step`, `_step`, `global_step` or `iteration`; JSON (Lines) objects of one cycle each with
//! a key per stage (verl's `timing_s/…`, flat or nested); seconds with their unit (`41.2s`, `12837ms`), a
//! column in milliseconds by its name (`gen_ms`), decimal commas between semicolons. Columns that are no
//! stages are left out and said: W&B's `__MIN`/`__MAX` companions and run time, a column of each cycle's
//! total (`timing_s/step`), a clock (`elapsed_s`); the refit is found by the names loggers give it
//! (`update_weights`, `weight_sync`) when none is named as the cycle's. A bad row is reported with its line number
//! (`line 7: seconds "abc" is not a number`) and the good rows still load. Cycle ids are whole numbers; the first `k` cycle ids in ascending order are the
//! startup, reported apart from the steady state, whose per-stage medians form the [`CycleSpec`] that `f`
//! comes from.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::spec::{Problem, not_text};
use super::traffic::grouped_digits;

/// The most stages one cycle may hold: far more than any real loop has, few enough to draw as a timeline.
pub const MAX_STAGES: usize = 64;
/// The longest duration accepted, 10⁹ s (about 31 years). Anything longer is surely a unit mistake, and the
/// cap keeps every sum of 64 stages finite.
pub const MAX_STAGE_SECONDS: f64 = 1e9;
/// The shortest duration but 0 accepted, 1 µs: far below any stage of a cycle, and far above the tiny
/// numbers (5e-324) whose sums lose their digits: "the cycle stays 1.98e-323 s" stood over a card saying it
/// went to 1.5e-323 s.
pub const MIN_STAGE_SECONDS: f64 = 1e-6;
/// Refuses a duration between 0 and [`MIN_STAGE_SECONDS`].
fn too_short(seconds: f64) -> Option<String> {
    (seconds > 0.0 && seconds < MIN_STAGE_SECONDS)
        .then(|| format!("{} s is shorter than 1 µs; a duration is 0 s, or 0.000001 s or more", seconds_text(seconds)))
}
/// The slowest transfer speedup a cycle takes: slower, and a cycle's length leaves the range of numbers
/// computed with (1e308 printed 309 digits).
pub const MIN_SPEEDUP: f64 = 1e-6;
/// The fastest transfer speedup a cycle takes.
pub const MAX_SPEEDUP: f64 = 1e6;
/// The slowest transfer speedup on the default chart axis.
pub const CURVE_MIN_SPEEDUP: f64 = 0.1;
/// The fastest transfer speedup on the default chart axis.
pub const CURVE_MAX_SPEEDUP: f64 = 100.0;
/// The most points [`log_spaced`] returns, so that a careless count cannot exhaust memory.
pub const MAX_CURVE_POINTS: usize = 10_000;
/// The most bad measurement rows reported one by one; the rest are counted in a last problem, so that a
/// file in the wrong format does not produce a million messages.
pub const MAX_REPORTED_ROW_PROBLEMS: usize = 100;
/// The most relaunches a measurements file is read with. Each drops the rows it repeats, a pass over all
/// rows so far: 40,000 "relaunches" (cycle ids not in order, not a relaunched job) froze the page for 27 s
/// and listed 40,000 notes (review 40). Past it, a repeated stage is refused as a repeat.
pub const MAX_RELAUNCHES: usize = 100;
/// The relaunches said one by one in the notes; the others are counted in one more.
const SAID_RELAUNCHES: usize = 3;

// ---------------------------------------------------------------------------------------------------------
// The cycle as written
// ---------------------------------------------------------------------------------------------------------

/// One RL cycle as the user wrote it: its stages in order, how the refit splits, and the transfer speedup
/// to try. See the module doc for the JSON format. Build one with [`parse_cycle`] or by hand, then call
/// [`CycleSpec::report`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CycleSpec {
    pub stages: Vec<Stage>,
    /// How the refit's seconds split; `None` means the whole refit is transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refit: Option<RefitSplit>,
    /// The transfer speedup `s`; 1 leaves the cycle unchanged, below 1 is a slowdown.
    #[serde(default = "unchanged_speedup", deserialize_with = "number_or_nan")]
    pub speedup: f64,
}

fn unchanged_speedup() -> f64 {
    1.0
}

/// A number, with `null` read as NaN. JSON has no NaN or infinity, so serde writes them as `null`: a spec
/// holding one (an older version let a cleared field through) was saved into links and the autosave, which
/// then failed to open and lost every edit. Read as NaN, the field is reported by [`CycleSpec::validate`]
/// and the rest of the state opens.
fn number_or_nan<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::NAN))
}

/// One stage of a cycle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    pub name: String,
    #[serde(deserialize_with = "number_or_nan")]
    pub seconds: f64,
    /// Seconds this stage starts before the previous one ends (0: it starts when the previous one ends).
    #[serde(default, skip_serializing_if = "is_zero", deserialize_with = "number_or_nan")]
    pub overlap: f64,
    /// `Some(true)` marks the refit; `None` lets a stage named `refit` be taken for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refit: Option<bool>,
}

impl Stage {
    /// A stage that starts when the previous one ends.
    pub fn new(name: impl Into<String>, seconds: f64) -> Stage {
        Stage { name: name.into(), seconds, overlap: 0.0, refit: None }
    }
    /// The same stage starting `overlap` seconds before the previous one ends.
    pub fn with_overlap(self, overlap: f64) -> Stage {
        Stage { overlap, ..self }
    }
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// How the refit's seconds split, as written. `transfer` is optional because its natural default is the
/// remainder: the refit's seconds minus the wait and the preparation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefitSplit {
    #[serde(default, skip_serializing_if = "is_zero", deserialize_with = "number_or_nan")]
    pub wait: f64,
    /// `null` here means "the rest", so a NaN transfer would come back as the rest: the editor never
    /// writes one (it keeps the last number while the field holds no number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<f64>,
    #[serde(default, skip_serializing_if = "is_zero", deserialize_with = "number_or_nan")]
    pub preparation: f64,
}

/// The refit's three parts in seconds, in the order they happen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RefitParts {
    /// Waiting before the transfer starts (a queue, a barrier); a faster transport does not touch it.
    pub wait: f64,
    /// Moving the bytes: the only part a transfer speedup shrinks.
    pub transfer: f64,
    /// Receivers preparing and accepting the new version after the bytes arrive.
    pub preparation: f64,
}

impl RefitParts {
    /// The whole refit.
    pub fn total(self) -> f64 {
        self.wait + self.transfer + self.preparation
    }
    /// The same refit with only its transfer `speedup` times faster.
    pub fn with_transfer_speedup(self, speedup: f64) -> RefitParts {
        RefitParts { transfer: self.transfer / speedup, ..self }
    }
    /// The same refit with an instant transfer: the limit as the speedup grows without bound.
    pub fn with_instant_transfer(self) -> RefitParts {
        RefitParts { transfer: 0.0, ..self }
    }

    /// This refit's parts on the timeline from `start`, the first `hidden` seconds of `measured` having run
    /// under the stage before it ([`RefitParts::reached`]). Unless it sends slower than that stage made
    /// those weights, those seconds are drawn as measured (their transfer paced by the stage: the measured
    /// refit's too, so that before and after show the same paced stretch and the transfer that shrank), and
    /// the rest runs at its own speed after them; else the parts run one after another.
    fn segments(self, measured: RefitParts, hidden: f64, start: f64) -> Vec<RefitSegment> {
        let paced = hidden > 0.0 && self.same_progress(measured, hidden) <= hidden + 1e-12;
        let (kept, mut at) = if paced { (hidden, start + hidden) } else { (0.0, start) };
        let transfer_share = if measured.transfer > 0.0 { self.transfer / measured.transfer } else { 0.0 };
        let mut segments = Vec::with_capacity(6);
        let mut from = 0.0;
        for (part, length, factor) in [
            (RefitPart::Wait, measured.wait, 1.0),
            (RefitPart::Transfer, measured.transfer, transfer_share),
            (RefitPart::Preparation, measured.preparation, 1.0),
        ] {
            let to = from + length;
            // Within the measured seconds kept as they were: at their measured time.
            if kept > from {
                let part = if part == RefitPart::Transfer { RefitPart::Paced } else { part };
                segments.push(RefitSegment { part, start: start + from, end: start + to.min(kept) });
            }
            // The rest, at this refit's speed, after what came before it.
            let rest = (to - from.max(kept)).max(0.0) * factor;
            if rest > 0.0 {
                segments.push(RefitSegment { part, start: at, end: at + rest });
                at += rest;
            }
            from = to;
        }
        segments.retain(|segment| segment.end > segment.start);
        segments
    }

    /// When, in seconds from its start, this refit reaches what `measured` had reached `into` seconds in,
    /// the first `hidden` seconds of `measured` having run under the stage before it. Those seconds sent the
    /// weights that stage made as it made them: a faster refit cannot send them sooner than they are made,
    /// so it reaches them no sooner than `measured` did, and what comes after them is later by the wait
    /// (`hidden` ahead of its own progress there, when that is less). A slower refit is only slower.
    pub fn reached(self, measured: RefitParts, hidden: f64, into: f64) -> f64 {
        let made = into.min(hidden);
        self.same_progress(measured, into) + (made - self.same_progress(measured, made)).max(0.0)
    }

    /// How far into this refit it has reached what `measured` (the same refit, another transfer time) had
    /// reached `into` seconds in: the same seconds into the wait, the same share of the transfer, the same
    /// seconds into the preparation. A point where the transfer starts or ends stays there.
    pub fn same_progress(self, measured: RefitParts, into: f64) -> f64 {
        let transfer_start = measured.wait;
        let transfer_end = measured.wait + measured.transfer;
        if into <= transfer_start {
            into
        } else if into < transfer_end {
            self.wait + (into - transfer_start) / measured.transfer * self.transfer
        } else {
            self.wait + self.transfer + (into - transfer_end)
        }
    }
}

/// The cycle presets, each opened by `?preset=NAME` in the app and `cycle NAME` in a text block: (name,
/// label, JSON).
pub const CYCLE_PRESETS: [(&str, &str, &str); 4] = [
    ("cycle-120", "120 s cycle, 10 s refit", include_str!("../../examples/cycle-120.json")),
    ("cycle-160", "160 s cycle, 50 s refit", include_str!("../../examples/cycle-160.json")),
    ("cycle-queue", "Refit mostly queueing", include_str!("../../examples/cycle-queue.json")),
    ("cycle-overlap", "Generation overlaps refit", include_str!("../../examples/cycle-overlap.json")),
];

/// Parses a cycle's JSON and validates it. Type errors carry the path of their field
/// (`stages[1].seconds: invalid type: string "ten", expected f64 at line 3 column 40`); semantic problems
/// are all collected, each with its path.
pub fn parse_cycle(json: &str) -> Result<CycleSpec, Vec<Problem>> {
    // As for a layout spec: serde would take an array for the struct, and name its Rust type.
    let wanted = "expected a cycle: a JSON object with stages";
    let not_an_object = |what: String| vec![Problem { path: String::new(), message: format!("{what}: {wanted}") }];
    match json.trim_start().chars().next() {
        None => return Err(not_an_object("empty".into())),
        Some('{') => {}
        Some(first) => return Err(not_an_object(format!("starts with `{first}`"))),
    }
    let deserializer = &mut serde_json::Deserializer::from_str(json);
    let spec: CycleSpec = serde_path_to_error::deserialize(&mut *deserializer).map_err(|error| {
        let path = error.path().to_string();
        let path = if path == "." { String::new() } else { path };
        vec![Problem { path, message: error.into_inner().to_string() }]
    })?;
    deserializer
        .end()
        .map_err(|e| vec![Problem { path: String::new(), message: super::spec::after_the_end(&e, "cycle") }])?;
    spec.validate()?;
    Ok(spec)
}

// ---------------------------------------------------------------------------------------------------------
// Numbers typed into the cycle's fields
// ---------------------------------------------------------------------------------------------------------

/// At most this many characters of what was typed are repeated in a message.
const MAX_QUOTED_CHARS: usize = 24;

/// `text`, cut short when long (a paste into a number field can be a whole file).
fn shortened(text: &str) -> String {
    shortened_to(text, MAX_QUOTED_CHARS)
}

/// `text`, cut short past `chars` characters. A logger's column names are long (`timing_s/update_weights`)
/// and are quoted whole up to 48.
fn shortened_to(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(chars).collect::<String>())
    }
}

/// Reads the number typed into one of the cycle's fields (a stage's seconds, an overlap, a part of the
/// refit, the speedup), or says why there is none and what to enter instead: `what`, e.g. "a number of
/// seconds".
///
/// Only finite numbers come back, so a [`CycleSpec`] built from fields never holds NaN or infinity (JSON
/// writes them as `null`). Whether the number suits its field (negative seconds, an overlap longer than its
/// stage) is for [`CycleSpec::validate`] to say, with the other fields in view. Rust's words `inf` and
/// `NaN` are not numbers here; a comma gets its own hint.
pub fn read_typed_number(text: &str, what: &str) -> Result<f64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("empty: enter {what}"));
    }
    let in_digits = text.chars().any(|c| c.is_ascii_digit());
    match text.parse::<f64>() {
        Ok(number) if super::typed::underflows(text, number) => {
            Err(format!("{} is too small to tell from 0: enter {what}", shortened(text)))
        }
        Ok(number) if number.is_finite() => Ok(number),
        Ok(_) if in_digits => Err(format!("{} is too large a number: enter {what}", shortened(text))),
        _ if in_digits && text.contains(',') => Err(format!(
            "\"{}\" is not a number: write decimals with a point and no thousands separators",
            shortened(text)
        )),
        _ => Err(format!("\"{}\" is not a number: enter {what}", shortened(text))),
    }
}

/// A number as the cycle's fields and text blocks take it, with an optional unit after it (`70`, `70s`,
/// `70 s`, `4x`, `4 ×`): one of `units`, only after digits (`x` alone is not an empty speedup). The fields
/// refused `4x` and `70 s` while a text block read `speedup 7x` (review 34).
pub fn read_number_with_unit(text: &str, units: &[char], what: &str) -> Result<f64, String> {
    let text = text.trim();
    let bare = text.trim_end_matches(units).trim_end();
    let bare = if bare.ends_with(|c: char| c.is_ascii_digit() || c == '.') { bare } else { text };
    read_typed_number(bare, what)
}

/// The most startup cycles `k` may set apart: more than a measurement file of 8 MiB holds.
pub const MAX_STARTUP_CYCLES: usize = 10_000_000;

/// Reads "startup cycles k", how many of the first cycles are set apart from the steady state: a whole
/// number from 0 to [`MAX_STARTUP_CYCLES`]. A fraction, a negative number or a larger count is refused
/// with the reason, never rounded, saturated or ignored.
pub fn read_startup_cycles(text: &str) -> Result<usize, String> {
    const WHOLE: &str = "k must be a whole number of cycles, 0 or more";
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("empty: {WHOLE}"));
    }
    let shown = shortened(text);
    // More than any measurement file holds (8 MiB of rows): refused, not saturated, which rewrote the
    // field's text to 4294967295 in the web build.
    let at_most = |k: usize| {
        if k > MAX_STARTUP_CYCLES {
            Err(format!("{shown} is more cycles than any measurement holds; k is at most {MAX_STARTUP_CYCLES}"))
        } else {
            Ok(k)
        }
    };
    if text.chars().all(|c| c.is_ascii_digit()) {
        return at_most(text.parse::<usize>().unwrap_or(usize::MAX));
    }
    match text.parse::<f64>() {
        Ok(k) if k.is_infinite() && text.chars().any(|c| c.is_ascii_digit()) => {
            Err(format!("{shown} is too large a number; {WHOLE}"))
        }
        Ok(k) if !k.is_finite() => Err(format!("\"{shown}\" is not a number; {WHOLE}")),
        Ok(k) if k < 0.0 => Err(format!("{shown} is negative; {WHOLE}")),
        Ok(k) if k.fract() != 0.0 => Err(format!("{shown} is not whole; {WHOLE}")),
        // Whole, 0 or more and finite (`2.0`, `1e3`): `as` saturates past usize::MAX.
        Ok(k) => at_most(k as usize),
        Err(_) => Err(format!("\"{shown}\" is not a number; {WHOLE}")),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------

/// Collects problems while walking a cycle.
#[derive(Default)]
struct ProblemList(Vec<Problem>);

impl ProblemList {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Problem { path: path.into(), message: message.into() });
    }

    /// Checks one duration; true when it is usable for further checks.
    fn check_seconds(&mut self, path: String, seconds: f64) -> bool {
        if !seconds.is_finite() {
            self.add(path, "must be a finite number of seconds");
            false
        } else if seconds < 0.0 {
            self.add(path, format!("{} s is negative; a duration is 0 s or more", seconds_text(seconds)));
            false
        } else if let Some(why) = too_short(seconds) {
            self.add(path, why);
            false
        } else if seconds > MAX_STAGE_SECONDS {
            self.add(
                path,
                format!("{} s is longer than 10⁹ s (about 31 years); is the unit right?", seconds_text(seconds)),
            );
            false
        } else {
            true
        }
    }

    fn into_result(self) -> Result<(), Vec<Problem>> {
        if self.0.is_empty() { Ok(()) } else { Err(self.0) }
    }
}

/// Two durations equal up to rounding: parts typed as decimals (0.1 + 0.2) rarely add up to the last bit.
fn same_seconds(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

impl CycleSpec {
    /// The stages taken for the refit, and whether they were marked explicitly (`"refit": true`) rather
    /// than found by name. Exactly one is expected.
    fn refit_candidates(&self) -> (Vec<usize>, bool) {
        let marked: Vec<usize> =
            self.stages.iter().enumerate().filter(|(_, stage)| stage.refit == Some(true)).map(|(i, _)| i).collect();
        if !marked.is_empty() {
            return (marked, true);
        }
        let named = self
            .stages
            .iter()
            .enumerate()
            .filter(|(_, stage)| stage.refit.is_none() && stage.name.trim().eq_ignore_ascii_case("refit"))
            .map(|(i, _)| i)
            .collect();
        (named, false)
    }

    /// Names that several stages share (trimmed, in any case of their ASCII letters), each with its stages'
    /// indices: not an error (the refit is the stage marked), but measured times name a stage by its name
    /// and would read them as one, and a renamed "generation" left two "refit"s without a word.
    pub fn shared_names(&self) -> Vec<(String, Vec<usize>)> {
        let mut shared: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, stage) in self.stages.iter().enumerate() {
            if shared.iter().any(|(_, at)| at.contains(&i)) {
                continue;
            }
            let same: Vec<usize> =
                (i..self.stages.len()).filter(|&j| same_stage_name(&self.stages[j].name, &stage.name)).collect();
            if same.len() > 1 {
                shared.push((stage.name.trim().to_string(), same));
            }
        }
        shared
    }

    /// The index of the refit stage, when exactly one stage is the refit.
    pub fn refit_index(&self) -> Option<usize> {
        match self.refit_candidates().0.as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }

    /// The refit's parts as written, with `transfer` defaulting to the remainder; `None` without a single
    /// refit stage. Meaningful only for a valid spec.
    pub fn refit_parts(&self) -> Option<RefitParts> {
        let refit_seconds = self.stages.get(self.refit_index()?)?.seconds;
        Some(match &self.refit {
            None => RefitParts { wait: 0.0, transfer: refit_seconds, preparation: 0.0 },
            Some(split) => RefitParts {
                wait: split.wait,
                transfer: split.transfer.unwrap_or((refit_seconds - split.wait - split.preparation).max(0.0)),
                preparation: split.preparation,
            },
        })
    }

    /// Checks everything [`CycleSpec::report`] relies on and returns every problem found, each with the
    /// path of its field.
    pub fn validate(&self) -> Result<(), Vec<Problem>> {
        let mut problems = ProblemList::default();
        if self.stages.is_empty() {
            problems.add("stages", "a cycle needs at least one stage, one of them the refit");
        }
        if self.stages.len() > MAX_STAGES {
            problems.add("stages", format!("{} stages; at most {MAX_STAGES} are allowed", self.stages.len()));
        }
        let mut stages_usable = true;
        let mut previous: Option<(&Stage, bool)> = None;
        for (i, stage) in self.stages.iter().enumerate() {
            let path = format!("stages[{i}]");
            if let Err(why) = check_stage_name(&stage.name) {
                problems.add(format!("{path}.name"), why);
            }
            let seconds_ok = problems.check_seconds(format!("{path}.seconds"), stage.seconds);
            stages_usable &= seconds_ok;
            let overlap_path = format!("{path}.overlap");
            if stage.overlap.is_finite() && stage.overlap < 0.0 {
                problems.add(
                    overlap_path,
                    format!(
                        "{} s is negative; a gap between stages is a stage of its own (e.g. \"idle\")",
                        seconds_text(stage.overlap)
                    ),
                );
                stages_usable = false;
            } else if !problems.check_seconds(overlap_path.clone(), stage.overlap) {
                stages_usable = false;
            } else if stage.overlap > 0.0 {
                match previous {
                    None => {
                        problems.add(
                            overlap_path,
                            "the first stage has no previous stage to overlap; start the list at a stage that \
                             does not overlap the one before it",
                        );
                        stages_usable = false;
                    }
                    Some((before, before_ok)) => {
                        let overlap = seconds_text(stage.overlap);
                        if before_ok && stage.overlap > before.seconds {
                            problems.add(
                                overlap_path.clone(),
                                format!(
                                    "{overlap} s overlap is longer than the previous stage, \"{}\" ({} s)",
                                    before.name,
                                    seconds_text(before.seconds)
                                ),
                            );
                            stages_usable = false;
                        }
                        if seconds_ok && stage.overlap > stage.seconds {
                            problems.add(
                                overlap_path,
                                format!(
                                    "{overlap} s overlap is longer than this stage, \"{}\" ({} s)",
                                    stage.name,
                                    seconds_text(stage.seconds)
                                ),
                            );
                            stages_usable = false;
                        }
                    }
                }
            }
            previous = Some((stage, seconds_ok));
        }

        let (candidates, marked) = self.refit_candidates();
        match candidates.as_slice() {
            [] if !self.stages.is_empty() => problems.add(
                "stages",
                "no stage is the refit: mark one as the refit (\"refit\": true in a file) or name it \"refit\"",
            ),
            [] => {}
            [_] => {}
            [first, others @ ..] if marked => {
                for other in others {
                    problems.add(
                        format!("stages[{other}].refit"),
                        format!("stage {} is marked as the refit too; a cycle has exactly one refit", first + 1),
                    );
                }
            }
            // Named alike, each name is marked, naming the others (as the reader counts, from 1): the one just
            // renamed is the one the user looks at, and the message sat under the other one only.
            all => {
                for &at in all {
                    let others: Vec<String> = all.iter().filter(|&&o| o != at).map(|o| (o + 1).to_string()).collect();
                    problems.add(
                        format!("stages[{at}].name"),
                        format!(
                            "stage {} is named \"refit\" too; a cycle has exactly one refit: rename one, or mark which \
                             is the refit",
                            others.join(", ")
                        ),
                    );
                }
            }
        }

        if let Some(split) = &self.refit {
            let wait_ok = problems.check_seconds("refit.wait".into(), split.wait);
            let preparation_ok = problems.check_seconds("refit.preparation".into(), split.preparation);
            let transfer_ok = split.transfer.is_none_or(|t| problems.check_seconds("refit.transfer".into(), t));
            let refit_stage = self.refit_index().and_then(|i| self.stages.get(i));
            if let Some(stage) = refit_stage
                && wait_ok
                && preparation_ok
                && transfer_ok
                && stage.seconds.is_finite()
                && stage.seconds >= 0.0
            {
                let (wait, preparation) = (split.wait, split.preparation);
                match split.transfer {
                    Some(transfer) => {
                        let sum = wait + transfer + preparation;
                        if !same_seconds(sum, stage.seconds) {
                            // What to do about it: one who knows only the transfer's seconds typed them alone
                            // and was told the sum was wrong (review 37).
                            let remedy = if sum < stage.seconds {
                                format!(
                                    "put the other {} s in the wait or the preparation, or leave the transfer \
                                     empty for the rest",
                                    seconds_text(stage.seconds - sum)
                                )
                            } else {
                                "shorten a part, or lengthen the stage".to_string()
                            };
                            problems.add(
                                "refit",
                                format!(
                                    "wait {} s + transfer {} s + preparation {} s = {} s, but the refit stage \"{}\" \
                                     lasts {} s: {remedy}",
                                    seconds_text(wait),
                                    seconds_text(transfer),
                                    seconds_text(preparation),
                                    seconds_text(sum),
                                    stage.name,
                                    seconds_text(stage.seconds)
                                ),
                            );
                        }
                    }
                    None => {
                        let sum = wait + preparation;
                        if sum > stage.seconds && !same_seconds(sum, stage.seconds) {
                            problems.add(
                                "refit",
                                format!(
                                    "wait {} s + preparation {} s = {} s is longer than the refit stage, \"{}\" ({} s)",
                                    seconds_text(wait),
                                    seconds_text(preparation),
                                    seconds_text(sum),
                                    stage.name,
                                    seconds_text(stage.seconds)
                                ),
                            );
                        }
                    }
                }
            }
        }

        if !self.speedup.is_finite() {
            problems.add("speedup", "must be a finite number");
        } else if self.speedup <= 0.0 {
            problems.add(
                "speedup",
                format!(
                    "s must be greater than 0, not {} (1 = unchanged, below 1 = a slowdown)",
                    number_text(self.speedup, 4)
                ),
            );
        } else if !(MIN_SPEEDUP..=MAX_SPEEDUP).contains(&self.speedup) {
            problems.add(
                "speedup",
                format!("{} is outside the speedups this calculator takes, 10⁻⁶ to 10⁶", number_text(self.speedup, 4)),
            );
        }

        if problems.0.is_empty() && stages_usable {
            let parts = self.refit_parts();
            if let (Some(refit_index), Some(parts)) = (self.refit_index(), parts)
                && self.lay_out(refit_index, parts, parts).cycle_seconds <= 0.0
            {
                problems.add("stages", "every stage lasts 0 s; the cycle needs a positive length");
            }
        }
        problems.into_result()
    }

    /// Places the stages on a timeline with the refit as `refit`, the overlaps written for the refit as
    /// `measured` (module doc, "How the timeline is laid out"). Starts never decrease, so the earliest start
    /// is the first stage's 0 s.
    fn lay_out(&self, refit_index: usize, measured: RefitParts, refit: RefitParts) -> Timeline {
        let mut stages = Vec::with_capacity(self.stages.len());
        let mut previous: Option<(f64, f64)> = None;
        let mut earliest_start = f64::INFINITY;
        let mut latest_end = f64::NEG_INFINITY;
        // The refit's progress: (its start, the measured seconds of it that ran under the stage before).
        let mut refit_run = (0.0, 0.0);
        let mut segments = Vec::new();
        for (i, stage) in self.stages.iter().enumerate() {
            let is_refit = i == refit_index;
            let seconds = if is_refit { refit.total() } else { stage.seconds };
            let (start, end, overlap) = match previous {
                None => {
                    if is_refit {
                        refit_run = (0.0, 0.0);
                        segments = refit.segments(measured, 0.0, 0.0);
                    }
                    (0.0, seconds, 0.0)
                }
                Some((previous_start, previous_end)) => {
                    let start = if i == refit_index + 1 {
                        // Into the refit as far as the same weights have arrived (written as seconds before
                        // the measured refit's end; validation keeps the overlap within it).
                        let into = (measured.total() - stage.overlap).max(0.0);
                        refit_run.0 + refit.reached(measured, refit_run.1, into)
                    } else {
                        previous_start.max(previous_end - stage.overlap)
                    };
                    let mut end = (start + seconds).max(previous_end);
                    if is_refit {
                        let hidden = (previous_end - start).clamp(0.0, measured.total());
                        refit_run = (start, hidden);
                        end = end.max(start + refit.reached(measured, hidden, measured.total()));
                        segments = refit.segments(measured, hidden, start);
                    }
                    (start, end, (previous_end - start).max(0.0))
                }
            };
            earliest_start = earliest_start.min(start);
            latest_end = latest_end.max(end);
            previous = Some((start, end));
            stages.push(TimelineStage {
                name: stage.name.clone(),
                start,
                end,
                seconds,
                overlap,
                refit: is_refit.then_some(refit),
                refit_segments: if is_refit { std::mem::take(&mut segments) } else { Vec::new() },
            });
        }
        let cycle_seconds = if stages.is_empty() { 0.0 } else { latest_end - earliest_start };
        Timeline { stages, cycle_seconds }
    }

    /// Lays the cycle out before and after the transfer speedup and with an instant transfer, and compares
    /// them; fails with the problems of [`CycleSpec::validate`], or when the speedup is so extreme that the
    /// numbers no longer fit in a float.
    ///
    /// ```
    /// use reshard_lens::core::cycle::{CycleSpec, Stage};
    /// let spec = CycleSpec {
    ///     stages: vec![
    ///         Stage::new("generation", 70.0),
    ///         Stage::new("scoring", 10.0),
    ///         Stage::new("training", 30.0),
    ///         Stage::new("refit", 10.0),
    ///     ],
    ///     refit: None,
    ///     speedup: 4.0,
    /// };
    /// let report = spec.report().expect("a valid cycle");
    /// assert_eq!(report.after.cycle_seconds, 112.5);
    /// assert_eq!(report.percent_saved, 6.25);
    /// assert_eq!(report.bound.best_cycle_seconds, 110.0);
    /// ```
    pub fn report(&self) -> Result<CycleReport, Vec<Problem>> {
        self.validate()?;
        let missing = || vec![Problem { path: "stages".into(), message: "no single refit stage".into() }];
        let refit_index = self.refit_index().ok_or_else(missing)?;
        let refit_before = self.refit_parts().ok_or_else(missing)?;
        let refit_name = self.stages.get(refit_index).map(|stage| stage.name.clone()).unwrap_or_default();
        let s = self.speedup;
        let refit_after = refit_before.with_transfer_speedup(s);
        let refit_best = refit_before.with_instant_transfer();

        let before = self.lay_out(refit_index, refit_before, refit_before);
        let after = self.lay_out(refit_index, refit_before, refit_after);
        let best = self.lay_out(refit_index, refit_before, refit_best);
        let old = before.cycle_seconds;
        let new = after.cycle_seconds;

        let ratio = new / old;
        let f = refit_before.transfer / old;
        let formula_ratio = formula_ratio(f, s);
        let sequential = self.stages.iter().all(|stage| stage.overlap == 0.0);
        // With the digits the working's lines after the formula multiply by (review 54: "= 0.9475", then
        // 0.94753): written once, for the formula and for them.
        let ratio_shown = ratio_text_times(formula_ratio, old);
        let formula = Formula {
            f,
            s,
            ratio: formula_ratio,
            speedup: 1.0 / formula_ratio,
            bound_speedup: bound_speedup(f),
            text: format!("1 - {f} + {f}/{s} = {ratio_shown}", f = number_text(f, 4), s = number_text(s, 4)),
            ratio_shown,
            exact: sequential,
            matches_timeline: (formula_ratio - ratio).abs() <= 1e-9,
        };
        let best_cycle = best.cycle_seconds;
        let bound = Bound {
            best_cycle_seconds: best_cycle,
            max_seconds_saved: old - best_cycle,
            max_percent_saved: (old - best_cycle) / old * 100.0,
            max_speedup: (best_cycle > 0.0).then(|| old / best_cycle),
        };
        // As long as the refit lasts on each timeline: its wait for weights the stage before still makes
        // included (the sentence said 10 s → 2.5 s of a refit drawn over 8.5 s).
        let refit_speedup =
            (after.lasts(refit_index) > 0.0).then(|| before.lasts(refit_index) / after.lasts(refit_index));
        let mut report = CycleReport {
            speedup: s,
            slowdown: s < 1.0,
            refit_stage: refit_index,
            refit_name,
            refit_before,
            refit_after,
            refit_speedup,
            sequential,
            refit_fraction: refit_before.total() / old,
            transfer_fraction: f,
            ratio,
            cycle_speedup: old / new,
            seconds_saved: old - new,
            percent_saved: (old - new) / old * 100.0,
            bound,
            formula,
            summary: String::new(),
            before,
            after,
            best,
        };
        if !report.is_finite() {
            return Err(vec![Problem {
                path: "speedup".into(),
                message: format!(
                    "a speedup of {} makes the cycle too long or too short to compute; try one between 10⁻⁶ and 10⁶",
                    number_text(s, 4)
                ),
            }]);
        }
        report.summary = report.sentence();
        Ok(report)
    }
}

// ---------------------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------------------

/// The stages of one cycle placed in time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timeline {
    pub stages: Vec<TimelineStage>,
    /// Latest end minus earliest start: overlapping seconds are counted once.
    pub cycle_seconds: f64,
}

impl Timeline {
    /// How long stage `index` lasts on this timeline, from its start to its end (a refit's wait for the
    /// weights the stage before still makes included); 0 for no such stage.
    pub fn lasts(&self, index: usize) -> f64 {
        self.stages.get(index).map_or(0.0, |stage| stage.end - stage.start)
    }
}

/// One stage placed on a timeline, occupying `[start, end)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimelineStage {
    pub name: String,
    pub start: f64,
    /// At least `start + seconds`, and later when the stage has to wait for the previous stage to end.
    pub end: f64,
    /// The stage's own duration (for the refit, the sum of its parts).
    pub seconds: f64,
    /// How long the previous stage was still running when this one started (0 for the first stage).
    pub overlap: f64,
    /// The refit's parts, on the refit stage only.
    pub refit: Option<RefitParts>,
    /// The refit's parts as they lie on the timeline, in order (empty on other stages).
    pub refit_segments: Vec<RefitSegment>,
}

/// What the refit does during a stretch of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefitPart {
    Wait,
    Transfer,
    /// Sending the weights the stage before still makes, as it makes them: a faster transfer waits for them.
    Paced,
    Preparation,
}

/// The refit doing `part` over `[start, end)` seconds of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RefitSegment {
    pub part: RefitPart,
    pub start: f64,
    pub end: f64,
}

/// What an instant transfer (`s → ∞`) could achieve at best.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bound {
    /// The cycle with the transfer taking 0 s; the wait and the preparation remain.
    pub best_cycle_seconds: f64,
    pub max_seconds_saved: f64,
    pub max_percent_saved: f64,
    /// Old cycle / best cycle; `None` when the best cycle lasts 0 s (the cycle was all transfer).
    pub max_speedup: Option<f64>,
}

/// The article's closed formula with this cycle's numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Formula {
    /// The transfer's share of the old cycle.
    pub f: f64,
    pub s: f64,
    /// `1 - f + f/s`.
    pub ratio: f64,
    /// `1 / ratio`.
    pub speedup: f64,
    /// `1 / (1 - f)`; `None` when `f = 1` (no bound).
    pub bound_speedup: Option<f64>,
    /// The formula with the numbers substituted, e.g. `1 - 0.0833 + 0.0833/4 = 0.9375`.
    pub text: String,
    /// `ratio` as `text` writes it, for the working's lines that multiply by it ([`ratio_text_times`]).
    #[serde(skip)]
    pub ratio_shown: String,
    /// True for a sequential cycle, where the formula is exact; with overlap it is an approximation.
    pub exact: bool,
    /// Whether the formula's ratio equals the timeline's (it can even with overlap, when no overlap binds).
    pub matches_timeline: bool,
}

/// Everything a faster transfer does to one cycle. The headline numbers (`ratio`, `cycle_speedup`,
/// `seconds_saved`, `percent_saved`, `bound`) come from the timelines; `formula` is the closed-form
/// estimate beside them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleReport {
    /// The transfer speedup `s`.
    pub speedup: f64,
    /// `s < 1`: the transfer got slower.
    pub slowdown: bool,
    /// Index of the refit in the spec's stages.
    pub refit_stage: usize,
    pub refit_name: String,
    pub refit_before: RefitParts,
    pub refit_after: RefitParts,
    /// Old refit / new refit as long as each lasts on its timeline (below `s` when a wait, a preparation or
    /// a transfer paced by the stage before remains); `None` when the refit lasts 0 s.
    pub refit_speedup: Option<f64>,
    /// No stage overlaps another.
    pub sequential: bool,
    /// Refit / old cycle.
    pub refit_fraction: f64,
    /// Transfer / old cycle: the formula's `f`.
    pub transfer_fraction: f64,
    /// New cycle / old cycle.
    pub ratio: f64,
    /// Old cycle / new cycle: the whole-cycle speedup.
    pub cycle_speedup: f64,
    /// Negative for a slowdown.
    pub seconds_saved: f64,
    /// Percent of the old cycle's elapsed time saved; negative for a slowdown.
    pub percent_saved: f64,
    pub bound: Bound,
    pub formula: Formula,
    /// The plain sentence, e.g. "Refit got 4× faster; the cycle got 1.067× faster (6.25 % less time). Even
    /// an instant refit would save at most 10 s."
    pub summary: String,
    pub before: Timeline,
    pub after: Timeline,
    /// The timeline with an instant transfer.
    pub best: Timeline,
}

impl CycleReport {
    fn is_finite(&self) -> bool {
        let optional = [self.refit_speedup, self.bound.max_speedup, self.formula.bound_speedup];
        let numbers = [
            self.ratio,
            self.cycle_speedup,
            self.seconds_saved,
            self.percent_saved,
            self.refit_fraction,
            self.transfer_fraction,
            self.refit_after.total(),
            self.bound.best_cycle_seconds,
            self.bound.max_percent_saved,
            self.formula.ratio,
            self.formula.speedup,
            self.after.cycle_seconds,
        ];
        self.after.cycle_seconds > 0.0
            && numbers.iter().all(|x| x.is_finite())
            && optional.iter().flatten().all(|x| x.is_finite())
    }

    /// Whether the refit has parts a transport cannot shrink.
    fn refit_is_all_transfer(&self) -> bool {
        self.refit_before.wait == 0.0 && self.refit_before.preparation == 0.0
    }

    /// How long the refit sends, in `timeline`, only as fast as the stage before it makes the weights.
    fn paced_seconds(&self, timeline: &Timeline) -> f64 {
        timeline.stages.get(self.refit_stage).map_or(0.0, |stage| {
            stage.refit_segments.iter().filter(|s| s.part == RefitPart::Paced).map(|s| s.end - s.start).sum()
        })
    }

    /// The plain-language summary; see [`CycleReport::summary`].
    fn sentence(&self) -> String {
        let s = self.speedup;
        // Whole parts grouped in threes for a reader ("1,000,000× faster"); the text formats keep plain digits.
        let s_text = grouped_digits(&number_text(s, 4));
        let times = |x: f64| grouped_digits(&times_text(x));
        let seconds = |x: f64| grouped_digits(&seconds_text(x));
        let percent = |x: f64| grouped_digits(&percent_text(x));
        // A transfer paced by the stage before is a part no transport shrinks, as a wait is.
        let paced = self.paced_seconds(&self.after) > 0.0;
        let all_transfer = self.refit_is_all_transfer() && !paced;
        let subject = if all_transfer { "Refit" } else { "Transfer" };
        // Nothing to speed up: "the refit got 1× faster" and "would save at most 0 s" said it badly.
        let no_transfer = self.refit_before.transfer == 0.0;
        let change = if no_transfer {
            let what = if all_transfer { "The refit takes 0 s" } else { "The refit has no transfer" };
            format!("{what}: there is nothing for a speedup of {s_text} to shorten")
        } else if s == 1.0 {
            format!("{subject} speed is unchanged (speedup 1)")
        } else if s > 1.0 {
            // s as its field shows it (four decimals), not as a derived multiplier (three).
            format!("{subject} got {s_text}× faster")
        } else {
            format!("{subject} got {}× slower (speedup {})", times(1.0 / s), s_text)
        };
        let refit_change = match self.refit_speedup {
            Some(refit) if !all_transfer && s != 1.0 && !no_transfer => {
                if (refit - 1.0).abs() <= 1e-9 {
                    ", but the refit lasts as long".to_string()
                } else if refit >= 1.0 {
                    format!(", so the refit got {}× faster", times(refit))
                } else {
                    format!(", so the refit got {}× slower", times(1.0 / refit))
                }
            }
            _ => String::new(),
        };
        let old = self.before.cycle_seconds;
        let cycle = if same_seconds(self.after.cycle_seconds, old) {
            format!("the cycle stays {} s", seconds(old))
        } else if self.ratio < 1.0 {
            format!("the cycle got {}× faster ({} % less time)", times(self.cycle_speedup), percent(self.percent_saved))
        } else {
            format!("the cycle got {}× slower ({} % more time)", times(self.ratio), percent(-self.percent_saved))
        };
        let saving = if self.bound.max_seconds_saved == 0.0 {
            "nothing".to_string()
        } else {
            format!("at most {} s", seconds(self.bound.max_seconds_saved))
        };
        let paced_at_best = self.paced_seconds(&self.best);
        let bound = if all_transfer && paced_at_best == 0.0 {
            format!("Even an instant refit would save {saving}.")
        } else {
            let before = self.refit_stage.checked_sub(1).and_then(|i| self.before.stages.get(i));
            let paced = format!(
                "sending as {} makes the weights",
                before.map_or_else(|| "the stage before".to_string(), |stage| shortened(&stage.name))
            );
            // Only the parts that last: "the preparation (0 s) remains" says nothing.
            let parts: Vec<String> = [
                ("the wait", self.refit_before.wait),
                (paced.as_str(), paced_at_best),
                ("the preparation", self.refit_before.preparation),
            ]
            .into_iter()
            .filter(|&(_, s)| s > 0.0)
            .map(|(part, s)| format!("{part} ({} s)", seconds(s)))
            .collect();
            let verb = if parts.len() == 1 { "remains" } else { "remain" };
            let listed = match parts.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            format!("Even an instant transfer would save {saving}: {listed} {verb}.")
        };
        format!("{change}{refit_change}; {cycle}. {bound}")
    }

    /// Which of formula and timeline to believe, in words.
    fn formula_verdict(&self) -> String {
        if self.formula.exact {
            "exact, since no stages overlap".into()
        } else if self.formula.matches_timeline {
            "it matches the timeline here; with overlap the timeline is the one to trust".into()
        } else {
            format!("with overlap only an approximation; the timeline (the truth) gives {}", number_text(self.ratio, 4))
        }
    }
}

impl fmt::Display for CycleReport {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(out, "{}", self.summary)?;
        let parts = |refit: RefitParts| {
            format!(
                "wait {} s + transfer {} s + preparation {} s",
                seconds_text(refit.wait),
                seconds_text(refit.transfer),
                seconds_text(refit.preparation)
            )
        };
        let kind = if self.sequential { "sequential" } else { "with overlap" };
        writeln!(out, "Before: cycle {} s ({kind})", seconds_text(self.before.cycle_seconds))?;
        writeln!(
            out,
            "  {} {} s = {}",
            self.refit_name,
            seconds_text(self.refit_before.total()),
            parts(self.refit_before)
        )?;
        writeln!(
            out,
            "After (transfer speedup {}): cycle {} s",
            number_text(self.speedup, 4),
            seconds_text(self.after.cycle_seconds)
        )?;
        writeln!(
            out,
            "  {} {} s = {}",
            self.refit_name,
            seconds_text(self.refit_after.total()),
            parts(self.refit_after)
        )?;
        let max_speedup = match self.bound.max_speedup {
            Some(max) => format!("{}× faster", times_text(max)),
            None => "no limit on the speedup".into(),
        };
        writeln!(
            out,
            "Best (instant transfer): cycle {} s, at most {} s saved ({} % less time, {max_speedup})",
            seconds_text(self.bound.best_cycle_seconds),
            seconds_text(self.bound.max_seconds_saved),
            percent_text(self.bound.max_percent_saved)
        )?;
        writeln!(
            out,
            "Formula: new/old = 1 - f + f/s = {}, with f = transfer / cycle = {} s / {} s; {}",
            self.formula.text,
            seconds_text(self.refit_before.transfer),
            seconds_text(self.before.cycle_seconds),
            self.formula_verdict()
        )?;
        writeln!(out, "Timeline (start–end, seconds):")?;
        let width = self.before.stages.iter().map(|stage| stage.name.chars().count()).max().unwrap_or(0).max(5);
        writeln!(out, "  {:<width$}  {:>19}  {:>19}", "stage", "before", "after")?;
        for (before, after) in self.before.stages.iter().zip(&self.after.stages) {
            let span = |stage: &TimelineStage| format!("{}–{}", seconds_text(stage.start), seconds_text(stage.end));
            writeln!(out, "  {:<width$}  {:>19}  {:>19}", before.name, span(before), span(after))?;
        }
        Ok(())
    }
}

#[cfg(test)]
impl CycleSpec {
    /// The article's sequential cycle, for tests across the crate: generation 70 s, scoring 10 s, training
    /// 30 s, refit `refit` s, all of it transfer.
    pub(crate) fn article(refit: f64, speedup: f64) -> CycleSpec {
        CycleSpec {
            stages: vec![
                Stage::new("generation", 70.0),
                Stage::new("scoring", 10.0),
                Stage::new("training", 30.0),
                Stage::new("refit", refit),
            ],
            refit: None,
            speedup,
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Curves for charts
// ---------------------------------------------------------------------------------------------------------

/// The formula's `new/old = 1 - f + f/s` for a transfer share `f` and a transfer speedup `s`.
pub fn formula_ratio(f: f64, s: f64) -> f64 {
    1.0 - f + f / s
}

/// The formula's bound on the whole-cycle speedup as `s → ∞`, `1 / (1 - f)`; `None` when `f ≥ 1`
/// (a cycle that is all transfer has no bound).
pub fn bound_speedup(f: f64) -> Option<f64> {
    (f < 1.0).then(|| 1.0 / (1.0 - f))
}

/// The whole-cycle speedup `1 / (1 - f + f/s)` at each transfer speedup, for charting. `f` is clamped to
/// `[0, 1]`; a non-finite `f` gives no points, and non-finite or non-positive `s` values are skipped.
pub fn speedup_curve(f: f64, s_values: &[f64]) -> Vec<(f64, f64)> {
    if !f.is_finite() {
        return Vec::new();
    }
    let f = f.clamp(0.0, 1.0);
    s_values.iter().filter(|s| s.is_finite() && **s > 0.0).map(|&s| (s, 1.0 / formula_ratio(f, s))).collect()
}

impl CycleSpec {
    /// This cycle with the stage named `name` as its refit (trimmed, in any case), the only one marked; the
    /// refit's parts go with the old refit when the refit moves. `None` when no stage or several have that
    /// name. For measurements whose refit is picked by hand: a logger's name for it that no rule knows.
    pub fn with_refit_named(&self, name: &str) -> Option<CycleSpec> {
        let mut named = (0..self.stages.len()).filter(|&i| same_stage_name(&self.stages[i].name, name));
        let (Some(at), None) = (named.next(), named.next()) else { return None };
        let mut spec = self.clone();
        if spec.refit_index() != Some(at) {
            spec.refit = None;
        }
        for (i, stage) in spec.stages.iter_mut().enumerate() {
            stage.refit = if i == at {
                Some(true)
            } else {
                // A stage named "refit" that is not the refit any more says so.
                stage.name.trim().eq_ignore_ascii_case("refit").then_some(false)
            };
        }
        Some(spec)
    }

    /// Whether this cycle and `other` name the same stages, each once (trimmed, in any case): what
    /// [`CycleSpec::with_measured_seconds`] needs, and cheap enough to ask on every render. Counted by
    /// scans, not sorted: a few stages, and a sort of strings costs the web build another sort instance.
    pub fn names_the_stages_of(&self, other: &CycleSpec) -> bool {
        let count = |stages: &[Stage], name: &str| stages.iter().filter(|s| same_stage_name(&s.name, name)).count();
        !self.stages.is_empty()
            && self.stages.len() == other.stages.len()
            && self.stages.iter().all(|s| count(&self.stages, &s.name) == 1 && count(&other.stages, &s.name) == 1)
    }

    /// `measured`'s stage seconds (steady-state medians) put into this cycle, when both name the same
    /// stages: this cycle's order, refit mark, overlaps (each cut to its new stage's and the previous
    /// stage's seconds) and refit parts (the wait and the preparation as they were, the transfer the rest)
    /// stay, and only the seconds change. `None` when the names differ: the measured cycle is then taken as
    /// it is. Taken whole, "Use these medians" dropped the overlaps and a refit-first order a user had set.
    pub fn with_measured_seconds(&self, measured: &CycleSpec) -> Option<CycleSpec> {
        if !self.names_the_stages_of(measured) {
            return None;
        }
        let seconds = |name: &str| measured.stages.iter().find(|s| same_stage_name(&s.name, name)).map(|s| s.seconds);
        let mut spec = self.clone();
        let mut previous: Option<f64> = None;
        for stage in &mut spec.stages {
            stage.seconds = seconds(&stage.name)?;
            stage.overlap = match previous {
                Some(before) => stage.overlap.min(before).min(stage.seconds).max(0.0),
                None => 0.0,
            };
            previous = Some(stage.seconds);
        }
        // The wait and the preparation stay, as typed, even when the new refit is shorter than they are: the
        // cycle then says so under them, as for seconds typed. Dropped, a queue the user had modelled went
        // without a word and the answer counted the whole refit as transfer (review 50).
        spec.refit = spec
            .refit
            .take()
            .filter(|_| spec.refit_index().is_some())
            .map(|split| RefitSplit { transfer: None, ..split });
        spec.speedup = measured.speedup;
        Some(spec)
    }

    /// This cycle's whole-cycle speedup at each transfer speedup in `s_values`, from its timeline (overlaps
    /// and waits included): what [`speedup_curve`] gives for a cycle whose stages run back to back, and the
    /// truth when an overlap hides part of the transfer. The spec's own `speedup` is ignored; non-finite or
    /// non-positive `s` values are skipped. `None` without a single refit stage or for an empty cycle.
    pub fn timeline_curve(&self, s_values: &[f64]) -> Option<Vec<(f64, f64)>> {
        let refit = self.refit_index()?;
        let parts = self.refit_parts()?;
        let old = self.lay_out(refit, parts, parts).cycle_seconds;
        (old > 0.0).then(|| {
            s_values
                .iter()
                .filter(|s| s.is_finite() && **s > 0.0)
                .map(|&s| (s, old / self.lay_out(refit, parts, parts.with_transfer_speedup(s)).cycle_seconds))
                .collect()
        })
    }
}

/// `count` values from `low` to `high` (both included) evenly spaced on a log scale: each is the same
/// factor above the one before. Empty unless `0 < low ≤ high` are finite; one point is just `low`; at most
/// [`MAX_CURVE_POINTS`].
pub fn log_spaced(low: f64, high: f64, count: usize) -> Vec<f64> {
    if !(low.is_finite() && high.is_finite() && low > 0.0 && low <= high) {
        return Vec::new();
    }
    let count = count.min(MAX_CURVE_POINTS);
    if count <= 1 {
        return if count == 1 { vec![low] } else { Vec::new() };
    }
    let steps = (count - 1) as f64;
    let factor = (high / low).ln();
    let mut values: Vec<f64> = (0..count).map(|i| low * (factor * i as f64 / steps).exp()).collect();
    // Land exactly on the ends, whatever the rounding of exp and ln.
    if let Some(last) = values.last_mut() {
        *last = high;
    }
    values
}

/// `count` log-spaced transfer speedups between [`CURVE_MIN_SPEEDUP`] (0.1) and [`CURVE_MAX_SPEEDUP`] (100),
/// the default chart axis.
pub fn curve_speedups(count: usize) -> Vec<f64> {
    log_spaced(CURVE_MIN_SPEEDUP, CURVE_MAX_SPEEDUP, count)
}

// ---------------------------------------------------------------------------------------------------------
// Measured cycles
// ---------------------------------------------------------------------------------------------------------

/// One measured stage time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measurement {
    /// The 1-based line of the text it came from.
    pub line: usize,
    pub cycle: u64,
    pub stage: String,
    pub seconds: f64,
}

/// The rows that loaded and the problems of those that did not (path `line 7`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Measurements {
    pub rows: Vec<Measurement>,
    pub problems: Vec<Problem>,
    /// How the text was read where a reader would want to know: columns left out, milliseconds.
    pub notes: Vec<String>,
}

/// Gathers rows, refusing a second time for the same stage of the same cycle and a stage beyond the
/// [`MAX_STAGES`] a cycle may have (a file whose stage names differ per cycle would otherwise draw
/// thousands of spreads), and caps the problems.
#[derive(Default)]
struct RowCollector {
    measurements: Measurements,
    first_line: HashMap<(u64, String), usize>,
    stages: HashSet<String>,
    unreported: usize,
    /// Stages past the [`MAX_STAGES`] a cycle has, in the order met, with the first line of one and how
    /// many rows they had: said once (a wide table of 3,000 stage columns filled the reported problems with
    /// its second line, each saying "would be stage 65").
    past_limit: Vec<String>,
    past_limit_names: HashSet<String>,
    past_limit_rows: usize,
    past_limit_line: usize,
    /// The cycle of the row before, to tell a relaunch (ids going back to ones already measured).
    last_cycle: Option<u64>,
    /// Relaunches read so far (at most [`MAX_RELAUNCHES`], then one more when the limit is said).
    relaunches: usize,
    /// Where the notes of the relaunches past [`SAID_RELAUNCHES`] are counted, once read.
    relaunch_notes_end: usize,
}

impl RowCollector {
    fn problem(&mut self, line: usize, message: impl Into<String>) {
        if self.measurements.problems.len() < MAX_REPORTED_ROW_PROBLEMS {
            self.measurements.problems.push(Problem { path: format!("line {line}"), message: message.into() });
        } else {
            self.unreported += 1;
        }
    }

    fn row(&mut self, line: usize, cycle: u64, stage: String, seconds: f64) {
        let again = self.first_line.contains_key(&(cycle, stage.clone()));
        // A job relaunched after a crash logs its cycles again from an earlier one: the last run's rows
        // replace the ones it repeats (the first attempt's were kept, each later row refused as a repeat).
        let relaunch = again && self.last_cycle.is_some_and(|last| cycle < last);
        if relaunch && self.relaunches == MAX_RELAUNCHES {
            self.relaunches += 1;
            self.measurements.notes.push(format!(
                "the cycles start again once more on line {line}: more than {MAX_RELAUNCHES} relaunches read as \
                 cycle ids out of order, so the rows that repeat a cycle's stage from here on are refused"
            ));
        }
        if relaunch && self.relaunches < MAX_RELAUNCHES {
            self.relaunches += 1;
            let before = self.measurements.rows.len();
            self.measurements.rows.retain(|row| row.cycle < cycle);
            self.first_line.retain(|(c, _), _| *c < cycle);
            if self.relaunches <= SAID_RELAUNCHES {
                self.measurements.notes.push(format!(
                    "the cycles start again at {cycle} on line {line} (a relaunch?): the later rows replace the {} \
                     before them from cycle {cycle} on",
                    plural(before - self.measurements.rows.len(), "row")
                ));
                self.relaunch_notes_end = self.measurements.notes.len();
            }
        }
        self.last_cycle = Some(cycle);
        if let Some(first) = self.first_line.get(&(cycle, stage.clone())) {
            let message = format!(
                "cycle {cycle} already has a time for stage \"{stage}\" (line {first}); each stage appears once per cycle"
            );
            self.problem(line, message);
            return;
        }
        if !self.stages.contains(&stage) {
            if self.stages.len() >= MAX_STAGES {
                if self.past_limit.is_empty() {
                    self.past_limit_line = line;
                }
                if self.past_limit_names.insert(stage.clone()) {
                    self.past_limit.push(stage);
                }
                self.past_limit_rows += 1;
                return;
            }
            self.stages.insert(stage.clone());
        }
        self.first_line.insert((cycle, stage.clone()), line);
        self.measurements.rows.push(Measurement { line, cycle, stage, seconds });
    }

    fn finish(mut self) -> Measurements {
        let rows = plural(self.past_limit_rows, "row");
        let message = match self.past_limit.as_slice() {
            [] => None,
            [stage] => Some(format!(
                "stage \"{}\" would be stage {}; a cycle has at most {MAX_STAGES}, so it is left out ({rows})",
                shortened(stage),
                MAX_STAGES + 1
            )),
            [first, .., last] => Some(format!(
                "{} stages past the first {MAX_STAGES} are left out (\"{}\" … \"{}\"), {rows} in all; a cycle has at \
                 most {MAX_STAGES} stages",
                self.past_limit.len(),
                shortened(first),
                shortened(last)
            )),
        };
        if let Some(message) = message {
            self.measurements.problems.push(Problem { path: format!("line {}", self.past_limit_line), message });
        }
        let unsaid = self.relaunches.min(MAX_RELAUNCHES).saturating_sub(SAID_RELAUNCHES);
        if unsaid > 0 {
            let note = if unsaid == 1 {
                "and 1 more relaunch, read alike".to_string()
            } else {
                format!("and {unsaid} more relaunches, read alike")
            };
            self.measurements.notes.insert(self.relaunch_notes_end, note);
        }
        if self.unreported > 0 {
            self.measurements
                .problems
                .push(Problem { path: String::new(), message: format!("and {} more bad rows", self.unreported) });
        }
        self.measurements
    }
}

/// Reads measured per-cycle stage times from CSV or from a JSON array (module doc, "Measured cycles"). Never
/// fails as a whole: bad rows become problems with their line number and the good rows still load.
pub fn parse_measurements(text: &str) -> Measurements {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(not_text) = not_text(text) {
        // One problem, not a header "found" that quotes a picture's bytes and a row problem per line of them.
        let message = match not_text {
            super::spec::NotText::Binary { .. } => {
                "not text: binary data (a picture, a compressed or a spreadsheet file?); expected CSV with the \
                 columns cycle, stage, seconds, or a JSON array"
            }
            super::spec::NotText::NotUtf8 { .. } => {
                "not UTF-8 text (saved as Windows-1252 or Latin-1?): save it as UTF-8 and open it again"
            }
        }
        .to_string();
        return Measurements {
            rows: Vec::new(),
            problems: vec![Problem { path: format!("line {}", not_text.line()), message }],
            notes: Vec::new(),
        };
    }
    match text.trim_start().chars().next() {
        Some('[') => parse_json_rows(text),
        Some('{') => parse_json_lines(text),
        _ => parse_csv_rows(text),
    }
}

fn parse_cycle_id(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| format!("cycle \"{}\" is not a whole number (0 or more)", text.trim()))
}

/// A JSON value's seconds written as text (`"9.5"`, `"41.2s"`), checked as every measured time is.
fn parse_measured_seconds(text: &str) -> Result<f64, String> {
    parse_measured_cell(text, ',').and_then(check_measured_seconds)
}

/// Seconds as a cell writes them: a number, or one with its unit (`41.2s`, `12837ms`, as some loggers
/// write them; they were refused cell by cell). Between semicolons, a decimal comma (`71,52`, as a
/// spreadsheet in a European locale writes it) is a decimal point.
fn parse_measured_cell(text: &str, separator: char) -> Result<f64, String> {
    let text = text.trim();
    let (number, scale) = match text.strip_suffix("ms") {
        Some(number) => (number.trim_end(), 1e-3),
        None => (text.strip_suffix('s').map_or(text, str::trim_end), 1.0),
    };
    let comma = separator == ';' && number.matches(',').count() == 1 && !number.contains('.');
    let number = if comma { number.replace(',', ".") } else { number.to_string() };
    let read = number.parse::<f64>().map_err(|_| format!("seconds \"{text}\" is not a number"))?;
    if super::typed::underflows(&number, read) {
        return Err(format!("seconds \"{text}\" is too small to tell from 0"));
    }
    let seconds = read * scale;
    if !seconds.is_finite() {
        return Err(format!("seconds \"{text}\" is not a finite number"));
    }
    Ok(seconds)
}

fn check_measured_seconds(seconds: f64) -> Result<f64, String> {
    if seconds < 0.0 {
        Err(format!("seconds {} is negative", seconds_text(seconds)))
    } else if let Some(why) = too_short(seconds) {
        Err(format!("seconds {why}"))
    } else if seconds > MAX_STAGE_SECONDS {
        Err(format!("seconds {} is longer than 10⁹ s (about 31 years); is the unit right?", seconds_text(seconds)))
    } else {
        Ok(seconds)
    }
}

fn check_stage_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("stage name is empty".into());
    }
    match super::spec::name_problem(name) {
        Some(why) => Err(format!("stage name: {why}")),
        None => Ok(name.to_string()),
    }
}

/// Where each CSV column is.
#[derive(Clone, Debug)]
struct Columns {
    cycle: usize,
    /// The long form's stage and seconds columns; `None` for a wide table.
    long: Option<(usize, usize)>,
    /// What the seconds column's numbers are in seconds (1e-3 for a column of milliseconds).
    long_scale: f64,
    /// A wide table's stages: each column's index, the stage's name (its header without a unit) and what
    /// its numbers are in seconds.
    wide: Vec<(usize, String, f64)>,
    count: usize,
    /// Whether a header named them (then the message for a wrong field count refers to it).
    from_header: bool,
    /// How the header was read, where a reader would want to know ([`Measurements::notes`]).
    notes: Vec<String>,
}

/// Names of the cycle column: loggers count steps (`step`, W&B's `_step`, `global_step`).
pub const CYCLE_COLUMNS: [&str; 6] = ["cycle", "step", "_step", "global_step", "iteration", "iter"];

/// Columns of a wide table that are not stages: W&B's min and max companions of a sampled column, its
/// run time and time stamp, TensorBoard's wall time.
fn not_a_stage(lower: &str) -> bool {
    lower.ends_with("__min")
        || lower.ends_with("__max")
        || ["_runtime", "_timestamp", "timestamp", "wall time", "wall_time"].contains(&lower)
}

/// A logger's timing prefix on a key (`timing_s/gen`, verl's; `timing_ms/` in milliseconds): its length
/// and what its numbers are in seconds. The stage is named without it.
fn timing_prefix(name: &str) -> Option<(usize, f64)> {
    let lower = name.trim_start().to_ascii_lowercase();
    let scale = |prefix: &str| if prefix == "timing_ms/" { 1e-3 } else { 1.0 };
    ["timing_s/", "timing_ms/", "timing/", "time/"]
        .iter()
        .find(|prefix| lower.starts_with(**prefix) && lower.len() > prefix.len())
        .map(|prefix| (name.len() - name.trim_start().len() + prefix.len(), scale(prefix)))
}

/// A column header's stage name and what its numbers are in seconds: `gen_ms`, `gen (ms)` and `gen [ms]`
/// are milliseconds of `gen`, read as seconds.
fn stage_and_unit(header: &str) -> (String, f64) {
    let lower = header.to_ascii_lowercase();
    for suffix in ["_ms", " (ms)", " [ms]", "(ms)", "[ms]", " ms", "-ms", "/ms"] {
        if lower.ends_with(suffix) && lower.len() > suffix.len() {
            return (header[..header.len() - suffix.len()].trim().to_string(), 1e-3);
        }
    }
    (header.to_string(), 1.0)
}

impl Columns {
    fn positional() -> Columns {
        Columns {
            cycle: 0,
            long: Some((1, 2)),
            long_scale: 1.0,
            wide: Vec::new(),
            count: 3,
            from_header: false,
            notes: Vec::new(),
        }
    }

    /// Reads the first line: a header when it names the columns, or data in the order cycle, stage,
    /// seconds. A header with a cycle column ([`CYCLE_COLUMNS`]) and no `stage` column is a wide table, its
    /// other columns the stages. A line with no number in it that lacks a column is taken for a broken header.
    fn from_first_line(fields: &[String]) -> (Columns, Option<Result<(), String>>) {
        let lower: Vec<String> = fields.iter().map(|field| field.trim().to_ascii_lowercase()).collect();
        let find = |name: &str| lower.iter().position(|field| field == name);
        let count = fields.len();
        let cycle = CYCLE_COLUMNS.iter().find_map(|name| find(name));
        let seconds = ["seconds", "duration", "duration_s", "time_s", "secs"].iter().find_map(|name| find(name));
        let milliseconds = ["ms", "duration_ms", "time_ms", "milliseconds"].iter().find_map(|name| find(name));
        if let (Some(cycle), Some(stage), Some((at, long_scale))) =
            (cycle, find("stage"), seconds.map(|at| (at, 1.0)).or(milliseconds.map(|at| (at, 1e-3))))
        {
            let notes = if long_scale == 1.0 {
                Vec::new()
            } else {
                vec![format!("the column \"{}\" is read as milliseconds", fields[at].trim())]
            };
            let long = Some((stage, at));
            let columns = Columns { cycle, long, long_scale, wide: Vec::new(), count, from_header: true, notes };
            return (columns, Some(Ok(())));
        }
        if let (Some(cycle), None) = (cycle, find("stage")) {
            let mut left_out = Vec::new();
            let mut in_ms = Vec::new();
            let mut wide = Vec::new();
            for (at, field) in fields.iter().enumerate() {
                let field = field.trim();
                if at == cycle || field.is_empty() {
                    continue;
                }
                if not_a_stage(&lower[at]) || CYCLE_COLUMNS.contains(&lower[at].as_str()) {
                    left_out.push(format!("\"{}\"", shortened_to(field, 48)));
                    continue;
                }
                let (stage, scale) = stage_and_unit(field);
                if scale != 1.0 {
                    in_ms.push(format!("\"{}\"", shortened_to(field, 48)));
                }
                wide.push((at, stage, scale));
            }
            // W&B's panel export names each column after its run (`my-run - timing_s/gen`): a prefix every
            // stage shares is left out of their names.
            let prefix = wide.first().and_then(|(_, stage, _)| stage.split_once(" - ")).map(|(p, _)| format!("{p} - "));
            if let Some(prefix) =
                prefix.filter(|p| wide.len() > 1 && wide.iter().all(|(_, stage, _)| stage.starts_with(p.as_str())))
            {
                for (_, stage, _) in &mut wide {
                    *stage = stage[prefix.len()..].to_string();
                }
            }
            // verl's timings exported as columns: named without their prefix, as its JSON Lines are.
            if wide.iter().all(|(_, stage, _)| timing_prefix(stage).is_some()) {
                for (_, stage, scale) in &mut wide {
                    if let Some((from, unit)) = timing_prefix(stage) {
                        *stage = stage[from..].to_string();
                        *scale *= unit;
                    }
                }
            }
            let mut notes = Vec::new();
            if !left_out.is_empty() {
                let more = left_out.len().saturating_sub(6);
                left_out.truncate(6);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                notes.push(format!("not stages, left out: {}{more}", left_out.join(", ")));
            }
            if !in_ms.is_empty() {
                notes.push(format!("read as milliseconds: {}", in_ms.join(", ")));
            }
            if !wide.is_empty() {
                let columns = Columns { cycle, long: None, long_scale: 1.0, wide, count, from_header: true, notes };
                return (columns, Some(Ok(())));
            }
        }
        if fields.iter().all(|field| field.trim().parse::<f64>().is_err()) {
            let message = format!(
                "the header needs the columns cycle, stage, seconds (or cycle and a column per stage); found {}",
                fields.join(", ")
            );
            return (Columns::positional(), Some(Err(message)));
        }
        (Columns::positional(), None)
    }
}

/// The character between a CSV file's fields: a comma, or a tab when the first line has one and no comma (a
/// spreadsheet's copy is tab-separated), or a semicolon when the first line has no tab and no more commas
/// than semicolons (a European spreadsheet's export: `1;generation;70,52`, whose decimal comma made every
/// row "expected 3 fields, found 2", review 50).
fn field_separator(text: &str) -> char {
    let first = text.lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with('#')).unwrap_or("");
    let (commas, semicolons) = (first.matches(',').count(), first.matches(';').count());
    if semicolons > 0 && semicolons >= commas && !first.contains('\t') {
        ';'
    } else if commas > 0 {
        ','
    } else if first.contains('\t') {
        '\t'
    } else {
        ','
    }
}

/// Splits one CSV line on `separator`, honouring double-quoted fields (`"a, b"`, `"say ""hi"""`). Fields
/// are trimmed. Quotes cannot span lines.
fn split_csv_line(line: &str, separator: char) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
        } else if c == separator {
            fields.push(std::mem::take(&mut field).trim().to_string());
        } else if c == '"' && field.trim().is_empty() {
            field.clear();
            quoted = true;
        } else {
            field.push(c);
        }
    }
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    fields.push(field.trim().to_string());
    Ok(fields)
}

fn parse_csv_rows(text: &str) -> Measurements {
    let mut collector = RowCollector::default();
    let mut columns: Option<Columns> = None;
    // The header, to skip where a resumed log writes it again.
    let mut header_fields: Option<Vec<String>> = None;
    let separator = field_separator(text);
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        // Trimmed of spaces only: a tab may be the separator, and a wide row's last cells may be empty.
        let content = raw.trim_matches(|c: char| c.is_whitespace() && c != '\t');
        if content.trim().is_empty() || content.starts_with('#') {
            continue;
        }
        let fields = match split_csv_line(content, separator) {
            Ok(fields) => fields,
            Err(message) => {
                collector.problem(line, message);
                continue;
            }
        };
        if header_fields.as_ref() == Some(&fields) {
            // Said once: a log resumed a hundred times has a hundred.
            if !collector.measurements.notes.iter().any(|n| n.starts_with("the header is repeated")) {
                collector
                    .measurements
                    .notes
                    .push(format!("the header is repeated on line {line} (a resumed log?) and skipped"));
            }
            continue;
        }
        let columns = match &columns {
            Some(known) => known,
            None => {
                let (mut found, header) = Columns::from_first_line(&fields);
                collector.measurements.notes.append(&mut found.notes);
                let columns = columns.insert(found);
                match header {
                    Some(Ok(())) => {
                        header_fields = Some(fields);
                        continue;
                    }
                    Some(Err(message)) => {
                        collector.problem(line, message);
                        continue;
                    }
                    None => columns,
                }
            }
        };
        if fields.len() != columns.count {
            let expected = if columns.from_header {
                format!("expected {} fields like the header", columns.count)
            } else {
                "expected 3 fields (cycle,stage,seconds)".to_string()
            };
            collector.problem(line, format!("{expected}, found {}", fields.len()));
            continue;
        }
        let field = |at: usize| fields.get(at).map(String::as_str).unwrap_or_default();
        let cycle = parse_cycle_id(field(columns.cycle));
        let Some((stage_at, seconds_at)) = columns.long else {
            // A wide row: a stage per filled cell.
            match cycle {
                Ok(cycle) => {
                    for (at, name, scale) in &columns.wide {
                        let cell = field(*at);
                        if cell.is_empty() {
                            continue;
                        }
                        let seconds = parse_measured_cell(cell, separator).map(|s| s * scale);
                        match (check_stage_name(name), seconds.and_then(check_measured_seconds)) {
                            (Ok(stage), Ok(seconds)) => collector.row(line, cycle, stage, seconds),
                            (stage, seconds) => {
                                for message in [stage.err(), seconds.err()].into_iter().flatten() {
                                    collector.problem(line, format!("{}: {message}", shortened(name)));
                                }
                            }
                        }
                    }
                }
                Err(message) => collector.problem(line, message),
            }
            continue;
        };
        let stage = check_stage_name(field(stage_at));
        let seconds = parse_measured_cell(field(seconds_at), separator)
            .map(|s| s * columns.long_scale)
            .and_then(check_measured_seconds);
        match (cycle, stage, seconds) {
            (Ok(cycle), Ok(stage), Ok(seconds)) => collector.row(line, cycle, stage, seconds),
            (cycle, stage, seconds) => {
                for message in [cycle.err(), stage.err(), seconds.err()].into_iter().flatten() {
                    collector.problem(line, message);
                }
            }
        }
    }
    collector.finish()
}

/// The 1-based line on which each element of a top-level JSON array starts. Only meaningful for text that
/// parses as an array; it never fails on anything else.
fn element_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let (mut line, mut depth) = (1usize, 0usize);
    let (mut in_string, mut escaped, mut expecting_element) = (false, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if depth == 1 && expecting_element && !c.is_whitespace() && c != ']' {
            lines.push(line);
            expecting_element = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth == 1 {
                    expecting_element = true;
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expecting_element = true,
            _ => {}
        }
    }
    lines
}

/// A JSON value's kind, for messages.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn json_cycle_id(value: Option<&Value>) -> Result<u64, String> {
    match value {
        None => Err("cycle is missing".into()),
        Some(Value::Number(number)) => number
            .as_u64()
            .or_else(|| {
                number
                    .as_f64()
                    .filter(|x| x.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(x))
                    .map(|x| x as u64)
            })
            .ok_or_else(|| format!("cycle {number} is not a whole number (0 or more)")),
        Some(Value::String(text)) => parse_cycle_id(text),
        Some(other) => Err(format!("cycle must be a whole number, not {}", json_kind(other))),
    }
}

fn json_stage(value: Option<&Value>) -> Result<String, String> {
    match value {
        None => Err("stage is missing".into()),
        Some(Value::String(name)) => check_stage_name(name),
        Some(other) => Err(format!("stage must be a name in quotes, not {}", json_kind(other))),
    }
}

fn json_seconds(value: Option<&Value>) -> Result<f64, String> {
    match value {
        None => Err("seconds is missing".into()),
        Some(Value::Number(number)) => {
            let seconds = number.as_f64().ok_or_else(|| format!("seconds {number} is not a number"))?;
            check_measured_seconds(seconds)
        }
        // Exports that quote every value are common; a numeric string is read as its number.
        Some(Value::String(text)) => parse_measured_seconds(text),
        Some(other) => Err(format!("seconds must be a number, not {}", json_kind(other))),
    }
}

fn parse_json_rows(text: &str) -> Measurements {
    let mut collector = RowCollector::default();
    let values: Vec<Value> = match serde_json::from_str(text) {
        Ok(values) => values,
        Err(error) => {
            let full = error.to_string();
            let message = full.rsplit_once(" at line ").map_or(full.as_str(), |(message, _)| message);
            collector.problem(error.line(), format!("{message} (column {})", error.column()));
            return collector.finish();
        }
    };
    let lines = element_lines(text);
    for (index, value) in values.iter().enumerate() {
        json_row(&mut collector, lines.get(index).copied().unwrap_or(1), value, None);
    }
    collector.finish()
}

/// JSON Lines: one row object per line (what a logger appends to as it goes).
fn parse_json_lines(text: &str) -> Measurements {
    let mut collector = RowCollector::default();
    for (index, raw) in text.lines().enumerate() {
        let content = raw.trim();
        if content.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(content) {
            Ok(value) => json_row(&mut collector, index + 1, &value, Some(content)),
            Err(error) => {
                let full = error.to_string();
                let message = full.rsplit_once(" at line ").map_or(full.as_str(), |(message, _)| message);
                collector.problem(index + 1, format!("{message} (column {})", error.column()));
            }
        }
    }
    collector.finish()
}

/// One JSON row, its keys read in any case (`Cycle`, `STAGE`), gathered or reported at `line`.
fn json_row(collector: &mut RowCollector, line: usize, value: &Value, text: Option<&str>) {
    let Value::Object(row) = value else {
        collector.problem(
            line,
            format!(
                "a row must be an object such as {{\"cycle\": 1, \"stage\": \"generation\", \"seconds\": 70.2}}, not {}",
                json_kind(value)
            ),
        );
        return;
    };
    let key = |name: &str| {
        row.get(name).or_else(|| row.iter().find(|(k, _)| k.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v))
    };
    let cycle_key = CYCLE_COLUMNS.iter().find(|name| key(name).is_some());
    if key("stage").is_none()
        && let Some(cycle_key) = cycle_key
    {
        return json_wide_row(collector, line, row, json_cycle_id(key(cycle_key)), text);
    }
    let cycle = json_cycle_id(cycle_key.and_then(|name| key(name)));
    let stage = json_stage(key("stage"));
    let seconds = json_seconds(key("seconds"));
    match (cycle, stage, seconds) {
        (Ok(cycle), Ok(stage), Ok(seconds)) => collector.row(line, cycle, stage, seconds),
        (cycle, stage, seconds) => {
            for message in [cycle.err(), stage.err(), seconds.err()].into_iter().flatten() {
                collector.problem(line, message);
            }
        }
    }
}

/// The keys of the JSON object in `text` in the order written, and those of the objects directly in it as
/// `parent/child` (as [`json_wide_row`] names them). Keys with escapes other than `\"` and `\\` are left
/// out: they then keep the map's order, after the others.
fn keys_as_written(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    // The open containers: whether each is an object, and the key path it is the value of.
    let mut open: Vec<(bool, Option<String>)> = Vec::new();
    let (mut string, mut key_path): (Option<String>, Option<String>) = (None, None);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut read = String::new();
                let mut plain = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some(escaped @ ('"' | '\\')) => read.push(escaped),
                            _ => plain = false,
                        },
                        _ => read.push(c),
                    }
                }
                string = plain.then_some(read);
                continue;
            }
            ':' => {
                key_path = None;
                if let (Some(name), Some((true, parent))) = (string.take(), open.last()) {
                    let path = match (open.len(), parent) {
                        (1, _) => Some(name),
                        (2, Some(parent)) => Some(format!("{parent}/{name}")),
                        _ => None,
                    };
                    if let Some(path) = path {
                        keys.push(path.clone());
                        key_path = Some(path);
                    }
                }
            }
            '{' => open.push((true, key_path.take())),
            '[' => open.push((false, key_path.take())),
            '}' | ']' => {
                open.pop();
            }
            ',' => key_path = None,
            _ => {}
        }
        if !c.is_whitespace() {
            string = None;
        }
    }
    keys
}

/// A wide JSON row, one per cycle as verl and other loggers append them (`{"step": 3, "timing_s/gen": 41.2,
/// …}`, or with the timings nested, `"timing_s": {"gen": 41.2}`): a stage per timing key (`timing_s/…`,
/// `timing/…`, `time/…`, `timing_ms/…` in milliseconds) when there are any, else per number. Such lines
/// were refused one by one for want of `stage` and `seconds`.
fn json_wide_row(
    collector: &mut RowCollector,
    line: usize,
    row: &serde_json::Map<String, Value>,
    cycle: Result<u64, String>,
    text: Option<&str>,
) {
    let cycle = match cycle {
        Ok(cycle) => cycle,
        Err(message) => return collector.problem(line, message),
    };
    // Nested objects one level deep, as `parent/child`.
    let mut fields: Vec<(String, &Value)> = Vec::new();
    for (name, value) in row {
        match value {
            Value::Object(inner) => fields.extend(inner.iter().map(|(child, v)| (format!("{name}/{child}"), v))),
            _ => fields.push((name.clone(), value)),
        }
    }
    // In the order written: the map sorts its keys, and a logger writes its stages in the order they run
    // (verl's adv came before gen, and the refit before training).
    // Each key's place looked up in a map: found by a search along the keys, a line of 20,000 keys took 28 s
    // (review 43).
    if let Some(text) = text {
        let mut order: HashMap<String, usize> = HashMap::new();
        for (place, key) in keys_as_written(text).into_iter().enumerate() {
            order.entry(key).or_insert(place);
        }
        fields.sort_by_key(|(name, _)| order.get(name).copied().unwrap_or(usize::MAX));
    }
    let any_timing = fields.iter().any(|(name, _)| timing_prefix(name).is_some());
    for (name, value) in &fields {
        let lower = name.trim().to_ascii_lowercase();
        if CYCLE_COLUMNS.contains(&lower.as_str()) || not_a_stage(&lower) {
            continue;
        }
        let (from, scale) = match timing_prefix(name) {
            Some(prefix) => prefix,
            None if any_timing => continue,
            None => (0, 1.0),
        };
        let Value::Number(number) = value else { continue };
        let (stage, unit) = stage_and_unit(&name[from..]);
        let seconds = number.as_f64().map(|s| s * scale * unit).ok_or_else(|| format!("{number} is not a number"));
        match (check_stage_name(&stage), seconds.and_then(check_measured_seconds)) {
            (Ok(stage), Ok(seconds)) => collector.row(line, cycle, stage, seconds),
            (stage, seconds) => {
                for message in [stage.err(), seconds.err()].into_iter().flatten() {
                    collector.problem(line, format!("{}: {message}", shortened_to(name, 48)));
                }
            }
        }
    }
    let note = if any_timing {
        "each object is read as one cycle, a stage per timing key (timing_s/gen is the stage gen); its other keys \
         are left out"
    } else {
        "each object is read as one cycle, a stage per number"
    };
    if !collector.measurements.notes.iter().any(|n| n == note) {
        collector.measurements.notes.push(note.to_string());
    }
}

// ---------------------------------------------------------------------------------------------------------
// Statistics over measured cycles
// ---------------------------------------------------------------------------------------------------------

/// The spread of a set of durations.
///
/// - `median`: the middle value of the sorted samples, or the mean of the two middle values when there is
///   an even number of them (so `1, 2, 3, 4` has median 2.5).
/// - `p90`: nearest rank, with no interpolation: the sorted sample at 1-based rank `⌈0.9 · n⌉`, so at least
///   90 % of the samples are at or below it and it is always a measured value (`1..=10` gives 9; with
///   fewer than 10 samples it is the maximum).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub samples: usize,
    pub min: f64,
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

impl Distribution {
    /// The distribution of `values`; `None` when there are none. NaNs sort last (measurements have none).
    pub fn of(values: &[f64]) -> Option<Distribution> {
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let n = sorted.len();
        if n == 0 {
            return None;
        }
        let at = |i: usize| sorted.get(i).copied();
        let median = if n % 2 == 1 { at(n / 2)? } else { (at(n / 2 - 1)? + at(n / 2)?) / 2.0 };
        // ⌈0.9 n⌉ = n - ⌊n / 10⌋, in integers so no rounding of 0.9 · n can shift the rank.
        let p90_rank = n - n / 10;
        Some(Distribution { samples: n, min: at(0)?, median, p90: at(p90_rank - 1)?, max: at(n - 1)? })
    }
}

/// One stage's distribution over a group of cycles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageStats {
    pub name: String,
    #[serde(flatten)]
    pub distribution: Distribution,
}

/// The startup cycles or the steady-state cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CycleGroup {
    /// Cycle ids, ascending.
    pub cycles: Vec<u64>,
    /// Stages with at least one sample in this group, in their usual order within a cycle (mean position
    /// among each cycle's rows; ties in the order first seen).
    pub stages: Vec<StageStats>,
    /// The distribution of each cycle's summed stage times: its length when its stages do not overlap.
    pub cycle_seconds: Option<Distribution>,
}

/// Measured cycles summarised: startup apart from steady state, and the steady state as a cycle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredCycles {
    /// The number of startup cycles asked for.
    pub startup_count: usize,
    pub startup: CycleGroup,
    pub steady: CycleGroup,
    /// The steady-state median of each stage, stages in their usual order, no overlap (measurements say
    /// nothing about overlap) and speedup 1; set `speedup` and call [`CycleSpec::report`]. The sum of
    /// medians is not the median cycle: a cycle whose every stage is typical is rarer than a typical cycle.
    pub spec: CycleSpec,
    /// Refit / cycle of `spec`; `None` when `spec` is not a valid cycle (see `problems`).
    pub refit_fraction: Option<f64>,
    /// Why `spec` is not a valid cycle, e.g. no stage is named `refit`.
    pub problems: Vec<Problem>,
    /// Things worth knowing about the data, e.g. a stage missing from some cycles.
    pub notes: Vec<String>,
}

/// Per-stage statistics of measured cycles, the first `startup` cycle ids (ascending) set apart as startup.
///
/// The steady state's medians form a [`CycleSpec`], the typical cycle. A stage missing from some steady
/// cycles counts as 0 s in them there: a stage run in 1 cycle of 300 added its whole time to the typical
/// cycle; one whose median is then 0 s is left out. Its refit is the measured stage named as `refit_name`
/// (the refit of the cycle on screen: logs call it `weight_sync` or `update_weights`), in any case, else
/// the stage named `refit`.
pub fn stage_stats(measurements: &Measurements, startup: usize, refit_name: Option<&str>) -> MeasuredCycles {
    let (not_stages, column_notes) = columns_not_stages(measurements);
    let mut notes = measurements.notes.clone();
    notes.extend(column_notes);
    let rows: Vec<&Measurement> = measurements.rows.iter().filter(|row| !not_stages.contains(&row.stage)).collect();
    let cycle_ids: BTreeSet<u64> = rows.iter().map(|row| row.cycle).collect();
    let startup_cycles: BTreeSet<u64> = cycle_ids.iter().take(startup).copied().collect();

    let mut stage_order: Vec<&str> = Vec::new();
    let mut stage_index: HashMap<&str, usize> = HashMap::new();
    // Per stage: (startup samples, steady samples).
    let mut samples: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    let mut cycle_totals: BTreeMap<u64, f64> = BTreeMap::new();
    // Where each stage stands within its cycles' rows: (sum of positions, count), from the next position
    // per cycle (a map: a list searched from the latest cycle back cost every earlier cycle for each new one,
    // 5 s for 100,000 cycles).
    let mut next_position: HashMap<u64, usize> = HashMap::new();
    let mut positions: Vec<(usize, usize)> = Vec::new();
    for row in &rows {
        let index = *stage_index.entry(row.stage.as_str()).or_insert_with(|| {
            stage_order.push(row.stage.as_str());
            samples.push((Vec::new(), Vec::new()));
            positions.push((0, 0));
            stage_order.len() - 1
        });
        let next = next_position.entry(row.cycle).or_insert(0);
        let position = *next;
        *next += 1;
        if let Some((sum, count)) = positions.get_mut(index) {
            *sum += position;
            *count += 1;
        }
        if let Some((startup_samples, steady_samples)) = samples.get_mut(index) {
            if startup_cycles.contains(&row.cycle) {
                startup_samples.push(row.seconds);
            } else {
                steady_samples.push(row.seconds);
            }
        }
        *cycle_totals.entry(row.cycle).or_insert(0.0) += row.seconds;
    }

    // Stages in their usual order within a cycle (mean position), not the order first seen: a stage missing
    // from the first cycle would otherwise come after every stage that cycle has. Ties: first seen.
    // (An insertion, not a sort: a handful of stages, and no sort code for the bundle.)
    let mean_position = |i: usize| positions[i].0 as f64 / positions[i].1.max(1) as f64;
    let mut usual: Vec<usize> = Vec::with_capacity(stage_order.len());
    for i in 0..stage_order.len() {
        let at = usual.iter().position(|&j| mean_position(j) > mean_position(i)).unwrap_or(usual.len());
        usual.insert(at, i);
    }
    let stage_order: Vec<&str> = usual.iter().map(|&i| stage_order[i]).collect();
    let samples: Vec<(Vec<f64>, Vec<f64>)> = usual.iter().map(|&i| std::mem::take(&mut samples[i])).collect();

    let group = |in_startup: bool| {
        let cycles: Vec<u64> =
            cycle_ids.iter().filter(|id| startup_cycles.contains(id) == in_startup).copied().collect();
        let stages = stage_order
            .iter()
            .zip(&samples)
            .filter_map(|(name, (startup_samples, steady_samples))| {
                let values = if in_startup { startup_samples } else { steady_samples };
                Distribution::of(values).map(|distribution| StageStats { name: name.to_string(), distribution })
            })
            .collect();
        let totals: Vec<f64> = cycles.iter().filter_map(|id| cycle_totals.get(id).copied()).collect();
        CycleGroup { cycles, stages, cycle_seconds: Distribution::of(&totals) }
    };
    let startup_group = group(true);
    let steady = group(false);

    if cycle_ids.is_empty() {
        notes.push("no measurements loaded".to_string());
    } else if steady.cycles.is_empty() {
        notes.push(match cycle_ids.len() {
            1 => {
                format!("the one cycle is startup (startup = {startup}); lower the startup count to get a steady state")
            }
            n => format!(
                "all {n} cycles are startup (startup = {startup}); lower the startup count to get a steady state"
            ),
        });
    }
    // The typical cycle: each stage's median over every steady cycle, 0 s where it was not measured.
    let steady_samples = |name: &str| {
        stage_order.iter().position(|n| *n == name).and_then(|i| samples.get(i)).map_or(&[][..], |(_, v)| &v[..])
    };
    let mut stages = Vec::new();
    for stage in &steady.stages {
        let measured_in = stage.distribution.samples;
        let missing = steady.cycles.len().saturating_sub(measured_in);
        let typical = if missing == 0 {
            stage.distribution.median
        } else {
            let mut values = steady_samples(&stage.name).to_vec();
            values.resize(measured_in + missing, 0.0);
            Distribution::of(&values).map_or(0.0, |d| d.median)
        };
        if missing > 0 {
            notes.push(format!(
                "stage \"{}\" was measured in {measured_in} of {} steady cycles; its statistics use those, and the \
                 typical cycle counts it as 0 s in the others: {}",
                stage.name,
                steady.cycles.len(),
                if typical > 0.0 { format!("median {} s", seconds_text(typical)) } else { "left out".into() }
            ));
        }
        if typical == 0.0 && missing == 0 {
            // Said: a stage measured at 0 s left the cycle without a word, and with every stage so, the
            // button said the cycle needed a stage (review 34).
            notes.push(format!(
                "stage \"{}\" has a steady-state median of 0 s: the typical cycle leaves it out",
                shortened_to(&stage.name, 48)
            ));
        }
        if typical > 0.0 {
            let marked = refit_name.is_some_and(|name| same_stage_name(name, &stage.name));
            stages.push(Stage { refit: marked.then_some(true), ..Stage::new(stage.name.clone(), typical) });
        }
    }
    // No stage is the refit by name: a stage loggers name so (`update_weights`, `weight_sync`) is taken
    // for it, and said; "name it refit" sent the reader to edit the file.
    if !stages.iter().any(|s| s.refit == Some(true) || same_stage_name(&s.name, "refit")) {
        let known: Vec<usize> = (0..stages.len()).filter(|&i| is_refit_by_its_name(&stages[i].name)).collect();
        if let [only] = known[..] {
            stages[only].refit = Some(true);
            notes.push(format!(
                "\"{}\" is taken for the refit: no stage is named \"refit\"{}",
                shortened_to(&stages[only].name, 48),
                refit_name
                    .filter(|name| !same_stage_name(name, "refit"))
                    .map_or(String::new(), |name| format!(" or \"{}\"", shortened(name.trim())))
            ));
        }
    }
    // Ms read as seconds, or a clock: one stage far above all the others together.
    let total: f64 = stages.iter().map(|s| s.seconds).sum();
    for stage in &stages {
        let others = total - stage.seconds;
        if others > 0.0 && stage.seconds > 50.0 * others {
            notes.push(format!(
                "stage \"{}\" takes {}× as long as all the others together: is its unit right (milliseconds read \
                 as seconds)?",
                shortened(&stage.name),
                number_text(stage.seconds / others, 0)
            ));
        }
    }
    let spec = CycleSpec { stages, refit: None, speedup: 1.0 };
    let (refit_fraction, problems) = match spec.report() {
        Ok(report) => (Some(report.refit_fraction), Vec::new()),
        Err(problems) => (None, problems.into_iter().map(|p| measured_problem(p, refit_name)).collect()),
    };
    // The medians hide a refit that is slow in some cycles, which the job's time does not: said where the
    // share over all steady cycles' time differs from the typical cycle's by a tenth or more.
    if let (Some(f), Some(refit)) = (refit_fraction, spec.refit_index().and_then(|i| spec.stages.get(i))) {
        let refit_total: f64 = steady_samples(&refit.name).iter().sum();
        let cycles_total: f64 = steady.cycles.iter().filter_map(|id| cycle_totals.get(id)).sum();
        let share = refit_total / cycles_total;
        if cycles_total > 0.0 && (share - f).abs() > 0.1 * f {
            notes.push(format!(
                "over all steady cycles the refit takes {} % of the time (mean cycle {} s), against {} % in the \
                 typical cycle: its slow and fast cycles weigh on the job's time, which the medians do not show",
                percent_text(share * 100.0),
                seconds_text(cycles_total / steady.cycles.len() as f64),
                percent_text(f * 100.0)
            ));
        }
    }
    MeasuredCycles { startup_count: startup, startup: startup_group, steady, spec, refit_fraction, problems, notes }
}

/// Names loggers give the refit, after any prefix (`timing_s/update_weights`).
const REFIT_NAMES: [&str; 10] = [
    "update_weights",
    "update_weight",
    "weight_update",
    "weights_update",
    "weight_sync",
    "weights_sync",
    "sync_weights",
    "sync_weight",
    "weight_transfer",
    "broadcast_weights",
];

/// Whether `name` is one loggers give the refit ([`REFIT_NAMES`]), after a prefix ending in `/` or `.`.
fn is_refit_by_its_name(name: &str) -> bool {
    let lower = name.trim().to_ascii_lowercase();
    let last = lower.rfind('/').max(lower.rfind('.')).map_or(lower.as_str(), |at| &lower[at + 1..]);
    REFIT_NAMES.contains(&last)
}

/// Stages that are not stages: a column of each cycle's total (`step_time`, `timing_s/step`: named as a
/// total, and at least the sum of the others in nine cycles in ten), which halved the refit's share, and
/// a clock (`elapsed_s`: rising in nine cycles in ten, and past five times all the others together), which
/// made it vanish. Each is said in a note.
fn columns_not_stages(measurements: &Measurements) -> (HashSet<String>, Vec<String>) {
    // Map and set types the statistics already use (each new one cost the web build kilobytes).
    let cycle_ids: BTreeSet<u64> = measurements.rows.iter().map(|row| row.cycle).collect();
    let slot: HashMap<u64, usize> = cycle_ids.iter().enumerate().map(|(at, &id)| (id, at)).collect();
    let mut by_cycle: Vec<Vec<(&str, f64)>> = vec![Vec::new(); cycle_ids.len()];
    let mut names: Vec<&str> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for row in &measurements.rows {
        if let Some(&at) = slot.get(&row.cycle) {
            by_cycle[at].push((row.stage.as_str(), row.seconds));
        }
        if seen.insert(row.stage.as_str(), names.len()).is_none() {
            names.push(row.stage.as_str());
        }
    }
    // The name's words, lower case: `timing_s/step` has `timing`, `s` and `step`.
    let words = |name: &str| -> Vec<String> {
        let spaced: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { ' ' }).collect();
        spaced.split_whitespace().map(str::to_string).collect()
    };
    let mut left_out: HashSet<String> = HashSet::new();
    let mut notes = Vec::new();
    // Clocks first: their seconds hid every total among the others.
    const CLOCK_WORDS: [&str; 6] = ["elapsed", "runtime", "wall", "time", "timestamp", "clock"];
    const TOTAL_WORDS: [&str; 5] = ["total", "step", "iteration", "iter", "cycle"];
    for clocks in [true, false] {
        // Each cycle's stages that are still stages: their count and sum.
        let kept: Vec<(usize, f64)> = by_cycle
            .iter()
            .map(|row| {
                let kept = row.iter().filter(|(n, _)| !left_out.contains(*n));
                kept.fold((0, 0.0), |(count, sum), (_, s)| (count + 1, sum + s))
            })
            .collect();
        for &name in &names {
            let words = words(name);
            let named = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
            // Only a stage named as a clock or a total is looked at cycle by cycle (a file of 64 stages and
            // 15,000 cycles is a million rows).
            if left_out.contains(name) || !named(if clocks { &CLOCK_WORDS } else { &TOTAL_WORDS }) {
                continue;
            }
            // Per cycle with two other stages or more: (its seconds, the others' sum).
            let cycles: Vec<(f64, f64)> = by_cycle
                .iter()
                .zip(&kept)
                .filter_map(|(row, &(count, sum))| {
                    let mine = row.iter().find(|(n, _)| *n == name)?.1;
                    (count >= 3).then_some((mine, sum - mine))
                })
                .collect();
            if cycles.is_empty() {
                continue;
            }
            let most = |count: usize| count * 10 >= cycles.len() * 9;
            let rising = cycles.windows(2).filter(|pair| pair[1].0 > pair[0].0).count();
            let note = if clocks {
                (cycles.len() >= 5
                    && rising * 10 >= (cycles.len() - 1) * 9
                    && cycles.last().is_some_and(|(mine, others)| *mine > 5.0 * others))
                .then(|| {
                    format!(
                        "\"{}\" is left out: it grows from cycle to cycle, a clock rather than a stage",
                        shortened_to(name, 48)
                    )
                })
            } else {
                most(cycles.iter().filter(|(mine, others)| *mine >= 0.95 * others).count()).then(|| {
                    format!(
                        "\"{}\" is left out: in nearly every cycle it is at least the sum of the other stages, each \
                         cycle's total rather than a stage",
                        shortened_to(name, 48)
                    )
                })
            };
            if let Some(note) = note {
                left_out.insert(name.to_string());
                notes.push(note);
            }
        }
    }
    (left_out, notes)
}

/// Whether two stage names are the same stage: trimmed, in any case of their ASCII letters (`Refit`
/// measured, `refit` edited; Unicode's case tables would cost the web build some kilobytes).
pub fn same_stage_name(a: &str, b: &str) -> bool {
    // A logger's timing prefix aside: measured stages are named without it, a cycle may still have it.
    fn bare(name: &str) -> &str {
        let name = name.trim();
        timing_prefix(name).map_or(name, |(from, _)| &name[from..])
    }
    bare(a).eq_ignore_ascii_case(bare(b))
}

/// A problem of the typical cycle as said of measurements: one without a refit names what was looked for
/// (the editor's advice to mark a stage in a file means nothing for a CSV).
fn measured_problem(problem: Problem, refit_name: Option<&str>) -> Problem {
    if problem.path != "stages" || !problem.message.starts_with("no stage is the refit") {
        return problem;
    }
    // The way out is in the app: the measured stage picked, or the cycle's refit renamed as the file names it.
    let fix = "pick it under Refit stage, or rename the cycle's refit stage (Stages of one cycle) as the file names it";
    let message = match refit_name.map(str::trim).filter(|name| !name.is_empty() && !same_stage_name(name, "refit")) {
        Some(name) => format!(
            "no measured stage is the refit: none is named \"refit\" or \"{}\", as the cycle's refit is; {fix}",
            shortened(name)
        ),
        None => format!("no measured stage is the refit: none is named \"refit\" or \"update_weights\"; {fix}"),
    };
    Problem { message, ..problem }
}

impl MeasuredCycles {
    fn write_group(out: &mut fmt::Formatter<'_>, title: &str, group: &CycleGroup) -> fmt::Result {
        writeln!(out, "{title}: {} ({})", cycles_text(&group.cycles), plural(group.cycles.len(), "cycle"))?;
        if group.cycles.is_empty() {
            return Ok(());
        }
        let width = group.stages.iter().map(|stage| stage.name.chars().count()).max().unwrap_or(0).max(11);
        writeln!(out, "  {:<width$}  {:>5}  {:>9}  {:>9}  {:>9}  {:>9}", "stage", "n", "min", "median", "p90", "max")?;
        let mut row = |name: &str, d: &Distribution| {
            writeln!(
                out,
                "  {name:<width$}  {:>5}  {:>9}  {:>9}  {:>9}  {:>9}",
                d.samples,
                seconds_text(d.min),
                seconds_text(d.median),
                seconds_text(d.p90),
                seconds_text(d.max)
            )
        };
        for stage in &group.stages {
            row(&stage.name, &stage.distribution)?;
        }
        if let Some(total) = &group.cycle_seconds {
            row("whole cycle", total)?;
        }
        Ok(())
    }
}

impl fmt::Display for MeasuredCycles {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        MeasuredCycles::write_group(out, "Startup", &self.startup)?;
        MeasuredCycles::write_group(out, "Steady state", &self.steady)?;
        if !self.spec.stages.is_empty() {
            let medians: Vec<String> = self
                .spec
                .stages
                .iter()
                .map(|stage| format!("{} {} s", stage.name, seconds_text(stage.seconds)))
                .collect();
            writeln!(out, "Steady-state medians: {}", medians.join(", "))?;
        }
        if let Some(f) = self.refit_fraction {
            writeln!(out, "Refit share of the cycle: {} ({} %)", number_text(f, 4), percent_text(f * 100.0))?;
        }
        for problem in &self.problems {
            writeln!(out, "Cannot compute f: {problem}")?;
        }
        for note in &self.notes {
            writeln!(out, "Note: {note}")?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------------
// Numbers as text
// ---------------------------------------------------------------------------------------------------------

/// The formula's ratio `new/old` as the working writes it: four decimals, or up to six when those are exact
/// (`0.765625`), so that the article's second cycle multiplies back: 0.765625 × 160 s = 122.5 s, where
/// 0.7656 × 160 s is 122.496 s. A ratio that is not 1 takes up to nine decimals rather than read as 1: a
/// cycle of 10⁸ s with a 10 s refit read "1 × 100000050 s ≈ 100000080 s" and "1 / 1 ≈ 0.9999997×" (review 50).
pub fn ratio_text(ratio: f64) -> String {
    let decimals = (4..=6)
        .find(|&d| {
            let scale = 10f64.powi(d);
            ((ratio * scale).round() / scale - ratio).abs() <= 1e-12 * ratio.abs().max(1.0)
        })
        .unwrap_or(4);
    let text = number_text(ratio, decimals as usize);
    if text != "1" || ratio == 1.0 {
        return text;
    }
    (7..=9).map(|d| number_text(ratio, d)).find(|text| text != "1").unwrap_or(text)
}

/// [`ratio_text`] for a factor multiplied by `times` in the working: with more decimals (up to nine) where
/// the rounded factor would not multiply back to the product shown to three decimals ("0.8032 × 160 s ≈
/// 128.519 s", where 0.8032 × 160 is 128.512; review 52): 0.803241 here.
pub fn ratio_text_times(ratio: f64, times: f64) -> String {
    let shown = ratio_text(ratio);
    let product = number_text(ratio * times, 3);
    let multiplies_back = |text: &str| text.parse::<f64>().is_ok_and(|r| number_text(r * times, 3) == product);
    if multiplies_back(&shown) {
        return shown;
    }
    let from = shown.split_once('.').map_or(0, |(_, decimals)| decimals.len()) + 1;
    (from..=9).map(|d| number_text(ratio, d)).find(|text| multiplies_back(text)).unwrap_or(shown)
}

/// `value` with at most `decimals` decimals and no trailing zeros (`112.5`, `10`). A non-zero value that
/// would round to 0 is written in scientific notation instead, so it never reads as nothing.
fn number_text(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    // Past a trillion, digits say nothing: `1.5e308`, not 309 of them.
    if value.abs() >= 1e12 {
        let text = format!("{value:.3e}");
        return match text.split_once('e') {
            Some((mantissa, exponent)) if mantissa.contains('.') => {
                format!("{}e{exponent}", mantissa.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => text,
        };
    }
    let text = format!("{:.decimals$}", crate::chart::readout::half_away(value, decimals));
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    if text == "0" || text == "-0" { if value == 0.0 { "0".into() } else { format!("{value:.2e}") } } else { text }
}

fn seconds_text(seconds: f64) -> String {
    number_text(seconds, 3)
}

/// One line naming a cycle, as [`crate::ui`]'s change heading names a layout (an embed's caption, an
/// iframe's title): `RL cycle of 120 s: generation 70 s, scoring 10 s, training 30 s, refit 10 s · s = 4`.
/// The length is the laid-out one (overlaps hidden), when the cycle is valid.
pub fn describe_cycle(spec: &CycleSpec, report: Option<&CycleReport>) -> String {
    let stages: Vec<String> =
        spec.stages.iter().map(|stage| format!("{} {} s", stage.name.trim(), seconds_text(stage.seconds))).collect();
    let length = report.map(|r| format!(" of {} s", seconds_text(r.before.cycle_seconds))).unwrap_or_default();
    format!("RL cycle{length}: {} · s = {}", stages.join(", "), ratio_text(spec.speedup))
}

fn percent_text(percent: f64) -> String {
    number_text(percent, 2)
}

/// A multiplier such as `1.067`: three decimals, more when three would round a value that is not 1 to 1
/// (a 1.0004× speedup must not read as "1×").
fn times_text(times: f64) -> String {
    for decimals in 3..=6 {
        let text = number_text(times, decimals);
        if text != "1" || times == 1.0 {
            return text;
        }
    }
    number_text(times, 9)
}

/// `count noun`, with an s unless one: "1 row", "3 rows".
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// Cycle ids for a heading: all of them when few, else the first and last.
fn cycles_text(cycles: &[u64]) -> String {
    match cycles {
        [] => "none".into(),
        [first, .., last] if cycles.len() > 6 => format!("cycles {first} … {last}"),
        _ => format!("cycles {}", cycles.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    fn cycle(stages: Vec<Stage>, speedup: f64) -> CycleSpec {
        CycleSpec { stages, refit: None, speedup }
    }

    fn report_of(spec: &CycleSpec) -> CycleReport {
        match spec.report() {
            Ok(report) => report,
            Err(problems) => panic!("expected a report, got {problems:?}"),
        }
    }

    fn problems_of(spec: &CycleSpec) -> Vec<String> {
        match spec.validate() {
            Ok(()) => panic!("expected problems for {spec:?}"),
            Err(problems) => problems.iter().map(Problem::to_string).collect(),
        }
    }

    fn parsed(json: &str) -> CycleSpec {
        match parse_cycle(json) {
            Ok(spec) => spec,
            Err(problems) => panic!("expected a cycle, got {problems:?}"),
        }
    }

    #[test]
    fn the_article_120_second_cycle_gets_only_6_25_percent_shorter() {
        // The article's first example, number for number.
        let report = report_of(&CycleSpec::article(10.0, 4.0));
        assert_eq!(report.before.cycle_seconds, 120.0);
        assert_eq!(report.refit_after.total(), 2.5);
        assert_eq!(report.after.cycle_seconds, 112.5);
        assert!(close(report.cycle_speedup, 120.0 / 112.5));
        assert_eq!(times_text(report.cycle_speedup), "1.067");
        assert!(close(report.percent_saved, 6.25));
        assert!(close(report.seconds_saved, 7.5));
        assert!(close(report.refit_fraction, 1.0 / 12.0));
        assert_eq!(report.bound.best_cycle_seconds, 110.0);
        assert_eq!(report.bound.max_seconds_saved, 10.0);
        assert!(report.bound.max_speedup.is_some_and(|max| close(max, 12.0 / 11.0)));
        assert_eq!(report.refit_speedup, Some(4.0));
        assert!(!report.slowdown && report.sequential);
    }

    #[test]
    fn the_article_160_second_cycle_gets_23_44_percent_shorter() {
        // The article's second example: 110 s of other work and a 50 s refit.
        let report = report_of(&CycleSpec::article(50.0, 4.0));
        assert_eq!(report.before.cycle_seconds, 160.0);
        assert_eq!(report.refit_after.total(), 12.5);
        assert_eq!(report.after.cycle_seconds, 122.5);
        assert!(close(report.cycle_speedup, 160.0 / 122.5));
        assert_eq!(times_text(report.cycle_speedup), "1.306");
        assert!(close(report.percent_saved, 23.4375));
        assert_eq!(percent_text(report.percent_saved), "23.44");
        assert_eq!(report.bound.best_cycle_seconds, 110.0);
    }

    #[test]
    fn a_stage_name_that_would_reorder_the_text_around_it_is_refused() {
        let mut spec = CycleSpec::article(10.0, 4.0);
        spec.stages[0].name = "gen\u{202e}eration".into();
        let problems = spec.validate().expect_err("refused");
        assert_eq!(problems[0].path, "stages[0].name");
        assert!(problems[0].message.contains("U+202E"), "{}", problems[0].message);
        let measured = parse_measurements("cycle,stage,seconds\n1,re\u{2067}fit,10\n1,training,30\n");
        assert_eq!(measured.rows.len(), 1);
        assert!(measured.problems[0].message.contains("U+2067"), "{:?}", measured.problems);
    }

    #[test]
    fn the_ratio_keeps_the_decimals_that_are_exact_up_to_six() {
        assert_eq!(ratio_text(0.765625), "0.765625");
        assert_eq!(ratio_text(0.9375), "0.9375");
        assert_eq!(ratio_text(11.0 / 12.0), "0.9167");
        assert_eq!(ratio_text(0.12345678), "0.1235");
        assert_eq!(ratio_text(1.0), "1");
        assert_eq!(ratio_text(1.03125), "1.03125");
        assert_eq!(ratio_text(1.0000003), "1.0000003", "not 1, as it is not");
        // The new cycle's factor multiplies back to the product shown (review 52): s = 2.7 on the 160 s cycle.
        let ratio = formula_ratio(50.0 / 160.0, 2.7);
        assert_eq!(ratio_text(ratio), "0.8032");
        assert_eq!(number_text(ratio * 160.0, 3), "128.519");
        assert_eq!(ratio_text_times(ratio, 160.0), "0.803241");
        assert_eq!(ratio_text_times(0.9375, 120.0), "0.9375", "an exact factor is left alone");
        assert_eq!(ratio_text_times(11.0 / 12.0, 12.0), "0.9167", "0.9167 × 12 = 11.0004, shown 11");
        assert_eq!(ratio_text(0.99999997), "0.99999997");
        assert_eq!(ratio_text(1.0 + 1e-12), "1", "past nine decimals it is");
        // Halves round away from zero: 3.125 % is 3.13 %, as a reader rounds it.
        assert_eq!(percent_text(3.125), "3.13");
        assert_eq!(percent_text(23.4375), "23.44");
        assert_eq!(percent_text(6.25), "6.25");
    }

    #[test]
    fn the_summary_sentence_puts_the_stage_speedup_beside_the_cycle_speedup() {
        let report = report_of(&CycleSpec::article(10.0, 4.0));
        assert_eq!(
            report.summary,
            "Refit got 4× faster; the cycle got 1.067× faster (6.25 % less time). Even an instant refit would save \
             at most 10 s."
        );
        let text = report.to_string();
        assert!(text.starts_with(&report.summary), "{text}");
        assert!(text.contains("Before: cycle 120 s (sequential)"), "{text}");
        assert!(text.contains("After (transfer speedup 4): cycle 112.5 s"), "{text}");
        assert!(text.contains("Best (instant transfer): cycle 110 s"), "{text}");
        assert!(text.contains("1 - 0.0833 + 0.0833/4 = 0.9375"), "{text}");
        assert!(text.contains("exact, since no stages overlap"), "{text}");
    }

    #[test]
    fn the_sentence_groups_large_numbers_in_threes() {
        // A projector showed "Refit got 1000000× faster" (review 36).
        let report = report_of(&CycleSpec::article(10.0, MAX_SPEEDUP));
        assert!(
            report.summary.starts_with("Refit got 1,000,000× faster; the cycle got 1.091× faster"),
            "{}",
            report.summary
        );
        let report = report_of(&CycleSpec::article(10.0, 1.0 / MAX_SPEEDUP));
        assert!(
            report.summary.starts_with(
                "Refit got 1,000,000× slower (speedup 1.00e-6); the cycle got 83,334.25× slower (8,333,325 % more time)"
            ),
            "{}",
            report.summary
        );
    }

    #[test]
    fn the_formula_is_written_out_with_the_numbers_substituted() {
        let report = report_of(&CycleSpec::article(10.0, 4.0));
        assert_eq!(report.formula.text, "1 - 0.0833 + 0.0833/4 = 0.9375");
        assert!(close(report.formula.ratio, 0.9375) && report.formula.exact && report.formula.matches_timeline);
        assert!(report.formula.bound_speedup.is_some_and(|bound| close(bound, 1.2 / 1.1)));
        let report = report_of(&CycleSpec::article(50.0, 4.0));
        assert_eq!(report.formula.text, "1 - 0.3125 + 0.3125/4 = 0.765625");
    }

    #[test]
    fn overlap_shortens_the_cycle_and_is_not_counted_twice() {
        // Generation starts 6 s before the refit ends: 120 s of stage time, but a 114 s cycle.
        let spec = cycle(
            vec![
                Stage::new("refit", 10.0),
                Stage::new("generation", 70.0).with_overlap(6.0),
                Stage::new("scoring", 10.0),
                Stage::new("training", 30.0),
            ],
            1.0,
        );
        let report = report_of(&spec);
        assert_eq!(report.before.cycle_seconds, 114.0);
        let generation = &report.before.stages[1];
        assert_eq!((generation.start, generation.end, generation.overlap), (4.0, 74.0, 6.0));
        assert!(!report.sequential);
        assert!(close(report.refit_fraction, 10.0 / 114.0));
        assert_eq!(
            report.summary,
            "Refit speed is unchanged (speedup 1); the cycle stays 114 s. Even an instant refit would save at most 4 s."
        );
    }

    #[test]
    fn an_overlapped_refit_saves_less_than_the_formula_says() {
        // Generation starts when 4 s of the 10 s transfer have run (40 %): at s = 4, when 1 s of 2.5 s has.
        // The 6 s under generation were hidden already; even an instant transfer takes off only the other 4.
        let spec = parsed(include_str!("../../examples/cycle-overlap.json"));
        let report = report_of(&spec);
        assert_eq!(report.before.cycle_seconds, 114.0);
        assert_eq!(report.after.stages[1].start, 1.0);
        assert_eq!(report.after.cycle_seconds, 111.0);
        assert_eq!(report.bound.best_cycle_seconds, 110.0);
        assert!(!report.formula.exact && !report.formula.matches_timeline);
        assert!(close(report.formula.ratio, 1.0 - 10.0 / 114.0 + 10.0 / 114.0 / 4.0));
        assert!(report.formula.ratio < report.ratio, "the formula is optimistic here");
        let text = report.to_string();
        assert!(text.contains("with overlap only an approximation; the timeline (the truth) gives 0.9737"), "{text}");
    }

    #[test]
    fn a_stage_overlapping_the_refit_waits_for_the_same_weights_after_a_speedup() {
        // Refit: 4 s waiting, then 6 s of transfer; generation starts with the transfer (6 s before the end).
        // A faster transfer cannot start it during the wait, before any weight is sent: the whole transfer
        // runs under generation already, so no speedup shortens the cycle.
        let spec = parsed(
            r#"{"stages": [{"name": "refit", "seconds": 10}, {"name": "generation", "seconds": 70, "overlap": 6},
                {"name": "training", "seconds": 30}], "refit": {"wait": 4, "transfer": 6}, "speedup": 4}"#,
        );
        let report = report_of(&spec);
        assert_eq!((report.before.stages[1].start, report.after.stages[1].start), (4.0, 4.0));
        assert_eq!((report.before.cycle_seconds, report.after.cycle_seconds), (104.0, 104.0));
        assert_eq!(report.bound.best_cycle_seconds, 104.0);

        // Starting during the preparation keeps its seconds into it: 1 s into 2 s of it, after the transfer.
        let spec = parsed(
            r#"{"stages": [{"name": "refit", "seconds": 10}, {"name": "generation", "seconds": 70, "overlap": 1},
                {"name": "training", "seconds": 30}], "refit": {"wait": 0, "transfer": 8, "preparation": 2},
                "speedup": 4}"#,
        );
        let report = report_of(&spec);
        assert_eq!(report.after.stages[1].start, 2.0 + 1.0);
        assert_eq!(report.after.cycle_seconds, 103.0);
    }

    #[test]
    fn progress_maps_the_wait_and_preparation_by_seconds_and_the_transfer_by_share() {
        let measured = RefitParts { wait: 2.0, transfer: 8.0, preparation: 2.0 };
        let faster = measured.with_transfer_speedup(4.0);
        let cases = [(0.0, 0.0), (1.5, 1.5), (2.0, 2.0), (6.0, 3.0), (10.0, 4.0), (11.0, 5.0), (12.0, 6.0)];
        for (into, expected) in cases {
            assert_eq!(faster.same_progress(measured, into), expected, "{into} s into the measured refit");
        }
        assert_eq!(measured.same_progress(measured, 7.25), 7.25, "the measured refit maps onto itself");
        let instant = measured.with_instant_transfer();
        assert_eq!(instant.same_progress(measured, 6.0), 2.0, "an instant transfer has all weights at its start");
    }

    #[test]
    fn overlap_that_does_not_bind_keeps_formula_and_timeline_equal() {
        // Scoring overlaps training by 5 s; the refit is not overlapped, so its savings pass through whole.
        let mut spec = CycleSpec::article(10.0, 4.0);
        spec.stages[2].overlap = 5.0;
        let report = report_of(&spec);
        assert_eq!((report.before.cycle_seconds, report.after.cycle_seconds), (115.0, 107.5));
        assert!(!report.formula.exact && report.formula.matches_timeline);
        assert!(report.to_string().contains("it matches the timeline here"));
    }

    #[test]
    fn a_refit_overlapping_the_end_of_training_still_ends_when_training_does() {
        // The refit streams the last 10 s of training; making it faster cannot beat training's end.
        let spec = cycle(
            vec![
                Stage::new("generation", 70.0),
                Stage::new("training", 30.0),
                Stage::new("refit", 10.0).with_overlap(10.0),
            ],
            4.0,
        );
        let report = report_of(&spec);
        assert_eq!(report.before.cycle_seconds, 100.0);
        assert_eq!(report.after.cycle_seconds, 100.0);
        let refit = &report.after.stages[2];
        assert_eq!((refit.start, refit.end, refit.seconds), (90.0, 100.0, 2.5));
        assert!(report.summary.contains("the cycle stays 100 s"), "{}", report.summary);
        assert!(close(report.formula.ratio, 1.0 - 0.1 + 0.1 / 4.0) && !report.formula.matches_timeline);
    }

    #[test]
    fn a_wait_dominated_refit_barely_benefits_from_a_faster_transfer() {
        // 8 of the refit's 10 s are a queue before the transfer; only 2 s shrink.
        let report = report_of(&parsed(include_str!("../../examples/cycle-queue.json")));
        assert_eq!(report.refit_before, RefitParts { wait: 8.0, transfer: 2.0, preparation: 0.0 });
        assert_eq!(report.refit_after.total(), 8.5);
        assert_eq!(report.after.cycle_seconds, 118.5);
        assert!(close(report.percent_saved, 1.25));
        assert_eq!(report.bound.best_cycle_seconds, 118.0);
        assert!(close(report.transfer_fraction, 2.0 / 120.0) && close(report.refit_fraction, 10.0 / 120.0));
        assert!(close(report.formula.ratio, report.ratio));
        assert_eq!(
            report.summary,
            "Transfer got 4× faster, so the refit got 1.176× faster; the cycle got 1.013× faster (1.25 % less time). \
             Even an instant transfer would save at most 2 s: the wait (8 s) remains."
        );
    }

    #[test]
    fn a_slowdown_is_labelled_and_lengthens_the_cycle() {
        let report = report_of(&CycleSpec::article(10.0, 0.5));
        assert!(report.slowdown);
        assert_eq!(report.after.cycle_seconds, 130.0);
        assert!(report.cycle_speedup < 1.0 && close(report.percent_saved, -100.0 / 12.0));
        assert_eq!(
            report.summary,
            "Refit got 2× slower (speedup 0.5); the cycle got 1.083× slower (8.33 % more time). Even an instant \
             refit would save at most 10 s."
        );
    }

    #[test]
    fn a_cycle_that_is_all_transfer_has_no_bound_on_its_speedup() {
        let report = report_of(&cycle(vec![Stage::new("refit", 10.0)], 4.0));
        assert_eq!(report.after.cycle_seconds, 2.5);
        assert_eq!(report.bound.best_cycle_seconds, 0.0);
        assert_eq!(report.bound.max_speedup, None);
        assert_eq!(report.formula.bound_speedup, None);
        assert!(report.to_string().contains("no limit on the speedup"));
    }

    #[test]
    fn an_extreme_speedup_is_refused_rather_than_reported_as_infinity() {
        let spec = CycleSpec::article(10.0, 1e-320);
        let Err(problems) = spec.report() else { panic!("a speedup of 1e-320 overflows") };
        assert_eq!(problems[0].path, "speedup");
    }

    #[test]
    fn the_refit_transfer_defaults_to_what_wait_and_preparation_leave() {
        let spec = parsed(
            r#"{"stages": [{"name": "work", "seconds": 90}, {"name": "refit", "seconds": 10}],
                "refit": {"wait": 3, "preparation": 2}, "speedup": 2}"#,
        );
        assert_eq!(spec.refit_parts(), Some(RefitParts { wait: 3.0, transfer: 5.0, preparation: 2.0 }));
        assert_eq!(report_of(&spec).after.cycle_seconds, 97.5);
    }

    #[test]
    fn decimal_refit_parts_that_add_up_only_after_rounding_are_accepted() {
        let spec =
            parsed(r#"{"stages": [{"name": "refit", "seconds": 0.3}], "refit": {"wait": 0.1, "transfer": 0.2}}"#);
        assert_eq!(spec.speedup, 1.0);
    }

    #[test]
    fn measured_seconds_go_into_the_cycles_own_order_and_overlaps() {
        // The refit first, generation overlapping it by 6 s; the measured medians list generation first.
        let ours = parsed(include_str!("../../examples/cycle-overlap.json"));
        let measured = cycle(
            vec![
                Stage::new("generation", 72.0),
                Stage::new("scoring", 9.0),
                Stage::new("training", 31.0),
                Stage::new("refit", 4.0),
            ],
            4.0,
        );
        let spec = ours.with_measured_seconds(&measured).expect("the same stages");
        let names: Vec<&str> = spec.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["refit", "generation", "scoring", "training"], "our order");
        let seconds: Vec<f64> = spec.stages.iter().map(|s| s.seconds).collect();
        assert_eq!(seconds, [4.0, 72.0, 9.0, 31.0], "their seconds");
        // Generation overlapped the 10 s refit by 6 s; the refit now lasts 4 s, so the overlap is cut to 4.
        assert_eq!(spec.stages[1].overlap, 4.0);
        // The split's transfer becomes the rest of the new refit.
        assert_eq!(spec.refit, Some(RefitSplit { wait: 0.0, transfer: None, preparation: 0.0 }));
        assert!(spec.report().is_ok());
        // Other stages: the measured cycle as it is.
        let mut other = measured.clone();
        other.stages[1].name = "reward model".into();
        assert_eq!(ours.with_measured_seconds(&other), None);
        // A wait longer than the new refit stays, and the cycle says it does not fit.
        let mut waiting = ours.clone();
        waiting.refit = Some(RefitSplit { wait: 8.0, transfer: Some(2.0), preparation: 0.0 });
        let squeezed = waiting.with_measured_seconds(&measured).expect("the same stages");
        assert_eq!(squeezed.refit, Some(RefitSplit { wait: 8.0, transfer: None, preparation: 0.0 }));
        let problems = squeezed.report().expect_err("a wait of 8 s in a refit of 4 s");
        assert!(
            problems.iter().any(|p| p.message.contains("wait 8 s + preparation 0 s = 8 s is longer")),
            "{problems:?}"
        );
    }

    #[test]
    fn a_stage_marked_refit_wins_over_a_stage_named_refit() {
        let mut spec = CycleSpec::article(10.0, 4.0);
        spec.stages.push(Stage { name: "weight sync".into(), seconds: 5.0, overlap: 0.0, refit: Some(true) });
        assert_eq!(spec.refit_index(), Some(4));
        let mut spec = CycleSpec::article(10.0, 4.0);
        spec.stages[3].refit = Some(false);
        assert_eq!(spec.refit_index(), None);
        assert_eq!(
            problems_of(&spec),
            ["stages: no stage is the refit: mark one as the refit (\"refit\": true in a file) or name it \"refit\""]
        );
    }

    #[test]
    fn a_refit_with_nothing_to_transfer_says_so_rather_than_one_times_faster() {
        let mut waiting = CycleSpec::article(10.0, 4.0);
        waiting.refit = Some(RefitSplit { wait: 10.0, transfer: None, preparation: 0.0 });
        assert_eq!(
            waiting.report().unwrap().summary,
            "The refit has no transfer: there is nothing for a speedup of 4 to shorten; the cycle stays 120 s. Even \
             an instant transfer would save nothing: the wait (10 s) remains."
        );
        assert_eq!(
            CycleSpec::article(0.0, 4.0).report().unwrap().summary,
            "The refit takes 0 s: there is nothing for a speedup of 4 to shorten; the cycle stays 110 s. Even an \
             instant refit would save nothing."
        );
    }

    #[test]
    fn every_validation_problem_names_its_field() {
        // One of each problem, each checked on its own so a missing one is obvious.
        let with = |edit: &dyn Fn(&mut CycleSpec)| {
            let mut spec = CycleSpec::article(10.0, 4.0);
            edit(&mut spec);
            problems_of(&spec)
        };
        assert_eq!(
            with(&|s| s.stages[1].seconds = -5.0),
            ["stages[1].seconds: -5 s is negative; a duration is 0 s or more"]
        );
        assert_eq!(
            with(&|s| s.stages[1].seconds = f64::NAN),
            ["stages[1].seconds: must be a finite number of seconds"]
        );
        assert_eq!(
            with(&|s| s.stages[1].seconds = f64::INFINITY),
            ["stages[1].seconds: must be a finite number of seconds"]
        );
        assert_eq!(
            with(&|s| s.stages[1].seconds = 2e9),
            ["stages[1].seconds: 2000000000 s is longer than 10⁹ s (about 31 years); is the unit right?"]
        );
        assert_eq!(
            with(&|s| s.stages[1].seconds = 1.5e308),
            ["stages[1].seconds: 1.5e308 s is longer than 10⁹ s (about 31 years); is the unit right?"]
        );
        // Tiny durations lost their digits in sums: refused below 1 µs, 0 and 1 µs taken.
        assert_eq!(
            with(&|s| s.stages[1].seconds = 5e-324),
            ["stages[1].seconds: 4.94e-324 s is shorter than 1 µs; a duration is 0 s, or 0.000001 s or more"]
        );
        for fine in [1e-6, 0.0] {
            let mut spec = CycleSpec::article(10.0, 4.0);
            spec.stages[1].seconds = fine;
            assert_eq!(spec.validate(), Ok(()), "{fine} s");
        }
        assert_eq!(parse_measured_seconds("1e-9").map_err(|e| e.contains("shorter than 1 µs")), Err(true));
        assert_eq!(with(&|s| s.stages[0].name = "  ".into()), ["stages[0].name: stage name is empty"]);
        assert_eq!(
            with(&|s| s.stages[2].overlap = 20.0),
            ["stages[2].overlap: 20 s overlap is longer than the previous stage, \"scoring\" (10 s)"]
        );
        assert_eq!(
            with(&|s| s.stages[2].overlap = 40.0),
            [
                "stages[2].overlap: 40 s overlap is longer than the previous stage, \"scoring\" (10 s)",
                "stages[2].overlap: 40 s overlap is longer than this stage, \"training\" (30 s)",
            ]
        );
        assert_eq!(
            with(&|s| s.stages[1].overlap = 20.0),
            ["stages[1].overlap: 20 s overlap is longer than this stage, \"scoring\" (10 s)"]
        );
        assert_eq!(
            with(&|s| s.stages[1].overlap = -3.0),
            ["stages[1].overlap: -3 s is negative; a gap between stages is a stage of its own (e.g. \"idle\")"]
        );
        assert_eq!(
            with(&|s| s.stages[1].overlap = f64::NAN),
            ["stages[1].overlap: must be a finite number of seconds"]
        );
        assert_eq!(
            with(&|s| s.stages[0].overlap = 5.0),
            ["stages[0].overlap: the first stage has no previous stage to overlap; start the list at a stage that \
                 does not overlap the one before it"]
        );
        assert_eq!(
            with(&|s| s.stages[3].name = "sync".into()),
            ["stages: no stage is the refit: mark one as the refit (\"refit\": true in a file) or name it \"refit\""]
        );
        assert_eq!(
            with(&|s| s.stages[0].name = "Refit".into()),
            [
                "stages[0].name: stage 4 is named \"refit\" too; a cycle has exactly one refit: rename one, or mark \
                 which is the refit",
                "stages[3].name: stage 1 is named \"refit\" too; a cycle has exactly one refit: rename one, or mark \
                 which is the refit"
            ]
        );
        assert_eq!(
            with(&|s| {
                s.stages[0].refit = Some(true);
                s.stages[2].refit = Some(true);
            }),
            ["stages[2].refit: stage 1 is marked as the refit too; a cycle has exactly one refit"]
        );
        assert_eq!(
            with(&|s| s.refit = Some(RefitSplit { wait: 3.0, transfer: Some(5.0), preparation: 0.0 })),
            ["refit: wait 3 s + transfer 5 s + preparation 0 s = 8 s, but the refit stage \"refit\" lasts 10 s: put \
                 the other 2 s in the wait or the preparation, or leave the transfer empty for the rest"]
        );
        assert_eq!(
            with(&|s| s.refit = Some(RefitSplit { wait: 3.0, transfer: Some(9.0), preparation: 0.0 })),
            ["refit: wait 3 s + transfer 9 s + preparation 0 s = 12 s, but the refit stage \"refit\" lasts 10 s: \
                 shorten a part, or lengthen the stage"]
        );
        assert_eq!(
            with(&|s| s.refit = Some(RefitSplit { wait: 8.0, transfer: None, preparation: 5.0 })),
            ["refit: wait 8 s + preparation 5 s = 13 s is longer than the refit stage, \"refit\" (10 s)"]
        );
        assert_eq!(
            with(&|s| s.refit = Some(RefitSplit { wait: -1.0, transfer: None, preparation: 0.0 })),
            ["refit.wait: -1 s is negative; a duration is 0 s or more"]
        );
        assert_eq!(
            with(&|s| s.speedup = 0.0),
            ["speedup: s must be greater than 0, not 0 (1 = unchanged, below 1 = a slowdown)"]
        );
        assert_eq!(
            with(&|s| s.speedup = -2.0),
            ["speedup: s must be greater than 0, not -2 (1 = unchanged, below 1 = a slowdown)"]
        );
        assert_eq!(with(&|s| s.speedup = f64::INFINITY), ["speedup: must be a finite number"]);
        assert_eq!(
            with(&|s| s.speedup = 1e308),
            ["speedup: 1e308 is outside the speedups this calculator takes, 10⁻⁶ to 10⁶"]
        );
        assert_eq!(
            with(&|s| s.speedup = 1e-7),
            ["speedup: 1.00e-7 is outside the speedups this calculator takes, 10⁻⁶ to 10⁶"]
        );
        for edge in [MIN_SPEEDUP, MAX_SPEEDUP] {
            assert!(CycleSpec { speedup: edge, ..CycleSpec::article(10.0, 0.0) }.validate().is_ok(), "{edge}");
        }
        assert_eq!(with(&|s| s.stages.clear()), ["stages: a cycle needs at least one stage, one of them the refit"]);
        assert_eq!(
            with(&|s| s.stages.extend((0..61).map(|i| Stage::new(format!("extra {i}"), 1.0)))),
            ["stages: 65 stages; at most 64 are allowed"]
        );
        assert_eq!(
            with(&|s| s.stages.iter_mut().for_each(|stage| stage.seconds = 0.0)),
            ["stages: every stage lasts 0 s; the cycle needs a positive length"]
        );
    }

    #[test]
    fn validation_collects_every_problem_at_once() {
        let mut spec = CycleSpec::article(10.0, 0.0);
        spec.stages[0].name = String::new();
        spec.stages[1].seconds = -1.0;
        spec.stages[3].name = "sync".into();
        let problems = problems_of(&spec);
        let paths: Vec<&str> = problems.iter().map(|p| p.split(':').next().unwrap_or_default()).collect();
        assert_eq!(paths, ["stages[0].name", "stages[1].seconds", "stages", "speedup"]);
    }

    #[test]
    fn parse_errors_carry_the_path_of_the_field() {
        let Err(problems) =
            parse_cycle(r#"{"stages": [{"name": "a", "seconds": 1}, {"name": "b", "seconds": "ten"}]}"#)
        else {
            panic!("a string is not seconds")
        };
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path, "stages[1].seconds");
        let Err(problems) = parse_cycle(r#"{"stages": [{"name": "refit", "seconds": 1, "overlapp": 2}]}"#) else {
            panic!("unknown fields are refused")
        };
        assert_eq!(problems[0].path, "stages[0].overlapp");
        assert!(problems[0].message.contains("unknown field"), "{}", problems[0].message);
        let Err(problems) = parse_cycle(r#"{"stages": [{"name": "other", "seconds": 1}]}"#) else {
            panic!("parse_cycle validates too")
        };
        assert_eq!(problems[0].path, "stages");
        let Err(problems) = parse_cycle(r#"{"stages": [{"name": "refit", "seconds": 1}]}, "speedup": 4}"#) else {
            panic!("text after the object was dropped unread")
        };
        assert_eq!(
            problems[0].message,
            "text after the end of the cycle (line 1, column 46): one JSON object was expected"
        );
    }

    #[test]
    fn a_cycle_holding_numbers_that_are_not_finite_still_reads_back_from_its_json() {
        // A link or an autosave is the spec's JSON, where NaN and infinity are written `null`; reading that
        // back failed ("invalid type: null, expected f64"), so a reload lost every edit. It must read back
        // and name the fields instead.
        let mut spec = CycleSpec::article(10.0, 4.0);
        spec.stages[1].seconds = f64::NAN;
        spec.stages[2].overlap = f64::INFINITY;
        spec.refit = Some(RefitSplit { wait: f64::NEG_INFINITY, transfer: None, preparation: f64::NAN });
        spec.speedup = f64::NAN;
        let json = serde_json::to_string(&spec).unwrap_or_default();
        assert!(json.contains("null"), "{json}");
        let read: CycleSpec = match serde_json::from_str(&json) {
            Ok(read) => read,
            Err(e) => panic!("{e}: {json}"),
        };
        assert_eq!(read.stages[0], spec.stages[0], "the good fields are kept");
        assert_eq!(
            problems_of(&read),
            [
                "stages[1].seconds: must be a finite number of seconds",
                "stages[2].overlap: must be a finite number of seconds",
                "refit.wait: must be a finite number of seconds",
                "refit.preparation: must be a finite number of seconds",
                "speedup: must be a finite number",
            ]
        );
        // An autosave written by a version that let a cleared field through opens too.
        let saved = r#"{"stages": [{"name": "refit", "seconds": null}], "speedup": 4}"#;
        assert_eq!(
            parse_cycle(saved).map_err(|p| p.iter().map(Problem::to_string).collect::<Vec<_>>()),
            Err(vec!["stages[0].seconds: must be a finite number of seconds".to_string()])
        );
    }

    #[test]
    fn typed_numbers_are_read_or_refused_with_what_was_typed() {
        let seconds = |text: &str| read_typed_number(text, "a number of seconds");
        assert_eq!(seconds(" 12.5 "), Ok(12.5));
        assert_eq!(seconds("-3"), Ok(-3.0), "the cycle's own checks say why -3 s is wrong, beside its field");
        assert_eq!(seconds("1e3"), Ok(1000.0));
        assert_eq!(seconds(""), Err("empty: enter a number of seconds".to_string()));
        assert_eq!(seconds("  "), Err("empty: enter a number of seconds".to_string()));
        assert_eq!(seconds("abc"), Err("\"abc\" is not a number: enter a number of seconds".to_string()));
        assert_eq!(seconds("1e400"), Err("1e400 is too large a number: enter a number of seconds".to_string()));
        assert_eq!(seconds("-1e400"), Err("-1e400 is too large a number: enter a number of seconds".to_string()));
        // Rust reads these words as numbers; a user who typed them did not mean one.
        for word in ["inf", "NaN", "infinity"] {
            assert_eq!(seconds(word), Err(format!("\"{word}\" is not a number: enter a number of seconds")));
        }
        assert_eq!(
            seconds("1,5"),
            Err("\"1,5\" is not a number: write decimals with a point and no thousands separators".to_string())
        );
        // A long paste is quoted short.
        let pasted = seconds(&"x".repeat(10_000)).unwrap_err();
        assert!(pasted.len() < 100, "{pasted}");
    }

    #[test]
    fn startup_cycles_are_a_whole_number_or_a_message() {
        const WHOLE: &str = "k must be a whole number of cycles, 0 or more";
        assert_eq!(read_startup_cycles("0"), Ok(0));
        assert_eq!(read_startup_cycles(" 3 "), Ok(3));
        assert_eq!(read_startup_cycles("-1"), Err(format!("-1 is negative; {WHOLE}")));
        assert_eq!(read_startup_cycles("2.5"), Err(format!("2.5 is not whole; {WHOLE}")));
        assert_eq!(read_startup_cycles(""), Err(format!("empty: {WHOLE}")));
        assert_eq!(read_startup_cycles("abc"), Err(format!("\"abc\" is not a number; {WHOLE}")));
        assert_eq!(read_startup_cycles("1e400"), Err(format!("1e400 is too large a number; {WHOLE}")));
        assert_eq!(read_startup_cycles("2.0"), Ok(2), "a whole number written with a point is still whole");
        let most = format!("k is at most {MAX_STARTUP_CYCLES}");
        assert_eq!(read_startup_cycles("10000000"), Ok(MAX_STARTUP_CYCLES));
        for huge in ["10000001", "99999999999999999999999", "5e9"] {
            let refused = read_startup_cycles(huge).expect_err("more cycles than any file has");
            assert!(refused.starts_with(huge) && refused.ends_with(&most), "{refused}");
        }
    }

    #[test]
    fn the_example_files_reproduce_the_article() {
        let report = report_of(&parsed(include_str!("../../examples/cycle-120.json")));
        assert_eq!((report.before.cycle_seconds, report.after.cycle_seconds), (120.0, 112.5));
        let report = report_of(&parsed(include_str!("../../examples/cycle-160.json")));
        assert_eq!((report.before.cycle_seconds, report.after.cycle_seconds), (160.0, 122.5));
    }

    #[test]
    fn a_spec_survives_a_json_round_trip_and_the_report_serializes() {
        let spec = parsed(include_str!("../../examples/cycle-queue.json"));
        let json = serde_json::to_string(&spec).unwrap_or_default();
        assert_eq!(parsed(&json), spec);
        let report = serde_json::to_value(report_of(&spec)).unwrap_or_default();
        assert_eq!(report["after"]["cycle_seconds"], 118.5);
        assert_eq!(report["formula"]["exact"], true);
        assert_eq!(report["bound"]["best_cycle_seconds"], 118.0);
        assert_eq!(report["before"]["stages"][3]["refit"]["wait"], 8.0);
    }

    #[test]
    fn the_speedup_curve_follows_the_formula_and_skips_impossible_speedups() {
        let curve = speedup_curve(1.0 / 12.0, &[1.0, 4.0, 0.0, -1.0, f64::NAN, 1e12]);
        assert_eq!(curve.len(), 3);
        assert_eq!(curve[0], (1.0, 1.0));
        assert!(close(curve[1].1, 120.0 / 112.5));
        assert!(close(curve[2].1, 1.2 / 1.1) || (curve[2].1 - 1.2 / 1.1).abs() < 1e-9);
        assert!(speedup_curve(f64::NAN, &[2.0]).is_empty());
        assert_eq!(speedup_curve(2.0, &[4.0]), [(4.0, 4.0)], "f is clamped to 1");
    }

    #[test]
    fn log_spaced_speedups_span_the_chart_axis_evenly_on_a_log_scale() {
        let values = curve_speedups(4);
        assert_eq!(values.len(), 4);
        assert_eq!((values[0], values[3]), (0.1, 100.0));
        assert!(close(values[1], 1.0) && close(values[2], 10.0), "{values:?}");
        assert_eq!(log_spaced(0.1, 100.0, 1), [0.1]);
        assert!(log_spaced(0.1, 100.0, 0).is_empty());
        assert!(log_spaced(0.0, 100.0, 5).is_empty() && log_spaced(10.0, 1.0, 5).is_empty());
        assert_eq!(log_spaced(1.0, 2.0, usize::MAX).len(), MAX_CURVE_POINTS);
    }

    #[test]
    fn a_bad_csv_row_is_reported_by_line_and_the_good_rows_still_load() {
        let text = "cycle,stage,seconds\n1,generation,70\n1,refit,10\n\n# a comment\n2,generation,71\n2,refit,abc\n2,scoring\n-1,refit,3\n3,refit,-2\n";
        let measurements = parse_measurements(text);
        assert_eq!(measurements.rows.len(), 3);
        assert_eq!(measurements.rows[2], Measurement { line: 6, cycle: 2, stage: "generation".into(), seconds: 71.0 });
        let problems: Vec<String> = measurements.problems.iter().map(Problem::to_string).collect();
        assert_eq!(
            problems,
            [
                "line 7: seconds \"abc\" is not a number",
                "line 8: expected 3 fields like the header, found 2",
                "line 9: cycle \"-1\" is not a whole number (0 or more)",
                "line 10: seconds -2 is negative",
            ]
        );
    }

    #[test]
    fn csv_reads_headers_in_any_order_quotes_and_windows_line_ends() {
        let text =
            "\u{feff}Stage,Seconds,Cycle,version\r\n\"generation, long\",70.5,1,v1\r\n\"say \"\"hi\"\"\",1e1,1,v1\r\n";
        let measurements = parse_measurements(text);
        assert!(measurements.problems.is_empty(), "{:?}", measurements.problems);
        assert_eq!(measurements.rows[0].stage, "generation, long");
        assert_eq!(measurements.rows[1].stage, "say \"hi\"");
        assert_eq!((measurements.rows[1].seconds, measurements.rows[1].cycle), (10.0, 1));
    }

    #[test]
    fn csv_without_a_header_is_read_as_cycle_stage_seconds() {
        let measurements = parse_measurements("1,refit,10\n2,refit,inf\n2,refit,\"9\n");
        assert_eq!(measurements.rows.len(), 1);
        let problems: Vec<String> = measurements.problems.iter().map(Problem::to_string).collect();
        assert_eq!(
            problems,
            ["line 2: seconds \"inf\" is not a finite number", "line 3: a quoted field is not closed"]
        );
        let measurements = parse_measurements("id,name,time\n1,refit,10\n");
        assert_eq!(
            measurements.problems[0].to_string(),
            "line 1: the header needs the columns cycle, stage, seconds (or cycle and a column per stage); found id, \
             name, time"
        );
        assert_eq!(measurements.rows.len(), 1);
    }

    #[test]
    fn tab_and_semicolon_separated_measurements_load_as_commas_do() {
        // A spreadsheet's copy is tab-separated: every row was "expected 3 fields, found 1".
        for separator in ["\t", ";"] {
            let text = ["Cycle", "Stage", "Seconds\n1", "rollout", "70.5\n1", "weight sync", "10\n"].join(separator);
            let measurements = parse_measurements(&text);
            assert!(measurements.problems.is_empty(), "{separator:?}: {:?}", measurements.problems);
            assert_eq!(measurements.rows[1].stage, "weight sync");
            assert_eq!(measurements.rows[0].seconds, 70.5);
        }
        // A comma on the first line keeps commas the separator, a tab inside a field notwithstanding.
        assert_eq!(parse_measurements("1,a\tb,3\n").rows[0].stage, "a\tb");
        assert_eq!(parse_measurements("1,\"a;b\",3\n").rows[0].stage, "a;b");
        // A European export without a header: semicolons between fields, a decimal comma in the seconds.
        let european = parse_measurements("1;generation;70,52\r\n1;refit;9,5\r\n");
        assert!(european.problems.is_empty(), "{:?}", european.problems);
        let read: Vec<(&str, f64)> = european.rows.iter().map(|r| (r.stage.as_str(), r.seconds)).collect();
        assert_eq!(read, [("generation", 70.52), ("refit", 9.5)]);
    }

    #[test]
    fn a_wide_table_of_a_column_per_stage_loads_one_row_per_stage_and_cycle() {
        // One row per training step, a column of seconds per stage: how loggers export timings.
        let text = "step,timing_s/gen,timing_s/reward,timing_s/update_actor,timing_s/sync\n\
                    1,70.2,10,30.5,10.4\n\
                    2,69.8,,31,x\n";
        let measurements = parse_measurements(text);
        let rows: Vec<(u64, &str, f64)> =
            measurements.rows.iter().map(|r| (r.cycle, r.stage.as_str(), r.seconds)).collect();
        assert_eq!(
            rows,
            [
                (1, "gen", 70.2),
                (1, "reward", 10.0),
                (1, "update_actor", 30.5),
                (1, "sync", 10.4),
                (2, "gen", 69.8),
                (2, "update_actor", 31.0),
            ]
        );
        let problems: Vec<String> = measurements.problems.iter().map(Problem::to_string).collect();
        assert_eq!(problems, ["line 3: sync: seconds \"x\" is not a number"]);
        // The refit named as the cycle's: f from the typical cycle, the empty cell counted as 0 s.
        let measured = stage_stats(&measurements, 0, Some("timing_s/sync"));
        assert!(measured.problems.is_empty(), "{:?}", measured.problems);
    }

    #[test]
    fn a_loggers_json_lines_keep_their_stages_in_the_order_written() {
        // A map sorts its keys: verl's adv came before gen, and the refit before training.
        let flat = "{\"step\": 1, \"timing_s/gen\": 40, \"timing_s/adv\": 2, \"timing_s/update_actor\": 20, \
                    \"timing_s/update_weights\": 5}\n";
        let nested = "{\"step\": 1, \"note\": \"a: {b}\", \"timing_s\": {\"gen\": 40, \"adv\": 2, \"update_actor\": 20, \
                      \"update_weights\": 5}, \"list\": [{\"x\": 1}]}\n";
        for text in [flat, nested] {
            let stages: Vec<String> = parse_measurements(text).rows.into_iter().map(|row| row.stage).collect();
            assert_eq!(stages, ["gen", "adv", "update_actor", "update_weights"], "{text}");
        }
        assert_eq!(
            keys_as_written(r#"{"a\"b": 1, "t": {"x": [1, {"y": 2}], "z": {"deep": 3}}, "u" : 2}"#),
            ["a\"b", "t", "t/x", "t/z", "u"]
        );
    }

    #[test]
    fn json_lines_and_json_keys_in_any_case_load() {
        let text =
            "{\"Cycle\": 1, \"STAGE\": \"refit\", \"Seconds\": 10}\n\n{\"cycle\": 2, \"stage\": \"refit\"}\n{oops\n";
        let measurements = parse_measurements(text);
        assert_eq!(measurements.rows, [Measurement { line: 1, cycle: 1, stage: "refit".into(), seconds: 10.0 }]);
        let problems: Vec<String> = measurements.problems.iter().map(Problem::to_string).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0], "line 3: seconds is missing");
        assert!(problems[1].starts_with("line 4: key must be a string"), "{problems:?}");
        let array = parse_measurements("[{\"Cycle\": 1, \"Stage\": \"refit\", \"Seconds\": 10}]");
        assert!(array.problems.is_empty() && array.rows.len() == 1, "{:?}", array.problems);
    }

    #[test]
    fn stages_sharing_a_name_are_found_in_any_case() {
        let mut spec = CycleSpec {
            stages: vec![Stage::new("refit", 70.0), Stage::new("scoring", 10.0), Stage::new(" Refit", 10.0)],
            refit: None,
            speedup: 4.0,
        };
        assert_eq!(spec.shared_names(), [("refit".to_string(), vec![0, 2])]);
        spec.stages[0].name = "generation".into();
        assert!(spec.shared_names().is_empty());
    }

    #[test]
    fn a_stage_measured_twice_in_one_cycle_keeps_the_first_time() {
        let measurements = parse_measurements("1,refit,10\n1,refit,12\n");
        assert_eq!(measurements.rows.len(), 1);
        assert_eq!(
            measurements.problems[0].to_string(),
            "line 2: cycle 1 already has a time for stage \"refit\" (line 1); each stage appears once per cycle"
        );
    }

    #[test]
    fn stages_beyond_the_most_a_cycle_has_are_bad_rows() {
        // Stage names that differ per cycle (a run id in the name, say): the first 64 load, the rest are
        // reported by line, while rows of the known stages still load.
        let mut text: String = (1..=70).map(|i| format!("{i},step-{i},1.5\n")).collect();
        text.push_str("71,step-3,2\n");
        let measurements = parse_measurements(&text);
        assert_eq!(measurements.rows.len(), MAX_STAGES + 1);
        assert_eq!(
            measurements.problems.iter().map(Problem::to_string).collect::<Vec<_>>(),
            ["line 65: 6 stages past the first 64 are left out (\"step-65\" … \"step-70\"), 6 rows in all; a cycle \
              has at most 64 stages"]
        );
        let one = parse_measurements(&(1..=65).map(|i| format!("{i},step-{i},1.5\n")).collect::<String>());
        assert_eq!(
            one.problems[0].to_string(),
            "line 65: stage \"step-65\" would be stage 65; a cycle has at most 64, so it is left out (1 row)"
        );
        assert_eq!(stage_stats(&measurements, 0, None).steady.stages.len(), MAX_STAGES);
    }

    #[test]
    fn json_measurements_report_bad_rows_by_line() {
        let text = r#"[
  {"cycle": 1, "stage": "generation", "seconds": 70.2},
  {"cycle": 1, "stage": "refit", "seconds": "abc"},
  {"cycle": "2", "stage": "refit", "seconds": "9.5", "version": 7},
  3,
  {"cycle": 2.5, "stage": "", "seconds": true}
]"#;
        let measurements = parse_measurements(text);
        assert_eq!(measurements.rows.len(), 2);
        assert_eq!(measurements.rows[1], Measurement { line: 4, cycle: 2, stage: "refit".into(), seconds: 9.5 });
        let problems: Vec<String> = measurements.problems.iter().map(Problem::to_string).collect();
        assert_eq!(
            problems,
            [
                "line 3: seconds \"abc\" is not a number",
                "line 5: a row must be an object such as {\"cycle\": 1, \"stage\": \"generation\", \"seconds\": 70.2}, not a number",
                "line 6: cycle 2.5 is not a whole number (0 or more)",
                "line 6: stage name is empty",
                "line 6: seconds must be a number, not true/false",
            ]
        );
    }

    #[test]
    fn malformed_json_measurements_are_one_problem_with_a_line() {
        let measurements = parse_measurements("[\n {\"cycle\": 1,\n \"stage\" \"refit\"}\n]");
        assert!(measurements.rows.is_empty());
        assert_eq!(measurements.problems.len(), 1);
        assert_eq!(measurements.problems[0].path, "line 3");
    }

    #[test]
    fn a_cycle_is_named_in_one_line() {
        let spec = parse_cycle(include_str!("../../examples/cycle-120.json")).unwrap();
        let report = spec.report().unwrap();
        assert_eq!(
            describe_cycle(&spec, Some(&report)),
            "RL cycle of 120 s: generation 70 s, scoring 10 s, training 30 s, refit 10 s · s = 4"
        );
        assert!(describe_cycle(&spec, None).starts_with("RL cycle: generation 70 s"));
    }

    #[test]
    fn binary_data_is_one_problem_that_quotes_none_of_it() {
        // A PNG's first bytes as the browser reads them (not UTF-8 → U+FFFD), then a NUL on line 2.
        let png = "\u{fffd}PNG\r\n\u{1a}\n\0\0\0\rIHDR";
        let measurements = parse_measurements(png);
        assert!(measurements.rows.is_empty());
        assert_eq!(measurements.problems.len(), 1);
        assert_eq!(measurements.problems[0].path, "line 1");
        assert!(measurements.problems[0].message.starts_with("not text: binary data"));
        assert!(!measurements.problems[0].message.contains("PNG"));
        let late = parse_measurements("cycle,stage,seconds\n1,refit,10\n2,refit,\u{0}");
        assert_eq!(late.problems[0].path, "line 3");
        // Tabs and Windows line ends are text.
        let windows = parse_measurements("cycle,stage,seconds\r\n1,refit,\t10\r\n");
        assert_eq!((windows.rows.len(), windows.problems.len()), (1, 0));
    }

    #[test]
    fn a_file_of_bad_rows_reports_a_bounded_number_of_problems() {
        let text: String = (1..=250).map(|i| format!("{i},refit,x\n")).collect();
        let measurements = parse_measurements(&text);
        assert_eq!(measurements.problems.len(), MAX_REPORTED_ROW_PROBLEMS + 1);
        assert_eq!(measurements.problems[MAX_REPORTED_ROW_PROBLEMS].to_string(), "and 150 more bad rows");
    }

    #[test]
    fn distributions_use_the_midpoint_median_and_the_nearest_rank_p90() {
        let values: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        let distribution = Distribution::of(&values);
        assert_eq!(distribution, Some(Distribution { samples: 10, min: 1.0, median: 5.5, p90: 9.0, max: 10.0 }));
        let distribution = Distribution::of(&[3.0, 1.0, 2.0]);
        assert_eq!(distribution, Some(Distribution { samples: 3, min: 1.0, median: 2.0, p90: 3.0, max: 3.0 }));
        let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(Distribution::of(&twenty).map(|d| d.p90), Some(18.0));
        assert_eq!(Distribution::of(&[]), None);
    }

    #[test]
    fn startup_cycles_are_set_apart_by_cycle_id_and_the_steady_medians_give_f() {
        // Cycle 1 and 2 carry setup; rows arrive out of order; steady cycles are 3, 4, 5.
        let text = "cycle,stage,seconds\n\
                    3,generation,70\n3,scoring,10\n3,training,30\n3,refit,10\n\
                    1,generation,200\n1,scoring,10\n1,training,30\n1,refit,60\n\
                    5,generation,72\n5,scoring,10\n5,training,30\n5,refit,12\n\
                    2,generation,150\n2,refit,40\n\
                    4,generation,68\n4,scoring,10\n4,training,30\n4,refit,9\n";
        let measured = stage_stats(&parse_measurements(text), 2, None);
        assert_eq!(measured.startup.cycles, [1, 2]);
        assert_eq!(measured.steady.cycles, [3, 4, 5]);
        let startup_generation = &measured.startup.stages[0];
        assert_eq!((startup_generation.name.as_str(), startup_generation.distribution.median), ("generation", 175.0));
        let names: Vec<&str> = measured.steady.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["generation", "scoring", "training", "refit"]);
        let medians: Vec<f64> = measured.spec.stages.iter().map(|s| s.seconds).collect();
        assert_eq!(medians, [70.0, 10.0, 30.0, 10.0]);
        assert!(measured.refit_fraction.is_some_and(|f| close(f, 1.0 / 12.0)));
        assert_eq!(measured.steady.cycle_seconds.map(|d| (d.min, d.median, d.max)), Some((117.0, 120.0, 124.0)));
        assert!(measured.problems.is_empty() && measured.notes.is_empty(), "{:?}", measured.notes);
        let text = measured.to_string();
        assert!(text.contains("Startup: cycles 1, 2 (2 cycles)"), "{text}");
        assert!(text.contains("Refit share of the cycle: 0.0833 (8.33 %)"), "{text}");

        let all_steady = stage_stats(&parse_measurements(text_of_rows()), 0, None);
        assert!(all_steady.startup.cycles.is_empty() && all_steady.steady.cycles.len() == 2);
    }

    fn text_of_rows() -> &'static str {
        "1,refit,10\n1,work,90\n2,refit,20\n2,work,80\n"
    }

    #[test]
    fn stages_keep_their_usual_order_when_a_cycle_misses_one() {
        // Cycle 1 has no training row (a bad row, say): first seen, training would come after refit.
        let mut text = String::from("1,generation,95\n1,scoring,12\n1,refit,25\n");
        for cycle in 2..=4 {
            text += &format!("{cycle},generation,70\n{cycle},scoring,10\n{cycle},training,30\n{cycle},refit,10\n");
        }
        let measured = stage_stats(&parse_measurements(&text), 1, None);
        let names = |stages: &[StageStats]| stages.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&measured.steady.stages), ["generation", "scoring", "training", "refit"]);
        assert_eq!(names(&measured.startup.stages), ["generation", "scoring", "refit"]);
        let spec_names: Vec<&str> = measured.spec.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(spec_names, ["generation", "scoring", "training", "refit"]);
        // Rows of different cycles may interleave; the order within each cycle is what counts.
        let interleaved = stage_stats(&parse_measurements("1,b,1\n2,b,1\n1,a,1\n2,a,1\n"), 0, None);
        assert_eq!(names(&interleaved.steady.stages), ["b", "a"]);
    }

    #[test]
    fn too_many_startup_cycles_leave_no_steady_state_and_say_so() {
        let measured = stage_stats(&parse_measurements(text_of_rows()), 5, None);
        assert_eq!(measured.startup.cycles, [1, 2]);
        assert!(measured.steady.stages.is_empty() && measured.refit_fraction.is_none());
        assert_eq!(
            measured.notes,
            ["all 2 cycles are startup (startup = 5); lower the startup count to get a steady state"]
        );
        assert_eq!(measured.problems[0].path, "stages");
    }

    #[test]
    fn a_number_may_carry_its_unit() {
        for (text, units, expected) in [
            ("70", &['s'][..], 70.0),
            ("70s", &['s'], 70.0),
            (" 70 s ", &['s'], 70.0),
            ("4x", &['x', '×'], 4.0),
            ("4 ×", &['x', '×'], 4.0),
            ("1e3s", &['s'], 1000.0),
        ] {
            assert_eq!(read_number_with_unit(text, units, "seconds"), Ok(expected), "{text}");
        }
        assert!(read_number_with_unit("x", &['x'], "a speedup").is_err(), "a unit alone");
        assert!(read_number_with_unit("4 y", &['x'], "a speedup").is_err(), "another unit");
        assert!(read_number_with_unit("s", &['s'], "seconds").unwrap_err().contains("not a number"));
    }

    #[test]
    fn a_stage_measured_at_0_s_is_left_out_of_the_typical_cycle_and_said() {
        let measured = stage_stats(&parse_measurements("1,gen,0\n1,refit,0\n2,gen,0\n2,refit,0\n"), 0, None);
        assert!(measured.spec.stages.is_empty() && measured.refit_fraction.is_none());
        assert_eq!(
            measured.notes,
            [
                "stage \"gen\" has a steady-state median of 0 s: the typical cycle leaves it out",
                "stage \"refit\" has a steady-state median of 0 s: the typical cycle leaves it out"
            ]
        );
        let one = stage_stats(&parse_measurements("1,gen,70\n1,wait,0\n1,refit,10\n"), 0, None);
        assert_eq!(one.spec.stages.len(), 2);
        assert_eq!(one.notes.len(), 1, "{:?}", one.notes);
    }

    #[test]
    fn a_stage_missing_from_some_cycles_is_noted_and_no_refit_means_no_f() {
        let measured = stage_stats(&parse_measurements("1,work,90\n1,sync,10\n2,work,80\n"), 0, None);
        assert_eq!(
            measured.notes,
            ["stage \"sync\" was measured in 1 of 2 steady cycles; its statistics use those, and the typical cycle \
              counts it as 0 s in the others: median 5 s"]
        );
        assert_eq!(measured.refit_fraction, None);
        let text = measured.to_string();
        assert!(
            text.contains(
                "Cannot compute f: stages: no measured stage is the refit: none is named \"refit\" or \
                 \"update_weights\"; pick it under Refit stage, or rename the cycle's refit stage (Stages of one \
                 cycle) as the file names it"
            ),
            "{text}"
        );
    }

    /// `cycles` steady cycles of generation 70, scoring 10, training 30 and refit 10 s as CSV, plus `extra`.
    fn article_rows(cycles: u64, extra: &str) -> String {
        let mut text = String::from("cycle,stage,seconds\n");
        for c in 1..=cycles {
            text += &format!("{c},generation,70\n{c},scoring,10\n{c},training,30\n{c},refit,10\n");
        }
        text + extra
    }

    #[test]
    fn a_stage_seen_in_few_cycles_adds_its_typical_time_not_its_whole_time() {
        // One cycle of 300 ran an extra 10.1 s step: the typical cycle is still the article's 120 s (it was
        // 130.1 s, and f 7.7 % for 8.3 %).
        let measured = stage_stats(&parse_measurements(&article_rows(300, "16,extra,10.1\n")), 0, None);
        let names: Vec<&str> = measured.spec.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["generation", "scoring", "training", "refit"]);
        assert!(measured.refit_fraction.is_some_and(|f| close(f, 10.0 / 120.0)));
        assert!(
            measured.notes[0].ends_with(
                "in 1 of 300 steady cycles; its statistics use those, and the typical \
                                             cycle counts it as 0 s in the others: left out"
            ),
            "{:?}",
            measured.notes
        );
        // The steady table still shows the stage as measured.
        assert_eq!(
            measured.steady.stages.last().map(|s| (s.name.as_str(), s.distribution.median)),
            Some(("extra", 10.1))
        );
    }

    #[test]
    fn the_refit_is_the_measured_stage_named_as_the_cycles_refit_in_any_case() {
        let text = "1,Rollout,70\n1,weight_sync,10\n2,Rollout,74\n2,weight_sync,12\n";
        let measured = stage_stats(&parse_measurements(text), 0, Some("Weight_Sync"));
        assert!(measured.problems.is_empty(), "{:?}", measured.problems);
        assert!(measured.refit_fraction.is_some_and(|f| close(f, 11.0 / 83.0)));
        // Named as loggers name it, it is taken for the refit, and said.
        let by_its_name = stage_stats(&parse_measurements(text), 0, Some("sync"));
        assert!(by_its_name.problems.is_empty(), "{:?}", by_its_name.problems);
        assert!(by_its_name.refit_fraction.is_some_and(|f| close(f, 11.0 / 83.0)));
        assert_eq!(
            by_its_name.notes,
            ["\"weight_sync\" is taken for the refit: no stage is named \"refit\" or \"sync\""]
        );
        let unknown = "1,Rollout,70\n1,transfer,10\n";
        let without = stage_stats(&parse_measurements(unknown), 0, Some("sync"));
        assert_eq!(
            without.problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>(),
            ["no measured stage is the refit: none is named \"refit\" or \"sync\", as the cycle's refit is; pick it \
              under Refit stage, or rename the cycle's refit stage (Stages of one cycle) as the file names it"]
        );
    }

    #[test]
    fn a_loggers_wide_export_is_read_without_its_totals_clocks_and_companions() {
        // verl's names, a step total, W&B's min/max companions and run time, a clock, the refit in ms.
        let mut text = String::from(
            "_step,timing_s/gen,timing_s/gen__MIN,timing_s/train,timing_s/update_weights_ms,timing_s/step,_runtime,elapsed_s\n",
        );
        for step in 1..=10u32 {
            let (generation, train, refit) = (40.0 + f64::from(step % 3), 20.0, 4.0 + f64::from(step % 2));
            let total = generation + train + refit + 1.5;
            text += &format!(
                "{step},{generation},{},{train},{},{total},{},{}\n",
                generation - 1.0,
                refit * 1000.0,
                f64::from(step) * 70.0,
                f64::from(step) * 66.5
            );
        }
        let measured = stage_stats(&parse_measurements(&text), 0, None);
        let names: Vec<&str> = measured.spec.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["timing_s/gen", "timing_s/train", "timing_s/update_weights"]);
        let (generation, refit) = (41.0, 4.5);
        assert!(
            measured.refit_fraction.is_some_and(|f| close(f, refit / (generation + 20.0 + refit))),
            "{:?}",
            measured.refit_fraction
        );
        assert_eq!(
            measured.notes,
            [
                "not stages, left out: \"timing_s/gen__MIN\", \"_runtime\"",
                "read as milliseconds: \"timing_s/update_weights_ms\"",
                "\"elapsed_s\" is left out: it grows from cycle to cycle, a clock rather than a stage",
                "\"timing_s/step\" is left out: in nearly every cycle it is at least the sum of the other stages, each \
                 cycle's total rather than a stage",
                "\"timing_s/update_weights\" is taken for the refit: no stage is named \"refit\"",
            ]
        );
    }

    #[test]
    fn verl_style_json_lines_are_read_a_cycle_a_line() {
        let flat = "{\"step\": 1, \"timing_s/gen\": 41.2, \"timing_s/update_weights\": 4.2, \"actor/lr\": 0.001}\n\
                    {\"step\": 2, \"timing_s/gen\": 40.8, \"timing_s/update_weights\": 4.0, \"actor/lr\": 0.001}\n";
        let nested = "{\"global_step\": 1, \"timing_s\": {\"gen\": 41.2, \"update_weights\": 4.2}, \"critic/score\": 0.5}\n\
                      {\"global_step\": 2, \"timing_s\": {\"gen\": 40.8, \"update_weights\": 4.0}, \"critic/score\": 0.7}\n";
        for text in [flat, nested] {
            let measured = parse_measurements(text);
            assert!(measured.problems.is_empty(), "{:?}", measured.problems);
            let rows: Vec<(u64, &str, f64)> =
                measured.rows.iter().map(|r| (r.cycle, r.stage.as_str(), r.seconds)).collect();
            assert_eq!(
                rows,
                [(1, "gen", 41.2), (1, "update_weights", 4.2), (2, "gen", 40.8), (2, "update_weights", 4.0)]
            );
            let stats = stage_stats(&measured, 0, None);
            assert!(stats.refit_fraction.is_some_and(|f| close(f, 4.1 / 45.1)), "{:?}", stats.problems);
        }
        // The long form counts steps too.
        let long = parse_measurements("{\"step\": 3, \"stage\": \"refit\", \"seconds\": 4.2}\n");
        assert!(long.problems.is_empty() && long.rows[0].cycle == 3, "{:?}", long.problems);
        // Without timing keys every number is a stage.
        let plain = parse_measurements("{\"step\": 1, \"gen\": 40, \"refit\": 10}\n");
        assert_eq!(plain.rows.len(), 2);
        assert_eq!(plain.notes, ["each object is read as one cycle, a stage per number"]);
    }

    #[test]
    fn a_runs_prefix_is_left_out_and_a_unit_out_of_place_is_questioned() {
        let measured = parse_measurements("step,my-run - gen,my-run - refit\n1,40,4\n");
        let names: Vec<&str> = measured.rows.iter().map(|r| r.stage.as_str()).collect();
        assert_eq!(names, ["gen", "refit"]);
        // The refit's column in milliseconds, unlike the others, and nothing in its name says so.
        let stats = stage_stats(&parse_measurements("step,gen,ref,train,refit\n1,71.52,5.886,35.318,12837\n"), 0, None);
        assert!(
            stats.notes.iter().any(|n| n.starts_with("stage \"refit\" takes 114× as long as all the others together")),
            "{:?}",
            stats.notes
        );
    }

    #[test]
    fn a_relaunched_job_is_read_as_its_last_run() {
        // A first attempt's slow refits, a crash, a relaunch from step 0 under a repeated header.
        let mut text = String::from("step,gen,refit\n");
        for step in 0..5 {
            text += &format!("{step},70,30\n");
        }
        text += "step,gen,refit\n";
        for step in 0..4 {
            text += &format!("{step},70,10\n");
        }
        let measured = parse_measurements(&text);
        assert!(measured.problems.is_empty(), "{:?}", measured.problems);
        assert_eq!(
            measured.notes,
            [
                "the header is repeated on line 7 (a resumed log?) and skipped",
                "the cycles start again at 0 on line 8 (a relaunch?): the later rows replace the 10 rows before them \
                 from cycle 0 on",
            ]
        );
        let refits: Vec<f64> = measured.rows.iter().filter(|r| r.stage == "refit").map(|r| r.seconds).collect();
        assert_eq!(refits, [10.0; 4]);
        // Cycle ids out of order, not a job relaunched: past MAX_RELAUNCHES each repeat is refused, not read as
        // one more relaunch (each dropped the rows it repeats, a pass over all of them: 40,000 froze the page
        // for 27 s, with as many notes; review 40).
        let mut text = String::from("cycle,stage,seconds\n");
        for cycle in 1..=400 {
            text += &format!("{cycle},refit,1\n");
        }
        for _ in 0..400 {
            text += "401,gen,1\n400,refit,2\n";
        }
        let measured = parse_measurements(&text);
        assert_eq!(measured.notes.len(), 5, "{:?}", measured.notes);
        assert!(measured.notes[2].starts_with("the cycles start again at 400 on line 407 (a relaunch?)"));
        assert_eq!(measured.notes[3], "and 97 more relaunches, read alike");
        assert!(
            measured.notes[4].starts_with("the cycles start again once more on line 603: more than 100"),
            "{}",
            measured.notes[4]
        );
        assert_eq!(measured.problems.len(), MAX_REPORTED_ROW_PROBLEMS + 1, "the rest counted in a last one");
        // Stage-major order goes back to cycle 1 without repeating a stage of it: no relaunch.
        let by_stage = parse_measurements("1,gen,70\n2,gen,71\n1,refit,10\n2,refit,11\n");
        assert_eq!(by_stage.rows.len(), 4);
        assert!(by_stage.notes.is_empty() && by_stage.problems.is_empty());
    }

    #[test]
    fn seconds_with_their_unit_and_decimal_commas_are_read() {
        let measured = parse_measurements("cycle;stage;seconds\n1;gen;71,52\n1;refit;4200ms\n2;gen;70.5s\n");
        assert!(measured.problems.is_empty(), "{:?}", measured.problems);
        let seconds: Vec<f64> = measured.rows.iter().map(|r| r.seconds).collect();
        assert_eq!(seconds, [71.52, 4.2, 70.5]);
        // Between commas a comma is a separator, and `1,5` no number.
        assert!(!parse_measurements("cycle,stage,ms\n1,gen,\"1,5\"\n").problems.is_empty());
        assert_eq!(
            read_typed_number("1e-400", "a number of seconds"),
            Err("1e-400 is too small to tell from 0: enter a number of seconds".to_string())
        );
        let tiny = parse_measurements("1,gen,1e-400\n");
        assert_eq!(tiny.problems[0].to_string(), "line 1: seconds \"1e-400\" is too small to tell from 0");
        let ms = parse_measurements("cycle,stage,ms\n1,gen,1500\n");
        assert_eq!(ms.rows[0].seconds, 1.5);
        assert_eq!(ms.notes, ["the column \"ms\" is read as milliseconds"]);
    }

    #[test]
    fn measured_names_in_another_case_keep_the_cycles_order_overlaps_and_refit_parts() {
        let mut ours = CycleSpec::article(10.0, 4.0);
        ours.stages[1].overlap = 4.0;
        ours.refit = Some(RefitSplit { wait: 2.0, transfer: None, preparation: 1.0 });
        let text = article_rows(3, "").replace("generation", "Generation").replace("refit", "REFIT ");
        let measured = stage_stats(&parse_measurements(&text), 0, None);
        assert!(ours.names_the_stages_of(&measured.spec));
        let kept = ours.with_measured_seconds(&measured.spec).expect("the same stages");
        assert_eq!(kept.stages[0].name, "generation", "the cycle's own names stay");
        assert_eq!(kept.stages[1].overlap, 4.0);
        assert_eq!(kept.refit.map(|r| (r.wait, r.preparation)), Some((2.0, 1.0)));
    }

    #[test]
    fn a_refit_slow_in_some_cycles_is_said_where_the_medians_hide_it() {
        // Every fifth refit takes 60 s: the typical cycle is 120 s with refit 8.33 %, the mean cycle 130 s
        // with refit 15.4 % of the time.
        let mut text = String::from("cycle,stage,seconds\n");
        for c in 1..=100 {
            let refit = if c % 5 == 0 { 60 } else { 10 };
            text += &format!("{c},generation,70\n{c},scoring,10\n{c},training,30\n{c},refit,{refit}\n");
        }
        let measured = stage_stats(&parse_measurements(&text), 0, None);
        assert!(measured.refit_fraction.is_some_and(|f| close(f, 10.0 / 120.0)));
        assert_eq!(
            measured.notes,
            ["over all steady cycles the refit takes 15.38 % of the time (mean cycle 130 s), against 8.33 % in the \
              typical cycle: its slow and fast cycles weigh on the job's time, which the medians do not show"]
        );
        // Steady cycles alike say nothing.
        assert!(stage_stats(&parse_measurements(&article_rows(5, "")), 0, None).notes.is_empty());
    }

    /// A valid cycle of up to 8 stages with explicit refit flags, a wait and a preparation, and overlaps
    /// (when `overlapping`) within what validation allows.
    fn any_cycle(overlapping: bool) -> impl Strategy<Value = CycleSpec> {
        (
            prop::collection::vec((0.0f64..500.0, 0.0f64..1.0), 1..8),
            any::<prop::sample::Index>(),
            0.0f64..0.5,
            0.0f64..0.5,
        )
            .prop_map(move |(raw, refit_at, wait_share, preparation_share)| {
                let refit_index = refit_at.index(raw.len());
                let stages = raw
                    .iter()
                    .enumerate()
                    .map(|(i, &(seconds, overlap_share))| {
                        let previous = if i == 0 { 0.0 } else { raw[i - 1].0 };
                        let overlap = if overlapping { overlap_share * seconds.min(previous) } else { 0.0 };
                        Stage { name: format!("stage {i}"), seconds, overlap, refit: Some(i == refit_index) }
                    })
                    .collect();
                let refit_seconds = raw[refit_index].0;
                let split = RefitSplit {
                    wait: refit_seconds * wait_share,
                    transfer: None,
                    preparation: refit_seconds * preparation_share,
                };
                CycleSpec { stages, refit: Some(split), speedup: 1.0 }
            })
    }

    #[test]
    fn an_overlap_flattens_the_timeline_curve_where_the_formula_keeps_rising() {
        // Generation starts when 40 % of the 10 s transfer has run: the cycle is 110 s + 40 % of the
        // transfer, 114 s at s = 1 and 110 s at best, where the formula with f = 10/114 keeps rising toward
        // 1.096×.
        let spec: CycleSpec = parse_cycle(include_str!("../../examples/cycle-overlap.json")).expect("the preset");
        let s_values = [1.0, 2.0, 4.0, 100.0];
        let curve = spec.timeline_curve(&s_values).expect("a refit stage");
        for (&(s, speedup), expected) in curve.iter().zip(s_values.map(|s| 114.0 / (110.0 + 4.0 / s))) {
            assert!((speedup - expected).abs() < 1e-12, "s = {s}: {speedup}, expected {expected}");
        }
        assert!(curve[3].1 < 114.0 / 110.0, "below the bound");
        let formula = speedup_curve(10.0 / 114.0, &[100.0])[0].1;
        assert!(formula > 1.09, "{formula}");
        assert_eq!(spec.timeline_curve(&[f64::NAN, -1.0]), Some(Vec::new()), "bad s values are skipped");
    }

    #[test]
    fn a_refit_paced_by_training_is_said_and_drawn_as_long_as_it_lasts() {
        // The article's cycle with the refit starting 8 s before training ends: at s = 4 it lasts 8.5 s
        // (8 s paced by training, 0.5 s after), where the sentence said "Refit got 4× faster".
        let mut spec = parse_cycle(include_str!("../../examples/cycle-120.json")).expect("the preset");
        spec.stages[3].overlap = 8.0;
        let report = spec.report().expect("valid");
        assert_eq!(
            report.summary,
            "Transfer got 4× faster, so the refit got 1.176× faster; the cycle got 1.014× faster (1.34 % less \
             time). Even an instant transfer would save at most 2 s: sending as training makes the weights (8 s) \
             remains."
        );
        // With a wait and a preparation, the transfer is all under training: nothing changes, and all three
        // parts are named.
        spec.refit = Some(RefitSplit { wait: 2.0, transfer: None, preparation: 2.0 });
        let report = spec.report().expect("valid");
        let after = &report.after.stages[3];
        let segments: Vec<(RefitPart, f64, f64)> =
            after.refit_segments.iter().map(|s| (s.part, s.start, s.end)).collect();
        assert_eq!(
            segments,
            [(RefitPart::Wait, 102.0, 104.0), (RefitPart::Paced, 104.0, 110.0), (RefitPart::Preparation, 110.0, 112.0)]
        );
        assert_eq!(
            report.summary,
            "Transfer got 4× faster, but the refit lasts as long; the cycle stays 112 s. Even an instant transfer \
             would save nothing: the wait (2 s), sending as training makes the weights (6 s) and the preparation \
             (2 s) remain."
        );
    }

    #[test]
    fn the_refit_picked_by_name_is_the_only_one_marked_and_keeps_its_parts_only_if_it_stays() {
        let mut spec = parse_cycle(include_str!("../../examples/cycle-120.json")).expect("the preset");
        spec.refit = Some(RefitSplit { wait: 2.0, transfer: None, preparation: 1.0 });
        // The same refit, in another case: its parts stay.
        let same = spec.with_refit_named(" REFIT ").expect("a stage of that name");
        assert_eq!((same.refit_index(), &same.refit), (Some(3), &spec.refit));
        let moved = spec.with_refit_named("scoring").expect("a stage of that name");
        assert_eq!((moved.refit_index(), &moved.refit), (Some(1), &None));
        assert_eq!(moved.stages[3].refit, Some(false), "the stage named refit is not the refit any more");
        assert!(moved.report().is_ok());
        assert_eq!(spec.with_refit_named("sync"), None);
        let mut twice = spec.clone();
        twice.stages[0].name = "scoring".into();
        assert_eq!(twice.with_refit_named("scoring"), None, "two stages of that name");
    }

    #[test]
    fn a_refit_under_the_tail_of_training_sends_what_training_made_no_sooner_and_the_rest_faster() {
        // Training 0–10 s, the refit 8–12 s (2 s under training), generation after the whole refit, then
        // scoring: 18 s. At s = 4 the refit's first 2 s still end with training; its last 2 s take 0.5 s:
        // generation starts at 10.5 s (it started 1 s before the refit ended, with the refit held to 10 s).
        let spec = CycleSpec {
            stages: vec![
                Stage::new("train", 10.0),
                Stage { overlap: 2.0, ..Stage::new("refit", 4.0) },
                Stage::new("gen", 1.0),
                Stage::new("score", 5.0),
            ],
            refit: None,
            speedup: 4.0,
        };
        let report = spec.report().expect("valid");
        assert_eq!(report.before.cycle_seconds, 18.0);
        let refit = &report.after.stages[1];
        assert_eq!((refit.start, refit.end, refit.seconds), (8.0, 10.5, 1.0));
        let segments: Vec<(RefitPart, f64, f64)> =
            refit.refit_segments.iter().map(|s| (s.part, s.start, s.end)).collect();
        assert_eq!(segments, [(RefitPart::Paced, 8.0, 10.0), (RefitPart::Transfer, 10.0, 10.5)]);
        // Before the speedup the same 2 s are paced, and the 2 s after them are what shrank to 0.5 s: drawn
        // as one transfer, before read 4 s of transfer beside 2 s paced + 0.5 s after (review 35).
        let before: Vec<(RefitPart, f64, f64)> =
            report.before.stages[1].refit_segments.iter().map(|s| (s.part, s.start, s.end)).collect();
        assert_eq!(before, [(RefitPart::Paced, 8.0, 10.0), (RefitPart::Transfer, 10.0, 12.0)]);
        // A slower refit is its own bottleneck: nothing of it is paced.
        let slower = CycleSpec { speedup: 0.5, ..spec.clone() }.report().expect("valid");
        assert!(slower.after.stages[1].refit_segments.iter().all(|s| s.part != RefitPart::Paced));
        assert_eq!((report.after.stages[2].start, report.after.cycle_seconds), (10.5, 16.5));
        // Even an instant transfer saves only the 2 s after training.
        assert_eq!((report.bound.best_cycle_seconds, report.bound.max_seconds_saved), (16.0, 2.0));
        // A stage that needs only what training made starts as it did: 1 s into the refit.
        let early = CycleSpec {
            stages: vec![
                spec.stages[0].clone(),
                spec.stages[1].clone(),
                Stage { overlap: 3.0, ..Stage::new("gen", 3.0) },
            ],
            ..spec
        };
        let report = early.report().expect("valid");
        assert_eq!((report.before.stages[2].start, report.after.stages[2].start), (9.0, 9.0));
    }

    proptest! {
        #[test]
        fn a_faster_transfer_never_makes_the_cycle_slower(
            spec in any::<bool>().prop_flat_map(any_cycle), s in 1.0f64..1000.0,
        ) {
            prop_assume!(spec.validate().is_ok());
            let report = report_of(&CycleSpec { speedup: s, ..spec });
            prop_assert!(report.cycle_speedup >= 1.0 - 1e-12, "{report:?}");
        }

        #[test]
        fn no_speedup_moves_the_stage_after_the_refit_before_the_weights_it_waited_for(
            spec in any_cycle(true), s in 0.01f64..1000.0,
        ) {
            prop_assume!(spec.validate().is_ok());
            let report = report_of(&CycleSpec { speedup: s, ..spec });
            let next = report.refit_stage + 1;
            prop_assume!(next < report.before.stages.len());
            let into = |timeline: &Timeline| timeline.stages[next].start - timeline.stages[report.refit_stage].start;
            let (before, after) = (into(&report.before), into(&report.after));
            let (wait, transfer) = (report.refit_before.wait, report.refit_before.transfer);
            let slack = 1e-9 * (1.0 + report.before.cycle_seconds);
            let hidden = report.before.stages[report.refit_stage].overlap;
            if hidden > 0.0 {
                // Part of the refit ran under the stage before it: what it sent then is not sent sooner,
                // so the next stage starts no sooner than those weights were made, and no later than
                // before when the transfer got faster.
                prop_assert!(after >= before.min(hidden) - slack, "{before} → {after}: {report:?}");
                if s >= 1.0 {
                    prop_assert!(after <= before + slack, "{before} → {after}: {report:?}");
                }
            } else if before <= wait + slack {
                // Started in the wait or with the transfer: it stays there.
                prop_assert!((after - before).abs() <= slack, "{before} → {after}: {report:?}");
            } else {
                // The same share of the transfer (all of it, once past it) has arrived by its start.
                let share = |into: f64, transfer: f64| if transfer > 0.0 { ((into - wait) / transfer).min(1.0) } else { 1.0 };
                let (was, is) = (share(before, transfer), share(after, report.refit_after.transfer));
                prop_assert!((was - is).abs() <= 1e-6, "{was} of the transfer before, {is} after: {report:?}");
            }
        }

        #[test]
        fn no_speedup_beats_the_instant_transfer_bound(
            spec in any::<bool>().prop_flat_map(any_cycle), s in 0.01f64..1000.0,
        ) {
            prop_assume!(spec.validate().is_ok());
            let report = report_of(&CycleSpec { speedup: s, ..spec });
            let slack = 1e-9 * report.before.cycle_seconds;
            prop_assert!(report.after.cycle_seconds >= report.bound.best_cycle_seconds - slack, "{report:?}");
        }

        #[test]
        fn the_formula_equals_the_timeline_for_a_sequential_cycle(spec in any_cycle(false), s in 0.01f64..1000.0) {
            prop_assume!(spec.validate().is_ok());
            let report = report_of(&CycleSpec { speedup: s, ..spec });
            prop_assert!((report.formula.ratio - report.ratio).abs() <= 1e-9, "{report:?}");
            prop_assert!(report.formula.matches_timeline);
        }

        #[test]
        fn the_timeline_curve_passes_through_the_report_and_is_the_formula_when_sequential(
            spec in any::<bool>().prop_flat_map(any_cycle), s in 0.01f64..1000.0,
        ) {
            prop_assume!(spec.validate().is_ok());
            let report = report_of(&CycleSpec { speedup: s, ..spec.clone() });
            let curve = spec.timeline_curve(&[s]).expect("a refit stage");
            prop_assert_eq!(curve.len(), 1);
            prop_assert!((curve[0].1 - report.cycle_speedup).abs() <= 1e-9 * report.cycle_speedup, "{report:?}");
            if report.sequential {
                let formula = speedup_curve(report.formula.f, &[s]);
                prop_assert!((curve[0].1 - formula[0].1).abs() <= 1e-9 * formula[0].1, "{report:?}");
            }
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(text in any::<String>(), startup in 0usize..5) {
            let _ = parse_cycle(&text);
            let _ = stage_stats(&parse_measurements(&text), startup, None);
        }

        #[test]
        fn parsing_text_that_looks_like_the_formats_never_panics(
            text in r#"[\[\]{}",:0-9a-z\n .#-]{0,120}"#, startup in 0usize..5,
        ) {
            let _ = parse_cycle(&text).map(|spec| spec.report().map(|report| report.to_string()));
            let measured = stage_stats(&parse_measurements(&text), startup, None);
            let _ = measured.to_string();
        }
    }
}
