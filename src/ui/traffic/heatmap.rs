//! The source × destination heatmap: bytes from each source device (rows) to each destination device
//! (columns). Large meshes arrive bucketed (at most 48 × 48 cells, see `HEATMAP_SIDE`); rows and columns are
//! then labelled with the device ranges they cover. The cells are drawn as one path per step of the colour
//! ramp, local copies apart (at most 2 × [`HEAT_STEPS`] + 1 elements however many cells change; a re-plan
//! of 64 devices a side rebuilt two thousand cell elements), and one pointer handler on the whole picture
//! reads the cell under the pointer from its position.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::from_summary;
use crate::chart::boxes::PixelRect;
use crate::chart::heatmap::{
    Grid, HEAT_STEPS, bucket, heat_step, intensity, label_stride, labelled, range_label, step_intensity, text_width,
};
use crate::chart::mesh::paths_by_fill;
use crate::core::traffic::{PairMatrix, format_bytes, messages_text as messages};
use crate::ui::{
    AppState,
    keyed::{keyed, redraw_on},
};

/// Label font size, in SVG units (drawn 1:1 with CSS pixels at most).
const FONT: f64 = 11.0;
/// Room for an axis title.
const AXIS: f64 = 18.0;
/// The title over the columns (the longer of the two axis titles).
const AXIS_TITLE: &str = "to destination devices";
/// The box the grid is fitted into.
const GRID_BOX: f64 = 400.0;
const MIN_CELL: f64 = 6.0;
/// Few devices get large cells, so their bytes read at a normal size (at 44 px "256 KiB" was ~8 px tall).
const MAX_CELL: f64 = 60.0;
/// Cells at least this large show their bytes as text.
const TEXT_CELL: f64 = 36.0;
/// Steps of the colour legend, and where they start (after the "none" swatch and its word).
const LEGEND_STEPS: usize = 6;
const LEGEND_STEPS_AT: f64 = 56.0;
/// Space between the ramp's largest value and the local-copy entry.
const LOCAL_LEGEND_GAP: f64 = 14.0;
/// From the legend's line to the next, when its local-copy entry stands under the ramp.
const LEGEND_LINE: f64 = 18.0;

/// The weakest non-zero cell's strength: clearly above the empty cells' surface colour.
const HEAT_FLOOR: f64 = 0.12;
/// Where a cell's text turns black in the dark theme (its ramp runs to a light blue) and white in the light
/// theme (to a dark blue): the strengths at which the cell's luminance crosses 0.18, where black and white
/// text stand equally well (4.6:1). One switch at 0.55 for both, in the page's own text colours, left
/// mid-ramp labels at 3.4–3.5:1.
const DARK_THEME_SWITCH: f64 = 0.52;
const LIGHT_THEME_SWITCH: f64 = 0.66;
/// A local copy's cell is drawn at this share of its strength (faded, as in the tensor view), and dashed.
const LOCAL_FADE: f64 = 0.4;
/// The legend's local-copy entry: its word, after the ramp's largest value.
const LOCAL_WORD: &str = "local copy (no link)";

/// One drawn cell.
#[derive(Clone, Debug, PartialEq)]
struct Cell {
    x: f64,
    y: f64,
    /// The cell's step of the colour ramp (`1..=HEAT_STEPS`); `None` for a cell with no bytes (drawn in the
    /// surface colour, so zero is never confused with little).
    step: Option<u8>,
    /// All of the cell's bytes are local copies (a device to itself, over no link).
    local: bool,
    /// The bytes as text, when they fit.
    text: Option<CellText>,
}

/// A cell's bytes as drawn.
#[derive(Clone, Debug, PartialEq)]
struct CellText {
    text: String,
    /// The text's colour class, by the cell's strength ([`ink`]).
    ink: &'static str,
    /// Font size in pixels.
    font: f64,
}

/// Cell text's font size: at most 10 px, smaller for long text in a small cell (a bold digit is about 0.62
/// of the font wide); `None` below 7.5 px, where the readout says it better.
fn cell_font(chars: usize, cell: f64) -> Option<f64> {
    let font = ((cell - 4.0) / (chars.max(1) as f64 * 0.62)).min(10.0);
    (font >= 7.5).then_some(font)
}

