//! The tensor view's projection: which boxes show in the chosen 2-D slice, and where, in pixels.

use crate::core::geometry::Region;

/// A rectangle in the view, in tensor coordinates: rows `[row0, row1)`, columns `[col0, col1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cells {
    pub row0: u64,
    pub row1: u64,
    pub col0: u64,
    pub col1: u64,
}

/// Which 2-D slice of the tensor is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    pub row_dim: usize,
    pub col_dim: usize,
    /// The index shown along every other dim (entries of the drawn dims are ignored).
    pub index: Vec<u64>,
}

impl Slice {
    /// Rows and columns of the view for a tensor of `shape`: rank 1 draws one row.
    pub fn extent(&self, shape: &[u64]) -> (u64, u64) {
        if self.row_dim == self.col_dim {
            (1, shape.get(self.col_dim).copied().unwrap_or(1))
        } else {
            (shape.get(self.row_dim).copied().unwrap_or(1), shape.get(self.col_dim).copied().unwrap_or(1))
        }
    }

    /// Where `region` shows in the slice, or `None` if it misses the slice (or is empty).
    pub fn project(&self, region: &Region) -> Option<Cells> {
        if region.is_empty() {
            return None;
        }
        // Dims past the rank (a link's view, for a moment before it is fitted to the tensor) read its last;
        // `Region::interval` of a dim past 8 would panic.
        let last = region.rank().saturating_sub(1);
        let (row_dim, col_dim) = (self.row_dim.min(last), self.col_dim.min(last));
        for d in 0..region.rank() {
            if d == row_dim || d == col_dim {
                continue;
            }
            let i = self.index.get(d).copied().unwrap_or(0);
            let interval = region.interval(d);
            if i < interval.start || i >= interval.end {
                return None;
            }
        }
        let col = region.interval(col_dim);
        if row_dim == col_dim {
            return Some(Cells { row0: 0, row1: 1, col0: col.start, col1: col.end });
        }
        let row = region.interval(row_dim);
        Some(Cells { row0: row.start, row1: row.end, col0: col.start, col1: col.end })
    }
}

/// Pixel geometry of the tensor view: the grid's size and the scale of rows and columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub rows: u64,
    pub cols: u64,
    pub width: f64,
    pub height: f64,
    /// True when rows and columns are scaled differently (an extreme aspect ratio was clamped).
    pub distorted: bool,
}

impl Frame {
    /// Fits a `rows × cols` grid in at most `max_width × max_height` pixels, keeping square cells unless
    /// the aspect ratio is beyond `max_aspect` (then each axis is clamped, and `distorted` says so).
    pub fn fit(rows: u64, cols: u64, max_width: f64, max_height: f64, max_aspect: f64) -> Frame {
        let (r, c) = (rows.max(1) as f64, cols.max(1) as f64);
        let aspect = (c / r).clamp(1.0 / max_aspect, max_aspect);
        let distorted = (aspect - c / r).abs() > 1e-9;
        // Width / height = aspect, fitted within the box.
        let (mut width, mut height) = (max_width, max_width / aspect);
        if height > max_height {
            height = max_height;
            width = max_height * aspect;
        }
        Frame { rows: rows.max(1), cols: cols.max(1), width, height, distorted }
    }
    pub fn x(&self, col: u64) -> f64 {
        col as f64 / self.cols as f64 * self.width
    }
    pub fn y(&self, row: u64) -> f64 {
        row as f64 / self.rows as f64 * self.height
    }
    /// The pixel rectangle `(x, y, width, height)` of some cells.
    pub fn rect(&self, cells: Cells) -> (f64, f64, f64, f64) {
        let (x0, x1) = (self.x(cells.col0), self.x(cells.col1));
        let (y0, y1) = (self.y(cells.row0), self.y(cells.row1));
        (x0, y0, x1 - x0, y1 - y0)
    }
    /// Whether individual cells are large enough to draw one by one.
    pub fn draws_cells(&self, max_cells_per_side: u64) -> bool {
        self.rows <= max_cells_per_side && self.cols <= max_cells_per_side
    }
}

