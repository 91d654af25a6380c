//! The before/after timeline (Gantt) of one cycle: a lane per stage, overlaps hatched, the refit's parts
//! shaded, the saved time marked. Sized in viewBox units so it scales up on a projector.

use leptos::prelude::*;

use super::CycleState;
use crate::chart::gantt::{
    CloseUpRow, Ghost, HEADING_FONT, LaneBar, LegendEntries, NAME_EM_UNITS, PartKind, after_heading, bound_apart,
    fit_label, fitting_title, label_part, lane_bars, legend_entries, name_column_right, outside_label, refit_close_up,
    refit_ghost, refit_has_parts, seconds_ticks,
};
use crate::chart::palette::{PALETTE, REFIT_COLOUR, stage_colours, text_on};
use crate::chart::readout::{decimal, seconds, times};
use crate::chart::scale::Linear;
use crate::core::cycle::{CycleReport, Timeline};
use crate::core::traffic::grouped_digits;
use crate::ui::fit::fitted_viewbox_width;
use crate::ui::keyed::redraw_on;

/// The viewBox width where there is room, and the least a narrow box gets ([`fitted_viewbox_width`]).
const WIDTH: f64 = 900.0;
const NARROWEST: f64 = 560.0;
/// The close-up's name column ("before", "after") and where its bars start; the timeline's follows its
/// stage names ([`name_column_right`]).
const LABEL_RIGHT: f64 = 128.0;
const PLOT_LEFT: f64 = 140.0;
/// Between the name column and the bars.
const NAME_GAP: f64 = 12.0;
/// Between the plot's right end and the picture's.
const PLOT_MARGIN: f64 = 50.0;
const LANE: f64 = 34.0;
const BAR: f64 = 26.0;
const TITLE: f64 = 30.0;
const FONT: f64 = 16.0;
const WAIT_FILL: &str = "#8a949f";

/// The timeline's section: heading, the SVG, its legend.
#[component]
pub fn CycleTimeline(
    /// The id of the heading, for the section's `aria-labelledby`.
    title_id: &'static str,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    let shown = Memo::new(move |_| state.report.with(Option::is_some));
    let close_up = Memo::new(move |_| state.report.with(|r| r.as_ref().is_some_and(refit_has_parts)));
    let entries = move || state.report.with(|r| r.as_ref().map(legend_entries).unwrap_or_default());
    view! {
        <h2 class="cycle-section-title" id=title_id>"One cycle, before and after"</h2>
        {move || shown.get().then(|| view! { <Gantt report=state.report/> })}
        // The refit alone, when it has parts to tell apart (a wait, a preparation).
        {move || close_up.get().then(|| view! { <RefitCloseUp report=state.report/> })}
        // Redrawn when what is drawn changes, not on every keystroke of s.
        {redraw_on(entries, move || view! { <TimelineLegend entries=entries()/> })}
    }
}

/// Shortens a stage name to fit a name column ending at `label_right`, measured by the letters' widths
/// ([`fit_label`]).
fn lane_label(name: &str, label_right: f64) -> String {
    fit_label(name, (label_right - 4.0) / NAME_EM_UNITS)
}

/// The geometry both blocks share: the seconds axis (to the longer cycle), the number of lanes and the
/// picture's width in viewBox units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axis {
    extent: f64,
    lanes: usize,
    width: f64,
    /// Where the stage names end ([`name_column_right`]).
    label_right: f64,
}

impl Axis {
    fn of(report: &CycleReport, width: f64) -> Axis {
        Axis {
            extent: report.before.cycle_seconds.max(report.after.cycle_seconds),
            lanes: report.before.stages.len(),
            width,
            label_right: name_column_right(report.before.stages.iter().map(|s| s.name.as_str()), width),
        }
    }
    fn plot_left(&self) -> f64 {
        self.label_right + NAME_GAP
    }
    fn plot_right(&self) -> f64 {
        self.width - PLOT_MARGIN
    }
    fn scale(&self) -> Linear {
        Linear::new((0.0, self.extent), (self.plot_left(), self.plot_right()))
    }
    /// The height of one block: its title and its lanes.
    fn block(&self) -> f64 {
        TITLE + self.lanes as f64 * LANE + 10.0
    }
    fn axis_y(&self) -> f64 {
        2.0 * self.block() + 6.0
    }
    fn height(&self) -> f64 {
        self.axis_y() + 34.0
    }
}

