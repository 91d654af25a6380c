//! The source × destination heatmap: cell geometry, which devices a bucketed row or column covers, and
//! which labels fit without overlapping.

use std::ops::Range;

/// A grid of `rows × cols` square cells of side `cell`, its top-left corner at `(left, top)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub cell: f64,
    pub left: f64,
    pub top: f64,
}

impl Grid {
    /// The grid that fits `width × height` with square cells between `min_cell` and `max_cell` (so a 3 × 2
    /// toy does not blow up and a 48 × 48 matrix stays legible; it may then exceed the box).
    pub fn fit(rows: usize, cols: usize, width: f64, height: f64, min_cell: f64, max_cell: f64) -> Grid {
        let (rows, cols) = (rows.max(1), cols.max(1));
        let cell = (width / cols as f64).min(height / rows as f64).clamp(min_cell, max_cell);
        Grid { rows, cols, cell, left: 0.0, top: 0.0 }
    }
    /// The same grid moved so its top-left corner is at `(left, top)`.
    pub fn at(self, left: f64, top: f64) -> Grid {
        Grid { left, top, ..self }
    }
    pub fn x(&self, col: usize) -> f64 {
        self.left + col as f64 * self.cell
    }
    pub fn y(&self, row: usize) -> f64 {
        self.top + row as f64 * self.cell
    }
    pub fn width(&self) -> f64 {
        self.cols as f64 * self.cell
    }
    pub fn height(&self) -> f64 {
        self.rows as f64 * self.cell
    }
    /// The cell under the point `(x, y)`, as `(row, col)`; `None` outside the grid. A point on the shared
    /// edge of two cells belongs to the later one (cells are half-open).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (dx, dy) = (x - self.left, y - self.top);
        let inside = dx >= 0.0 && dy >= 0.0 && dx < self.width() && dy < self.height();
        if !inside {
            return None;
        }
        Some(((dy / self.cell) as usize, (dx / self.cell) as usize))
    }

    /// The cell the key `key` moves the keyboard's cell to from `at`: an arrow one cell that way (stopping
    /// at the edge), Home and End the row's first and last; the first cell when none is chosen yet. `None`
    /// when the key is not one of these (it is left to the page).
    pub fn key_step(&self, at: Option<(usize, usize)>, key: &str) -> Option<(usize, usize)> {
        let (last_row, last_col) = (self.rows.saturating_sub(1), self.cols.saturating_sub(1));
        let moves = matches!(key, "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" | "Home" | "End");
        let Some((row, col)) = at.filter(|&(r, c)| r <= last_row && c <= last_col) else {
            return moves.then_some((0, 0));
        };
        Some(match key {
            "ArrowUp" => (row.saturating_sub(1), col),
            "ArrowDown" => ((row + 1).min(last_row), col),
            "ArrowLeft" => (row, col.saturating_sub(1)),
            "ArrowRight" => (row, (col + 1).min(last_col)),
            "Home" => (row, 0),
            "End" => (row, last_col),
            _ => return None,
        })
    }
}

/// The mesh indices that bucket `index` covers when `per_bucket` devices share one row (or column) of a
/// mesh of `total` devices: `[index * per_bucket, (index + 1) * per_bucket)`, cut at `total` (the last bucket
/// may be smaller, or empty past the end).
pub fn bucket(index: usize, per_bucket: usize, total: usize) -> Range<usize> {
    let per_bucket = per_bucket.max(1);
    let start = (index.saturating_mul(per_bucket)).min(total);
    start..(start.saturating_add(per_bucket)).min(total)
}

/// How the devices at `range` of a mesh's device list read: `d3` alone, `d0–d21` for consecutive ids,
/// `d0…d21` otherwise (the ends of a non-consecutive run); empty when the range is.
pub fn range_label(devices: &[u32], range: Range<usize>) -> String {
    let Some(slice) = devices.get(range) else { return String::new() };
    match slice {
        [] => String::new(),
        [only] => format!("d{only}"),
        [first, .., last] => {
            let consecutive = slice.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
            if consecutive { format!("d{first}–d{last}") } else { format!("d{first}…d{last}") }
        }
    }
}

/// Label every `stride`-th of a run of cells `cell` apart so that labels are at least `spacing` apart
/// (1 when every cell has room).
pub fn label_stride(cell: f64, spacing: f64) -> usize {
    if cell.is_nan() || cell <= 0.0 || !spacing.is_finite() {
        return 1;
    }
    ((spacing / cell).ceil() as usize).max(1)
}

