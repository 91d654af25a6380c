//! Many measured cycles: paste or drop per-cycle stage times (CSV `cycle,stage,seconds` or JSON), see each
//! stage's spread with the startup cycles set apart, and use the steady-state medians as the cycle.

use leptos::prelude::*;

use super::CycleState;
use super::field::problems_id;
use crate::chart::gantt::{NAME_EM_UNITS, fit_label, seconds_ticks};
use crate::chart::palette::stage_colours;
use crate::chart::readout::{decimal, percent, seconds};
use crate::chart::scale::Linear;
use crate::chart::spread::{SpreadMarks, SpreadScale, axis_end, change_axis, change_from, change_label, change_ticks};
use crate::core::cycle::{
    CycleGroup, CycleSpec, Distribution, MeasuredCycles, parse_measurements, plural, read_startup_cycles,
    same_stage_name, stage_stats,
};
use crate::core::spec::{NotText, for_display, not_text};
use crate::core::traffic::{format_bytes, format_count, grouped_digits};
use crate::share::import::{Imported, import_file};
use crate::ui::ScrollRegion;
use crate::ui::fit::fitted_viewbox_width;

/// A small example: one slow startup cycle, then five steady ones.
const EXAMPLE: &str = "cycle,stage,seconds
1,generation,96.0
1,scoring,12.5
1,training,41.0
1,refit,24.0
2,generation,70.4
2,scoring,10.1
2,training,30.2
2,refit,10.3
3,generation,69.1
3,scoring,9.8
3,training,29.7
3,refit,9.9
4,generation,71.8
4,scoring,10.4
4,training,30.9
4,refit,12.6
5,generation,70.0
5,scoring,10.0
5,training,30.0
5,refit,10.0
6,generation,69.6
6,scoring,9.9
6,training,31.4
6,refit,10.1
";

/// The longest measurements shown in the text area for editing (about 30,000 rows of CSV).
const SHOWN_TEXT_BYTES: usize = 512 * 1024;

/// Reads the dropped file as text into `target`, or says in `refused` why it was not read; a drop
/// without a file is ignored. A file above the size every other way of opening a file refuses is refused
/// with the same message before it is read: a dropped 20 MB CSV froze the page for 48 s. A file that is not
/// measured times (a picture, a spec) is refused as Open file… refuses it: it replaced what was typed with
/// its bytes and a problem.
fn read_dropped_file(event: &web_sys::DragEvent, target: RwSignal<String>, refused: RwSignal<Option<String>>) {
    let file = match crate::ui::share_bar::dropped_file(event) {
        None => return,
        Some(Ok(file)) => file,
        Some(Err(why)) => return refused.set(Some(why)),
    };
    let name = file.name();
    if let Some(too_large) = crate::share::import::refuse_size(&name, file.size() as u64) {
        refused.set(Some(not_opened(&name, &too_large.to_string())));
        return;
    }
    let promise = file.text();
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(promise).await.ok().and_then(|text| text.as_string());
        match text {
            // The file may have grown since it was measured.
            // Said for this box: Open file…'s words for a picture list what else it opens.
            Some(text) if matches!(not_text(&text), Some(NotText::Binary { .. })) => refused.set(Some(format!(
                "{name} is not text (a picture, a compressed or a spreadsheet file?): drop CSV or JSON measured \
                 times here. Nothing was changed."
            ))),
            Some(text) => match import_file(&name, &text) {
                Ok(Imported::Measurements(_)) => {
                    refused.set(None);
                    target.set(text);
                }
                Ok(other) => refused.set(Some(not_opened(
                    &name,
                    &format!(
                        "it is {}, not measured cycle times: drop it outside this box, or use Open file…",
                        other.describe()
                    ),
                ))),
                // The reason names the file already.
                Err(problems) => {
                    let why = problems.first().map_or_else(String::new, |p| p.message.clone());
                    refused.set(Some(format!("{why}. Nothing was changed.")));
                }
            },
            None => refused.set(Some(format!("{name} could not be read; nothing was changed."))),
        }
    });
}

/// Why a dropped file was not opened, worded as the rest of the app words it.
fn not_opened(name: &str, why: &str) -> String {
    format!("{name} could not be opened; nothing was changed: {why}")
}