/// The cells of one step of the ramp, as one path.
#[derive(Clone, Debug, PartialEq)]
struct StepPath {
    step: Option<u8>,
    /// The cells are local copies (drawn faded and dashed).
    local: bool,
    d: String,
    cells: usize,
}

/// The strength a step is drawn at, in `(0, 1]`: the opacity of the theme's heat colour over the surface (so
/// the ramp runs from the background to the strongest colour in light and in dark mode alike).
fn level(step: u8) -> f64 {
    HEAT_FLOOR + (1.0 - HEAT_FLOOR) * step_intensity(step)
}

/// A positioned label.
#[derive(Clone, Debug, PartialEq)]
struct Label {
    x: f64,
    y: f64,
    text: String,
}

/// Everything the picture draws, computed once per plan.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    width: f64,
    height: f64,
    grid: Grid,
    cells: Vec<Cell>,
    /// The cells drawn, one path per step (empty cells included, as `None`).
    paths: Vec<StepPath>,
    row_labels: Vec<Label>,
    col_labels: Vec<Label>,
    /// Column labels run upwards when they do not fit across a cell.
    col_labels_rotated: bool,
    legend_y: f64,
    max_bytes: u64,
    /// Some cell is a local copy (then the legend explains the faded cells).
    has_local: bool,
    /// That entry stands on a line of its own under the ramp: beside it, it ran a 360 px phone's picture
    /// 27 px past its box (review 35).
    local_below: bool,
    /// Source (destination) labels of every row (column), for the readout.
    row_names: Vec<String>,
    col_names: Vec<String>,
    /// How many devices each row (column) stands for.
    row_sizes: Vec<usize>,
    col_sizes: Vec<usize>,
}

