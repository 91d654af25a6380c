//! The mesh view's layout: device tiles in their mesh shape, with node outlines.

use super::boxes::PixelRect;

/// Where one device's tile sits, in tile units (multiply by the tile pitch for pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilePosition {
    pub row: usize,
    pub col: usize,
}

/// The grid for a mesh: the last mesh dim runs across, all others down (row-major, as devices are listed).
/// A mesh much taller than wide is folded: its rows stand in blocks side by side, a gutter column apart
/// (`[2, 64, 8]` drew 128 rows of 8 tiles, a page 14,000 px long under an inventory's tensor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileGrid {
    /// Drawn rows and columns (gutters included).
    pub rows: usize,
    pub cols: usize,
    /// The mesh's own columns (its last dim, or the wrap of a long 1-D mesh) and how many of its rows stand
    /// in one block (all of them unless folded).
    pub mesh_cols: usize,
    pub block_rows: usize,
}

/// A mesh with more rows than this, and more than twice as many rows as columns, is folded.
const FOLD_ROWS: usize = 16;

impl TileGrid {
    /// A grid of `rows × cols` tiles, unfolded.
    pub fn plain(rows: usize, cols: usize) -> TileGrid {
        TileGrid { rows, cols, mesh_cols: cols.max(1), block_rows: rows.max(1) }
    }

    pub fn for_mesh(shape: &[u64]) -> TileGrid {
        let cols = shape.last().copied().unwrap_or(1).max(1) as usize;
        // Saturating: the core validates meshes first, but a drawing helper should not be the thing that panics.
        let total: u64 = shape.iter().fold(1u64, |n, &d| n.saturating_mul(d)).max(1);
        let total = total as usize;
        // Wide 1-D meshes wrap into a roughly square block so they stay readable: past 16 on one row, the
        // mesh view's tiles fall under the size that shows a device's name (a 31-device mesh was a strip of
        // 8 px tiles, unnamed and hard to point at).
        if shape.len() == 1 && cols > 16 {
            let cols = (total as f64).sqrt().ceil() as usize;
            return TileGrid::plain(total.div_ceil(cols), cols);
        }
        let rows = total.div_ceil(cols);
        if rows <= FOLD_ROWS || rows <= 2 * cols {
            return TileGrid::plain(rows, cols);
        }
        // Blocks side by side, near a square in all.
        let wanted = ((total as f64).sqrt() / cols as f64).round().max(2.0) as usize;
        let block_rows = rows.div_ceil(wanted);
        let blocks = rows.div_ceil(block_rows);
        TileGrid { rows: block_rows, cols: blocks * (cols + 1) - 1, mesh_cols: cols, block_rows }
    }
    pub fn position(&self, flat: usize) -> TilePosition {
        let cols = self.mesh_cols.max(1);
        let (row, col) = (flat / cols, flat % cols);
        let block = row / self.block_rows.max(1);
        TilePosition { row: row % self.block_rows.max(1), col: block * (cols + 1) + col }
    }
    /// The tile pitch (in pixels) that fits the grid in `width`, between `min` and `max`.
    pub fn pitch(&self, width: f64, min: f64, max: f64) -> f64 {
        (width / self.cols as f64).clamp(min, max)
    }
}

/// A run of tiles in one grid row that belong to the same node: drawn as one outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeRun {
    pub node: u32,
    pub row: usize,
    pub col0: usize,
    pub col1: usize,
}

/// The node outlines for devices laid out on `grid` (device ids in row-major mesh order).
pub fn node_runs(grid: &TileGrid, devices: &[u32], devices_per_node: u32) -> Vec<NodeRun> {
    let per_node = devices_per_node.max(1);
    let mut runs: Vec<NodeRun> = Vec::new();
    for (flat, &device) in devices.iter().enumerate() {
        let p = grid.position(flat);
        let node = device / per_node;
        match runs.last_mut() {
            Some(run) if run.row == p.row && run.node == node && run.col1 == p.col => run.col1 = p.col + 1,
            _ => runs.push(NodeRun { node, row: p.row, col0: p.col, col1: p.col + 1 }),
        }
    }
    runs
}