/// The refit's waiting and its paced transfer, as both pictures hatch them: light stripes on grey for the
/// waiting, `dark` ones on the refit's colour for the transfer paced by the stage it overlaps (sent as that
/// stage makes the weights: a transfer no speedup shortens). Paced had been the waiting's hatch, lighter,
/// and read as waiting; with white stripes, as the preparation's pale yellow (review 35). Each SVG defines
/// its own (an exported picture carries only its own `<defs>`).
#[component]
fn StripeHatch(id: &'static str, ground: &'static str, #[prop(optional)] dark: bool) -> impl IntoView {
    let (stripe, opacity) = if dark { ("#000000", "0.28") } else { ("#ffffff", "0.55") };
    view! {
        <pattern id=id patternUnits="userSpaceOnUse" width="8" height="8" patternTransform="rotate(-45)">
            <rect width="8" height="8" fill=ground></rect>
            <line x1="0" y1="0" x2="0" y2="8" stroke=stripe stroke-opacity=opacity stroke-width="3"></line>
        </pattern>
    }
}

/// Both blocks on one seconds axis. Each part is redrawn only when what it shows changes: typing a new s
/// redraws the "after" block and the saved time, not the "before" block or the grid.
#[component]
fn Gantt(report: Memo<Option<CycleReport>>) -> impl IntoView {
    // Narrower in a narrow box (a phone, a 480 px embed), so that the labels keep a readable size.
    let svg = NodeRef::new();
    let width = fitted_viewbox_width(svg, WIDTH, NARROWEST);
    let axis = Memo::new(move |_| {
        let width = width.get();
        report.with(|r| {
            r.as_ref().map_or(Axis { extent: 1.0, lanes: 1, width, label_right: LABEL_RIGHT }, |report| {
                Axis::of(report, width)
            })
        })
    });
    let description = move || {
        report.with(|r| {
            r.as_ref().map(|r| {
                format!(
                    "Timeline of one cycle: before, {}; after the transfer speedup, {}; {}",
                    seconds(r.before.cycle_seconds),
                    seconds(r.after.cycle_seconds),
                    r.summary
                )
            })
        })
    };
    // The grid and the lanes' empty tracks, drawn first: the saved box comes next, then the bars, so the
    // box tints the empty tracks and never a bar.
    let grid = move || {
        let axis = axis.get();
        let (scale, axis_y) = (axis.scale(), axis.axis_y());
        let lines = seconds_ticks(axis.extent, 7)
            .iter()
            .map(|&t| {
                let x = scale.map(t);
                let label = grouped_digits(&decimal(t, 3));
                // Centred under its line unless that runs past the picture's edge ("100,000,000" at the end of
                // a 10⁸ s axis was cut): then it ends there. Half a 14 px digit, with room to spare, is 5 units.
                let anchor = if x + label.len() as f64 * 5.0 > axis.width { "end" } else { "middle" };
                view! {
                    <line class="gantt-grid" x1=x x2=x y1=TITLE - 4.0 y2=axis_y></line>
                    <text class="gantt-tick" x=x y=axis_y + 20.0 text-anchor=anchor>{label}</text>
                }
            })
            .collect_view();
        let lanes = axis.lanes.max(1);
        let tracks = (0..2 * lanes)
            .map(|i| {
                let y = (i / lanes) as f64 * axis.block() + TITLE + (i % lanes) as f64 * LANE + (LANE - BAR) / 2.0;
                let left = axis.plot_left();
                view! { <rect class="gantt-track" x=left y=y width=axis.plot_right() - left height=BAR></rect> }
            })
            .collect_view();
        view! { {lines} {tracks} }
    };
    let before = move || report.with(|r| r.as_ref().map(|r| (r.before.clone(), axis.get())));
    let after = move || {
        report.with(|r| {
            r.as_ref().map(|r| {
                let axis = axis.get();
                let ghost = refit_ghost(r, &axis.scale());
                let best = bound_apart(r).then_some(r.bound.best_cycle_seconds);
                (r.after.clone(), AfterHeading::of(r, axis).title, ghost, best, axis)
            })
        })
    };
    let marks = move || {
        report.with(|r| {
            r.as_ref().map(|r| {
                let axis = axis.get();
                (r.seconds_saved, r.before.cycle_seconds, r.after.cycle_seconds, AfterHeading::of(r, axis).label, axis)
            })
        })
    };
    view! {
        <svg
            node_ref=svg
            class="gantt"
            viewBox=move || axis.with(|a| format!("0 0 {} {}", a.width, a.height()))
            role="img"
            aria-label=description
            data-testid="cycle-gantt"
        >
            <defs>
                <pattern id="cycle-hatch-overlap" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">
                    <line x1="0" y1="0" x2="0" y2="7" class="hatch-overlap" stroke-width="3"></line>
                </pattern>
                <StripeHatch id="cycle-hatch-wait" ground=WAIT_FILL/>
                <StripeHatch id="cycle-hatch-paced" ground=REFIT_COLOUR dark=true/>
            </defs>
            {redraw_on(move || axis.get(), grid)}
            {redraw_on(marks, move || marks().map(|(saved, old, new, label, axis)| saved_box(saved, old, new, label, axis)))}
            {redraw_on(before, move || {
                before().map(|(timeline, axis)| {
                    // With overlaps, the stages' sum is not the cycle: say both (the article's "draw the
                    // waiting before adding the times").
                    let sum: f64 = timeline.stages.iter().map(|stage| stage.seconds).sum();
                    let title = if sum - timeline.cycle_seconds > 1e-9 {
                        let (cycle, sum, alongside) =
                            (seconds(timeline.cycle_seconds), seconds(sum), seconds(sum - timeline.cycle_seconds));
                        // A narrow picture (a phone, a 480 px embed) cut the long forms at its edge.
                        let titles = [
                            format!("Before · {cycle} (the stages add up to {sum}; {alongside} run alongside)"),
                            format!("Before · {cycle} (stages {sum}, {alongside} overlap)"),
                            format!("Before · {cycle}"),
                        ];
                        let at = fitting_title(&titles.each_ref().map(|t| t.chars().count()), axis.width);
                        titles[at].clone()
                    } else {
                        format!("Before · {}", seconds(timeline.cycle_seconds))
                    };
                    view! { <Block title top=0.0 timeline scale=axis.scale() ghost=None best=None test_id="gantt-before"/> }
                })
            })}
            {redraw_on(after, move || {
                after().map(|(timeline, title, ghost, best, axis)| {
                    view! { <Block title top=axis.block() timeline scale=axis.scale() ghost best test_id="gantt-after"/> }
                })
            })}
            <line
                class="gantt-axis"
                x1=move || axis.get().plot_left()
                x2=move || axis.get().plot_right()
                y1=move || axis.get().axis_y()
                y2=move || axis.get().axis_y()
            ></line>
            <text class="gantt-tick" x=move || axis.get().label_right y=move || axis.get().axis_y() + 20.0 text-anchor="end">"seconds"</text>
        </svg>
    }
}