impl Layout {
    fn new(pairs: &PairMatrix, sources: &[u32], destinations: &[u32]) -> Layout {
        let (rows, cols) = (pairs.rows, pairs.cols);
        let row_ranges: Vec<_> = (0..rows).map(|r| bucket(r, pairs.sources_per_row, sources.len())).collect();
        let col_ranges: Vec<_> = (0..cols).map(|c| bucket(c, pairs.destinations_per_col, destinations.len())).collect();
        let row_names: Vec<String> = row_ranges.iter().map(|r| range_label(sources, r.clone())).collect();
        let col_names: Vec<String> = col_ranges.iter().map(|r| range_label(destinations, r.clone())).collect();
        let widest = |names: &[String]| text_width(names.iter().map(|n| n.chars().count()).max().unwrap_or(1), FONT);
        let (row_label_width, col_label_width) = (widest(&row_names), widest(&col_names));

        let fitted = Grid::fit(rows, cols, GRID_BOX, GRID_BOX, MIN_CELL, MAX_CELL);
        let col_labels_rotated = col_label_width + 6.0 > fitted.cell;
        let top = AXIS + if col_labels_rotated { col_label_width } else { FONT } + 8.0;
        let left = AXIS + row_label_width + 8.0;
        let grid = fitted.at(left, top);

        let max_bytes = pairs.bytes.iter().copied().max().unwrap_or(0);
        let gap = if grid.cell >= 8.0 { 1.0 } else { 0.0 };
        let show_text = grid.cell >= TEXT_CELL;
        let mut cells = Vec::with_capacity(rows * cols);
        for row in 0..rows {
            for col in 0..cols {
                let bytes = pairs.get(row, col);
                let step = (bytes > 0).then(|| heat_step(intensity(bytes, max_bytes)));
                let local = bytes > 0 && pairs.local(row, col) == bytes;
                // The bytes, in a font that fits the cell ("39.2 MiB" at 10 px overflowed its 43 px cell).
                let text = match (step, show_text) {
                    (Some(step), true) => {
                        let text = format_bytes(bytes);
                        let font = cell_font(text.chars().count(), grid.cell - gap);
                        let ink = ink(if local { level(step) * LOCAL_FADE } else { level(step) });
                        font.map(|font| CellText { text, ink, font })
                    }
                    _ => None,
                };
                let (x, y) = (grid.x(col) + gap / 2.0, grid.y(row) + gap / 2.0);
                cells.push(Cell { x, y, step, local, text });
            }
        }

        let size = grid.cell - gap;
        let paths = paths_by_fill(cells.iter().map(|c| (PixelRect::new(c.x, c.y, size, size), (c.step, c.local))))
            .into_iter()
            .map(|((step, local), d)| {
                let count = cells.iter().filter(|c| c.step == step && c.local == local).count();
                StepPath { step, local, d, cells: count }
            })
            .collect();
        let has_local = cells.iter().any(|c| c.local);

        let row_stride = label_stride(grid.cell, FONT + 3.0);
        let row_labels = labelled(rows, row_stride)
            .into_iter()
            .map(|r| Label { x: left - 6.0, y: grid.y(r) + grid.cell / 2.0, text: row_names[r].clone() })
            .collect();
        let col_stride = if col_labels_rotated {
            label_stride(grid.cell, FONT + 3.0)
        } else {
            label_stride(grid.cell, col_label_width + 6.0)
        };
        let col_labels = labelled(cols, col_stride)
            .into_iter()
            .map(|c| Label { x: grid.x(c) + grid.cell / 2.0, y: top - 6.0, text: col_names[c].clone() })
            .collect();

        let legend_y = top + grid.height() + 16.0;
        let ramp_width =
            LEGEND_STEPS_AT + 6.0 + LEGEND_STEPS as f64 * 18.0 + text_width(format_bytes(max_bytes).len(), FONT);
        let local_width = 18.0 + text_width(LOCAL_WORD.len(), FONT);
        // Beside the ramp when the grid is as wide, else under it.
        let local_below = has_local && ramp_width + LOCAL_LEGEND_GAP + local_width > grid.width().max(ramp_width);
        let legend_width = match (has_local, local_below) {
            (true, false) => ramp_width + LOCAL_LEGEND_GAP + local_width,
            (true, true) => ramp_width.max(local_width),
            (false, _) => ramp_width,
        };
        Layout {
            width: (left + grid.width())
                .max(left + legend_width)
                .max(left + text_width(AXIS_TITLE.chars().count(), FONT))
                + 8.0,
            height: legend_y + 24.0 + if local_below { LEGEND_LINE } else { 0.0 },
            grid,
            cells,
            paths,
            row_labels,
            col_labels,
            col_labels_rotated,
            legend_y,
            max_bytes,
            has_local,
            local_below,
            row_names,
            col_names,
            row_sizes: row_ranges.iter().map(|r| r.len()).collect(),
            col_sizes: col_ranges.iter().map(|r| r.len()).collect(),
        }
    }

    /// The readout for cell `(row, col)` holding `bytes`, `local` of them local copies.
    fn describe(&self, row: usize, col: usize, bytes: u64, local: u64) -> String {
        let (Some(from), Some(to)) = (self.row_names.get(row), self.col_names.get(col)) else { return String::new() };
        let pairs = self.row_sizes.get(row).copied().unwrap_or(1) * self.col_sizes.get(col).copied().unwrap_or(1);
        let over = if pairs > 1 { format!(" over {pairs} device pairs") } else { String::new() };
        let local = match local {
            0 => String::new(),
            l if l == bytes => ", a local copy (no link)".to_string(),
            l => format!(", {} of it local copies", format_bytes(l)),
        };
        format!("{from} → {to}: {}{over}{local}", format_bytes(bytes))
    }
}