/// A node's outline: tiles of one node in rows `[row0, row1]` and columns `[col0, col1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeBlock {
    pub node: u32,
    pub row0: usize,
    pub row1: usize,
    pub col0: usize,
    pub col1: usize,
}

/// The outlines of [`node_runs`]: runs of one node over the same columns in consecutive rows become one
/// block, so a node that fills whole rows (a 2 × 4 mesh on an 8-GPU node) is one outline, as the legend
/// says an outline is, rather than one per row.
pub fn node_blocks(runs: &[NodeRun]) -> Vec<NodeBlock> {
    let mut blocks: Vec<NodeBlock> = Vec::with_capacity(runs.len());
    for run in runs {
        match blocks.last_mut() {
            Some(b) if b.node == run.node && b.col0 == run.col0 && b.col1 == run.col1 && b.row1 + 1 == run.row => {
                b.row1 = run.row;
            }
            _ => {
                blocks.push(NodeBlock { node: run.node, row0: run.row, row1: run.row, col0: run.col0, col1: run.col1 })
            }
        }
    }
    blocks
}

/// Meshes with more tiles than this are drawn with a bounded number of SVG elements ([`paths_by_fill`],
/// [`outlines_path`]) instead of one focusable element per device. Beyond it tiles are too small to carry a
/// label or thumbnail, and rebuilding them one element each took most of an edit's time (every tile changes
/// when the device ids shift).
pub const TILE_ELEMENTS_MAX: usize = 128;

/// The shades of a large mesh's tiles, first to last (viridis, reversed: yellow to purple), readable for
/// colour-blind eyes and in both themes. Over [`TILE_ELEMENTS_MAX`] devices, eight source colours repeated
/// every eight tiles said nothing (d0 and d8 alike) and destination tiles were blank; a shade by where the
/// device's region starts shows how the tensor is laid over the mesh instead, on both sides.
pub const POSITION_RAMP: [&str; 8] =
    ["#fde725", "#a0da39", "#4ac16d", "#1fa187", "#277f8e", "#365c8d", "#46327e", "#440154"];

/// One shade per device from where its region starts (`None`: it holds nothing, left neutral): the starts
/// in reading order (lexicographic, so rows before columns) spread evenly over [`POSITION_RAMP`]. Replicas
/// of a region share its shade.
///
/// A side's regions are a product of per-dim partitions, so a start's place in reading order is a mixed-radix
/// number of its place among each dim's distinct starts: sorted per dim as `u64`s, which reuses the sort the
/// boundaries already need (a sort of slices cost 3 KB of the bundle).
pub fn shades_by_start(starts: &[Option<&[u64]>]) -> Vec<Option<&'static str>> {
    let rank = starts.iter().flatten().map(|s| s.len()).max().unwrap_or(0);
    let per_dim: Vec<Vec<u64>> = (0..rank)
        .map(|d| {
            let mut values: Vec<u64> = starts.iter().flatten().filter_map(|s| s.get(d).copied()).collect();
            values.sort_unstable();
            values.dedup();
            values
        })
        .collect();
    let total = per_dim.iter().fold(1usize, |n, values| n.saturating_mul(values.len().max(1)));
    let steps = POSITION_RAMP.len();
    starts
        .iter()
        .map(|&start| {
            let start = start?;
            let place = per_dim.iter().enumerate().try_fold(0usize, |place, (d, values)| {
                let index = values.binary_search(start.get(d)?).ok()?;
                Some(place.saturating_mul(values.len().max(1)).saturating_add(index))
            })?;
            POSITION_RAMP.get((place as u128 * steps as u128 / total as u128) as usize).copied()
        })
        .collect()
}