/// One row of the close-up: its name, the bar, the labels under it.
const CLOSE_UP_ROW: f64 = 76.0;
/// From one line of the close-up's labels to the next, when a narrow picture needs more than one.
const CLOSE_UP_LINE: f64 = HEADING_FONT + 6.0;

/// How much taller than [`CLOSE_UP_ROW`] a close-up row is for its labels' extra lines.
fn extra_lines(row: &CloseUpRow) -> f64 {
    row.parts.iter().map(|p| p.line).max().unwrap_or(0) as f64 * CLOSE_UP_LINE
}

/// The refit alone, before and after the speedup, on its own seconds axis ([`refit_close_up`]): in the
/// cycle's timeline a queued refit's 8 s wait and 2 s transfer are slivers too thin to label, and the
/// point (a faster transport shortens the transfer alone) is lost on a projector.
#[component]
fn RefitCloseUp(report: Memo<Option<CycleReport>>) -> impl IntoView {
    let svg = NodeRef::new();
    let width = fitted_viewbox_width(svg, WIDTH, NARROWEST);
    let drawn = Memo::new(move |_| {
        let width = width.get();
        report.with(|r| {
            let r = r.as_ref()?;
            let rows = refit_close_up(r, PLOT_LEFT, width - PLOT_MARGIN, HEADING_FONT)?;
            Some((rows, r.refit_before.transfer > 0.0, width))
        })
    });
    let description = move || {
        drawn.with(|d| {
            d.as_ref().map(|([before, after], _, _)| {
                let row = |row: &CloseUpRow| {
                    let parts: Vec<&str> = row.parts.iter().map(|p| p.label.as_str()).collect();
                    format!("{} ({})", parts.join(" then "), seconds(row.seconds))
                };
                format!("The refit up close: before, {}; after, {}", row(before), row(after))
            })
        })
    };
    // Taller when a row's labels take more than a line (a phone, a 480 px embed).
    let height = move || {
        let extra = drawn.with(|d| d.as_ref().map_or(0.0, |(rows, _, _)| rows.iter().map(extra_lines).sum::<f64>()));
        30.0 + 2.0 * CLOSE_UP_ROW + extra
    };
    view! {
        <svg
            node_ref=svg
            class="gantt close-up"
            viewBox=move || format!("0 0 {} {}", width.get(), height())
            role="img"
            aria-label=description
            data-testid="refit-close-up"
        >
            <defs>
                <StripeHatch id="close-up-hatch-wait" ground=WAIT_FILL/>
                <StripeHatch id="close-up-hatch-paced" ground=REFIT_COLOUR dark=true/>
            </defs>
            {move || drawn.get().map(|([before, after], transfers, width)| {
                let long = if transfers {
                    "The refit up close: only its transfer gets faster"
                } else {
                    "The refit up close: it has no transfer to speed up"
                };
                // A phone's picture had the long title from edge to edge.
                let titles = [long, "The refit up close"];
                let title = titles[fitting_title(&titles.map(|t| t.chars().count()), width)];
                view! {
                    <text class="gantt-title" x=0 y=20.0>{title}</text>
                    <CloseUpBar row=before.clone() name="before" top=30.0 right=width - PLOT_MARGIN test_id="close-up-before"/>
                    <CloseUpBar row=after name="after" top=30.0 + CLOSE_UP_ROW + extra_lines(&before) right=width - PLOT_MARGIN
                        test_id="close-up-after"/>
                }
            })}
        </svg>
    }
}

