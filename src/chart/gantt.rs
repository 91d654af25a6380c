//! The before/after timeline of one cycle: where each stage's bar, its overlap with the previous stage and
//! the refit's parts fall, in the units of an SVG `viewBox`. One lane per stage, so overlapping stages
//! never hide each other.

use crate::core::cycle::{CycleReport, RefitPart, RefitParts, Timeline, TimelineStage};

use super::palette::stage_colours;
use super::readout::seconds;
use super::scale::{Linear, nice_step};

/// What a piece of a bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// The stage's own work (a stage that is not the refit).
    Work,
    /// The refit waiting before the transfer (a queue, a barrier): a faster transport does not touch it.
    Wait,
    /// The refit moving bytes: the only part a transfer speedup shrinks.
    Transfer,
    /// The receivers preparing the new version after the bytes arrive.
    Preparation,
    /// The refit's transfer under the stage it overlaps, paced by it: sped up, it still sends those weights
    /// only as that stage makes them, waiting between. Not a wait the user set (it was drawn and named as
    /// one, with the wait set to 0).
    Paced,
}

/// A horizontal stretch `[x0, x1)` of a bar, in viewBox units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub kind: PartKind,
    pub x0: f64,
    pub x1: f64,
}

/// One stage's bar in its lane.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneBar {
    /// The stage's index in the cycle (its lane and its colour).
    pub stage: usize,
    pub name: String,
    pub seconds: f64,
    pub x0: f64,
    pub x1: f64,
    /// The stretch that runs while the previous stage is still running, when there is one.
    pub overlap: Option<(f64, f64)>,
    /// The bar cut into its parts (one `Work` part for an ordinary stage), each at least 0 wide.
    pub parts: Vec<Part>,
}

/// The bars of `timeline` on `scale` (seconds → x). A stage that waits for the previous stage to end is
/// drawn over its whole `[start, end)`; the refit's parts run in order from its start and any remainder up
/// to `end` (waiting on the previous stage) is drawn as waiting.
pub fn lane_bars(timeline: &Timeline, scale: &Linear) -> Vec<LaneBar> {
    let mut previous_end: Option<f64> = None;
    timeline
        .stages
        .iter()
        .enumerate()
        .map(|(index, stage)| {
            let (x0, x1) = (scale.map(stage.start), scale.map(stage.end));
            let overlap = previous_end
                .filter(|&end| end > stage.start)
                .map(|end| (x0, scale.map(end.min(stage.end))))
                .filter(|(a, b)| b > a);
            previous_end = Some(stage.end);
            let parts = match stage.refit {
                None => vec![Part { kind: PartKind::Work, x0, x1 }],
                Some(_) => stage
                    .refit_segments
                    .iter()
                    .map(|segment| Part {
                        kind: part_kind(segment.part),
                        x0: scale.map(segment.start),
                        x1: scale.map(segment.end),
                    })
                    .collect(),
            };
            // The refit's bar says how long it lasts on the timeline (its wait for the weights included).
            let seconds = if stage.refit.is_some() { stage.end - stage.start } else { stage.seconds };
            LaneBar { stage: index, name: stage.name.clone(), seconds, x0, x1, overlap, parts }
        })
        .collect()
}

/// How a part of the refit is drawn.
fn part_kind(part: RefitPart) -> PartKind {
    match part {
        RefitPart::Wait => PartKind::Wait,
        RefitPart::Transfer => PartKind::Transfer,
        RefitPart::Paced => PartKind::Paced,
        RefitPart::Preparation => PartKind::Preparation,
    }
}

/// The outline of the refit as it was before the speedup, drawn in the "after" block from where the refit
/// now starts, so the shrunken bar is seen against its old length when the saving shows up elsewhere (an
/// overlapped refit at the start of the cycle saves at its end). `None` when the refit did not change
/// length (s = 1, or no transfer to speed up), or when the outline would end at the old cycle's end: then
/// the bar and the saved box beside it already make up the old length, and the outline only adds lines.
pub fn refit_ghost(report: &CycleReport, scale: &Linear) -> Option<Ghost> {
    let (before, after) = (report.before.stages.get(report.refit_stage)?, report.after.stages.get(report.refit_stage)?);
    let changed = (before.seconds - after.seconds).abs() > 1e-9;
    let old_end = report.before.cycle_seconds;
    let ends_the_old_cycle = (after.start + before.seconds - old_end).abs() <= 1e-9 * old_end.max(1.0);
    (changed && !ends_the_old_cycle).then(|| Ghost {
        stage: report.refit_stage,
        x0: scale.map(after.start),
        x1: scale.map(after.start + before.seconds),
        seconds: before.seconds,
    })
}

/// The refit's old length outlined in its lane: `[x0, x1)` in viewBox units, `seconds` long.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ghost {
    pub stage: usize,
    pub x0: f64,
    pub x1: f64,
    pub seconds: f64,
}

/// One of the refit's own parts drawn up close ([`refit_close_up`]): its stretch of the bar and its label
/// ("waiting 8 s") under the bar, at `label_x` (its left end).
#[derive(Clone, Debug, PartialEq)]
pub struct CloseUpPart {
    pub kind: PartKind,
    pub seconds: f64,
    pub x0: f64,
    pub x1: f64,
    pub label: String,
    pub label_x: f64,
    /// About how wide the label is drawn ([`text_em`]).
    pub label_width: f64,
    /// The line of labels it stands on, from 0: under the bar (even lines, the first nearest) or over it
    /// (odd lines). A narrow picture deals the labels that do not fit across one line to more.
    pub line: usize,
}