/// Rounded rectangles (corner radius `radius`, clamped to half the shorter side) as one SVG path: the node
/// outlines of a large mesh in one element.
pub fn outlines_path(rects: impl IntoIterator<Item = PixelRect>, radius: f64) -> String {
    use std::fmt::Write;
    let mut d = String::new();
    for r in rects {
        let k = radius.min(r.width / 2.0).min(r.height / 2.0).max(0.0);
        let (w, h) = (r.width - 2.0 * k, r.height - 2.0 * k);
        // Writing into a String cannot fail.
        let _ = write!(
            d,
            "M{} {}h{w}a{k} {k} 0 0 1 {k} {k}v{h}a{k} {k} 0 0 1 {} {k}h{}a{k} {k} 0 0 1 {} {}v{}a{k} {k} 0 0 1 {k} {}Z",
            r.x + k,
            r.y,
            -k,
            -w,
            -k,
            -k,
            -h,
            -k
        );
    }
    d
}

/// Rectangles as one SVG path per fill (in the order each fill first appears): a mesh of a thousand devices
/// (fill: a colour, `None` for neutral) or a heatmap of two thousand cells (fill: a step of its ramp)
/// becomes a handful of elements.
pub fn paths_by_fill<F: PartialEq + Copy>(tiles: impl IntoIterator<Item = (PixelRect, F)>) -> Vec<(F, String)> {
    use std::fmt::Write;
    let mut paths: Vec<(F, String)> = Vec::new();
    for (rect, fill) in tiles {
        let index = match paths.iter().position(|(f, _)| *f == fill) {
            Some(index) => index,
            None => {
                paths.push((fill, String::new()));
                paths.len() - 1
            }
        };
        // Writing into a String cannot fail.
        let _ = write!(paths[index].1, "M{} {}h{}v{}h{}Z", rect.x, rect.y, rect.width, rect.height, -rect.width);
    }
    paths
}

/// The first tile whose rectangle contains the point `(x, y)` (edges included), if any.
pub fn tile_at(rects: impl IntoIterator<Item = PixelRect>, x: f64, y: f64) -> Option<usize> {
    rects.into_iter().position(|r| x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height)
}

/// Whether `key` is one of a mesh's own keys (the arrows, Home, End): taken by the mesh even at its edge,
/// where it moves nowhere (there, ArrowDown scrolled the page under the focused tile).
pub fn is_tile_key(key: &str) -> bool {
    matches!(key, "ArrowRight" | "ArrowLeft" | "ArrowDown" | "ArrowUp" | "Home" | "End")
}