/// One row of the close-up: the name and length in the label column, the refit's parts, their labels under
/// the bar, and over it when they take more lines (tied to their part by a line when pushed away from it).
#[component]
fn CloseUpBar(row: CloseUpRow, name: &'static str, top: f64, right: f64, test_id: &'static str) -> impl IntoView {
    let over = row.parts.iter().filter(|p| p.over_the_bar()).map(|p| p.line / 2 + 1).max().unwrap_or(0);
    let bar_y = top + 4.0 + over as f64 * CLOSE_UP_LINE;
    let label_y = bar_y + BAR + 22.0;
    let parts = row
        .parts
        .iter()
        .map(|part| {
            let (fill, opacity, kind) = match part.kind {
                PartKind::Wait => ("url(#close-up-hatch-wait)", "1", "wait"),
                PartKind::Paced => ("url(#close-up-hatch-paced)", "1", "paced"),
                PartKind::Preparation => (REFIT_COLOUR, "0.45", "preparation"),
                PartKind::Transfer | PartKind::Work => (REFIT_COLOUR, "1", "transfer"),
            };
            let centre = (part.x0 + part.x1) / 2.0;
            let away = (part.line / 2) as f64 * CLOSE_UP_LINE;
            // From the bar's edge nearest the label to the label's edge nearest the bar.
            let (label_y, from_y, to_y) = if part.over_the_bar() {
                let y = bar_y - 8.0 - away;
                (y, bar_y, y + 5.0)
            } else {
                let y = label_y + away;
                (y, bar_y + BAR, y - 15.0)
            };
            let leader = (!part.label_under_part()).then(|| {
                view! { <line class="close-up-leader" x1=centre x2=part.label_x + 3.0 y1=from_y y2=to_y></line> }
            });
            view! {
                <rect class="gantt-part" data-part=kind x=part.x0 y=bar_y width=(part.x1 - part.x0).max(0.0) height=BAR fill=fill fill-opacity=opacity></rect>
                {leader}
                <text class="close-up-label" data-part=kind x=part.label_x y=label_y>{part.label.clone()}</text>
            }
        })
        .collect_view();
    view! {
        <g data-testid=test_id>
            <text class="gantt-name" x=LABEL_RIGHT y=bar_y + BAR / 2.0 + FONT * 0.35 text-anchor="end">{name}</text>
            <text class="gantt-tick close-up-total" x=LABEL_RIGHT y=label_y text-anchor="end">{seconds(row.seconds)}</text>
            <rect class="gantt-track" x=PLOT_LEFT y=bar_y width=right - PLOT_LEFT height=BAR></rect>
            {parts}
        </g>
    }
}