/// Below this screen width the page is one column (a phone), and the tensor is laid out to the screen.
pub const ONE_COLUMN_PX: f64 = 720.0;
/// What stands beside the tensor's frame on a phone: the page's and the card's padding (66 px at 390 px),
/// the row axis's margin (56 px, a little more for numbers like 1,024) and the right margin (14 px).
const BESIDE_FRAME_PX: f64 = 66.0 + 72.0 + 14.0;
/// The narrowest frame: a 320 px screen still gets a picture, scrolled a little.
const NARROWEST_FRAME_PX: f64 = 160.0;

/// The widest the tensor's frame may be on a screen `screen_px` wide: `widest` where the page has columns
/// (the picture scrolls if it must, as wide tables do), and on a phone what the screen leaves beside the
/// axes, so that the whole tensor is in sight with its labels at their size. Laid out at 560 px and
/// scrolled, a square tensor (fsdp-tp) showed 600 of its 1,024 columns; shrunk by CSS, its labels fell to
/// 7 px. `widest` for an unknown width (0, before the page is measured).
pub fn frame_width_for_screen(screen_px: f64, widest: f64) -> f64 {
    if !(screen_px > 0.0 && screen_px <= ONE_COLUMN_PX) {
        return widest;
    }
    (screen_px - BESIDE_FRAME_PX).clamp(NARROWEST_FRAME_PX, widest)
}

/// Whether a label of `chars` characters in a font of `font_px` fits a box of `width × height` pixels.
pub fn label_fits(chars: usize, font_px: f64, width: f64, height: f64) -> bool {
    chars as f64 * font_px * 0.62 + 6.0 <= width && font_px * 1.3 <= height
}

/// The one font size a picture's piece labels share: the largest from `least` up to `most` at which every
/// box holds its full label (the name over the shape, [`piece_label`]'s first form), given as the longest
/// line's length and the box's `width × height`. A box that holds it only at `least`, or not at all, keeps
/// `least`. Roomy boxes (the toy's 4 × 3 pieces) had 12 px labels in a third of their width, and a slide
/// that shrinks the picture to fit under a tour's bar took them to 9 px.
///
/// A box's size here is the room its label may take off the destination boundaries crossing the box (the
/// longest stretch between them each way, [`longest_stretch`]): a gathered shard's label grown to the whole
/// box's width sat on the dashed line across its middle.
pub fn shared_label_font(labels: impl IntoIterator<Item = (usize, (f64, f64))>, least: f64, most: f64) -> f64 {
    let mut font = most;
    for (chars, (width, height)) in labels {
        // `label_fits` solved for the font, and two lines clear of the lines above and below them
        // ([`label_center_off_lines`]; up to a font of 30 px, that is the stricter of the two down).
        let across = (width - 6.0) / (chars.max(1) as f64 * 0.62);
        let down = (height - 6.0) / 2.4;
        // Also a box too small for any font, or not measured (NaN, which `min` would pass over).
        if !(across >= least && down >= least) {
            return least;
        }
        font = font.min(across).min(down);
    }
    font.clamp(least, most.max(least))
}