/// Which of `count` cells get a label, at least `stride` cells apart: the first and the last (readers look
/// for both ends) and as many between as fit, spread evenly. Spread from the first cell by whole strides,
/// the last gap came out up to twice the others ("d896–d927 … d992–d1023" on the large preset).
pub fn labelled(count: usize, stride: usize) -> Vec<usize> {
    let stride = stride.max(1);
    let Some(last) = count.checked_sub(1) else { return Vec::new() };
    let gaps = last / stride;
    if gaps == 0 {
        return vec![0];
    }
    // Rounded to the nearest cell: every gap is ⌊last / gaps⌋ or one more, never less than `stride`.
    (0..=gaps).map(|i| (i * last + gaps / 2) / gaps).collect()
}

/// Roughly how wide `chars` characters of a sans-serif font of `font_px` are, for reserving label room.
pub fn text_width(chars: usize, font_px: f64) -> f64 {
    chars as f64 * font_px * 0.6
}

/// The colour intensity of a cell: its bytes over the largest cell's, in `[0, 1]` (0 when all are zero).
pub fn intensity(bytes: u64, max: u64) -> f64 {
    if max == 0 { 0.0 } else { (bytes as f64 / max as f64).clamp(0.0, 1.0) }
}

/// How many strengths the heat ramp is drawn in. The cells of one strength are one SVG path, so a re-plan
/// redraws a few dozen elements however many cells change; 32 steps (about 3 % of the ramp each) are
/// finer than the eye tells apart in neighbouring cells.
pub const HEAT_STEPS: u8 = 32;

/// The step of the ramp, `1..=HEAT_STEPS`, nearest to a non-zero cell's intensity `t` in `[0, 1]`: the
/// largest cell is the last step, and a cell too small to register still gets the first (never the empty
/// cells' colour).
pub fn heat_step(t: f64) -> u8 {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    1 + (t * f64::from(HEAT_STEPS - 1)).round() as u8
}