/// The "after" block's title and where the saved time's label goes beside it ([`after_heading`]).
#[derive(Clone, Debug, PartialEq)]
struct AfterHeading {
    title: String,
    /// The label's x and whether it is anchored at its start; `None` when nothing is saved or lost.
    label: Option<(f64, bool)>,
}

impl AfterHeading {
    fn of(report: &CycleReport, axis: Axis) -> AfterHeading {
        let (speedup, cycle) = (report.speedup, seconds(report.after.cycle_seconds));
        let change = if speedup < 1.0 {
            format!("{} slower", times(1.0 / speedup))
        } else {
            // s as its field shows it, its whole part grouped.
            format!("{}× faster", grouped_digits(&decimal(speedup, 4)))
        };
        let titles = [
            format!("After · transfer {change} · {cycle}"),
            format!("After · s\u{a0}=\u{a0}{} · {cycle}", grouped_digits(&decimal(speedup, 4))),
            format!("After · {cycle}"),
        ];
        let saved = (report.seconds_saved.abs() > 1e-9).then(|| {
            let (old, new) = (report.before.cycle_seconds, report.after.cycle_seconds);
            let scale = axis.scale();
            (scale.map(new.min(old)), scale.map(new.max(old)), saved_text(report.seconds_saved).chars().count())
        });
        let (title, label) = after_heading(&titles.each_ref().map(|t| t.chars().count()), saved, axis.width);
        AfterHeading { title: titles[title].clone(), label }
    }
}

/// "37.5 s saved", or "450 s lost" for a slowdown.
fn saved_text(saved: f64) -> String {
    if saved > 0.0 { format!("{} saved", seconds(saved)) } else { format!("{} lost", seconds(-saved)) }
}

/// The time saved (or lost) between the two cycle ends, with its label above the "after" block at `label`
/// ([`AfterHeading`]).
fn saved_box(saved: f64, old: f64, new: f64, label: Option<(f64, bool)>, axis: Axis) -> impl IntoView {
    let (scale, block, lanes) = (axis.scale(), axis.block(), axis.lanes as f64);
    label.filter(|_| saved.abs() > 1e-9).map(|(label_x, start)| {
        let (x0, x1) = (scale.map(new.min(old)), scale.map(new.max(old)));
        let top = block + TITLE - 4.0;
        let class = if saved > 0.0 { "gantt-saved" } else { "gantt-lost" };
        let anchor = if start { "start" } else { "end" };
        view! {
            <g data-testid="gantt-saved">
                <rect class=class x=x0 y=top width=(x1 - x0).max(1.0) height=lanes * LANE + 4.0></rect>
                <text class=format!("{class}-label") x=label_x y=block + TITLE - 10.0 text-anchor=anchor>{saved_text(saved)}</text>
            </g>
        }
    })
}