/// The lines of a piece's label in a `width × height` box, or `None` when even the shortest does not fit
/// (the tooltip and the focus line still name the piece). Longest first: the name and the shape on two
/// lines (`d0 → d3`, `4 × 3`), the name alone, then for a box several pieces carry (`more` besides the one
/// named) `d4 → d10 +1`, then the name on two lines (`d4 →`, `d10 +1`), a stack's on three (`d4 →`, `d10`,
/// `+1`) in a box tall but narrow, then the ids closed up `d4→d10`
/// (`d4→d10+1`), then the bare ids `4→10` (`4→10+1`). A shortened label says how many it leaves out: the
/// bare ids of a stack's first piece read as if that piece were the only one.
pub fn piece_label(
    name: &str,
    shape: &str,
    (src, dst): (u32, u32),
    more: usize,
    (width, height): (f64, f64),
    font_px: f64,
) -> Option<Vec<String>> {
    let fits = |text: &str, lines: f64| label_fits(text.chars().count(), font_px, width, height / lines);
    let longest = if name.chars().count() >= shape.chars().count() { name } else { shape };
    if fits(longest, 2.0) {
        return Some(vec![name.to_string(), shape.to_string()]);
    }
    let plus = |gap: &str| if more > 0 { format!("{gap}+{more}") } else { String::new() };
    let mut shorter = vec![name.to_string()];
    if more > 0 {
        shorter.push(format!("d{src} → d{dst}{}", plus(" ")));
    }
    let one_line = shorter.into_iter().find(|line| fits(line, 1.0)).map(|line| vec![line]);
    // The name on two lines, in a box square rather than wide: every piece of a nested layout's grid keeps
    // its "d"s, whether its ids have one digit or two ("d0→d9" beside "0→10" mixed two forms).
    let split = [format!("d{src} →"), format!("d{dst}{}", plus(" "))];
    let two_lines = split.iter().all(|line| fits(line, 2.0)).then(|| split.to_vec());
    // A stack's count on a line of its own, in a box tall but too narrow for "d10 +1": a nested layout's
    // pieces to d8 and d9 were labelled and those to d10 and d11, one digit wider, were not.
    let split_more = [format!("d{src} →"), format!("d{dst}"), plus("")];
    let three_lines = (more > 0 && split_more.iter().all(|line| fits(line, 3.0))).then(|| split_more.to_vec());
    // Then the ids closed up, for a box too low for two lines; then bare: "0→8" beside a row axis numbered
    // 0–16 read as rows.
    let closed_up = [format!("d{src}→d{dst}{}", plus("")), format!("{src}→{dst}{}", plus(""))];
    one_line
        .or(two_lines)
        .or(three_lines)
        .or_else(|| closed_up.into_iter().find(|line| fits(line, 1.0)).map(|line| vec![line]))
}

/// How many of a label's `lines` ([`piece_label`]) name the piece; the rest (its shape) are drawn lighter.
pub fn name_lines(lines: &[String], shape: &str) -> usize {
    if lines.len() == 2 && lines[1] == shape { 1 } else { lines.len() }
}

/// Where along one axis of a box from `start` to `end` (pixels) a label `extent` long is centred, keeping it
/// off the lines at `cuts`: the box's middle when no cut runs through the label there, else the middle of
/// the longest stretch between cuts that holds it (the first of equals), else the middle all the same. A
/// gathered source shard is split by destination boundaries, and its centred label sat on the dashed line
/// (the toy's "d1 → d0" under gather then broadcast).
pub fn label_center_off_lines(start: f64, end: f64, cuts: &[f64], extent: f64) -> f64 {
    const CLEAR: f64 = 3.0;
    let middle = (start + end) / 2.0;
    let half = extent / 2.0 + CLEAR;
    if !cuts.iter().any(|&c| (c - middle).abs() < half) {
        return middle;
    }
    let mut edges: Vec<f64> = cuts.iter().copied().filter(|&c| c > start && c < end).collect();
    edges.sort_unstable_by(f64::total_cmp);
    let ends = std::iter::once(start).chain(edges.iter().copied()).chain(std::iter::once(end));
    let stretches = ends.clone().zip(ends.skip(1));
    let mut best: Option<(f64, f64)> = None;
    for (a, b) in stretches {
        if b - a >= 2.0 * half && best.is_none_or(|(x, y)| b - a > y - x) {
            best = Some((a, b));
        }
    }
    best.map_or(middle, |(a, b)| (a + b) / 2.0)
}