/// Bytes from source devices to destination devices.
#[component]
pub fn PairHeatmap() -> impl IntoView {
    let state = expect_context::<AppState>();
    let pairs = from_summary(state, |s| s.pairs.clone());
    // Laid out from the same (settled) plan as the matrix: its device lists, never the edit's newer ones.
    let layout = Memo::new(move |_| {
        state.settled.with(|s| {
            let s = (**s).as_ref().ok()?;
            let table = &s.table;
            Some(Layout::new(&s.pairs, &table.ids(&table.source_slots), &table.ids(&table.destination_slots)))
        })
    });
    // The picture is mounted once and updates itself; only a plan with no matrix (an error) removes it.
    let present = Memo::new(move |_| layout.with(Option::is_some));
    let hovered = RwSignal::new(None::<(usize, usize)>);
    Effect::new(move |_| {
        layout.track();
        hovered.set(None);
    });

    let largest = move || {
        pairs.with(|p| {
            let p = p.as_ref()?;
            // The largest transfer (a local copy only when nothing crosses a link).
            let moved = |i: usize| p.bytes[i].saturating_sub(p.local[i]);
            let by = |a: &usize, b: &usize| (moved(*a), p.bytes[*a]).cmp(&(moved(*b), p.bytes[*b])).then(b.cmp(a));
            let index = (0..p.bytes.len()).max_by(by)?;
            let bytes = p.bytes[index];
            if bytes == 0 {
                return None;
            }
            // Every cell that carries bytes alike (the toy's six 24 B pieces): naming one of them "largest"
            // read as if it stood out.
            let filled = p.bytes.iter().filter(|&&b| b > 0).count();
            // Local copies among them too (colocated: the diagonal's 8 B beside every other cell's 8 B).
            let alike = (0..p.bytes.len()).filter(|&i| p.bytes[i] == bytes).count();
            if filled > 1 && alike == filled {
                let local = (0..p.bytes.len()).filter(|&i| p.bytes[i] > 0 && p.local[i] > 0).count();
                let aside = match local {
                    0 => String::new(),
                    1 => " (1 of them a local copy)".to_string(),
                    n => format!(" ({n} of them local copies)"),
                };
                return Some(format!("All {filled} cells with bytes hold {} each{aside}", format_bytes(bytes)));
            }
            let (row, col) = (index / p.cols, index % p.cols);
            layout.with(|l| l.as_ref().map(|l| format!("Largest: {}", l.describe(row, col, bytes, p.local(row, col)))))
        })
    };
    let readout = move || match hovered.get() {
        Some((row, col)) => pairs
            .with(|p| p.as_ref().filter(|p| row < p.rows && col < p.cols).map(|p| (p.get(row, col), p.local(row, col))))
            .and_then(|(bytes, local)| layout.with(|l| l.as_ref().map(|l| l.describe(row, col, bytes, local))))
            .unwrap_or_default(),
        None => match largest() {
            Some(text) => {
                format!("{text}. Point at a cell, or focus the grid and use the arrow keys, to read it.")
            }
            None => "No bytes go from a source device to a destination device.".to_string(),
        },
    };
    let caption = move || {
        let mut parts = vec!["Rows: source devices. Columns: destination devices.".to_string()];
        if layout.with(|l| l.as_ref().is_some_and(|l| l.has_local)) {
            parts.push("Faded, dashed cells are local copies: a device to itself, over no link.".to_string());
        }
        let buckets = pairs.with(|p| {
            p.as_ref()
                .filter(|p| p.sources_per_row > 1 || p.destinations_per_col > 1)
                .map(|p| (p.sources_per_row, p.destinations_per_col))
        });
        if let Some((per_row, per_col)) = buckets {
            // "up to 1 destination devices" said nothing true of a column of one device (review 37).
            let up_to = |n: usize, side: &str| match n {
                1 => format!("1 {side} device"),
                n => format!("up to {n} {side} devices"),
            };
            parts.push(format!(
                "Each row groups {} and each column {}; a cell sums their bytes.",
                up_to(per_row, "source"),
                up_to(per_col, "destination")
            ));
        }
        // What the grid has no row or column for, said with its bytes: the row sums once fell short of the
        // devices' "sent" bars by the whole gather, without a word.
        let off = pairs.with(|p| p.as_ref().map(|p| p.off_grid.clone())).unwrap_or_default();
        if let Some(root) = off.root {
            let own = match off.to_root_local_bytes {
                0 => String::new(),
                local => format!("; d{root}'s own share, {}, is a local copy", format_bytes(local)),
            };
            parts.push(format!(
                "Not in the grid: the gather into the root d{root}, which is not a destination ({} in {}{own}).",
                format_bytes(off.to_root_bytes),
                messages(off.to_root_messages),
            ));
        }
        if off.ring_messages > 0 {
            parts.push(format!(
                "{} the ring's hops from one destination to the next ({} in {}).",
                if off.root.is_some() { "Nor" } else { "Not in the grid:" },
                format_bytes(off.ring_bytes),
                messages(off.ring_messages),
            ));
        }
        parts.join(" ")
    };
    // The cell under the pointer, from its position in the picture (which may be drawn scaled down).
    let on_pointer = move |ev: leptos::ev::PointerEvent| {
        let Some(svg) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let bounds = svg.get_bounding_client_rect();
        let cell = layout.with_untracked(|l| {
            let l = l.as_ref()?;
            let scale = l.width / bounds.width();
            let x = (f64::from(ev.client_x()) - bounds.left()) * scale;
            let y = (f64::from(ev.client_y()) - bounds.top()) * scale;
            scale.is_finite().then(|| l.grid.cell_at(x, y))?
        });
        if hovered.get_untracked() != cell {
            hovered.set(cell);
        }
    };

    view! {
        <section class="heatmap-box" aria-labelledby="heatmap-title">
            <h3 class="analysis-subtitle" id="heatmap-title">"Bytes from each source to each destination"</h3>
            <p class="analysis-caption" data-testid="heatmap-caption">{caption}</p>
            {move || present.get().then(|| view! { <HeatmapPicture layout on_pointer=on_pointer hovered=hovered/> })}
            // Live only while a cell is read: otherwise every edit had it say "Largest: …", with its
            // instructions, in place of anything about the edit.
            <p class="heatmap-readout" id="heatmap-readout" data-testid="heatmap-readout"
                aria-live=move || if hovered.get().is_some() { "polite" } else { "off" }>{readout}</p>
        </section>
    }
}