/// The intensity a step is drawn at, in `[0, 1]`.
pub fn step_intensity(step: u8) -> f64 {
    f64::from(step.clamp(1, HEAT_STEPS) - 1) / f64::from(HEAT_STEPS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_walk_the_cells_and_stop_at_the_edges() {
        let grid = Grid::fit(3, 4, 100.0, 100.0, 4.0, 40.0);
        assert_eq!(grid.key_step(None, "ArrowRight"), Some((0, 0)), "the first key chooses the first cell");
        assert_eq!(grid.key_step(None, "Tab"), None);
        assert_eq!(grid.key_step(Some((1, 1)), "ArrowRight"), Some((1, 2)));
        assert_eq!(grid.key_step(Some((1, 1)), "ArrowDown"), Some((2, 1)));
        assert_eq!(grid.key_step(Some((1, 1)), "ArrowUp"), Some((0, 1)));
        assert_eq!(grid.key_step(Some((1, 1)), "ArrowLeft"), Some((1, 0)));
        assert_eq!(grid.key_step(Some((2, 3)), "ArrowDown"), Some((2, 3)), "the last row stays");
        assert_eq!(grid.key_step(Some((2, 3)), "ArrowRight"), Some((2, 3)), "the last column stays");
        assert_eq!(grid.key_step(Some((0, 0)), "ArrowUp"), Some((0, 0)));
        assert_eq!(grid.key_step(Some((0, 0)), "ArrowLeft"), Some((0, 0)));
        assert_eq!(grid.key_step(Some((1, 2)), "Home"), Some((1, 0)));
        assert_eq!(grid.key_step(Some((1, 2)), "End"), Some((1, 3)));
        assert_eq!(grid.key_step(Some((1, 2)), "Enter"), None);
        // A cell of a larger grid before a re-plan: back to the first.
        assert_eq!(grid.key_step(Some((7, 9)), "ArrowLeft"), Some((0, 0)));
    }

    #[test]
    fn heat_steps_span_the_ramp_and_round_to_the_nearest() {
        assert_eq!(heat_step(1.0), HEAT_STEPS);
        assert_eq!(heat_step(0.0), 1);
        assert_eq!(heat_step(1e-9), 1, "a tiny cell is the first step, not empty");
        assert_eq!(heat_step(f64::NAN), 1);
        assert_eq!(heat_step(0.5), 17, "0.5 × 31 = 15.5 rounds up");
        assert_eq!(step_intensity(HEAT_STEPS), 1.0);
        assert_eq!(step_intensity(1), 0.0);
    }

    proptest::proptest! {
        #[test]
        fn labels_span_both_ends_evenly_and_keep_their_spacing(count in 0usize..5000, stride in 1usize..300) {
            let chosen = labelled(count, stride);
            if count == 0 {
                proptest::prop_assert!(chosen.is_empty());
            } else {
                proptest::prop_assert_eq!(chosen[0], 0);
                if count > stride {
                    proptest::prop_assert_eq!(*chosen.last().unwrap_or(&0), count - 1);
                }
                let gaps: Vec<usize> = chosen.windows(2).map(|w| w[1] - w[0]).collect();
                proptest::prop_assert!(gaps.iter().all(|&g| g >= stride), "{gaps:?}");
                let (least, most) = (gaps.iter().min(), gaps.iter().max());
                if let (Some(least), Some(most)) = (least, most) {
                    proptest::prop_assert!(most - least <= 1, "{gaps:?}");
                }
            }
        }

        #[test]
        fn a_drawn_step_is_within_half_a_step_of_the_intensity(t in 0.0f64..=1.0) {
            let drawn = step_intensity(heat_step(t));
            proptest::prop_assert!((drawn - t).abs() <= 0.5 / f64::from(HEAT_STEPS - 1) + 1e-12);
        }

        #[test]
        fn steps_keep_the_order_of_intensities(a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
            if a <= b {
                proptest::prop_assert!(heat_step(a) <= heat_step(b));
            }
        }
    }

    #[test]
    fn the_toy_grid_is_small_but_not_tiny() {
        // 3 sources × 2 destinations in a 400 × 300 box: cells are capped, not stretched to 100 px.
        let grid = Grid::fit(3, 2, 400.0, 300.0, 6.0, 44.0);
        assert_eq!(grid.cell, 44.0);
        assert_eq!((grid.width(), grid.height()), (88.0, 132.0));
    }

    #[test]
    fn a_full_heatmap_shrinks_to_the_box_but_not_below_the_minimum() {
        let grid = Grid::fit(48, 48, 480.0, 480.0, 6.0, 44.0);
        assert_eq!(grid.cell, 10.0);
        assert_eq!(Grid::fit(48, 48, 96.0, 96.0, 6.0, 44.0).cell, 6.0);
    }

    #[test]
    fn points_find_their_cell_and_edges_belong_to_the_later_cell() {
        let grid = Grid::fit(3, 2, 20.0, 30.0, 1.0, 10.0).at(100.0, 50.0);
        assert_eq!(grid.cell_at(100.0, 50.0), Some((0, 0)));
        assert_eq!(grid.cell_at(110.0, 59.9), Some((0, 1)));
        assert_eq!(grid.cell_at(119.9, 79.9), Some((2, 1)));
        assert_eq!(grid.cell_at(120.0, 60.0), None, "the right edge is outside");
        assert_eq!(grid.cell_at(99.0, 60.0), None);
        assert_eq!(grid.cell_at(f64::NAN, 60.0), None);
    }

    #[test]
    fn buckets_cover_the_mesh_and_the_last_may_be_short() {
        // 1024 sources over 47 rows of 22.
        assert_eq!(bucket(0, 22, 1024), 0..22);
        assert_eq!(bucket(46, 22, 1024), 1012..1024);
        assert_eq!(bucket(47, 22, 1024), 1024..1024, "past the end is empty");
        assert_eq!(bucket(2, 1, 3), 2..3);
        assert_eq!(bucket(1, 0, 3), 1..2, "a zero bucket size counts as one");
    }

    #[test]
    fn ranges_name_their_devices() {
        let devices: Vec<u32> = (1024..1280).collect();
        assert_eq!(range_label(&devices, 0..6), "d1024–d1029");
        assert_eq!(range_label(&devices, 3..4), "d1027");
        assert_eq!(range_label(&[0, 2, 4], 0..3), "d0…d4", "gaps are not hidden behind a dash");
        assert_eq!(range_label(&devices, 5..5), "");
        assert_eq!(range_label(&devices, 300..301), "", "out of range is empty, not a panic");
    }

    #[test]
    fn labels_skip_cells_to_keep_their_spacing() {
        assert_eq!(label_stride(44.0, 14.0), 1);
        assert_eq!(label_stride(9.0, 14.0), 2);
        assert_eq!(label_stride(0.0, 14.0), 1);
        assert_eq!(labelled(3, 1), [0, 1, 2]);
        assert_eq!(
            labelled(47, 4),
            [0, 4, 8, 13, 17, 21, 25, 29, 33, 38, 42, 46],
            "gaps of 4 and 5, not a last one of 6"
        );
        assert_eq!(labelled(49, 4), [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]);
        assert_eq!(labelled(3, 4), [0], "a lone first label stays");
        assert_eq!(labelled(0, 3), Vec::<usize>::new());
    }

    #[test]
    fn intensity_is_relative_to_the_largest_cell() {
        assert_eq!(intensity(24, 48), 0.5);
        assert_eq!(intensity(0, 0), 0.0);
        assert_eq!(intensity(48, 48), 1.0);
        assert_eq!(text_width(10, 12.0), 72.0);
    }
}
