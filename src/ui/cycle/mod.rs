//! The cycle calculator: what a faster refit does to the whole RL cycle (domain.md §7).
//!
//! The article's point is that a 4× faster handoff is not a 4× faster training run. The view keeps the
//! whole-cycle denominator in sight: the editors describe one cycle ([`stages`], [`refit_split`],
//! [`speedup`]); the core lays it out before and after and reports the answer ([`answer`]); the timeline
//! ([`timeline`]) and the curve ([`curve`]) show it; [`measured`] turns many measured cycles into the
//! cycle. All of it reads one [`CycleState`], provided by the app beside the layout's state.

mod answer;
mod curve;
mod field;
mod measured;
mod presets;
mod refit_split;
mod speedup;
mod stages;
mod timeline;

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::chart::spread::SpreadScale;
use crate::core::cycle::{CycleReport, CycleSpec, Stage, parse_cycle, read_number_with_unit};
use crate::core::plan::Strategy;
use crate::core::spec::Problem;

pub use crate::core::cycle::CYCLE_PRESETS;
pub use speedup::NoLayout;

/// Where the transfer speedup `s` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedupSource {
    /// Typed or slid by the user.
    Manual,
    /// The ratio of two strategies' estimated transfer times for the layout in the visualizer:
    /// `s = time(from) / time(to)`.
    Layout { from: Strategy, to: Strategy },
}

/// Why the text in some of the cycle's fields is not a number, by the field's path (`stages[1].seconds`).
///
/// The spec holds only numbers: a NaN there was written into links and the autosave as `null`, which then
/// failed to open and lost every edit. While a field's text is not a number the spec keeps the field's last
/// number, the field keeps the text, and the message lives here until the field holds a number again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnreadFields {
    /// The [`CycleState::revision`] the messages were written in. A new revision redraws every field from
    /// the spec, so the messages of an older one describe text no longer on screen.
    revision: u64,
    /// Why, and the text itself: a field drawn anew in the same revision (the cycle view left for another
    /// tab and opened again) shows it again, not the spec's last number under a message about other text.
    messages: BTreeMap<String, (String, String)>,
}

/// The cycle being explained; shared by the cycle view's components.
#[derive(Clone, Copy)]
pub struct CycleState {
    /// The cycle as edited: the source of truth, kept even while the core finds problems in it so nothing
    /// typed is lost. Every number typed into it is finite (see [`UnreadFields`]); a NaN can only come from
    /// a link saved by an older version, and the core reports it.
    pub spec: RwSignal<CycleSpec>,
    /// Fields whose text is not a number, and why.
    pub unread: RwSignal<UnreadFields>,
    /// Bumped whenever the stages are replaced or restructured (a preset, measured medians, add, remove,
    /// reorder): the editors redraw their fields from `spec` then, and only then, so typing is never
    /// overwritten.
    pub revision: RwSignal<u64>,
    /// The preset last opened, for the switcher.
    pub preset: RwSignal<String>,
    /// The core's verdict on `spec`.
    pub checked: Memo<Result<CycleReport, Vec<Problem>>>,
    /// The last valid report: what the answer and the pictures show while the editor holds a problem.
    pub report: Memo<Option<CycleReport>>,
    pub speedup_source: RwSignal<SpeedupSource>,
    /// Measured per-cycle stage times as pasted or dropped (CSV or JSON).
    pub measured_text: RwSignal<String>,
    /// How many of the first cycles are startup, set apart from the steady state.
    pub startup: RwSignal<usize>,
    /// How the measured spreads are drawn: shared by link, so a reviewer sees the plot that was sent.
    pub spread_scale: RwSignal<SpreadScale>,
    /// The measured stage picked by hand as the refit (`None`: the stage named as the cycle's refit, or as
    /// loggers name it). Kept while the measurements change; used only while they have a stage so named.
    pub measured_refit: RwSignal<Option<String>>,
    /// Why the text in the k field is not a k, and that text: kept here, not in the field, so that the
    /// cycle view drawn anew (back from another tab) shows what was typed under its message.
    pub startup_unread: RwSignal<Option<(String, String)>>,
    /// The unread texts of each revision left behind, with the revision: undo to a step shows them again (a
    /// preset clicked over text that was no number lost that text for good).
    left: StoredValue<Vec<(u64, LeftUnread)>>,
}