/// The longest stretch of a box from `start` to `end` (pixels) along one axis that no line at `cuts`
/// crosses: where [`label_center_off_lines`] can put a label.
pub fn longest_stretch(start: f64, end: f64, cuts: &[f64]) -> f64 {
    let mut edges: Vec<f64> = cuts.iter().copied().filter(|&c| c > start && c < end).collect();
    edges.sort_unstable_by(f64::total_cmp);
    let ends = std::iter::once(start).chain(edges).chain(std::iter::once(end));
    let mut longest = 0.0_f64;
    let mut last = start;
    for edge in ends.skip(1) {
        longest = longest.max(edge - last);
        last = edge;
    }
    longest
}

/// Positions of boundary lines along one axis, at least `min_gap` pixels apart (the rest are dropped, so a
/// thousand-way split stays a bounded number of elements). Returns `(position, kept every nth)`.
pub fn thin_boundaries(positions: &[u64], frame_extent: u64, pixels: f64, min_gap: f64) -> (Vec<u64>, usize) {
    let mut sorted: Vec<u64> = positions.iter().copied().filter(|&p| p > 0 && p < frame_extent).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let per_unit = pixels / frame_extent.max(1) as f64;
    let mut kept = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for p in &sorted {
        let x = *p as f64 * per_unit;
        if x - last >= min_gap {
            kept.push(*p);
            last = x;
        }
    }
    let every = if kept.is_empty() { 1 } else { sorted.len().div_ceil(kept.len()) };
    (kept, every)
}

/// Full-width horizontal lines at heights `ys` and full-height vertical lines at `xs` across a `width ×
/// height` frame, as one SVG path: a split into 64 shards a side is one element, not 128 (a dash pattern
/// restarts at each line, so dashed lines look as they would one element each).
pub fn lines_path(
    ys: impl IntoIterator<Item = f64>,
    xs: impl IntoIterator<Item = f64>,
    width: f64,
    height: f64,
) -> String {
    use std::fmt::Write;
    let mut d = String::new();
    // Writing into a String cannot fail.
    for y in ys {
        let _ = write!(d, "M0 {y}H{width}");
    }
    for x in xs {
        let _ = write!(d, "M{x} 0V{height}");
    }
    d
}

/// The left margin a tensor picture of `rows` rows needs: the row axis's title (its baseline at `title_x`,
/// turned to read upwards), then the widest tick label (the last, `rows` itself: "128,256"), then the ticks;
/// at least `least`. Assumes the axes' 11 px type: tabular digits ~6.7 px wide, a comma ~3.5 px.
pub fn row_axis_margin(rows: u64, title_x: f64, least: f64) -> f64 {
    // 9 px for the title's descenders and a gap, 8 px between a label and the frame (its tick).
    (title_x + 9.0 + tick_label_width(rows) + 8.0).max(least).ceil()
}

/// The right margin a tensor picture of `cols` columns needs: half the last column label (`cols` itself,
/// centred on the frame's right edge) and 2 px, at least `least`. A fixed 14 px cut "4,096" by 2 px.
pub fn col_axis_margin(cols: u64, least: f64) -> f64 {
    (tick_label_width(cols) / 2.0 + 2.0).max(least).ceil()
}

