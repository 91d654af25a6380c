//! The RL cycle in the text form, so that a documentation page's `view cycle` widget shows the author's
//! cycle (it always showed the 120 s default):
//!
//! ```text
//! cycle cycle-160          # start from a preset (default: cycle-120); stage lines replace its stages and
//!                          # its refit split
//! stage generation 70      # or list the stages: NAME SECONDS [overlap S] [refit]; one named refit, or
//!                          # marked refit, is the refit
//! stage refit 50 overlap 5
//! refit wait 8 transfer 2  # how the refit's seconds split (wait, transfer, prep); the rest is transfer
//! speedup 4                # the transfer speedup s
//! view cycle
//! ```

use crate::core::cycle::{CYCLE_PRESETS, CycleSpec, RefitSplit, Stage, parse_cycle, read_number_with_unit};

/// The cycle lines of one block, gathered while the block is read; [`CycleLines::spec`] assembles them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CycleLines {
    preset: Option<&'static str>,
    stages: Vec<Stage>,
    refit: Option<RefitSplit>,
    speedup: Option<f64>,
}

/// The keywords of cycle lines; `stage` may repeat, the others appear once.
pub const CYCLE_KEYWORDS: [&str; 4] = ["cycle", "stage", "refit", "speedup"];

impl CycleLines {
    /// Whether the block said anything about the cycle.
    pub fn is_empty(&self) -> bool {
        *self == CycleLines::default()
    }

    /// Reads the rest of a cycle line after its `keyword`.
    pub fn read(&mut self, keyword: &str, rest: &str) -> Result<(), String> {
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        match keyword {
            "cycle" => {
                let names = || CYCLE_PRESETS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ");
                let (name, _, _) = CYCLE_PRESETS
                    .iter()
                    .find(|(name, _, _)| *name == rest)
                    .ok_or_else(|| format!("cycle `{rest}`: expected one of {}", names()))?;
                self.preset = Some(name);
            }
            "stage" => {
                // NAME may be several words: the seconds are the first number after it.
                let Some(at) =
                    tokens.iter().position(|t| read_number_with_unit(t, &['s'], "").is_ok()).filter(|&at| at > 0)
                else {
                    // A number written another way (`1,000`) says what is wrong with it.
                    let numeric = tokens.iter().skip(1).rev().find(|t| t.contains(|c: char| c.is_ascii_digit()));
                    return Err(match numeric.map(|t| read_number_with_unit(t, &['s'], "seconds")) {
                        Some(Err(why)) => format!("stage: {why}"),
                        _ => "stage: expected `stage NAME SECONDS [overlap S] [refit]`, e.g. `stage generation 70`"
                            .into(),
                    });
                };
                let mut stage =
                    Stage::new(tokens[..at].join(" "), read_number_with_unit(tokens[at], &['s'], "seconds")?);
                let mut rest = &tokens[at + 1..];
                loop {
                    rest = match rest {
                        [] => break,
                        ["overlap", seconds, more @ ..] => {
                            stage.overlap = read_number_with_unit(seconds, &['s'], "the seconds of overlap")?;
                            more
                        }
                        ["refit", more @ ..] => {
                            stage.refit = Some(true);
                            more
                        }
                        other => {
                            return Err(format!(
                                "stage: unexpected `{}`; expected overlap S or refit",
                                other.join(" ")
                            ));
                        }
                    };
                }
                self.stages.push(stage);
            }
            "refit" => {
                let mut split = RefitSplit::default();
                let mut given: Vec<&str> = Vec::new();
                for pair in tokens.chunks(2) {
                    let [key, value] = pair else { return Err(format!("refit: `{}` needs a value", pair[0])) };
                    let part = if *key == "preparation" { "prep" } else { key };
                    if given.contains(&part) {
                        return Err(format!("refit: `{key}` is given twice"));
                    }
                    given.push(part);
                    let seconds = read_number_with_unit(value, &['s'], "seconds")?;
                    match *key {
                        "wait" => split.wait = seconds,
                        "transfer" => split.transfer = Some(seconds),
                        "prep" | "preparation" => split.preparation = seconds,
                        other => return Err(format!("refit: unexpected `{other}`; expected wait, transfer or prep")),
                    }
                }
                self.refit = Some(split);
            }
            "speedup" => {
                self.speedup = Some(read_number_with_unit(rest, &['x', '×'], "the transfer speedup s, e.g. 4")?)
            }
            other => return Err(format!("`{other}` is not a cycle keyword")),
        }
        Ok(())
    }