/// The import box, the spreads and the button that makes the steady-state medians the cycle.
#[component]
pub fn MeasuredCycles(
    /// The id of the heading, for the section's `aria-labelledby`.
    title_id: &'static str,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    // Why the last dropped file was not opened; cleared by the next edit of the text.
    let refused = RwSignal::new(None::<String>);
    // How the spreads are drawn; kept while the measurements or k change, and in the link.
    let scale = state.spread_scale;
    // Why the text in the k field is not a k; k keeps its last value meanwhile.
    let startup_problem = move || state.startup_unread.with(|u| u.as_ref().map(|(why, _)| why.clone()));
    let startup_problems_id = problems_id("startup");
    let measurements = Memo::new(move |_| state.measured_text.with(|text| parse_measurements(text)));
    // The stage picked as the refit, while the measurements have a stage so named; forgotten when other
    // measurements have none (it stayed in the link, unseen, and came back with the first data pasted again).
    let picked = Memo::new(move |_| {
        state.measured_refit.get().filter(|name| measurements.with(|m| m.rows.iter().any(|row| row.stage == *name)))
    });
    Effect::new(move |_| {
        let loaded = measurements.with(|m| !m.rows.is_empty());
        if picked.with(Option::is_none) && state.measured_refit.with_untracked(Option::is_some) && loaded {
            state.measured_refit.set(None);
        }
    });
    // The measured refit is the stage picked, else the stage named as the cycle's refit (a memo of the name
    // alone: stage_stats runs again when it changes, not on every edit of the cycle's seconds).
    let refit_name = Memo::new(move |_| {
        picked.get().or_else(|| {
            state.spec.with(|spec| spec.refit_index().and_then(|i| spec.stages.get(i)).map(|stage| stage.name.clone()))
        })
    });
    let measured = Memo::new(move |_| {
        refit_name.with(|name| measurements.with(|m| stage_stats(m, state.startup.get(), name.as_deref())))
    });
    let loaded = move || measurements.with(|m| !m.rows.is_empty());
    // Measurements too long to edit are loaded but not shown in the text area: the browser took 1.2 s to
    // lay out 1.5 MB of text there, 6 s for 8 MB, and as long again for each key typed into it.
    let too_long = Memo::new(move |_| state.measured_text.with(|text| text.len() > SHOWN_TEXT_BYTES));
    let long_note = move || {
        state.measured_text.with(|text| {
            format!(
                "{} of measurements ({} lines) are loaded: too long to show here for editing. Clear them to type \
                 or paste new ones, or drop another file here.",
                format_bytes(text.len() as u64),
                format_count(text.lines().count() as u64)
            )
        })
    };
    // The text follows the state (an example, a file, Clear) but is written only when it differs: writing
    // back what was just typed laid the whole text out again.
    let area = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        let Some(element) = area.get() else { return };
        let shown = too_long.get();
        state.measured_text.with(|text| {
            let text = if shown { "" } else { text.as_str() };
            if element.value() != text {
                element.set_value(text);
            }
        });
    });
    let drop_file = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        read_dropped_file(&ev, state.measured_text, refused);
    };
    // The medians go into the cycle's own stages when they name the same ones (its order, overlaps and
    // refit parts stay); else the measured cycle replaces it.
    let use_medians = move |_| {
        let spec = measured.with_untracked(|m| m.spec.clone());
        let speedup = state.spec.with_untracked(|s| s.speedup);
        let spec = state.spec.with_untracked(|ours| ours.with_measured_seconds(&spec)).unwrap_or(spec);
        // Kept in the cycle's own stages, the refit is still the cycle's: it moves to the stage picked.
        let spec = match picked.get_untracked() {
            Some(name) => spec.with_refit_named(&name).unwrap_or(spec),
            None => spec,
        };
        state.preset.set(String::new());
        state.replace(CycleSpec { speedup, ..spec });
    };
    let keeps_ours = move || measured.with(|m| state.spec.with(|ours| ours.names_the_stages_of(&m.spec)));
    // The refit's wait and preparation, and its measured median when that is shorter: the cycle keeps them
    // and says they do not fit once the medians are used, and the note says so before.
    let squeezed = move || {
        measured.with(|m| {
            state.spec.with(|ours| {
                let parts = ours.refit.as_ref().map(|r| r.wait + r.preparation)?;
                let refit = ours.stages.get(ours.refit_index()?)?;
                let median = m.spec.stages.iter().find(|s| same_stage_name(&s.name, &refit.name))?.seconds;
                (parts > median).then_some((parts, median))
            })
        })
    };
    // Whether the stage picked is not the cycle's refit: using the medians moves the refit there. Names
    // compared as moving the refit compares them (a logger's timing prefix aside).
    let moves_refit = move || {
        picked.with(|picked| {
            picked.as_deref().is_some_and(|name| {
                state.spec.with(|ours| {
                    ours.refit_index()
                        .and_then(|i| ours.stages.get(i))
                        .is_none_or(|refit| !same_stage_name(&refit.name, name))
                })
            })
        })
    };
    view! {
        <h2 class="cycle-section-title" id=title_id>"Many cycles"</h2>
        <p class="cycle-hint muted">
            "Paste or drop measured stage times, one row per stage of each cycle: CSV "
            <code>"cycle,stage,seconds"</code> " (or tab-separated, as a spreadsheet copies it), JSON "
            <code>"[{\"cycle\": 1, \"stage\": \"refit\", \"seconds\": 10.4}]"</code> " or JSON Lines; or one row per cycle "
            "with a column per stage, " <code>"step,gen,train,refit"</code> ", as loggers write it (a W&B export, "
            "verl's " <code>"timing_s/…"</code> " JSON Lines). The refit is the stage named as the cycle's refit, or "
            "named refit or update_weights, unless you pick it under Refit stage. Bad rows are reported by line; the \
             good rows still load."
        </p>
        <div class="measured-input">
            <textarea
                class="measured-text"
                rows="8"
                spellcheck="false"
                aria-label="Measured stage times, CSV or JSON"
                placeholder="cycle,stage,seconds\n1,generation,70.2\n1,refit,10.4\n… or drop a .csv or .json file here"
                data-testid="measured-text"
                node_ref=area
                hidden=too_long
                aria-describedby="measured-refused"
                on:input=move |ev| {
                    refused.set(None);
                    state.measured_text.set(event_target_value(&ev));
                }
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=drop_file
            ></textarea>
            <p
                class="measured-long"
                data-testid="measured-long"
                hidden=move || !too_long.get()
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=drop_file
            >
                {move || too_long.get().then(long_note)}
            </p>
            <div class="measured-controls">
                <label class="measured-startup">
                    <span>"Startup cycles k"</span>
                    // Text, not `type=number`: a number field hands over "" for `1e` or `--1`, so the message
                    // could not say what was typed.
                    <input
                        type="text"
                        inputmode="numeric"
                        class="cycle-number"
                        aria-label="How many of the first cycles are startup"
                        aria-invalid=move || state.startup_unread.with(Option::is_some).to_string()
                        aria-describedby=startup_problems_id.clone()
                        data-testid="measured-startup"
                        // k as it stands, or the text typed when the field was last drawn if it was no k.
                        prop:value=move || {
                            let k = state.startup.get();
                            state.startup_unread.with_untracked(|u| u.as_ref().map(|(_, text)| text.clone()))
                                .unwrap_or_else(|| k.to_string())
                        }
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            match read_startup_cycles(&text) {
                                Ok(k) => {
                                    state.startup_unread.set(None);
                                    state.startup.set(k);
                                }
                                Err(why) => state.startup_unread.set(Some((why, text))),
                            }
                        }
                    />
                    <span class="field-problems-of" id=startup_problems_id aria-live="polite">
                        {move || startup_problem().map(|why| view! {
                            <span class="field-problem" data-testid="field-problem" data-path="startup">
                                {for_display(&why)}
                                // What the summary below still uses.
                                {format!("; the summary uses the last valid k, {}", state.startup.get())}
                            </span>
                        })}
                    </span>
                </label>
                <Show when=loaded>
                    <RefitPicker measured picked/>
                </Show>
                <button type="button" class="cycle-button" data-testid="measured-example"
                    on:click=move |_| {
                        refused.set(None);
                        state.measured_text.set(EXAMPLE.to_string());
                    }>
                    "Paste an example"
                </button>
                <button type="button" class="cycle-button" data-testid="measured-clear"
                    disabled=move || state.measured_text.with(String::is_empty)
                    on:click=move |_| {
                        refused.set(None);
                        state.measured_text.set(String::new());
                        state.measured_refit.set(None);
                        // The button disables itself: the focus went to the page's top. The emptied text
                        // area is where to go on (shown again once long measurements are cleared).
                        crate::ui::focus::after_render(|document| {
                            crate::ui::focus::focus_test_id(&document, "measured-text")
                        });
                    }>
                    "Clear"
                </button>
            </div>
        </div>
        <div id="measured-refused">
            {move || refused.get().map(|why| view! {
                <p class="measured-problems" role="alert" data-testid="measured-refused">{for_display(&why)}</p>
            })}
        </div>
        {move || {
            let problems = measurements.with(|m| m.problems.clone());
            (!problems.is_empty()).then(|| {
                let count = measurements.with(|m| m.rows.len());
                view! {
                    <div class="measured-problems" role="alert" data-testid="measured-problems">
                        <p>{format!("{} loaded; these were skipped:", plural(count, "row"))}</p>
                        <ul>
                            {problems
                                .into_iter()
                                .map(|p| view! { <li data-testid="measured-problem">{for_display(&p.to_string())}</li> })
                                .collect_view()}
                        </ul>
                    </div>
                }
            })
        }}
        <Show when=loaded>
            {move || {
                let summary = measured.get();
                view! { <MeasuredSummary summary scale/> }
            }}
            <div class="measured-use">
                <button
                    type="button"
                    class="cycle-button cycle-primary"
                    data-testid="measured-use"
                    disabled=move || measured.with(|m| m.refit_fraction.is_none())
                    on:click=use_medians
                >
                    "Use these medians as the cycle"
                </button>
                <span data-testid="measured-use-note">{move || measured.with(|m| match m.refit_fraction {
                    Some(f) => format!(
                        // Not called f: the answer's f is the transfer's share, which a refit with a wait
                        // or a preparation makes smaller (a reader saw two f's on one page). Its terms said:
                        // a median of the cycles' totals beside it is another number.
                        "Steady-state refit share of the cycle: {} ({}), the refit's median over the sum of the \
                         stages' medians ({}).{}",
                        decimal(f, 4),
                        percent(f * 100.0),
                        seconds(m.spec.stages.iter().map(|s| s.seconds).sum::<f64>()),
                        match (keeps_ours(), moves_refit()) {
                            (true, false) => match squeezed() {
                                None => " Only the seconds change: the stages' order and overlaps stay.".to_string(),
                                Some((parts, median)) => format!(
                                    " Only the seconds change: the stages' order and overlaps stay. The refit's \
                                     median, {}, is shorter than its wait and preparation ({}): they will need \
                                     new seconds.",
                                    seconds(median),
                                    seconds(parts)
                                ),
                            },
                            (true, true) if state.spec.with(|ours| ours.refit.as_ref().is_some_and(|r| r.wait > 0.0 || r.preparation > 0.0)) => {
                                " The seconds change and the refit is the stage picked, with no wait or \
                                 preparation: the stages' order and overlaps stay.".to_string()
                            }
                            (true, true) => {
                                " The seconds change and the refit is the stage picked: the stages' order and \
                                 overlaps stay.".to_string()
                            }
                            (false, _) => " The measured stages replace the cycle's.".to_string(),
                        }
                    ),
                    // No steady cycle left: the note under the table says so and how to get one (said here
                    // again, it was the same sentence twice).
                    None if m.steady.cycles.is_empty() => "No steady cycle to take medians from.".to_string(),
                    // Every stage measured at 0 s: the notes under the table name them.
                    None if m.spec.stages.is_empty() => "No stage has a steady-state median above 0 s.".to_string(),
                    None => crate::chart::readout::sentence_case(&m.problems.iter().map(|p| p.message.clone()).collect::<Vec<_>>().join("; ")),
                })}</span>
            </div>
        </Show>
    }
}