/// The unread texts of a revision as it was left: the fields' (by path) and the k field's.
type LeftUnread = (BTreeMap<String, (String, String)>, Option<(String, String)>);

impl CycleState {
    /// Opens a cycle preset (`cycle-120`, `cycle-160`, `cycle-queue`, `cycle-overlap`; `cycle-120` when the
    /// name is unknown).
    pub fn from_preset(name: &str) -> CycleState {
        let (name, spec) = preset_spec(name);
        let spec = RwSignal::new(spec);
        let checked = Memo::new(move |_| spec.with(CycleSpec::report));
        let report = Memo::new(move |previous: Option<&Option<CycleReport>>| match checked.get() {
            Ok(report) => Some(report),
            Err(_) => previous.cloned().flatten(),
        });
        CycleState {
            spec,
            unread: RwSignal::new(UnreadFields::default()),
            revision: RwSignal::new(0),
            preset: RwSignal::new(name.to_string()),
            checked,
            report,
            speedup_source: RwSignal::new(SpeedupSource::Manual),
            measured_text: RwSignal::new(String::new()),
            startup: RwSignal::new(1),
            spread_scale: RwSignal::new(SpreadScale::default()),
            measured_refit: RwSignal::new(None),
            startup_unread: RwSignal::new(None),
            left: StoredValue::new(Vec::new()),
        }
    }

    /// Moves to a new revision, keeping the unread texts of the one left for undo.
    fn next_revision(&self) {
        let revision = self.revision.get_untracked();
        // Each revision is left once: revisions only go up.
        self.keep_unread_as(revision);
        self.revision.set(revision + 1);
    }

    /// The unread texts of the revision in effect, kept under an id of their own, as [`Self::next_revision`]
    /// keeps a revision left: what a history step showed when the next one was written (the two shared the
    /// revision, and text typed after came back when undo restored the first). Ids with the top bit set
    /// never meet a revision, which counts up from 0.
    pub fn frozen_revision(&self) -> u64 {
        let id = (1 << 63) | crate::ui::editor::field::fresh_generation();
        self.keep_unread_as(id);
        id
    }

    /// Keeps the unread texts of the revision in effect (the fields' and the k field's), if any, under `id`.
    fn keep_unread_as(&self, id: u64) {
        let revision = self.revision.get_untracked();
        let messages = self.unread.with_untracked(|unread| {
            if unread.revision == revision { unread.messages.clone() } else { BTreeMap::new() }
        });
        let startup = self.startup_unread.get_untracked();
        if !messages.is_empty() || startup.is_some() {
            self.left.update_value(|left| left.push((id, (messages, startup))));
        }
    }

    /// Opens a history step's cycle (already in `spec`) and redraws the editors, with the unread texts of the
    /// revision the step was shown in when known (else none, the k field's too). Returns whether the k
    /// field's unread text changed (the field is then redrawn by a write of k).
    pub fn reopen(&self, shown_in: Option<u64>) -> bool {
        self.next_revision();
        let (messages, startup) = shown_in
            .and_then(|shown_in| {
                self.left.with_value(|left| left.iter().find(|(r, _)| *r == shown_in).map(|(_, u)| u.clone()))
            })
            .unwrap_or_default();
        self.unread.set(UnreadFields { revision: self.revision.get_untracked(), messages });
        let k_changed = self.startup_unread.with_untracked(|now| *now != startup);
        if k_changed {
            self.startup_unread.set(startup);
        }
        k_changed
    }