impl CloseUpPart {
    /// Whether the label starts or ends under its own part: else a leader line ties it to the part. (Any
    /// overlap was not enough: "transfer 5 s" pushed left stood mostly under the paced part before it.)
    pub fn label_under_part(&self) -> bool {
        let under = |x: f64| self.x0 - 0.5 <= x && x <= self.x1 + 0.5;
        under(self.label_x) || under(self.label_x + self.label_width)
    }

    /// Whether the label stands over the bar rather than under it: the odd lines ([`pack_labels`]).
    pub fn over_the_bar(&self) -> bool {
        self.line % 2 == 1
    }
}

/// The refit of one block (before or after the speedup) drawn up close.
#[derive(Clone, Debug, PartialEq)]
pub struct CloseUpRow {
    pub seconds: f64,
    pub parts: Vec<CloseUpPart>,
}

/// The refit alone, before and after the speedup, on its own seconds axis from `left` to `right` (viewBox
/// units), each part labelled under the bar with its name and seconds in a `font`-sized text. In the
/// whole cycle a 10 s refit is a sliver of 120 s, and its 8 s wait and 2 s transfer were two unlabelled
/// slivers of it: the article's point (a faster transport shortens only the transfer) could not be read.
/// `None` when the refit is one part alone (nothing to tell apart: the timeline's bar says it all).
///
/// Labels start under their part, pushed right past the previous label where they would meet it, and
/// back left from `right` when the last would run past it; never left of `left`, where the row's name and
/// length stand (on a 480 px embed "waiting 1 s" was pushed over "10 s"): those that do not fit on the
/// line go on the next.
pub fn refit_close_up(report: &CycleReport, left: f64, right: f64, font: f64) -> Option<[CloseUpRow; 2]> {
    if !refit_has_parts(report) {
        return None;
    }
    let (before, after) = (report.before.stages.get(report.refit_stage)?, report.after.stages.get(report.refit_stage)?);
    let extent = report.before.lasts(report.refit_stage).max(report.after.lasts(report.refit_stage));
    let scale = Linear::new((0.0, extent), (left, right));
    // Each part on the refit's own axis, from its start: as on the timeline, its wait for the weights the
    // stage before still makes included (the close-up drew 5.5 s beside a timeline's 10 s).
    let row = |stage: &TimelineStage| {
        let mut parts: Vec<CloseUpPart> = stage
            .refit_segments
            .iter()
            .map(|segment| {
                let kind = part_kind(segment.part);
                let length = segment.end - segment.start;
                let (x0, x1) = (scale.map(segment.start - stage.start), scale.map(segment.end - stage.start));
                let name = match kind {
                    PartKind::Wait => "waiting",
                    PartKind::Paced => "paced",
                    PartKind::Transfer | PartKind::Work => "transfer",
                    PartKind::Preparation => "preparation",
                };
                let label = format!("{name} {}", seconds(length));
                let label_width = text_em(&label) * font;
                CloseUpPart { kind, seconds: length, x0, x1, label, label_x: x0, label_width, line: 0 }
            })
            .collect();
        pack_labels(&mut parts, left, right);
        CloseUpRow { seconds: stage.end - stage.start, parts }
    };
    Some([row(before), row(after)])
}

/// Whether the refit has parts to tell apart (a wait or a preparation beside its transfer): what
/// [`refit_close_up`] draws, asked without drawing it.
pub fn refit_has_parts(report: &CycleReport) -> bool {
    refit_parts(report.refit_before).count() >= 2
}

/// The refit's parts that last some time, in the order they happen.
fn refit_parts(refit: RefitParts) -> impl Iterator<Item = (PartKind, f64)> {
    [(PartKind::Wait, refit.wait), (PartKind::Transfer, refit.transfer), (PartKind::Preparation, refit.preparation)]
        .into_iter()
        .filter(|(_, seconds)| *seconds > 0.0)
}

/// Between two labels on a line.
const LABEL_GAP: f64 = 14.0;

/// Lays the labels of `parts` left to right without overlap between `left` and `right`
/// ([`refit_close_up`]): on one line under the bar when they fit across it; else dealt in turn to as few
/// lines as fit, the first under the bar, the next over it, then under again: neighbours stand on
/// different sides, so that a leader from a part to its label crosses no other label (with a second line
/// under the first, the preparation's leader ran through "paced 6 s").
fn pack_labels(parts: &mut [CloseUpPart], left: f64, right: f64) {
    let count = parts.len().max(1);
    let lines = (1..=count)
        .find(|&lines| {
            (0..lines).all(|line| {
                let on: Vec<f64> = parts.iter().skip(line).step_by(lines).map(|p| p.label_width).collect();
                on.iter().sum::<f64>() + LABEL_GAP * on.len().saturating_sub(1) as f64 <= right - left
            })
        })
        .unwrap_or(count);
    for line in 0..lines {
        let mut on: Vec<&mut CloseUpPart> = parts.iter_mut().skip(line).step_by(lines).collect();
        pack_line(&mut on, left, right, line);
    }
}