/// The SVG of [`PairHeatmap`]. Step paths, texts and labels are keyed by content, so a re-plan rewrites only
/// the paths whose cells changed.
#[component]
fn HeatmapPicture(
    /// What to draw (present while this picture is mounted).
    layout: Memo<Option<Layout>>,
    /// Reads the cell under the pointer.
    on_pointer: impl Fn(leptos::ev::PointerEvent) + Copy + 'static,
    /// The cell under the pointer, cleared when it leaves.
    hovered: RwSignal<Option<(usize, usize)>>,
) -> impl IntoView {
    let read = move |f: fn(&Layout) -> f64| layout.with(|l| l.as_ref().map_or(0.0, f));
    let label = move || {
        layout.with(|l| {
            l.as_ref().map(|l| {
                format!(
                    "Heatmap of bytes from {} source rows to {} destination columns; the largest cell holds {}.",
                    l.grid.rows,
                    l.grid.cols,
                    format_bytes(l.max_bytes)
                )
            })
        })
    };
    let paths = move || layout.with(|l| l.as_ref().map_or_else(Vec::new, |l| l.paths.clone()));
    let cell_count = move || layout.with(|l| l.as_ref().map_or(0, |l| l.cells.len()));
    // Bytes written in cells large enough to hold them.
    let texts = move || {
        layout.with(|l| {
            l.as_ref().map_or_else(Vec::new, |l| {
                let size = l.grid.cell - if l.grid.cell >= 8.0 { 1.0 } else { 0.0 };
                l.cells.iter().filter_map(|c| c.text.clone().map(|t| (c.x + size / 2.0, c.y + size / 2.0, t))).collect()
            })
        })
    };
    // The hovered cell's outline (the cells are paths, so CSS `:hover` cannot single one out); without a
    // hovered cell the outline has no size and draws nothing.
    let hover_at = move |f: fn(PixelRect) -> f64| {
        move || {
            let (row, col) = hovered.get()?;
            layout.with(|l| {
                let grid = l.as_ref()?.grid;
                (row < grid.rows && col < grid.cols)
                    .then(|| f(PixelRect::new(grid.x(col), grid.y(row), grid.cell, grid.cell)))
            })
        }
    };
    let row_labels = move || layout.with(|l| l.as_ref().map_or_else(Vec::new, |l| l.row_labels.clone()));
    let col_labels = move || {
        layout.with(|l| {
            l.as_ref()
                .map_or_else(Vec::new, |l| l.col_labels.iter().map(|c| (c.clone(), l.col_labels_rotated)).collect())
        })
    };
    let axes_key =
        move || layout.with(|l| l.as_ref().map(|l| (l.grid, l.legend_y, l.max_bytes, l.has_local, l.local_below)));
    let axes_and_legend = move || {
        let (grid, legend_y, max_bytes, has_local, local_below) = axes_key()?;
        let grid_middle_y = grid.top + grid.height() / 2.0;
        let legend = (0..LEGEND_STEPS)
            .map(|i| {
                let t = i as f64 / (LEGEND_STEPS - 1) as f64;
                let x = grid.left + LEGEND_STEPS_AT + i as f64 * 18.0;
                let level = format!("{:.3}", HEAT_FLOOR + (1.0 - HEAT_FLOOR) * t);
                view! { <rect class="legend-step heat-step" x=x y=legend_y - 6.0 width="18" height="12" fill-opacity=level/> }
            })
            .collect_view();
        let legend_end = grid.left + LEGEND_STEPS_AT + LEGEND_STEPS as f64 * 18.0 + 6.0;
        // After the ramp's largest value: what a faded, dashed cell is.
        let (local_at, local_y) = if local_below {
            (grid.left, legend_y + LEGEND_LINE)
        } else {
            (legend_end + text_width(format_bytes(max_bytes).len(), FONT) + LOCAL_LEGEND_GAP, legend_y)
        };
        let local = has_local.then(|| {
            view! {
                <rect class="heat-cell is-local legend-step" x=local_at y=local_y - 6.0 width="12" height="12" fill-opacity=format!("{:.3}", level(HEAT_STEPS) * LOCAL_FADE)/>
                <text class="heat-label heat-legend-start" x=local_at + 16.0 y=local_y>{LOCAL_WORD}</text>
            }
        });
        Some(view! {
            <text class="heat-axis" x=grid.left y="12">{AXIS_TITLE}</text>
            <text
                class="heat-axis"
                x="12"
                y=grid_middle_y
                transform=format!("rotate(-90 12 {grid_middle_y})")
            >
                "from source devices"
            </text>
            <rect class="heat-frame" x=grid.left - 0.5 y=grid.top - 0.5 width=grid.width() + 1.0 height=grid.height() + 1.0/>
            <rect class="heat-zero legend-step" x=grid.left y=legend_y - 6.0 width="12" height="12"/>
            <text class="heat-label heat-legend-start" x=grid.left + 16.0 y=legend_y>"none"</text>
            {legend}
            <text class="heat-label heat-legend-end" x=legend_end y=legend_y>{format_bytes(max_bytes)}</text>
            {local}
        })
    };

    let columns = move || layout.with(|l| l.as_ref().map_or(0, |l| l.grid.cols));
    // In a box that scrolls sideways: on a phone the picture stops shrinking at 80 % of its drawn size (its
    // 11 px labels were 5.7 px at 320 px), as the tensor view does at 1:1. Its cells are not faded at the
    // cut, as a table's are (a faded cell reads as fewer bytes): the hint above it says so, shown by CSS only
    // while the box scrolls. Visual only: the arrow keys reach every cell.
    view! {
        <p class="heatmap-scroll-hint" data-testid="heatmap-scroll-hint" aria-hidden="true">
            {move || format!("{} columns, wider than this page: scroll the grid sideways to see them all \u{2192}", columns())}
        </p>
        <div class="heatmap-scroll">
            // Focusable: the arrow keys walk the cells and the readout (a live region) reads each. An
            // application, not an image: a screen reader in browse mode keeps the arrow keys from an image,
            // and its cells could not be reached (review 41).
            <svg
                class="heatmap"
                data-testid="heatmap"
                role="application"
                aria-roledescription="heatmap"
                tabindex="0"
                aria-label=label
                aria-describedby="heatmap-readout"
                viewBox=move || format!("0 0 {} {}", read(|l| l.width), read(|l| l.height))
                width=move || read(|l| l.width)
                height=move || read(|l| l.height)
                style:--drawn-w=move || read(|l| l.width).to_string()
                on:pointermove=on_pointer
                on:pointerdown=on_pointer
                on:pointerleave=move |_| hovered.set(None)
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    let next = layout.with_untracked(|l| l.as_ref()?.grid.key_step(hovered.get_untracked(), &ev.key()));
                    if let Some(next) = next {
                        ev.prevent_default();
                        hovered.set(Some(next));
                    } else if ev.key() == "Escape" && hovered.get_untracked().is_some() {
                        // Lets go of the cell, not of presenting too.
                        ev.prevent_default();
                        hovered.set(None);
                    }
                }
                on:blur=move |_| hovered.set(None)
            >
                {redraw_on(axes_key, axes_and_legend)}
                {keyed(row_labels, |l| view! { <text class="heat-label heat-row-label" x=l.x y=l.y>{l.text}</text> })}
                {keyed(col_labels, |(l, rotated)| {
                    if rotated {
                        view! {
                            <text class="heat-label heat-col-label-up" x=l.x y=l.y transform=format!("rotate(-90 {} {})", l.x, l.y)>
                                {l.text}
                            </text>
                        }
                        .into_any()
                    } else {
                        view! { <text class="heat-label heat-col-label" x=l.x y=l.y>{l.text}</text> }.into_any()
                    }
                })}
                <g class="heat-cells" data-testid="heatmap-cells" data-cells=cell_count>{keyed(paths, step_view)}</g>
                <g class="heat-texts">{keyed(texts, text_view)}</g>
                // A light halo under a dark line: visible on the strongest cells and on empty ones alike.
                <rect
                    class="heat-hover-halo"
                    fill="none"
                    x=hover_at(|r| r.x)
                    y=hover_at(|r| r.y)
                    width=hover_at(|r| r.width)
                    height=hover_at(|r| r.height)
                />
                <rect
                    class="heat-hover"
                    data-testid="heatmap-hover"
                    fill="none"
                    x=hover_at(|r| r.x)
                    y=hover_at(|r| r.y)
                    width=hover_at(|r| r.width)
                    height=hover_at(|r| r.height)
                />
            </svg>
        </div>
    }
}