/// Which measured stage is the refit: found by its name (the cycle's refit's, or one loggers give it), or
/// picked by hand among the typical cycle's stages, for a logger's name no rule knows
/// (`actor/update_actor`), where the only way was renaming the cycle's refit stage to match.
#[component]
fn RefitPicker(
    /// The measurements' summary, whose typical cycle lists the stages.
    measured: Memo<MeasuredCycles>,
    /// The stage picked, while the measurements have it.
    picked: Memo<Option<String>>,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    // Every cycle set apart as startup, or every stage measured at 0 s: no typical cycle to pick a stage of
    // ("none by name: pick one" offered an empty menu).
    let no_stages = move || measured.with(|m| m.spec.stages.is_empty());
    let by_name = move || {
        if no_stages() {
            let steady = measured.with(|m| !m.steady.cycles.is_empty());
            return if steady { "no stage above 0 s" } else { "no steady cycle" }.to_string();
        }
        let found = measured.with(|m| m.spec.refit_index().and_then(|i| m.spec.stages.get(i)).map(|s| s.name.clone()));
        match (picked.with(Option::is_none), found) {
            (true, Some(name)) => format!("found by name: {}", for_display(&name)),
            (true, None) => "none by name: pick one".to_string(),
            (false, _) => "by name instead".to_string(),
        }
    };
    let names = move || measured.with(|m| m.spec.stages.iter().map(|s| s.name.clone()).collect::<Vec<_>>());
    view! {
        <label class="measured-refit">
            <span>"Refit stage"</span>
            <select
                data-testid="measured-refit"
                disabled=no_stages
                on:change=move |ev| {
                    let name = event_target_value(&ev);
                    state.measured_refit.set((!name.is_empty()).then_some(name));
                }
            >
                <option value="" selected=move || picked.with(Option::is_none)>{by_name}</option>
                {move || {
                    names()
                        .into_iter()
                        .map(|name| {
                            let chosen = name.clone();
                            view! {
                                <option value=name.clone() selected=move || picked.with(|p| p.as_deref() == Some(chosen.as_str()))>
                                    {for_display(&name)}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// Spreads and tables for the steady state and the startup.
#[component]
fn MeasuredSummary(summary: MeasuredCycles, scale: RwSignal<SpreadScale>) -> impl IntoView {
    let all: Vec<&Distribution> =
        summary.steady.stages.iter().chain(&summary.startup.stages).map(|s| &s.distribution).collect();
    let end = axis_end(all);
    // Each stage is compared with its steady-state median, in both groups: a startup cycle reads as how
    // much slower than steady state it ran.
    let steady_median =
        |name: &str| summary.steady.stages.iter().find(|s| s.name == name).map(|s| s.distribution.median);
    let references = |group: &CycleGroup| group.stages.iter().map(|s| steady_median(&s.name)).collect::<Vec<_>>();
    let steady_references = references(&summary.steady);
    let startup_references = references(&summary.startup);
    let notes = summary.notes.clone();
    // No steady state (every cycle set apart as startup): no empty steady block with a bare axis and an empty
    // table, and the startup drawn in seconds, since there is no steady median to measure a change from
    // (every row read "no steady-state median"). The notes below say why.
    let steady = !summary.steady.cycles.is_empty();
    let scale = if steady { scale } else { RwSignal::new(SpreadScale::Seconds) };
    let pick = move |choice: SpreadScale| {
        view! {
            <label>
                <input
                    type="radio"
                    name="spread-scale"
                    prop:checked=move || scale.get() == choice
                    data-testid=match choice {
                        SpreadScale::ChangeFromMedian => "spread-scale-change",
                        SpreadScale::Seconds => "spread-scale-seconds",
                    }
                    on:change=move |_| scale.set(choice)
                />
                {match choice {
                    SpreadScale::ChangeFromMedian => " change from the steady median",
                    SpreadScale::Seconds => " seconds",
                }}
            </label>
        }
    };
    view! {
        {steady.then(|| view! {
            <div class="spread-scale" role="radiogroup" aria-label="How the spreads are drawn">
                <span class="muted">"Draw each stage as"</span>
                {pick(SpreadScale::ChangeFromMedian)}
                {pick(SpreadScale::Seconds)}
            </div>
        })}
        <div class="measured-groups">
            {steady.then(|| view! {
                <Group title="Steady state" group=summary.steady.clone() scale end references=steady_references
                    test_id="measured-steady"/>
            })}
            {(!summary.startup.cycles.is_empty()).then(|| view! {
                <Group title="Startup (set apart)" group=summary.startup.clone() scale end references=startup_references
                    test_id="measured-startup-group"/>
            })}
        </div>
        {notes.into_iter().map(|note| view! { <p class="cycle-hint muted" data-testid="measured-note">{format!("{}.", crate::chart::readout::sentence_case(note.trim_end_matches('.')))}</p> }).collect_view()}
    }
}

/// The viewBox width where there is room, and the least a narrow box gets ([`fitted_viewbox_width`]).
const WIDTH: f64 = 900.0;
const NARROWEST: f64 = 560.0;
const LEFT: f64 = 180.0;
/// Between the plot's right end and the picture's.
const MARGIN: f64 = 30.0;
/// Rows and type sized for a half-width column at 1280 px (the SVG is drawn at about two thirds of its
/// width there; at 30 and 16 px the names were ~10 px tall).
const ROW: f64 = 40.0;
/// The fewest cycles a stage needs for its p90 to be drawn as a box: with fewer, the p90 is the max.
const P90_SAMPLES: usize = 10;

/// One group's strip of box plots and its table of numbers.
#[component]
fn Group(
    title: &'static str,
    group: CycleGroup,
    /// How the strip is drawn.
    scale: RwSignal<SpreadScale>,
    /// The end of the seconds axis, shared by the groups.
    end: f64,
    /// Each stage's steady-state median, which its changes are measured from.
    references: Vec<Option<f64>>,
    test_id: &'static str,
) -> impl IntoView {
    // Narrower in a narrow box (a phone, a 480 px embed), so that the names keep a readable size.
    let svg = NodeRef::new();
    let width = fitted_viewbox_width(svg, WIDTH, NARROWEST);
    let height = group.stages.len() as f64 * ROW + 36.0;
    let strip = {
        let group = group.clone();
        move || match scale.get() {
            SpreadScale::Seconds => seconds_strip(&group, end, width.get()).into_any(),
            SpreadScale::ChangeFromMedian => change_strip(&group, &references, width.get()).into_any(),
        }
    };
    // With fewer cycles than P90_SAMPLES the p90 is the max, and a box from the median to it read as "this
    // stage got 25 % slower": such a stage draws its median alone, and the key says so.
    let few = group.stages.iter().any(|s| s.distribution.samples < P90_SAMPLES);
    let key = move || {
        let key = match scale.get() {
            SpreadScale::Seconds => "Seconds · whisker: min to max · box: median to p90 (nearest rank) · bar: median",
            SpreadScale::ChangeFromMedian => {
                "Change from the stage's steady-state median · whisker: min to max · box: median to p90 (nearest rank) \
                 · bar: median"
            }
        };
        if few { format!("{key} · under {P90_SAMPLES} cycles, no p90 box") } else { key.to_string() }
    };
    let label = move || match scale.get() {
        SpreadScale::Seconds => {
            format!("{title}: per-stage spread of measured seconds (whisker min to max, box median to p90)")
        }
        SpreadScale::ChangeFromMedian => format!(
            "{title}: per-stage spread as percent change from each stage's steady-state median (whisker min to \
             max, box median to p90)"
        ),
    };
    let table_rows = group
        .stages
        .iter()
        .map(|stage| {
            let d = stage.distribution;
            view! {
                <tr data-testid="measured-row">
                    <th scope="row">{stage.name.clone()}</th>
                    <td class="num">{d.samples}</td>
                    <td class="num">{seconds(d.min)}</td>
                    <td class="num" data-testid="measured-median">{seconds(d.median)}</td>
                    <td class="num">{seconds(d.p90)}</td>
                    <td class="num">{seconds(d.max)}</td>
                </tr>
            }
        })
        .collect_view();
    let cycles = match group.cycles.as_slice() {
        [] => "no cycles".to_string(),
        [one] => format!("cycle {one}"),
        [first, .., last] => format!("cycles {first}–{last} ({})", group.cycles.len()),
    };
    view! {
        <div class="measured-group" data-testid=test_id>
            <h3 class="measured-title">{title} <span class="muted">" · " {cycles}</span></h3>
            <svg class="spread" node_ref=svg viewBox=move || format!("0 0 {} {height}", width.get()) role="img"
                aria-label=label>
                {strip}
            </svg>
            <p class="spread-key muted" data-testid="spread-key">{key}</p>
            // A region the keyboard can scroll, as the app's other wide tables (a phone scrolls it).
            <ScrollRegion label=format!("{title}: each stage's times, scrollable")>
                <table class="piece-table measured-table">
                    <thead>
                        <tr>
                            <th scope="col">"Stage"</th>
                            <th scope="col" class="num">"n"</th>
                            <th scope="col" class="num">"min"</th>
                            <th scope="col" class="num">"median"</th>
                            <th scope="col" class="num">"p90"</th>
                            <th scope="col" class="num">"max"</th>
                        </tr>
                    </thead>
                    <tbody>{table_rows}</tbody>
                    // Each cycle's stage times added up: the tail a slow stage gives whole cycles, which the
                    // stages' medians do not show.
                    {group.cycle_seconds.map(|d| view! {
                        <tfoot>
                            <tr data-testid="measured-cycle-row">
                                <th scope="row">"each cycle's total"</th>
                                <td class="num">{d.samples}</td>
                                <td class="num">{seconds(d.min)}</td>
                                <td class="num">{seconds(d.median)}</td>
                                <td class="num">{seconds(d.p90)}</td>
                                <td class="num">{seconds(d.max)}</td>
                            </tr>
                        </tfoot>
                    })}
                </table>
            </ScrollRegion>
        </div>
    }
}

/// A group's box plots on a seconds axis to `end`, in a picture `width` units wide.
fn seconds_strip(group: &CycleGroup, end: f64, width: f64) -> impl IntoView + use<> {
    let scale = Linear::new((0.0, end), (LEFT, width - MARGIN));
    let ticks = seconds_ticks(end, 6);
    let last = ticks.len().saturating_sub(1);
    let ticks: Vec<(f64, String)> = ticks
        .into_iter()
        .enumerate()
        // The last number carries the unit.
        .map(|(i, t)| (t, if i == last { seconds(t) } else { grouped_digits(&decimal(t, 3)) }))
        .collect();
    let rows = group
        .stages
        .iter()
        .map(|stage| SpreadRow {
            marks: Some(SpreadMarks::of(&stage.distribution, &scale)),
            reading: seconds_reading(stage),
            value: seconds(stage.distribution.median),
        })
        .collect();
    strip(group, &scale, ticks, rows)
}

/// A group's box plots as changes from each stage's steady-state median (`references`), on a percent axis of
/// the group's own: a startup cycle is often far slower, and on a shared axis the steady spreads shrank
/// back to slivers.
fn change_strip(group: &CycleGroup, references: &[Option<f64>], width: f64) -> impl IntoView + use<> {
    let changes = group.stages.iter().zip(references).flat_map(|(stage, reference)| {
        let d = stage.distribution;
        [d.min, d.max].into_iter().filter_map(move |v| reference.and_then(|r| change_from(v, r)))
    });
    let axis = change_axis(changes);
    let scale = Linear::new(axis, (LEFT, width - MARGIN));
    let ticks = change_ticks(axis, 5).into_iter().map(|t| (t, change_label(t))).collect();
    let rows = group
        .stages
        .iter()
        .zip(references)
        .map(|(stage, &reference)| {
            let marks = reference.and_then(|r| SpreadMarks::relative(&stage.distribution, r, &scale));
            let d = stage.distribution;
            let change = |v: f64| reference.and_then(|r| change_from(v, r)).map(change_label).unwrap_or_default();
            let reading = match reference {
                Some(r) if marks.is_some() => {
                    format!(
                        "{}: against the steady median {}: min {}, median {}, p90 {}, max {}",
                        stage.name,
                        seconds(r),
                        change(d.min),
                        change(d.median),
                        change(d.p90),
                        change(d.max)
                    )
                }
                _ => format!("{}: no steady-state median to compare with", stage.name),
            };
            SpreadRow { marks, reading, value: change(d.median) }
        })
        .collect();
    strip(group, &scale, ticks, rows)
}

/// A stage's spread in seconds, as its tooltip says it.
fn seconds_reading(stage: &crate::core::cycle::StageStats) -> String {
    let d = stage.distribution;
    format!(
        "{}: min {}, median {}, p90 {}, max {}",
        stage.name,
        seconds(d.min),
        seconds(d.median),
        seconds(d.p90),
        seconds(d.max)
    )
}

/// One stage's row of a strip.
struct SpreadRow {
    /// Its marks; `None` when there is nothing to draw it against.
    marks: Option<SpreadMarks>,
    /// The row's numbers in words, its tooltip.
    reading: String,
    /// Its median as the axis counts (`96 s`, `+37 %`), written beside a stage measured once: its marks are
    /// then one thin line, which says little alone.
    value: String,
}

/// The strip itself: gridlines at `ticks` (0 drawn stronger on a change axis), then one row per stage with
/// its marks, or a note where a stage has nothing to draw against, and each row's reading as its tooltip.
fn strip(group: &CycleGroup, scale: &Linear, ticks: Vec<(f64, String)>, rows: Vec<SpreadRow>) -> impl IntoView + use<> {
    let axis_y = group.stages.len() as f64 * ROW + 4.0;
    let zero_is_inside = scale.domain.0 < 0.0;
    let ticks = ticks
        .into_iter()
        .map(|(t, label)| {
            let x = scale.map(t);
            let class = if zero_is_inside && t == 0.0 { "gantt-grid spread-zero" } else { "gantt-grid" };
            view! {
                <line class=class x1=x x2=x y1=0 y2=axis_y></line>
                <text class="gantt-tick" x=x y=axis_y + 26.0 text-anchor="middle">{label}</text>
            }
        })
        .collect_view();
    // The same colour per stage as the editor and the timeline (the stage named refit is the refit).
    let names: Vec<&str> = group.stages.iter().map(|s| s.name.as_str()).collect();
    let colours = stage_colours(&names, None);
    let rows = group
        .stages
        .iter()
        .zip(colours)
        .zip(rows)
        .enumerate()
        .map(|(i, ((stage, colour), SpreadRow { marks, reading, value }))| {
            let y = i as f64 * ROW + ROW / 2.0;
            // Beside a single measurement, on the side with more room.
            let once = stage.distribution.samples == 1;
            let value_label = marks.filter(|_| once).map(|m| {
                let right = m.max < (scale.range.0 + scale.range.1) / 2.0;
                let (x, anchor) = if right { (m.max + 10.0, "start") } else { (m.min - 10.0, "end") };
                view! { <text class="spread-value" x=x y=y + 6.0 text-anchor=anchor>{value}</text> }
            });
            let drawn = match marks {
                Some(m) => view! {
                    <line class="spread-whisker" x1=m.min x2=m.max y1=y y2=y></line>
                    <line class="spread-whisker" x1=m.min x2=m.min y1=y - 9.0 y2=y + 9.0></line>
                    <line class="spread-whisker" x1=m.max x2=m.max y1=y - 9.0 y2=y + 9.0></line>
                    {if stage.distribution.samples >= P90_SAMPLES {
                        view! { <rect class="spread-box" x=m.median y=y - 12.0 width=(m.p90 - m.median).max(3.0) height=24 fill=colour></rect> }.into_any()
                    } else {
                        // Too few cycles for a p90 of their own: the median's mark alone, in the stage's colour.
                        view! { <rect class="spread-box" data-few="" x=m.median - 4.0 y=y - 12.0 width=8 height=24 fill=colour></rect> }.into_any()
                    }}
                    <line class="spread-median" x1=m.median x2=m.median y1=y - 15.0 y2=y + 15.0></line>
                    {value_label}
                }
                .into_any(),
                None => view! {
                    <text class="gantt-tick" x=LEFT + 8.0 y=y + 6.0>"no steady-state median"</text>
                }
                .into_any(),
            };
            view! {
                <g class="spread-row" data-testid="spread-row">
                    <title>{reading}</title>
                    // Cut to the name column, as the timeline cuts its names ("actor/sync_weights_to_vllm" ran
                    // past the picture's left edge); the row's title and the table below keep it whole.
                    <text class="gantt-name" x=LEFT - 10.0 y=y + 7.0 text-anchor="end">
                        {fit_label(&stage.name, (LEFT - 14.0) / NAME_EM_UNITS)}
                    </text>
                    {drawn}
                </g>
            }
        })
        .collect_view();
    view! { {ticks} {rows} }
}