/// One line of [`pack_labels`]: each label under its part, pushed right past the one before, then back
/// left from `right`; a label wider than the line starts at `left`.
fn pack_line(parts: &mut [&mut CloseUpPart], left: f64, right: f64, line: usize) {
    let mut free_from = left;
    for part in parts.iter_mut() {
        part.line = line;
        part.label_x = part.x0.max(free_from);
        free_from = part.label_x + part.label_width + LABEL_GAP;
    }
    let mut free_to = right;
    for part in parts.iter_mut().rev() {
        if part.label_x + part.label_width > free_to {
            part.label_x = (free_to - part.label_width).max(left);
        }
        free_to = part.label_x - LABEL_GAP;
    }
}

/// Which entries of the timeline's legend the picture draws: a legend lists what is drawn, and only that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegendEntries {
    /// A stage runs while the previous one is still running (in either block).
    pub overlap: bool,
    /// The refit waits before its transfer.
    pub wait: bool,
    /// Some of that waiting runs while the previous stage still runs: both hatches drawn over
    /// each other, a crossing no single entry shows.
    pub overlap_on_wait: bool,
    /// The refit's transfer is paced by the stage it overlaps.
    pub paced: bool,
    /// The refit has parts besides the transfer, so the transfer's own colour needs naming.
    pub transfer: bool,
    pub preparation: bool,
    /// The box between the cycle ends: `Some(true)` time saved, `Some(false)` time lost, `None` no change.
    pub saved: Option<bool>,
    /// The refit's old length is outlined (see [`refit_ghost`]).
    pub ghost: bool,
    /// The line of the best possible cycle is apart from the end of the "after" cycle (not hidden under it).
    pub bound: bool,
    /// The colour of the first stage other than the refit, as drawn: the "stage" entry's swatch (a fixed
    /// orange stood beside a cycle whose renamed first stage was blue). Empty for a cycle of the refit alone.
    pub stage_colour: &'static str,
}

/// The legend entries for `report`, from the same bars the picture draws.
pub fn legend_entries(report: &CycleReport) -> LegendEntries {
    let unit = Linear::new((0.0, 1.0), (0.0, 1.0));
    let bars: Vec<LaneBar> = [&report.before, &report.after].into_iter().flat_map(|t| lane_bars(t, &unit)).collect();
    let kinds: Vec<PartKind> = bars.iter().flat_map(|bar| bar.parts.iter().map(|p| p.kind)).collect();
    let has = |kind: PartKind| kinds.contains(&kind);
    // Whether some overlap lies on a plain part (drawn with the overlap's hatch on the bar's colour) or on
    // the refit's waiting (`waiting`: both hatches crossed). Not listed when nothing shows it
    // ("overlap" beside a timeline whose one overlap was all waiting). Holding has its own entry.
    let overlap_on = |waiting: bool| {
        bars.iter().any(|bar| {
            bar.overlap.is_some_and(|(o0, o1)| {
                bar.parts.iter().any(|p| {
                    let kind_fits = if waiting {
                        p.kind == PartKind::Wait
                    } else {
                        !matches!(p.kind, PartKind::Wait | PartKind::Paced)
                    };
                    kind_fits && p.x0.max(o0) < p.x1.min(o1)
                })
            })
        })
    };
    let (overlap, overlap_on_wait) = (overlap_on(false), overlap_on(true));
    LegendEntries {
        overlap,
        wait: has(PartKind::Wait),
        overlap_on_wait,
        paced: has(PartKind::Paced),
        transfer: has(PartKind::Transfer)
            && (has(PartKind::Wait) || has(PartKind::Preparation) || has(PartKind::Paced)),
        preparation: has(PartKind::Preparation),
        saved: (report.seconds_saved.abs() > 1e-9).then_some(report.seconds_saved > 0.0),
        ghost: refit_ghost(report, &unit).is_some(),
        bound: bound_apart(report),
        stage_colour: {
            let names: Vec<&str> = report.before.stages.iter().map(|s| s.name.as_str()).collect();
            let colours = stage_colours(&names, Some(report.refit_stage));
            colours.into_iter().enumerate().find(|&(i, _)| i != report.refit_stage).map_or("", |(_, c)| c)
        },
    }
}

/// Whether the instant-transfer line falls apart from the "after" cycle's end line (when they coincide the
/// end line covers it, and neither it nor its legend entry is shown).
pub fn bound_apart(report: &CycleReport) -> bool {
    (report.bound.best_cycle_seconds - report.after.cycle_seconds).abs() > 1e-9 * report.after.cycle_seconds.max(1.0)
}

/// Round tick values in seconds over `[0, extent]`, about `target` of them at 1, 2 or 5 × 10ⁿ steps; `0`
/// alone for an empty or invalid extent. The extent itself is not added: the cycle's end is marked apart.
pub fn seconds_ticks(extent: f64, target: usize) -> Vec<f64> {
    if !(extent.is_finite() && extent > 0.0) {
        return vec![0.0];
    }
    let raw = extent / target.max(1) as f64;
    let step = nice_step(raw);
    let count = (extent / step + 1e-9).floor() as usize;
    (0..=count.min(1000)).map(|i| i as f64 * step).collect()
}