/// Where the arrow keys, Home and End move the keyboard focus from tile `flat` on a grid of `count` tiles.
/// Up and down move by a row of the mesh: in a folded mesh, down from a block's last row is the next
/// block's first.
pub fn next_tile(flat: usize, key: &str, grid: &TileGrid, count: usize) -> Option<usize> {
    let cols = grid.mesh_cols.max(1);
    let next = match key {
        "ArrowRight" => Some(flat + 1),
        "ArrowLeft" => flat.checked_sub(1),
        "ArrowDown" if flat / cols + 1 < count.div_ceil(cols) => Some(flat + cols),
        "ArrowUp" => flat.checked_sub(cols),
        "Home" => Some(0),
        "End" => Some(count.saturating_sub(1)),
        _ => None,
    };
    next.filter(|&n| n < count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_meshs_shades_follow_where_regions_start() {
        let (a, b, c, d): (&[u64], &[u64], &[u64], &[u64]) = (&[0, 0], &[0, 4], &[2, 0], &[2, 4]);
        // Given out of order, with a replica and an empty region: shades by reading order of the starts.
        let shades = shades_by_start(&[Some(d), Some(a), None, Some(c), Some(b), Some(a)]);
        let at = |step: usize| Some(POSITION_RAMP[step]);
        assert_eq!(shades, vec![at(6), at(0), None, at(4), at(2), at(0)]);
        // Many regions: every step used, first and last at the ramp's ends, never decreasing.
        let starts: Vec<Vec<u64>> = (0..1024u64).map(|i| vec![i * 8, 0]).collect();
        let shades = shades_by_start(&starts.iter().map(|s| Some(s.as_slice())).collect::<Vec<_>>());
        assert_eq!(shades[0], at(0));
        assert_eq!(shades[1023], at(7));
        let steps: Vec<usize> =
            shades.iter().map(|s| POSITION_RAMP.iter().position(|r| Some(*r) == *s).unwrap_or(99)).collect();
        assert!(steps.windows(2).all(|w| w[0] <= w[1]), "{steps:?}");
        assert_eq!(steps.iter().filter(|&&s| s == 3).count(), 128, "eight even bands");
        assert_eq!(shades_by_start(&[None, None]), vec![None, None]);
    }

    #[test]
    fn tiles_become_one_path_per_colour() {
        let a = PixelRect::new(1.0, 2.0, 10.0, 10.0);
        let b = PixelRect::new(13.0, 2.0, 10.0, 10.0);
        let paths = paths_by_fill([(a, Some("red")), (b, None), (b, Some("red"))]);
        assert_eq!(paths.len(), 2);
        assert_eq!(paths[0], (Some("red"), "M1 2h10v10h-10ZM13 2h10v10h-10Z".to_string()));
        assert_eq!(paths[1], (None, "M13 2h10v10h-10Z".to_string()));
    }

    #[test]
    fn outlines_are_rounded_rectangles_in_one_path() {
        let d = outlines_path([PixelRect::new(1.0, 2.0, 20.0, 10.0), PixelRect::new(0.0, 0.0, 4.0, 4.0)], 3.0);
        assert_eq!(
            d,
            "M4 2h14a3 3 0 0 1 3 3v4a3 3 0 0 1 -3 3h-14a3 3 0 0 1 -3 -3v-4a3 3 0 0 1 3 -3Z\
             M2 0h0a2 2 0 0 1 2 2v0a2 2 0 0 1 -2 2h-0a2 2 0 0 1 -2 -2v-0a2 2 0 0 1 2 -2Z",
            "the radius of a small box is clamped to half its side"
        );
        assert_eq!(outlines_path([], 3.0), "");
    }

    #[test]
    fn the_tile_under_a_point_is_found_and_gaps_hold_none() {
        let rects = [PixelRect::new(1.0, 1.0, 10.0, 10.0), PixelRect::new(13.0, 1.0, 10.0, 10.0)];
        assert_eq!(tile_at(rects, 5.0, 5.0), Some(0));
        assert_eq!(tile_at(rects, 23.0, 11.0), Some(1));
        assert_eq!(tile_at(rects, 12.0, 5.0), None, "between the tiles");
        assert_eq!(tile_at(rects, 5.0, 30.0), None);
    }

    #[test]
    fn arrow_keys_move_within_the_grid() {
        let grid = TileGrid::plain(3, 4);
        assert_eq!(next_tile(5, "ArrowRight", &grid, 10), Some(6));
        assert_eq!(next_tile(0, "ArrowLeft", &grid, 10), None);
        assert_eq!(next_tile(5, "ArrowDown", &grid, 10), Some(9));
        assert_eq!(next_tile(6, "ArrowDown", &grid, 10), None, "no tile 10 in a mesh of 10");
        assert!(is_tile_key("ArrowDown") && is_tile_key("End") && !is_tile_key("Tab") && !is_tile_key("Escape"));
        assert_eq!(next_tile(9, "ArrowDown", &grid, 10), None, "last row");
        assert_eq!(next_tile(5, "ArrowUp", &grid, 10), Some(1));
        assert_eq!(next_tile(5, "End", &grid, 10), Some(9));
        assert_eq!(next_tile(5, "Home", &grid, 10), Some(0));
        assert_eq!(next_tile(5, "x", &grid, 10), None);
    }

    #[test]
    fn two_d_meshes_keep_their_shape() {
        let grid = TileGrid::for_mesh(&[2, 4]);
        assert_eq!(grid, TileGrid::plain(2, 4));
        assert_eq!(grid.position(5), TilePosition { row: 1, col: 1 });
        assert_eq!(TileGrid::for_mesh(&[16, 4]), TileGrid::plain(16, 4), "16 rows: not folded");
    }

    #[test]
    fn a_tall_mesh_is_folded_into_blocks_side_by_side() {
        // 128 rows of 8: four blocks of 32 rows, a gutter column between blocks.
        let grid = TileGrid::for_mesh(&[2, 64, 8]);
        assert_eq!(grid, TileGrid { rows: 32, cols: 35, mesh_cols: 8, block_rows: 32 });
        assert_eq!(grid.position(0), TilePosition { row: 0, col: 0 });
        assert_eq!(grid.position(31 * 8 + 7), TilePosition { row: 31, col: 7 });
        assert_eq!(grid.position(32 * 8), TilePosition { row: 0, col: 9 }, "the next block, past the gutter");
        assert_eq!(grid.position(1023), TilePosition { row: 31, col: 34 });
        // Every tile its own place.
        let places: std::collections::HashSet<(usize, usize)> =
            (0..1024).map(|f| grid.position(f)).map(|p| (p.row, p.col)).collect();
        assert_eq!(places.len(), 1024);
        assert!(places.iter().all(|&(row, col)| row < grid.rows && col < grid.cols && col % 9 != 8));
        // An inference mesh of 32 × 8: two blocks of 16.
        assert_eq!(TileGrid::for_mesh(&[32, 8]), TileGrid { rows: 16, cols: 17, mesh_cols: 8, block_rows: 16 });
        // Down moves a mesh row, from a block's foot to the next block's head; up comes back.
        assert_eq!(next_tile(31 * 8 + 2, "ArrowDown", &grid, 1024), Some(32 * 8 + 2));
        assert_eq!(next_tile(32 * 8 + 2, "ArrowUp", &grid, 1024), Some(31 * 8 + 2));
        assert_eq!(next_tile(1020, "ArrowDown", &grid, 1024), None, "the mesh's last row");
    }

    #[test]
    fn long_one_d_meshes_wrap_into_a_block() {
        assert_eq!(TileGrid::for_mesh(&[1024]), TileGrid::plain(32, 32));
        assert_eq!(TileGrid::for_mesh(&[3]), TileGrid::plain(1, 3));
        assert_eq!(TileGrid::for_mesh(&[16]), TileGrid::plain(1, 16), "16 stay on a row");
        assert_eq!(TileGrid::for_mesh(&[17]), TileGrid::plain(4, 5));
        assert_eq!(TileGrid::for_mesh(&[31]), TileGrid::plain(6, 6));
    }

    #[test]
    fn node_outlines_follow_runs_of_the_same_node() {
        let grid = TileGrid::for_mesh(&[2, 8]);
        let devices: Vec<u32> = (4..20).collect();
        let runs = node_runs(&grid, &devices, 8);
        assert_eq!(
            runs,
            [
                NodeRun { node: 0, row: 0, col0: 0, col1: 4 },
                NodeRun { node: 1, row: 0, col0: 4, col1: 8 },
                NodeRun { node: 1, row: 1, col0: 0, col1: 4 },
                NodeRun { node: 2, row: 1, col0: 4, col1: 8 },
            ]
        );
    }

    #[test]
    fn a_node_over_whole_rows_is_one_block() {
        // Destination 2 × 4 on devices 8..16, 8 per node: one node over both rows.
        let grid = TileGrid::for_mesh(&[2, 4]);
        let devices: Vec<u32> = (8..16).collect();
        let blocks = node_blocks(&node_runs(&grid, &devices, 8));
        assert_eq!(blocks, [NodeBlock { node: 1, row0: 0, row1: 1, col0: 0, col1: 4 }]);
        // Nodes that split rows at different columns stay one block per run.
        let grid = TileGrid::for_mesh(&[2, 8]);
        let devices: Vec<u32> = (4..20).collect();
        assert_eq!(node_blocks(&node_runs(&grid, &devices, 8)).len(), 4);
        // Two nodes of one row each: two blocks.
        let blocks = node_blocks(&node_runs(&grid, &(0..16).collect::<Vec<u32>>(), 8));
        assert_eq!(blocks.iter().map(|b| (b.node, b.row0, b.row1)).collect::<Vec<_>>(), [(0, 0, 0), (1, 1, 1)]);
    }

    #[test]
    fn pitch_is_clamped() {
        let grid = TileGrid::for_mesh(&[32, 32]);
        assert_eq!(grid.pitch(320.0, 12.0, 64.0), 12.0);
        assert_eq!(TileGrid::for_mesh(&[3]).pitch(600.0, 12.0, 64.0), 64.0);
    }
}
