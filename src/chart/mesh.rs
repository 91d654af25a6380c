//! The mesh view's layout: device tiles in their mesh shape, with node outlines.

/// Where one device's tile sits, in tile units (multiply by the tile pitch for pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilePosition {
    pub row: usize,
    pub col: usize,
}

/// The grid for a mesh: the last mesh dim runs across, all others down (row-major, as devices are listed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileGrid {
    pub rows: usize,
    pub cols: usize,
}

impl TileGrid {
    pub fn for_mesh(shape: &[u64]) -> TileGrid {
        let cols = shape.last().copied().unwrap_or(1).max(1) as usize;
        let total: u64 = shape.iter().product::<u64>().max(1);
        // Very wide 1-D meshes wrap into a roughly square block so they stay readable.
        if shape.len() == 1 && cols > 32 {
            let cols = (total as f64).sqrt().ceil() as usize;
            return TileGrid { rows: (total as usize).div_ceil(cols), cols };
        }
        TileGrid { rows: (total as usize).div_ceil(cols), cols }
    }
    pub fn position(&self, flat: usize) -> TilePosition {
        TilePosition { row: flat / self.cols, col: flat % self.cols }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d_meshes_keep_their_shape() {
        let grid = TileGrid::for_mesh(&[2, 4]);
        assert_eq!(grid, TileGrid { rows: 2, cols: 4 });
        assert_eq!(grid.position(5), TilePosition { row: 1, col: 1 });
        assert_eq!(TileGrid::for_mesh(&[2, 64, 8]), TileGrid { rows: 128, cols: 8 });
    }

    #[test]
    fn long_one_d_meshes_wrap_into_a_block() {
        assert_eq!(TileGrid::for_mesh(&[1024]), TileGrid { rows: 32, cols: 32 });
        assert_eq!(TileGrid::for_mesh(&[3]), TileGrid { rows: 1, cols: 3 });
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
    fn pitch_is_clamped() {
        let grid = TileGrid::for_mesh(&[32, 32]);
        assert_eq!(grid.pitch(320.0, 12.0, 64.0), 12.0);
        assert_eq!(TileGrid::for_mesh(&[3]).pitch(600.0, 12.0, 64.0), 64.0);
    }
}