/// About how wide `c` is, in em of the app's sans-serif (DejaVu-like widths, rounded up): a count of
/// characters took "reward mod…" for as wide as "generation", and its "w" and "m" ran the name out of the
/// picture ("eward mod…").
fn glyph_em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | 'I' | 'J' | '\'' | '|' => 0.3,
        '.' | ',' | ':' | ';' | ' ' | '!' => 0.34,
        'f' | 't' | 'r' | '(' | ')' | '-' | '[' | ']' => 0.42,
        'c' | 's' | 'z' => 0.56,
        'w' => 0.82,
        'M' => 0.87,
        'm' | 'W' => 0.99,
        '0'..='9' => 0.64,
        'A'..='Z' => 0.79,
        'a'..='z' => 0.625,
        c if c.is_ascii() => 0.7,
        // Wide scripts (CJK, emoji) take a whole em; other letters about an uppercase Latin one.
        c if c >= '\u{2e80}' => 1.0,
        _ => 0.79,
    }
}

/// About how wide `text` is, in em of the app's sans-serif ([`glyph_em`] summed).
pub fn text_em(text: &str) -> f64 {
    text.chars().map(glyph_em).sum()
}

/// Units of a timeline's viewBox per em of its stage names: its 128-unit name column holds about 6 em of
/// the 21 px labels (views.css).
pub const NAME_EM_UNITS: f64 = 128.0 / 6.0;

/// Where a timeline's name column ends (its names are right-aligned there), in a picture `width` units
/// wide: 128 units, or as much more as the longest of `names` needs, up to 30 % of the picture. Cut to
/// about ten characters, "rollout generation", "reward model" and "reference policy" read as "rollout ge…",
/// "reward m…" and "reference…" on a projector with room to spare beside them.
pub fn name_column_right<'a>(names: impl IntoIterator<Item = &'a str>, width: f64) -> f64 {
    let longest = names.into_iter().map(|name| text_em(name.trim())).fold(0.0, f64::max);
    (longest * NAME_EM_UNITS + 4.0).clamp(128.0, (0.3 * width).max(128.0))
}

/// `name` as it fits `max_em` em: whole when it fits, else its longest beginning that fits with "…".
pub fn fit_label(name: &str, max_em: f64) -> String {
    if text_em(name) <= max_em {
        return name.to_string();
    }
    let ellipsis = 1.0;
    let mut used = ellipsis;
    let kept: String = name
        .chars()
        .take_while(|&c| {
            used += glyph_em(c);
            used <= max_em
        })
        .collect();
    format!("{}…", kept.trim_end())
}

/// Whether a label of `chars` characters at `font_size` fits inside a bar `width` wide (average glyph
/// width about 0.58 em, plus some padding).
pub fn label_fits(width: f64, chars: usize, font_size: f64) -> bool {
    width >= chars as f64 * font_size * 0.58 + font_size * 0.8
}

/// The part of `bar` its seconds are written inside: the widest part, when they fit in it. Centred on the
/// whole bar, a refit's "10 s" sat half on the hatched wait and half on the transfer, readable on neither;
/// `None` sends the label outside the bar ([`outside_label`]).
pub fn label_part(bar: &LaneBar, chars: usize, font_size: f64) -> Option<Part> {
    let widest = bar.parts.iter().copied().max_by(|a, b| (a.x1 - a.x0).total_cmp(&(b.x1 - b.x0)))?;
    label_fits(widest.x1 - widest.x0, chars, font_size).then_some(widest)
}

/// Where the seconds of a bar too narrow to hold them go: after the bar when they end before `limit` (the
/// cycle's end line, which they must not cross), else before the bar when they start after `left` (the
/// plot's edge); after it when neither has room. The text's x, and whether it is anchored at its start.
pub fn outside_label(x0: f64, x1: f64, chars: usize, font_size: f64, left: f64, limit: f64) -> (f64, bool) {
    const GAP: f64 = 6.0;
    let width = chars as f64 * font_size * 0.58;
    if x1 + GAP + width <= limit || x0 - GAP - width < left { (x1 + GAP, true) } else { (x0 - GAP, false) }
}

/// The size of the blocks' titles and of the saved label, in viewBox units: `.gantt text` in cycle.css (it
/// wins over `.gantt-title`'s own size).
pub const HEADING_FONT: f64 = 21.0;

/// About where a title of `chars` characters ends when it starts at 0. Measured in Chromium with the app's
/// font, the timeline's titles take 0.52–0.56 em a character; 0.58 keeps a margin.
pub fn title_end(chars: usize) -> f64 {
    chars as f64 * HEADING_FONT * 0.58
}

/// About the width of the saved label (bold: measured 0.55–0.60 em a character; 0.63 keeps a margin).
fn saved_width(chars: usize) -> f64 {
    chars as f64 * HEADING_FONT * 0.63
}

/// Where the "37.5 s saved" label of the saved box `[x0, x1)` goes, on the line of the block's title, which
/// ends at `title_end`: after the box when it ends before `width` (the picture's edge), else before the box,
/// else against the picture's right edge (over the box); each only when clear of the title. The text's x,
/// and whether it is anchored at its start; `None` when no place on the line is clear.
pub fn saved_label(x0: f64, x1: f64, chars: usize, title_end: f64, width: f64) -> Option<(f64, bool)> {
    const GAP: f64 = 6.0;
    let text = saved_width(chars);
    let clear = title_end + GAP;
    if x1 + GAP + text <= width && x1 + GAP >= clear {
        Some((x1 + GAP, true))
    } else if x0 - GAP - text >= clear {
        Some((x0 - GAP, false))
    } else if width - 2.0 - text >= clear {
        Some((width - 2.0, false))
    } else {
        None
    }
}