    /// The cycle these lines describe: the preset's (cycle-120 unless a `cycle` line names another), its
    /// stages replaced by `stage` lines, its refit split and speedup by `refit` and `speedup` lines. Not
    /// validated here: [`CycleSpec::validate`] says what is wrong, by path.
    pub fn spec(&self) -> CycleSpec {
        let name = self.preset.unwrap_or(CYCLE_PRESETS[0].0);
        let text = CYCLE_PRESETS.iter().find(|(n, _, _)| *n == name).map_or(CYCLE_PRESETS[0].2, |p| p.2);
        let mut spec =
            parse_cycle(text).unwrap_or_else(|_| CycleSpec { stages: Vec::new(), refit: None, speedup: 4.0 });
        if !self.stages.is_empty() {
            spec.stages = self.stages.clone();
            spec.refit = None;
        }
        if let Some(split) = &self.refit {
            spec.refit = Some(split.clone());
        }
        if let Some(speedup) = self.speedup {
            spec.speedup = speedup;
        }
        spec
    }
}

/// The lines that describe `cycle` (the inverse of reading them), for exporting a cycle as a block. A stage
/// name the form cannot say (`#` starts a comment; a word that is a number would be read as the seconds) is
/// refused with the reason rather than written lossily.
pub fn cycle_lines(cycle: &CycleSpec) -> Result<Vec<String>, String> {
    let mut lines: Vec<String> = cycle
        .stages
        .iter()
        .map(|stage| {
            let words: Vec<&str> = stage.name.split_whitespace().collect();
            let said = words.join(" ");
            if words.is_empty()
                || said != stage.name
                || stage.name.contains('#')
                || words.iter().any(|w| read_number_with_unit(w, &['s'], "").is_ok())
            {
                return Err(format!(
                    "the stage name `{}` cannot be written on a `stage` line (it is empty, holds `#`, a number or \
                     spaces that are not single): rename the stage, or share the cycle by its link",
                    stage.name
                ));
            }
            let mut line = format!("stage {said} {}", stage.seconds);
            if stage.overlap != 0.0 {
                line.push_str(&format!(" overlap {}", stage.overlap));
            }
            if stage.refit == Some(true) {
                line.push_str(" refit");
            }
            Ok(line)
        })
        .collect::<Result<_, String>>()?;
    if let Some(split) = &cycle.refit {
        let mut line = String::from("refit");
        if split.wait != 0.0 {
            line.push_str(&format!(" wait {}", split.wait));
        }
        if let Some(transfer) = split.transfer {
            line.push_str(&format!(" transfer {transfer}"));
        }
        if split.preparation != 0.0 {
            line.push_str(&format!(" prep {}", split.preparation));
        }
        if line != "refit" {
            lines.push(line);
        }
    }
    lines.push(format!("speedup {}", cycle.speedup));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[(&str, &str)]) -> Result<CycleSpec, String> {
        let mut cycle = CycleLines::default();
        for (keyword, rest) in lines {
            cycle.read(keyword, rest)?;
        }
        Ok(cycle.spec())
    }

    #[test]
    fn the_article_s_second_cycle_from_stage_lines_gives_its_numbers() {
        let spec = read(&[
            ("stage", "generation 70"),
            ("stage", "scoring 10s"),
            ("stage", "training 30"),
            ("stage", "refit 50"),
            ("speedup", "4x"),
        ])
        .unwrap();
        let report = spec.report().unwrap();
        assert_eq!(report.after.cycle_seconds, 122.5);
        assert_eq!(report.before.cycle_seconds, 160.0);
    }

    #[test]
    fn a_preset_line_then_a_speedup_line_change_only_the_speedup() {
        let spec = read(&[("cycle", "cycle-160"), ("speedup", "8")]).unwrap();
        let preset = parse_cycle(CYCLE_PRESETS[1].2).unwrap();
        assert_eq!(spec.stages, preset.stages);
        assert_eq!(spec.speedup, 8.0);
        assert_eq!(read(&[]).unwrap(), parse_cycle(CYCLE_PRESETS[0].2).unwrap(), "cycle-120 by default");
    }

    #[test]
    fn names_overlaps_and_refit_parts_are_read() {
        let spec = read(&[
            ("stage", "weights arrive 10"),
            ("stage", "generation 70 overlap 5"),
            ("stage", "weight sync 10 refit"),
            ("refit", "wait 6 prep 1"),
        ])
        .unwrap();
        assert_eq!(spec.stages[2].name, "weight sync");
        assert_eq!(spec.refit_index(), Some(2), "marked as the refit");
        assert_eq!(spec.stages[0].name, "weights arrive");
        assert_eq!(spec.stages[1].overlap, 5.0);
        assert_eq!(spec.refit, Some(RefitSplit { wait: 6.0, transfer: None, preparation: 1.0 }));
    }

    #[test]
    fn bad_cycle_lines_say_what_was_expected() {
        let error = |keyword: &str, rest: &str| CycleLines::default().read(keyword, rest).unwrap_err();
        assert!(
            error("cycle", "cycle-99").contains("expected one of cycle-120, cycle-160"),
            "{}",
            error("cycle", "cycle-99")
        );
        assert!(error("stage", "generation").starts_with("stage: expected `stage NAME SECONDS"));
        assert!(error("stage", "70").starts_with("stage: expected"), "a stage needs a name");
        assert!(error("stage", "generation 70 overlapp 5").contains("unexpected `overlapp 5`"));
        assert!(error("stage", "generation 70 overlap").contains("unexpected `overlap`"));
        assert!(error("refit", "wait").contains("`wait` needs a value"));
        assert!(error("refit", "queue 3").contains("expected wait, transfer or prep"));
        assert!(error("speedup", "fast").contains("is not a number"));
        assert!(error("speedup", "x").contains("\"x\" is not a number"), "{}", error("speedup", "x"));
        assert!(error("stage", "refit 1,000").contains("no thousands separators"), "{}", error("stage", "refit 1,000"));
        assert_eq!(error("refit", "wait 2 prep 1 wait 1"), "refit: `wait` is given twice");
    }

    #[test]
    fn stage_names_the_form_cannot_say_are_refused() {
        let mut spec = parse_cycle(CYCLE_PRESETS[0].2).unwrap();
        spec.stages[0].name = "gen 2".into();
        assert!(cycle_lines(&spec).unwrap_err().contains("`gen 2`"));
        // The advice names what the app offers (there is no cycle JSON export).
        assert!(cycle_lines(&spec).unwrap_err().ends_with("rename the stage, or share the cycle by its link"));
        spec.stages[0].name = "gen #2".into();
        assert!(cycle_lines(&spec).is_err());
        for name in ["weight  sync", " lead", ""] {
            spec.stages[0].name = name.into();
            assert!(cycle_lines(&spec).is_err(), "`{name}` would come back as another name");
        }
    }

    #[test]
    fn every_cycle_preset_survives_lines_and_back() {
        for (name, _, text) in CYCLE_PRESETS {
            let spec = parse_cycle(text).unwrap();
            let mut marked = spec.clone();
            marked.stages[0].refit = Some(true);
            marked.stages[0].name = "weights".into();
            for spec in [spec, marked] {
                let mut cycle = CycleLines::default();
                for line in cycle_lines(&spec).unwrap() {
                    let (keyword, rest) = line.split_once(' ').unwrap();
                    cycle.read(keyword, rest).unwrap();
                }
                assert_eq!(cycle.spec(), spec, "{name}");
            }
        }
    }
}