/// The width of the axis label of `n` ("128,256") in the axes' 11 px type.
fn tick_label_width(n: u64) -> f64 {
    let label = super::scale::group_thousands(n);
    let commas = label.chars().filter(|&c| c == ',').count() as f64;
    (label.chars().count() as f64 - commas) * 6.7 + commas * 3.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_of_dims_past_the_rank_reads_the_last_not_a_panic() {
        // A link's view of dims 8 and 9, before it is fitted to a 12 × 6 tensor, indexed past the region's
        // eight dims.
        let region = Region::whole(&[12, 6]).expect("a region");
        for (row_dim, col_dim) in [(8, 0), (0, 9), (20, 20)] {
            let slice = Slice { row_dim, col_dim, index: vec![0, 0] };
            assert!(slice.project(&region).is_some(), "{row_dim}, {col_dim}");
        }
        let fitted = Slice { row_dim: 0, col_dim: 1, index: vec![0, 0] }.project(&region);
        assert_eq!(fitted, Some(Cells { row0: 0, row1: 12, col0: 0, col1: 6 }));
    }

    #[test]
    fn a_label_keeps_off_a_line_through_its_middle() {
        // The toy under gather: a 4 × 6 shard 200 px wide, the destination boundary at its middle.
        let at = label_center_off_lines(0.0, 200.0, &[100.0], 50.0);
        assert_eq!(at, 50.0);
        // No line near the middle: the middle.
        assert_eq!(label_center_off_lines(0.0, 200.0, &[10.0, 190.0], 50.0), 100.0);
        // Lines outside the box do not count, and the longest stretch wins: 0..60 and 60..200.
        assert_eq!(label_center_off_lines(0.0, 200.0, &[-5.0, 90.0, 260.0], 50.0), 145.0);
        // No stretch holds the label: the middle, line or not.
        assert_eq!(label_center_off_lines(0.0, 60.0, &[20.0, 40.0], 30.0), 30.0);
        // Equal stretches: the first.
        assert_eq!(label_center_off_lines(0.0, 300.0, &[150.0], 40.0), 75.0);
    }

    #[test]
    fn the_right_margin_holds_half_the_last_column_label() {
        // "12" fits the least margin; "4,096" (~30 px) needs 18 px past the edge, "128,256" (~44 px) 24.
        assert_eq!(col_axis_margin(12, 14.0), 14.0);
        assert_eq!(col_axis_margin(4096, 14.0), 18.0);
        assert_eq!(col_axis_margin(128_256, 14.0), 24.0);
    }

    #[test]
    fn the_row_axis_margin_grows_with_the_widest_row_number() {
        // Small tensors keep the least margin; "5,000" (4 digits and a comma, ~30 px) beside the title at
        // 10 px needs 58 px, "128,256" 71.
        assert_eq!(row_axis_margin(12, 10.0, 56.0), 56.0);
        assert_eq!(row_axis_margin(8192, 10.0, 56.0), 58.0);
        assert_eq!(row_axis_margin(128_256, 10.0, 56.0), 71.0);
        let mut last = 0.0;
        for rows in [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, u64::MAX] {
            let margin = row_axis_margin(rows, 10.0, 0.0);
            assert!(margin > last, "{rows}: {margin}");
            last = margin;
        }
    }

    #[test]
    fn boundary_lines_are_one_path_with_a_subpath_per_line() {
        assert_eq!(lines_path([10.0, 20.5], [30.0], 100.0, 50.0), "M0 10H100M0 20.5H100M30 0V50");
        assert_eq!(lines_path([], [], 100.0, 50.0), "");
    }

    fn region(offset: &[u64], shape: &[u64]) -> Region {
        Region::new(offset, shape).unwrap()
    }

    #[test]
    fn regions_outside_the_slice_are_not_drawn() {
        let slice = Slice { row_dim: 0, col_dim: 2, index: vec![0, 5, 0] };
        assert_eq!(slice.project(&region(&[0, 4, 2], &[3, 2, 4])), Some(Cells { row0: 0, row1: 3, col0: 2, col1: 6 }));
        assert_eq!(slice.project(&region(&[0, 0, 2], &[3, 2, 4])), None, "dim 1 covers 0..2, slice is at 5");
        assert_eq!(slice.project(&region(&[0, 4, 2], &[0, 2, 4])), None, "empty regions are listed, not drawn");
    }

    #[test]
    fn rank_one_draws_a_single_row() {
        let slice = Slice { row_dim: 0, col_dim: 0, index: vec![0] };
        assert_eq!(slice.extent(&[10]), (1, 10));
        assert_eq!(slice.project(&region(&[3], &[3])), Some(Cells { row0: 0, row1: 1, col0: 3, col1: 6 }));
    }

    #[test]
    fn frames_keep_square_cells_until_the_aspect_is_extreme() {
        let toy = Frame::fit(12, 6, 600.0, 400.0, 4.0);
        assert!(!toy.distorted);
        assert_eq!((toy.width, toy.height), (200.0, 400.0));
        let (x, y, w, h) = toy.rect(Cells { row0: 4, row1: 8, col0: 3, col1: 6 });
        assert_eq!((x, w), (100.0, 100.0));
        assert!((y - 400.0 / 3.0).abs() < 1e-9 && (h - 400.0 / 3.0).abs() < 1e-9);
        let vocab = Frame::fit(128256, 8192, 600.0, 400.0, 4.0);
        assert!(vocab.distorted);
        assert_eq!(vocab.height, 400.0);
        assert_eq!(vocab.width, 100.0);
    }

    #[test]
    fn a_phone_lays_the_tensor_out_to_its_screen() {
        assert_eq!(frame_width_for_screen(1280.0, 560.0), 560.0, "columns: the drawn size");
        assert_eq!(frame_width_for_screen(0.0, 560.0), 560.0, "not measured yet");
        assert_eq!(frame_width_for_screen(f64::NAN, 560.0), 560.0);
        assert_eq!(frame_width_for_screen(390.0, 560.0), 390.0 - BESIDE_FRAME_PX);
        assert_eq!(frame_width_for_screen(720.0, 560.0), 560.0, "a small tablet has room for it all");
        assert_eq!(frame_width_for_screen(200.0, 560.0), NARROWEST_FRAME_PX);
    }

    #[test]
    fn labels_fit_only_in_boxes_wide_enough() {
        assert!(label_fits(7, 12.0, 80.0, 30.0));
        assert!(!label_fits(7, 12.0, 40.0, 30.0));
        assert!(!label_fits(7, 12.0, 80.0, 10.0));
    }

    #[test]
    fn labels_share_the_largest_font_every_box_holds() {
        // The toy's pieces: "d0 → d3" over "4 × 3" in 84 × 112 px.
        let toy = vec![(7, (84.0, 112.0)); 6];
        assert_eq!(shared_label_font(toy.clone(), 12.0, 16.0), 16.0, "capped");
        let font = shared_label_font(vec![(7, (80.0, 112.0)), (7, (70.0, 112.0))], 12.0, 16.0);
        assert!((font - 64.0 / (7.0 * 0.62)).abs() < 1e-9, "the narrowest box sets it: {font}");
        assert!(label_fits(7, font, 70.0, 56.0), "and its label fits there, line by line");
        let low = shared_label_font(vec![(7, (200.0, 38.0))], 12.0, 16.0);
        assert!((low - 32.0 / 2.4).abs() < 1e-9, "the lowest box too: {low}");
        assert!(label_fits(7, low, 200.0, 19.0), "and its label fits there, line by line");
        // One box that cannot hold its full label at the least size keeps every label at it.
        let mut mixed = toy;
        mixed.push((7, (30.0, 16.0)));
        assert_eq!(shared_label_font(mixed, 12.0, 16.0), 12.0);
        assert_eq!(shared_label_font(Vec::new(), 12.0, 16.0), 16.0, "no box: the most");
        assert_eq!(shared_label_font(vec![(7, (f64::NAN, 40.0))], 12.0, 16.0), 12.0);
        // Two lines clear of the lines above and below them, where the label is put.
        let font = shared_label_font(vec![(4, (200.0, 40.0))], 12.0, 16.0);
        assert!(2.0 * font * 1.2 + 6.0 <= 40.0 + 1e-9, "{font}");
        assert_eq!(shared_label_font(vec![(4, (200.0, 34.0))], 12.0, 16.0), 12.0, "under 12 px: 12 px");
    }

    #[test]
    fn the_longest_stretch_is_between_the_lines_that_cross_a_box() {
        assert_eq!(longest_stretch(0.0, 168.0, &[]), 168.0);
        assert_eq!(longest_stretch(0.0, 168.0, &[84.0]), 84.0, "the gathered toy shard, cut in half");
        assert_eq!(longest_stretch(10.0, 110.0, &[90.0, 30.0, 200.0, 10.0]), 60.0, "unsorted, and outside");
        // A stretch that long holds a label centred off the lines there.
        let (chars, font) = (10, 12.0);
        let extent = chars as f64 * font * 0.62;
        assert!(longest_stretch(0.0, 168.0, &[84.0]) >= extent + 6.0);
        let at = label_center_off_lines(0.0, 168.0, &[84.0], extent);
        assert!((at - 42.0).abs() < 1e-9, "{at}");
    }

    #[test]
    fn a_shortened_label_of_a_stack_says_how_many_pieces_it_leaves_out() {
        let label = |more: usize, width: f64, height: f64| {
            let name = if more > 0 { "d4 → d10, d14" } else { "d4 → d10" };
            piece_label(name, "256 × 1024", (4, 10), more, (width, height), 12.0)
        };
        let lines = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(label(1, 200.0, 40.0), lines(&["d4 → d10, d14", "256 × 1024"]));
        assert_eq!(label(1, 200.0, 20.0), lines(&["d4 → d10, d14"]), "one line of height");
        assert_eq!(label(1, 90.0, 20.0), lines(&["d4 → d10 +1"]));
        assert_eq!(label(1, 60.0, 20.0), lines(&["4→10+1"]), "was 4→10, as if d10 alone received it");
        assert_eq!(label(1, 70.0, 20.0), lines(&["d4→d10+1"]));
        assert_eq!(label(0, 60.0, 20.0), lines(&["d4→d10"]), "the ids keep their d while they fit");
        assert_eq!(label(0, 45.0, 20.0), lines(&["4→10"]));
        // A square box too narrow for "d4 → d10" on one line: the name on two, its d's kept.
        assert_eq!(label(0, 45.0, 40.0), lines(&["d4 →", "d10"]));
        assert_eq!(label(1, 60.0, 40.0), lines(&["d4 →", "d10 +1"]));
        // Narrower and tall: the count on a line of its own rather than no label (nested's d10, d11).
        assert_eq!(label(1, 48.0, 100.0), lines(&["d4 →", "d10", "+1"]));
        // Only the shape is drawn lighter.
        let name_and_shape: Vec<String> = ["d4 → d10", "256 × 1024"].map(String::from).to_vec();
        assert_eq!(name_lines(&name_and_shape, "256 × 1024"), 1);
        assert_eq!(name_lines(&["d4 →".to_string(), "d10".to_string()], "256 × 1024"), 2);
        assert_eq!(label(1, 20.0, 20.0), None);
        assert_eq!(label(1, 200.0, 10.0), None, "too low for any line");
        // Every label returned fits its box.
        for (w, h) in [(30.0, 16.0), (55.0, 16.0), (75.0, 18.0), (110.0, 30.0), (150.0, 40.0)] {
            for line in label(2, w, h).unwrap_or_default() {
                assert!(label_fits(line.chars().count(), 12.0, w, h), "{line} in {w} × {h}");
            }
        }
    }

    #[test]
    fn dense_boundaries_are_thinned_to_a_minimum_gap() {
        let positions: Vec<u64> = (1..1024).map(|i| i * 8).collect();
        let (kept, every) = thin_boundaries(&positions, 8192, 400.0, 4.0);
        assert!(kept.len() <= 100, "{}", kept.len());
        assert!(every >= 10);
        let (kept, every) = thin_boundaries(&[4, 8], 12, 400.0, 4.0);
        assert_eq!((kept, every), (vec![4, 8], 1));
    }
}