/// The "after" block's heading in a picture `width` units wide, from its titles longest first (`titles`:
/// their characters): the first that fits and leaves the saved label (`saved`: the box's ends and the
/// label's characters) a place clear of it; on a narrow picture the full one ran into the label or past
/// the edge. Which title, and where the label goes ([`saved_label`]); when no title leaves a clear place,
/// the last title and the label against the right edge, inside the picture (before the box it ran off its
/// left edge).
pub fn after_heading(titles: &[usize], saved: Option<(f64, f64, usize)>, width: f64) -> (usize, Option<(f64, bool)>) {
    let place = |chars: usize| {
        let end = title_end(chars);
        if end > width - 4.0 {
            return None;
        }
        match saved {
            None => Some(None),
            Some((x0, x1, label)) => saved_label(x0, x1, label, end, width).map(Some),
        }
    };
    titles
        .iter()
        .enumerate()
        .find_map(|(i, &chars)| place(chars).map(|label| (i, label)))
        .unwrap_or((titles.len().saturating_sub(1), saved.map(|_| (width - 2.0, false))))
}

/// The first of `titles` (their characters, longest first) that fits a picture `width` units wide, else
/// the last.
pub fn fitting_title(titles: &[usize], width: f64) -> usize {
    titles.iter().position(|&chars| title_end(chars) <= width - 4.0).unwrap_or(titles.len().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::palette::PALETTE;

    #[test]
    fn a_lane_label_is_shortened_by_the_width_of_its_letters() {
        // The lane column holds about 6 em: "generation" and "preparation" fit whole.
        assert_eq!(fit_label("generation", 6.0), "generation");
        assert_eq!(fit_label("preparation", 6.0), "preparation");
        // Wide letters: "reward model" is cut sooner than a count of characters would cut it.
        assert_eq!(fit_label("reward model", 6.0), "reward m…");
        // The name column grows for long names, up to 30 % of the picture; short ones keep 128 units.
        assert_eq!(name_column_right(["generation", "refit"], 900.0), 128.0);
        let long = name_column_right(["rollout generation", "refit"], 900.0);
        assert!(long > 128.0 && long < 270.0, "{long}");
        assert_eq!(fit_label("rollout generation", (long - 4.0) / NAME_EM_UNITS), "rollout generation");
        assert_eq!(name_column_right(["a name far too long to be given all the room it asks for"], 900.0), 270.0);
        assert_eq!(name_column_right(["a name far too long to be given all the room it asks for"], 400.0), 128.0);
        // No space left dangling before the ellipsis.
        assert_eq!(fit_label("ab cdefghijklmnop", 2.9), "ab…");
        // Nothing fits beside the ellipsis: the ellipsis alone.
        assert_eq!(fit_label("WWWW", 1.5), "…");
        assert_eq!(fit_label("", 5.9), "");
    }
    use crate::core::cycle::{CycleSpec, RefitSplit, Stage};

    #[test]
    fn outside_labels_stay_clear_of_the_cycle_end() {
        // A short bar in the middle: its "10 s" goes after it.
        assert_eq!(outside_label(300.0, 310.0, 4, 14.0, 140.0, 800.0), (316.0, true));
        // The last bar ends at the cycle's end line: the label goes before the bar.
        assert_eq!(outside_label(790.0, 800.0, 5, 14.0, 140.0, 800.0), (784.0, false));
        // No room before either (the bar starts at the plot's edge): after it, as before.
        assert_eq!(outside_label(141.0, 150.0, 5, 14.0, 140.0, 150.0), (156.0, true));
    }

    #[test]
    fn the_saved_label_keeps_clear_of_the_title() {
        // After the box when it ends short of the edge and past the title.
        assert_eq!(saved_label(500.0, 600.0, 12, 337.0, 900.0), Some((606.0, true)));
        // The box ends at the edge: before it, when that is clear of the title.
        assert_eq!(saved_label(683.0, 850.0, 12, 337.0, 900.0), Some((677.0, false)));
        // Before the box would cross the title; against the right edge it does not.
        let (x, start) = saved_label(423.0, 510.0, 12, 280.0, 560.0).expect("a place");
        assert_eq!((x, start), (558.0, false));
        assert!(x - 12.0 * HEADING_FONT * 0.63 >= 280.0 + 6.0, "clear of the title");
        // No clear place on the line.
        assert_eq!(saved_label(300.0, 540.0, 12, 438.0, 560.0), None);
    }

    #[test]
    fn the_after_heading_shortens_where_the_full_title_meets_the_saved_label() {
        // The article's 160 s cycle: at 900 units the full title leaves room before the box.
        let full = "After · transfer 4× faster · 122.5 s".chars().count();
        let short = "After · s = 4 · 122.5 s".chars().count();
        let label = "37.5 s saved".chars().count();
        let box_at = |width: f64| {
            let scale = Linear::new((0.0, 160.0), (140.0, width - 50.0));
            Some((scale.map(122.5), scale.map(160.0), label))
        };
        let (title, at) = after_heading(&[full, short], box_at(900.0), 900.0);
        assert_eq!(title, 0);
        let (x, _) = at.expect("a place");
        assert!(x - 12.0 * HEADING_FONT * 0.63 >= title_end(full) + 6.0);
        // At 560 units (a phone, a narrow embed) the full title would meet it: the short one does not.
        let (title, at) = after_heading(&[full, short], box_at(560.0), 560.0);
        assert_eq!(title, 1);
        let (x, start) = at.expect("a place");
        assert!(!start && x - 12.0 * HEADING_FONT * 0.63 >= title_end(short) + 6.0, "{x}");
        // A title too long for the picture is shortened even with nothing saved.
        assert_eq!(after_heading(&[60, short], None, 560.0), (1, None));
        assert_eq!(after_heading(&[full, short], None, 900.0), (0, None));
        // Nothing is clear even with the last title: that title, the label inside the picture's right edge.
        assert_eq!(after_heading(&[full, 40], Some((150.0, 510.0, 20)), 560.0), (1, Some((558.0, false))));
    }

    #[test]
    fn a_title_is_the_longest_that_fits() {
        assert_eq!(fitting_title(&[60, 40, 20], 900.0), 0);
        assert_eq!(fitting_title(&[60, 40, 20], 560.0), 1);
        assert_eq!(fitting_title(&[60, 50, 40], 300.0), 2, "none fits: the shortest");
    }

    fn article(speedup: f64) -> CycleSpec {
        CycleSpec::article(10.0, speedup)
    }

    /// The refit first, generation starting 6 s before its 10 s end (as in the cycle-overlap preset).
    fn refit_overlapped(speedup: f64) -> CycleSpec {
        CycleSpec {
            stages: vec![Stage::new("refit", 10.0), Stage::new("generation", 70.0).with_overlap(6.0)],
            refit: None,
            speedup,
        }
    }

    /// The cycle-queue preset's shape: the 10 s refit is 8 s of waiting and 2 s of transfer.
    fn queued(speedup: f64) -> CycleSpec {
        CycleSpec { refit: Some(RefitSplit { wait: 8.0, transfer: None, preparation: 0.0 }), ..article(speedup) }
    }

    #[test]
    fn the_refit_up_close_shows_its_parts_on_its_own_axis() {
        let report = queued(4.0).report().expect("valid");
        let [before, after] = refit_close_up(&report, 100.0, 900.0, 20.0).expect("two parts");
        assert_eq!((before.seconds, after.seconds), (10.0, 8.5));
        // The 10 s refit spans the whole axis: 8 s of waiting, then 2 s of transfer.
        let spans = |row: &CloseUpRow| row.parts.iter().map(|p| (p.kind, p.x0, p.x1)).collect::<Vec<_>>();
        assert_eq!(spans(&before), vec![(PartKind::Wait, 100.0, 740.0), (PartKind::Transfer, 740.0, 900.0)]);
        // After: the wait as long as before, the transfer a quarter.
        assert_eq!(spans(&after), vec![(PartKind::Wait, 100.0, 740.0), (PartKind::Transfer, 740.0, 780.0)]);
        let labels = |row: &CloseUpRow| row.parts.iter().map(|p| p.label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&before), ["waiting 8 s", "transfer 2 s"]);
        assert_eq!(labels(&after), ["waiting 8 s", "transfer 0.5 s"]);
        // The after transfer's label is wider than its 40 units: it starts under it all the same.
        assert!(after.parts.iter().all(CloseUpPart::label_under_part));
        // A slowdown (s < 1) makes the after row the longer one: the axis takes it.
        let [before, after] = refit_close_up(&queued(0.5).report().expect("valid"), 100.0, 900.0, 20.0).expect("parts");
        assert_eq!((before.seconds, after.seconds), (10.0, 12.0));
        assert!((after.parts[1].x1 - 900.0).abs() < 1e-9);
    }

    #[test]
    fn the_refit_up_close_is_only_for_a_refit_of_several_parts() {
        let article = article(4.0).report().expect("valid");
        assert_eq!(refit_close_up(&article, 100.0, 900.0, 20.0), None);
        assert!(!refit_has_parts(&article));
        assert!(refit_has_parts(&queued(4.0).report().expect("valid")));
    }

    /// A close-up part from `x0` to `x1` labelled `label`, as laid out at a 20 px font, not yet packed.
    fn part(x0: f64, x1: f64, label: &str) -> CloseUpPart {
        CloseUpPart {
            kind: PartKind::Transfer,
            seconds: 1.0,
            x0,
            x1,
            label: label.to_string(),
            label_x: x0,
            label_width: text_em(label) * 20.0,
            line: 0,
        }
    }

    #[test]
    fn close_up_labels_never_meet_and_stay_inside() {
        // Three labels crowded at the right end: packed right to left from the edge, in order.
        let mut parts = vec![
            part(100.0, 860.0, "waiting 38 s"),
            part(860.0, 880.0, "transfer 1 s"),
            part(880.0, 900.0, "preparation 1 s"),
        ];
        pack_labels(&mut parts, 100.0, 900.0);
        let ends: Vec<(f64, f64)> = parts.iter().map(|p| (p.label_x, p.label_x + p.label_width)).collect();
        assert!((ends[2].1 - 900.0).abs() < 1e-9, "the last ends at the edge: {ends:?}");
        assert!(ends.windows(2).all(|w| w[0].1 + 14.0 <= w[1].0 + 1e-9), "{ends:?}");
        assert!(ends[0].0 >= 100.0 && ends[0].0 < 860.0, "the first stays under its part: {ends:?}");
        // The transfer's label was pushed clear of its part (a leader ties them); the preparation's ends
        // under its own.
        assert!(!parts[1].label_under_part() && parts[2].label_under_part());
        assert!(parts.iter().all(|p| p.line == 0), "they fit on one line");
    }

    #[test]
    fn close_up_labels_too_wide_for_one_line_take_more_and_stay_right_of_the_names() {
        // A 480 px embed: three labels about 530 units wide over a 370-unit plot. They were pushed back
        // from the right edge past the plot's left, over the row's length in the name column.
        let (left, right) = (140.0, 510.0);
        let mut parts = vec![
            part(140.0, 177.0, "waiting 1 s"),
            part(177.0, 473.0, "transfer 8 s"),
            part(473.0, 510.0, "preparation 1 s"),
        ];
        pack_labels(&mut parts, left, right);
        for p in &parts {
            assert!(p.label_x >= left && p.label_x + p.label_width <= right + 1e-9, "{p:?}");
        }
        assert!(parts.iter().any(|p| p.line > 0), "not all on one line");
        // Neighbours on different lines, one under the bar and one over it; apart on each line.
        assert!(parts.windows(2).all(|w| w[0].line != w[1].line), "{parts:?}");
        assert_eq!(parts.iter().map(|p| p.over_the_bar()).collect::<Vec<_>>(), [false, true, false]);
        for line in 0..=parts.iter().map(|p| p.line).max().unwrap_or(0) {
            let on: Vec<&CloseUpPart> = parts.iter().filter(|p| p.line == line).collect();
            assert!(on.windows(2).all(|w| w[0].label_x + w[0].label_width + LABEL_GAP <= w[1].label_x + 1e-9));
        }
    }

    #[test]
    fn a_sequential_cycle_lays_bars_end_to_end() {
        let report = article(4.0).report().expect("valid");
        let scale = Linear::new((0.0, 120.0), (0.0, 1200.0));
        let bars = lane_bars(&report.after, &scale);
        assert_eq!(bars.len(), 4);
        assert_eq!((bars[0].x0, bars[0].x1), (0.0, 700.0));
        assert_eq!((bars[3].x0, bars[3].x1), (1100.0, 1125.0), "the refit shrank to 2.5 s");
        assert_eq!(bars[3].parts, vec![Part { kind: PartKind::Transfer, x0: 1100.0, x1: 1125.0 }]);
        assert!(bars.iter().all(|bar| bar.overlap.is_none()));
    }

    #[test]
    fn an_overlap_is_marked_on_the_later_stage() {
        // Generation starts 6 s before a 10 s refit ends.
        let spec = refit_overlapped(1.0);
        let report = spec.report().expect("valid");
        let bars = lane_bars(&report.before, &Linear::new((0.0, 100.0), (0.0, 100.0)));
        assert_eq!(bars[1].overlap, Some((4.0, 10.0)));
        assert_eq!(bars[1].x0, 4.0);
    }

    #[test]
    fn the_refit_parts_run_in_order() {
        let mut spec = article(4.0);
        spec.refit = Some(RefitSplit { wait: 8.0, transfer: Some(2.0), preparation: 0.0 });
        let report = spec.report().expect("valid");
        let bars = lane_bars(&report.after, &Linear::new((0.0, 120.0), (0.0, 120.0)));
        let kinds: Vec<PartKind> = bars[3].parts.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [PartKind::Wait, PartKind::Transfer]);
        assert_eq!(bars[3].parts[1].x1, 118.5, "8 s wait, then 2 s / 4");
    }

    #[test]
    fn a_refit_that_ends_before_the_stage_it_overlaps_is_held_not_waiting() {
        // Training overlapped by 8 s of a 10 s refit; at s = 4 what it sent under training is still sent as
        // training makes it (8 s, paced), then the last 2 s of it in 0.5 s.
        let mut spec = article(4.0);
        spec.stages[3].overlap = 8.0;
        let report = spec.report().expect("valid");
        let bars = lane_bars(&report.after, &Linear::new((0.0, 120.0), (0.0, 120.0)));
        let parts: Vec<(PartKind, f64, f64)> = bars[3].parts.iter().map(|p| (p.kind, p.x0, p.x1)).collect();
        assert_eq!(parts, [(PartKind::Paced, 102.0, 110.0), (PartKind::Transfer, 110.0, 110.5)]);
        let entries = legend_entries(&report);
        assert!(entries.paced && !entries.wait, "no wait was set");
        assert_eq!(bars[3].seconds, 8.5, "the bar says how long the refit lasts on the timeline");
    }

    #[test]
    fn the_old_refit_is_outlined_from_the_new_start_when_the_saving_is_elsewhere() {
        // The refit first, generation starting 6 s before it ends: the refit shrinks at the start, the cycle
        // ends earlier at the end; the outline shows the old 10 s from 0.
        let spec = refit_overlapped(4.0);
        let scale = Linear::new((0.0, 100.0), (0.0, 1000.0));
        let ghost = Ghost { stage: 0, x0: 0.0, x1: 100.0, seconds: 10.0 };
        assert_eq!(refit_ghost(&spec.report().expect("valid"), &scale), Some(ghost));
        // The article's cycle: the refit ends it, so the 2.5 s bar and the 7.5 s saved box make up the old
        // 10 s already.
        assert_eq!(refit_ghost(&article(4.0).report().expect("valid"), &scale), None);
        assert_eq!(refit_ghost(&CycleSpec { speedup: 1.0, ..spec }.report().expect("valid"), &scale), None);
    }

    #[test]
    fn the_legend_lists_only_what_is_drawn() {
        // The article's cycle: no overlap, the refit all transfer, time saved, the old refit outlined.
        let plain = legend_entries(&article(4.0).report().expect("valid"));
        let generation = PALETTE[0];
        let expected = LegendEntries { saved: Some(true), bound: true, stage_colour: generation, ..Default::default() };
        assert_eq!(plain, expected);
        // s = 1: nothing saved; the bound (110 s) is apart from the end (120 s).
        let same = LegendEntries { bound: true, stage_colour: generation, ..LegendEntries::default() };
        assert_eq!(legend_entries(&article(1.0).report().expect("valid")), same);
        // A slowdown: time lost.
        assert_eq!(legend_entries(&article(0.5).report().expect("valid")).saved, Some(false));
        // A refit that mostly waits: the wait and the transfer are named apart; no preparation.
        let mut queue = article(4.0);
        queue.refit = Some(RefitSplit { wait: 8.0, transfer: Some(2.0), preparation: 0.0 });
        let entries = legend_entries(&queue.report().expect("valid"));
        assert!(entries.wait && entries.transfer && !entries.preparation && !entries.overlap);
        assert!(!entries.overlap_on_wait);
        // That refit starting 5 s before training ends: its wait runs under training, hatched both ways.
        queue.stages[3].overlap = 5.0;
        let crossed = legend_entries(&queue.report().expect("valid"));
        // ... and only there: the plain overlap's hatch is drawn nowhere, so it is not listed.
        assert!(crossed.overlap_on_wait && !crossed.overlap, "{crossed:?}");
        // An overlap of 1 s on a refit whose transfer comes first runs on the transfer, paced by training in
        // both blocks (its entry shows the overlap's hatch over it): no crossing with the waiting.
        queue.stages[3].overlap = 1.0;
        queue.refit = Some(RefitSplit { wait: 0.0, transfer: Some(2.0), preparation: 8.0 });
        let on_transfer = legend_entries(&queue.report().expect("valid"));
        assert!(on_transfer.paced && !on_transfer.overlap_on_wait, "{on_transfer:?}");
        // An overlap in the "before" block is listed.
        let spec = refit_overlapped(4.0);
        let overlapped = legend_entries(&spec.report().expect("valid"));
        assert!(overlapped.overlap && overlapped.ghost);
        assert!(overlapped.bound, "generation waits for 40 % of the transfer: 111 s, and 110 s at best");
        // Generation starting with the transfer hides all of it: the bound is the end, drawn once.
        let hidden = CycleSpec {
            stages: vec![Stage::new("refit", 10.0), Stage::new("generation", 70.0).with_overlap(10.0)],
            ..spec
        };
        assert!(!legend_entries(&hidden.report().expect("valid")).bound);
        // The stage swatch is the colour the first stage but the refit is drawn in: renamed, generation is
        // no longer orange, and neither is the swatch.
        let mut renamed = article(4.0);
        renamed.stages[0].name = "rollout with long prompts".into();
        let colour = legend_entries(&renamed.report().expect("valid")).stage_colour;
        let names: Vec<&str> = renamed.stages.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(colour, stage_colours(&names, Some(3))[0]);
        assert_ne!(colour, generation);
    }

    #[test]
    fn ticks_are_round_and_stay_inside() {
        assert_eq!(seconds_ticks(120.0, 6), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0]);
        assert_eq!(seconds_ticks(160.0, 6), [0.0, 50.0, 100.0, 150.0]);
        assert_eq!(seconds_ticks(0.0, 6), [0.0]);
        assert_eq!(seconds_ticks(f64::NAN, 6), [0.0]);
        assert_eq!(seconds_ticks(2.5, 5), [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]);
    }

    #[test]
    fn short_bars_take_their_label_outside() {
        assert!(label_fits(200.0, 10, 16.0));
        assert!(!label_fits(25.0, 5, 16.0));
    }

    #[test]
    fn a_refit_label_goes_inside_one_part_or_outside() {
        let bar = |parts: Vec<Part>| LaneBar {
            stage: 3,
            name: "refit".into(),
            seconds: 10.0,
            x0: parts[0].x0,
            x1: parts[parts.len() - 1].x1,
            overlap: None,
            parts,
        };
        let part = |kind, x0, x1| Part { kind, x0, x1 };
        // An ordinary stage: its one part is the bar.
        let work = bar(vec![part(PartKind::Work, 100.0, 300.0)]);
        assert_eq!(label_part(&work, 4, 16.0), Some(work.parts[0]));
        // The queueing refit at 900 units (5.9 a second): 8 s wait, 2 s transfer. "10 s" fits the bar
        // but neither part: outside.
        let queue = bar(vec![part(PartKind::Wait, 790.8, 838.2), part(PartKind::Transfer, 838.2, 850.0)]);
        assert!(label_fits(queue.x1 - queue.x0, 4, 16.0));
        assert_eq!(label_part(&queue, 4, 16.0), None);
        // A long transfer after a short wait: inside the transfer.
        let long = bar(vec![part(PartKind::Wait, 100.0, 120.0), part(PartKind::Transfer, 120.0, 300.0)]);
        assert_eq!(label_part(&long, 4, 16.0).map(|p| p.kind), Some(PartKind::Transfer));
        // No parts (never built, but not a panic).
        assert_eq!(label_part(&LaneBar { parts: Vec::new(), ..work }, 4, 16.0), None);
    }
}