/// One timeline: its title, a lane per stage and the line where the cycle ends; `ghost` outlines the refit's
/// old length in its lane (see [`refit_ghost`]); `best` draws the line where the cycle would end with an
/// instant transfer (the bound), over the bars.
#[component]
fn Block(
    title: String,
    top: f64,
    timeline: Timeline,
    scale: Linear,
    ghost: Option<Ghost>,
    best: Option<f64>,
    test_id: &'static str,
) -> impl IntoView {
    let end_x = scale.map(timeline.cycle_seconds);
    let lanes = timeline.stages.len() as f64;
    let names: Vec<&str> = timeline.stages.iter().map(|s| s.name.as_str()).collect();
    let colours = stage_colours(&names, timeline.stages.iter().position(|s| s.refit.is_some()));
    let bars = lane_bars(&timeline, &scale)
        .into_iter()
        .map(|bar| {
            let y = top + TITLE + bar.stage as f64 * LANE;
            let colour = colours.get(bar.stage).copied().unwrap_or(PALETTE[0]);
            // A label outside its bar clears the outline of the bar's old length too.
            let clear_to = ghost.filter(|g| g.stage == bar.stage).map_or(bar.x1, |g| g.x1.max(bar.x1));
            view! { <Lane bar colour y end_x clear_to plot_left=scale.range.0/> }
        })
        .collect_view();
    let ghost = ghost.map(|g| {
        let y = top + TITLE + g.stage as f64 * LANE + (LANE - BAR) / 2.0;
        view! {
            <rect class="gantt-ghost" data-testid="gantt-ghost" x=g.x0 y=y width=(g.x1 - g.x0).max(0.0) height=BAR>
                <title>{format!("The refit before the speedup: {}", seconds(g.seconds))}</title>
            </rect>
        }
    });
    view! {
        <g data-testid=test_id>
            <text class="gantt-title" x=0 y=top + 20.0>{title}</text>
            {bars}
            {ghost}
            <line class="gantt-end" x1=end_x x2=end_x y1=top + TITLE - 4.0 y2=top + TITLE + lanes * LANE></line>
            {best.map(|best| {
                let x = scale.map(best);
                view! {
                    <line class="gantt-best" x1=x x2=x y1=top + TITLE - 4.0 y2=top + TITLE + lanes * LANE + 4.0>
                        <title>{format!("Instant transfer: {}", seconds(best))}</title>
                    </line>
                }
            })}
        </g>
    }
}

/// One stage's bar in its `colour`, hatched where it overlaps the previous stage, with its name and seconds
/// (kept clear of the cycle's end line at `end_x`; a label after the bar starts after `clear_to`).
#[component]
fn Lane(bar: LaneBar, colour: &'static str, y: f64, end_x: f64, clear_to: f64, plot_left: f64) -> impl IntoView {
    let bar_y = y + (LANE - BAR) / 2.0;
    let text_y = y + LANE / 2.0 + FONT * 0.35;
    let parts = bar
        .parts
        .iter()
        .map(|part| {
            let (fill, opacity) = match part.kind {
                PartKind::Work | PartKind::Transfer => (colour.to_string(), "1"),
                PartKind::Wait => ("url(#cycle-hatch-wait)".to_string(), "1"),
                PartKind::Paced => ("url(#cycle-hatch-paced)".to_string(), "1"),
                PartKind::Preparation => (colour.to_string(), "0.45"),
            };
            let kind = match part.kind {
                PartKind::Work => "work",
                PartKind::Wait => "wait",
                PartKind::Paced => "paced",
                PartKind::Transfer => "transfer",
                PartKind::Preparation => "preparation",
            };
            view! {
                <rect
                    class="gantt-part"
                    data-part=kind
                    x=part.x0
                    y=bar_y
                    width=(part.x1 - part.x0).max(0.0)
                    height=BAR
                    fill=fill
                    fill-opacity=opacity
                ></rect>
            }
        })
        .collect_view();
    let overlap = bar.overlap.map(|(x0, x1)| {
        view! { <rect class="gantt-overlap" x=x0 y=bar_y width=x1 - x0 height=BAR fill="url(#cycle-hatch-overlap)"></rect> }
    });
    let label = seconds(bar.seconds);
    let value = if let Some(part) = label_part(&bar, label.chars().count(), FONT) {
        let under = match part.kind {
            PartKind::Wait => WAIT_FILL,
            PartKind::Paced => REFIT_COLOUR,
            _ => colour,
        };
        view! {
            // Haloed in the bar's colour: an overlap's hatching ran through the label.
            <text class="gantt-value" x=(part.x0 + part.x1) / 2.0 y=text_y text-anchor="middle" fill=text_on(under) stroke=under>
                {label}
            </text>
        }
        .into_any()
    } else {
        // Placed by the size it is drawn at (`.gantt text`): estimated at `FONT`, it ran into the stage names.
        let (x, after) = outside_label(bar.x0, clear_to, label.chars().count(), HEADING_FONT, plot_left, end_x - 4.0);
        let anchor = if after { "start" } else { "end" };
        view! { <text class="gantt-value gantt-value-out" x=x y=text_y text-anchor=anchor>{label}</text> }.into_any()
    };
    view! {
        <g class="gantt-lane" data-testid="gantt-lane">
            <title>{format!("{}: {}", bar.name, seconds(bar.seconds))}</title>
            <text class="gantt-name" x=plot_left - NAME_GAP y=text_y text-anchor="end">{lane_label(&bar.name, plot_left - NAME_GAP)}</text>
            {parts}
            {overlap}
            {value}
        </g>
    }
}