    /// Replaces the whole cycle (a preset, measured medians) and redraws the editors.
    pub fn replace(&self, spec: CycleSpec) {
        self.spec.set(spec);
        self.next_revision();
    }

    /// Opens a cycle someone wrote (a file, a text block, a link's measured medians aside): it says its own
    /// speedup, so s is set by hand again (taken from the layout, the file's s was ignored), and no preset
    /// button stays pressed.
    pub fn open(&self, spec: CycleSpec) {
        self.preset.set(String::new());
        self.speedup_source.set(SpeedupSource::Manual);
        self.replace(spec);
    }

    /// Opens a preset by name.
    pub fn open_preset(&self, name: &str) {
        let (name, spec) = preset_spec(name);
        self.preset.set(name.to_string());
        self.speedup_source.set(SpeedupSource::Manual);
        self.replace(spec);
    }

    /// A signal of whether the cycle on screen is the preset `name`'s: its stages and refit split (the chip
    /// names the cycle; another s keeps it). An edit of a stage leaves the preset, as an edit of the layout
    /// leaves a layout preset; undo or Back to the preset's stages shows it again. The preset is read once,
    /// not on every keystroke.
    pub fn shows_preset(&self, name: &str) -> Signal<bool> {
        let (_, preset) = preset_spec(name);
        let spec = self.spec;
        Signal::derive(move || {
            spec.with(|spec| {
                // The refit by its index: a stage marked the refit by a rename and named back is the same.
                let same = |a: &Stage, b: &Stage| a.name == b.name && a.seconds == b.seconds && a.overlap == b.overlap;
                spec.stages.len() == preset.stages.len()
                    && spec.stages.iter().zip(&preset.stages).all(|(a, b)| same(a, b))
                    && spec.refit_index() == preset.refit_index()
                    && spec.refit == preset.refit
            })
        })
    }

    /// Changes the stages' structure (add, remove, reorder) and redraws the editors. Text that is not a
    /// number stays in its field: the refit's and s's as they were, a stage's where `moved` puts the stage
    /// (its old index → its new one, `None` when removed). A move dropped every field's text, even s's.
    pub fn restructure(&self, change: impl FnOnce(&mut CycleSpec), moved: impl Fn(usize) -> Option<usize>) {
        let kept = self.unread_after_move(&moved);
        self.spec.update(change);
        self.next_revision();
        self.unread.set(kept);
    }

    /// The unread texts as they stand after the stages move (`dyn`: one copy for every kind of move).
    fn unread_after_move(&self, moved: &dyn Fn(usize) -> Option<usize>) -> UnreadFields {
        let revision = self.revision.get_untracked();
        let mut messages = BTreeMap::new();
        self.unread.with_untracked(|unread| {
            if unread.revision == revision {
                // Inserted one by one: collecting into a map brought in a sort of its own (+2.7 KB gzipped).
                for (path, entry) in &unread.messages {
                    if let Some(path) = moved_path(path, moved) {
                        messages.insert(path, entry.clone());
                    }
                }
            }
        });
        UnreadFields { revision: revision + 1, messages }
    }

    /// Reads the text typed into the number field at `path`: a number goes into the spec through `apply`;
    /// anything else leaves the spec as it is and is reported under the field, saying to enter `what`
    /// ("a number of seconds").
    pub fn read_field(&self, path: &str, text: &str, (what, units): (&str, &[char]), apply: impl FnOnce(f64)) {
        match read_number_with_unit(text, units, what) {
            Ok(number) => {
                self.set_unread(path, None);
                apply(number);
            }
            Err(why) => self.set_unread(path, Some((why, text.to_string()))),
        }
    }

    /// Records why the field at `path` holds no number, with its text (`None`: it holds one again).
    pub fn set_unread(&self, path: &str, unread_text: Option<(String, String)>) {
        let revision = self.revision.get_untracked();
        self.unread.maybe_update(|unread| {
            if unread.revision != revision {
                *unread = UnreadFields { revision, messages: BTreeMap::new() };
            }
            match unread_text {
                // Only a new message is news: the same one with other text redraws nothing.
                Some(entry) => {
                    unread.messages.insert(path.to_string(), entry.clone()).map(|(why, _)| why) != Some(entry.0)
                }
                None => unread.messages.remove(path).is_some(),
            }
        });
    }