/// The cells of one step of the ramp.
fn step_view(path: StepPath) -> impl IntoView {
    let class = match (path.step.is_some(), path.local) {
        (false, _) => "heat-cell heat-zero",
        (true, false) => "heat-cell",
        (true, true) => "heat-cell is-local",
    };
    let fade = if path.local { LOCAL_FADE } else { 1.0 };
    view! {
        <path
            class=class
            d=path.d
            fill-opacity=path.step.map(|step| format!("{:.3}", level(step) * fade))
            data-testid="heatmap-step"
            data-step=path.step.map_or(0, |step| step)
            data-local=path.local.then_some("true")
            data-cells=path.cells
        />
    }
}

/// The colour class of the text on a cell drawn at `strength`: black or white, whichever stands out more
/// on that cell in each theme (analysis.css): the page's light-theme colour below both switches, black
/// between them, the heat colour's opposite above.
fn ink(strength: f64) -> &'static str {
    if strength > LIGHT_THEME_SWITCH {
        "heat-text heat-text-strong"
    } else if strength > DARK_THEME_SWITCH {
        "heat-text heat-text-mid"
    } else {
        "heat-text"
    }
}

/// A cell's bytes, centred on it, in the colour that stands out on it ([`ink`]).
fn text_view((x, y, t): (f64, f64, CellText)) -> impl IntoView {
    view! { <text class=t.ink x=x y=y font-size=format!("{:.1}", t.font)>{t.text}</text> }
}