/// What each fill and line of the timeline means, listing only what the picture draws (`entries`): no
/// "overlap" entry for a cycle without one, "time lost" instead of "time saved" for a slowdown.
#[component]
fn TimelineLegend(entries: LegendEntries) -> impl IntoView {
    let stage = if entries.stage_colour.is_empty() { PALETTE[0] } else { entries.stage_colour };
    let swatch =
        |body: AnyView| view! { <svg class="legend-swatch" viewBox="0 0 24 14" aria-hidden="true">{body}</svg> };
    let item = |entry: &'static str, drawn: fn(&LegendEntries) -> bool, body: AnyView, text: &'static str| {
        view! {
            <li data-entry=entry hidden=!drawn(&entries)>
                {swatch(body)}
                {text}
            </li>
        }
    };
    view! {
        <ul class="cycle-legend-list" aria-label="Timeline legend" data-testid="timeline-legend">
            {item("stage", |_| true, view! { <rect width="24" height="14" rx="2" fill=stage></rect> }.into_any(),
                "stage (colour per stage, name at left)")}
            {item("overlap", |e| e.overlap,
                // On a bar's colour, as drawn (a dark hatch alone vanishes on the dark theme's background).
                view! {
                    <rect width="24" height="14" fill=stage></rect>
                    <rect width="24" height="14" fill="url(#cycle-hatch-overlap)"></rect>
                }
                .into_any(),
                "overlap with the previous stage")}
            {item("transfer", |e| e.transfer, view! { <rect width="24" height="14" fill=REFIT_COLOUR></rect> }.into_any(),
                "refit: transfer (the only part s shrinks)")}
            {item("wait", |e| e.wait, view! { <rect width="24" height="14" fill="url(#cycle-hatch-wait)"></rect> }.into_any(),
                "refit: waiting (a faster transport does not help)")}
            {item("overlap-wait", |e| e.overlap_on_wait,
                view! {
                    <rect width="24" height="14" fill="url(#cycle-hatch-wait)"></rect>
                    <rect width="24" height="14" fill="url(#cycle-hatch-overlap)"></rect>
                }
                .into_any(),
                "refit: waiting while the previous stage still runs")}
            {item("paced", |e| e.paced,
                // Held is always under the overlap's hatch (it lasts until the overlapped stage ends), as drawn.
                view! {
                    <rect width="24" height="14" fill="url(#cycle-hatch-paced)"></rect>
                    <rect width="24" height="14" fill="url(#cycle-hatch-overlap)"></rect>
                }
                .into_any(),
                "refit: paced by the stage it overlaps (sending its weights as they are made)")}
            {item("preparation", |e| e.preparation,
                view! { <rect width="24" height="14" fill=REFIT_COLOUR fill-opacity="0.45"></rect> }.into_any(),
                "refit: receiver preparation")}
            {item("ghost", |e| e.ghost, view! { <rect x="1" y="1" width="22" height="12" class="gantt-ghost"></rect> }.into_any(),
                "the refit before the speedup")}
            {item("saved", |e| e.saved == Some(true),
                view! { <rect x="1" y="1" width="22" height="12" class="gantt-saved"></rect> }.into_any(), "time saved")}
            {item("lost", |e| e.saved == Some(false),
                view! { <rect x="1" y="1" width="22" height="12" class="gantt-lost"></rect> }.into_any(), "time lost")}
            {item("end", |_| true, view! { <line x1="2" x2="22" y1="7" y2="7" class="gantt-end"></line> }.into_any(),
                "end of the cycle")}
            {item("best", |e| e.bound, view! { <line x1="2" x2="22" y1="7" y2="7" class="gantt-best"></line> }.into_any(),
                "end with an instant transfer (the bound)")}
        </ul>
    }
}