    /// The text of the field at `path` when it is not a number, for a field drawn anew (read once, not
    /// tracked).
    pub fn unread_text(&self, path: &str) -> Option<String> {
        let revision = self.revision.get_untracked();
        self.unread.with_untracked(|unread| {
            (unread.revision == revision).then(|| unread.messages.get(path).map(|(_, text)| text.clone())).flatten()
        })
    }

    /// Whether a field holds text that is not a number or the core finds a problem in the cycle: the
    /// answer on screen is then the last valid one, not the editor's.
    pub fn editor_has_problem(&self) -> bool {
        let revision = self.revision.get();
        self.unread.with(|unread| unread.revision == revision && !unread.messages.is_empty())
            || self.checked.with(Result::is_err)
    }

    /// Where the editor's first problem is, as a reader names the field: "stage 2's overlap", "the speedup s".
    pub fn problem_place(&self) -> Option<String> {
        let revision = self.revision.get();
        let unread = self
            .unread
            .with(|unread| (unread.revision == revision).then(|| unread.messages.keys().next().cloned()).flatten());
        let path = unread.or_else(|| self.checked.with(|c| c.as_ref().err()?.first().map(|p| p.path.clone())))?;
        Some(field_name(&path))
    }

    /// Why the text in the field at `path` is not a number, if it is not.
    fn unread_at(&self, path: &str) -> Option<String> {
        let revision = self.revision.get();
        self.unread.with(|unread| {
            (unread.revision == revision).then(|| unread.messages.get(path).map(|(why, _)| why.clone())).flatten()
        })
    }

    /// Whether some field of the cycle (k too) holds text that is not a number, in the revision on screen.
    pub fn holds_unread(&self) -> bool {
        let revision = self.revision.get();
        self.unread.with(|unread| unread.revision == revision && !unread.messages.is_empty())
            || self.startup_unread.with(Option::is_some)
    }

    /// The messages for exactly the field at `path` (e.g. `stages[1].overlap`): why its text is not a
    /// number when it is not (the core's verdict is about the last number, no longer on screen), else the
    /// core's.
    pub fn problems_at(&self, path: &str) -> Vec<String> {
        if let Some(why) = self.unread_at(path) {
            return vec![why];
        }
        self.checked.with(|checked| match checked {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().filter(|p| p.path == path).map(|p| p.message.clone()).collect(),
        })
    }
}

/// Where the field at `path` is after the stages moved: `stages[2].seconds` → `stages[1].seconds` when stage
/// 2 became stage 1, `None` when it was removed; other paths stay.
fn moved_path(path: &str, moved: &dyn Fn(usize) -> Option<usize>) -> Option<String> {
    let Some(rest) = path.strip_prefix("stages[") else { return Some(path.to_string()) };
    let (index, field) = rest.split_once(']')?;
    Some(format!("stages[{}]{field}", moved(index.parse().ok()?)?))
}

/// A preset's canonical name and cycle; unknown names open `cycle-120`.
fn preset_spec(name: &str) -> (&'static str, CycleSpec) {
    let (name, _, text) = CYCLE_PRESETS.iter().find(|(n, _, _)| *n == name).unwrap_or(&CYCLE_PRESETS[0]);
    let mut spec = parse_cycle(text).unwrap_or_else(|_| CycleSpec { stages: Vec::new(), refit: None, speedup: 1.0 });
    // The presets write the transfer out; leaving it as "the rest" keeps the split consistent when the
    // user then changes the refit stage's seconds (parse_cycle checked that the parts add up).
    if let Some(split) = spec.refit.as_mut() {
        split.transfer = None;
    }
    (name, spec)
}

/// The cycle for an embed or a docs widget: the answer, the speedup to play with, and the two pictures. The
/// stage editor and measured cycles stay in the app ("Open in Reshard Lens"): with them the embed was
/// 2,600 px tall and a reader saw the editor, not the answer.
#[component]
pub fn CycleEmbed() -> impl IntoView {
    view! {
        <div class="cycle-embed" data-testid="cycle-view">
            <CycleResults with_speedup=true/>
        </div>
    }
}

/// The answer and its two pictures, the timeline and the curve; `with_speedup` puts the speedup control
/// after the answer (an embed, which has no editors beside them).
#[component]
fn CycleResults(#[prop(optional)] with_speedup: bool) -> impl IntoView {
    let state = expect_context::<CycleState>();
    // While the editor holds a problem the pictures are of the last valid cycle: faded, as the layout view
    // fades its own, under the answer's note that says so.
    let stale = move || state.editor_has_problem();
    view! {
        <section class="panel" aria-labelledby="cycle-answer-title">
            <answer::Answer title_id="cycle-answer-title"/>
        </section>
        {with_speedup.then(|| view! {
            <section class="panel" aria-label="Transfer speedup">
                <speedup::SpeedupControl/>
            </section>
        })}
        <section class="panel cycle-picture" class:is-stale=stale aria-labelledby="cycle-timeline-title">
            <timeline::CycleTimeline title_id="cycle-timeline-title"/>
        </section>
        <section class="panel cycle-picture" class:is-stale=stale aria-labelledby="cycle-curve-title">
            <curve::SpeedupCurve title_id="cycle-curve-title"/>
        </section>
    }
}

/// The whole cycle view: presets on top, the editors beside the answer and its pictures, measured cycles
/// below.
#[component]
pub fn CycleView() -> impl IntoView {
    view! {
        <main class="main cycle-view" data-testid="cycle-view">
            <div class="cycle-top">
                <div>
                    <h2 class="cycle-title">"What a faster refit does to the whole cycle"</h2>
                    <p class="cycle-lede muted">
                        "A refit is one stage of an RL cycle. Making its transfer s times faster shortens the "
                        "cycle by much less than s: the other stages stay as they are."
                    </p>
                </div>
                <presets::CyclePresets/>
            </div>
            <div class="cycle-grid">
                // s first: the view's one knob, read with the answer beside it. Under the stages and the
                // refit's parts it stood below the fold of a 1280 × 800 laptop.
                <aside class="panel cycle-editors sticky-column" aria-label="Describe one cycle">
                    <speedup::SpeedupControl/>
                    <stages::StageEditor/>
                    <refit_split::RefitSplitEditor/>
                </aside>
                <div class="cycle-results">
                    <CycleResults/>
                </div>
            </div>
            <section class="panel cycle-measured" aria-labelledby="cycle-measured-title">
                <measured::MeasuredCycles title_id="cycle-measured-title"/>
            </section>
        </main>
    }
}

/// A field's path in the cycle spec (`stages[1].overlap`) as a reader names it (`stage 2's overlap`).
fn field_name(path: &str) -> String {
    let (stage, field) = match path.strip_prefix("stages[").and_then(|rest| rest.split_once(']')) {
        Some((index, rest)) => (index.parse::<usize>().ok().map(|i| i + 1), rest.trim_start_matches('.')),
        None => (None, path),
    };
    let what = match (stage.is_some(), field) {
        (true, "refit") => "refit mark",
        (false, "refit") => "the refit's parts (wait, transfer, preparation)",
        (_, "speedup") => "the speedup s",
        (_, "refit.wait") => "the refit's wait before transfer",
        (_, "refit.transfer") => "the refit's transfer",
        (_, "refit.preparation") => "the refit's receiver preparation",
        (_, "" | "stages") => "the stages",
        (_, other) => other,
    };
    match stage {
        Some(n) => format!("stage {n}'s {what}"),
        None => what.to_string(),
    }
}
