//! Placements (DTensor's `Shard`, `Replicate`, `Partial`) and their spellings, one per mesh dim.

use serde::{Deserialize, Serialize};

/// What one mesh dim does to the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Placement {
    /// The tensor dim is split across this mesh dim.
    Shard(usize),
    /// PyTorch's `_StridedShard(dim, split_factor)`: a shard of `dim` applied *after* the shards of the same
    /// dim on later mesh dims, whose sizes multiply to `split_factor` (the order FSDP2 + TP produce).
    StridedShard { dim: usize, split_factor: u64 },
    /// Every device along this mesh dim holds the same values.
    Replicate,
    /// Every device along this mesh dim holds a partial value; the true value is their sum. Source only.
    Partial,
}

impl Placement {
    /// The tensor dim this placement splits, if it splits one.
    pub fn shard_dim(self) -> Option<usize> {
        match self {
            Placement::Shard(d) | Placement::StridedShard { dim: d, .. } => Some(d),
            _ => None,
        }
    }

    /// Parses one placement in any accepted spelling: `Shard(dim=0)`, `Shard(0)`, `S(0)`, `S0`,
    /// `Replicate()`, `R`, `Partial()`, `Partial(sum)`, `P`, and `_StridedShard(dim=0, split_factor=4)` /
    /// `SS0x4`. The error says what was expected. A negative dim is refused: it needs the tensor's rank
    /// ([`Placement::parse_for_rank`]).
    pub fn parse(text: &str) -> Result<Placement, String> {
        Placement::parse_for_rank(text, None)
    }

    /// [`Placement::parse`] for a tensor of `rank` dims, if known: a negative dim counts back from the
    /// last, as DTensor's `distribute_tensor` reads it (`Shard(-1)` of a rank-2 tensor is `Shard(1)`).
    pub fn parse_for_rank(text: &str, rank: Option<usize>) -> Result<Placement, String> {
        let parse_dim = |d: &str| parse_dim(d, rank);
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let expected = || {
            format!(
                "`{}` is not a placement; expected Shard(d), S(d), Replicate(), R, Partial(), P or \
                 _StridedShard(dim=d, split_factor=k) / SSdxk with k ≥ 1",
                text.trim()
            )
        };
        let (name, args) = match t.find('(') {
            Some(open) => {
                if !t.ends_with(')') {
                    // `alert(1)</script>`: closed, with more after it. Only a `(` never closed is unclosed.
                    return Err(if t[open..].contains(')') {
                        expected()
                    } else {
                        format!("`{}` has an unclosed parenthesis", text.trim())
                    });
                }
                (&t[..open], &t[open + 1..t.len() - 1])
            }
            None => (t.as_str(), ""),
        };
        let lower = name.to_ascii_lowercase();
        let lower = lower.trim_start_matches("torch.distributed.tensor.").trim_start_matches("placement.");
        match lower {
            "shard" | "s" => {
                if args.is_empty() && lower == "s" && t.len() > 1 {
                    return Err(expected());
                }
                // `Shard(dim=0, foo=1)` was told its dim "must be a whole number".
                if args.contains(',') {
                    return Err(format!("`{}`: Shard takes one argument, the tensor dim it splits", text.trim()));
                }
                let d = args.strip_prefix("dim=").unwrap_or(args);
                parse_dim(d).map(Placement::Shard).ok_or_else(|| shard_dim_problem(text.trim(), d, rank))
            }
            "replicate" | "r" if args.is_empty() => Ok(Placement::Replicate),
            "partial" | "p"
                if args.is_empty()
                    || args == "sum"
                    || args == "reduce_op=sum"
                    || args == "'sum'"
                    || args == "\"sum\"" =>
            {
                Ok(Placement::Partial)
            }
            "partial" | "p" => Err(format!("`{}`: only Partial(sum) is supported", text.trim())),
            "_stridedshard" | "stridedshard" | "ss" => {
                let mut dim = None;
                let mut split = None;
                for (i, part) in args.split(',').enumerate() {
                    let (key, value) =
                        part.split_once('=').unwrap_or(if i == 0 { ("dim", part) } else { ("split_factor", part) });
                    match key {
                        "dim" => dim = parse_dim(value),
                        "split_factor" => split = value.parse::<u64>().ok().filter(|&k| k > 0),
                        _ => return Err(expected()),
                    }
                }
                match (dim, split) {
                    (Some(dim), Some(split_factor)) => Ok(Placement::StridedShard { dim, split_factor }),
                    (Some(_), None) => {
                        Err(format!("`{}`: split_factor must be a whole number of at least 1", text.trim()))
                    }
                    (None, _) if dim_text(args).is_some_and(|d| d.starts_with('-')) => {
                        Err(shard_dim_problem(text.trim(), dim_text(args).unwrap_or_default(), rank))
                    }
                    _ => Err(format!("`{}`: expected _StridedShard(dim=d, split_factor=k)", text.trim())),
                }
            }
            _ => {
                // Compact spellings without parentheses: S0, SS0x4.
                if let Some((d, k)) = lower.strip_prefix("ss").and_then(|rest| rest.split_once('x'))
                    && let (Some(dim), Ok(split_factor)) = (parse_dim(d), k.parse::<u64>())
                    && split_factor > 0
                {
                    return Ok(Placement::StridedShard { dim, split_factor });
                }
                if !lower.starts_with("ss")
                    && let Some(dim) = lower.strip_prefix('s').and_then(parse_dim)
                {
                    return Ok(Placement::Shard(dim));
                }
                match nearest_placement(lower) {
                    // A typo's answer is the name meant, short enough for a narrow column (the whole list
                    // of spellings took nine lines of one there).
                    Some(near) => {
                        let args = if matches!(near, "Replicate" | "Partial") { "" } else { args };
                        Err(format!("`{}` is not a placement; did you mean {near}({args})?", text.trim()))
                    }
                    None => Err(expected()),
                }
            }
        }
    }

    /// The short spelling: `S(0)`, `R`, `P`, `SS(0,4)`.
    pub fn short(self) -> String {
        match self {
            Placement::Shard(d) => format!("S({d})"),
            Placement::StridedShard { dim, split_factor } => format!("SS({dim},{split_factor})"),
            Placement::Replicate => "R".into(),
            Placement::Partial => "P".into(),
        }
    }

    /// DTensor's spelling: `Shard(dim=0)`, `Replicate()`, `Partial(sum)`.
    pub fn dtensor(self) -> String {
        match self {
            Placement::Shard(d) => format!("Shard(dim={d})"),
            Placement::StridedShard { dim, split_factor } => {
                format!("_StridedShard(dim={dim}, split_factor={split_factor})")
            }
            Placement::Replicate => "Replicate()".into(),
            Placement::Partial => "Partial(sum)".into(),
        }
    }
}

/// The placement a misspelt name (`shrd`, `replicte`, lower case) was meant to be: the nearest by edits
/// (a swap of neighbours counts one), at most 2 away, of names at least 4 letters long.
fn nearest_placement(lower: &str) -> Option<&'static str> {
    if lower.chars().count() < 4 {
        return None;
    }
    [("shard", "Shard"), ("replicate", "Replicate"), ("partial", "Partial"), ("_stridedshard", "_StridedShard")]
        .into_iter()
        .map(|(spelling, name)| (strsim::osa_distance(lower, spelling), name))
        .filter(|&(distance, _)| distance <= 2)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// A dim written in a placement: `0`, or with the tensor's `rank` known, `-1` for its last dim.
fn parse_dim(text: &str, rank: Option<usize>) -> Option<usize> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: usize = digits.parse().ok()?;
    match (negative, rank) {
        (false, _) => Some(value),
        (true, Some(rank)) if (1..=rank).contains(&value) => Some(rank - value),
        (true, _) => None,
    }
}

/// The dim of `_StridedShard(dim, split_factor)`'s arguments, as written.
fn dim_text(args: &str) -> Option<&str> {
    let first = args.split(',').next()?;
    Some(first.strip_prefix("dim=").unwrap_or(first))
}

/// Why the shard dim `dim` of `placement` was refused.
fn shard_dim_problem(placement: &str, dim: &str, rank: Option<usize>) -> String {
    // Any count of digits: `-9223372036854775808` was told to be a whole number.
    let negative = dim
        .strip_prefix('-')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && d.bytes().any(|b| b != b'0'));
    // All digits, yet not read: larger than any tensor has dims.
    let too_large = !dim.is_empty() && dim.bytes().all(|b| b.is_ascii_digit());
    let dims = |rank: usize| format!("{rank} dim{}", if rank == 1 { "" } else { "s" });
    match (negative, rank) {
        (false, Some(rank)) if too_large => {
            format!("`{placement}`: dim {dim} is too large; the tensor has {}", dims(rank))
        }
        (false, None) if too_large => {
            format!("`{placement}`: dim {dim} is too large; a tensor has at most {}", dims(super::geometry::MAX_RANK))
        }
        (false, _) if dim.is_empty() => {
            format!("`{placement}`: which tensor dim? Write it in parentheses: Shard(0) for the first")
        }
        (false, _) => format!("`{placement}`: the shard dim must be a whole number (0 for the first tensor dim)"),
        (true, Some(rank)) => format!(
            "`{placement}`: a negative dim counts back from the last tensor dim (-1 is the last), and the tensor \
             has {}",
            dims(rank)
        ),
        (true, None) => format!(
            "`{placement}`: a negative dim counts back from the last tensor dim; here write it from 0 (Shard(1) \
             is the last dim of a rank-2 tensor)"
        ),
    }
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.short())
    }
}

impl From<Placement> for String {
    fn from(p: Placement) -> String {
        p.short()
    }
}

impl TryFrom<String> for Placement {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Placement::parse(&text)
    }
}

/// One side's layout written as text, as a user pastes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutText {
    /// DTensor notation: one placement per mesh dim, `[Shard(0), Replicate()]`.
    Placements(Vec<Placement>),
    /// JAX notation: one entry per tensor dim naming the mesh axes that split it, `P('tp', None)`;
    /// an entry with several axes (`('dp', 'tp')`) shards that dim over them in that order.
    PartitionSpec(Vec<Vec<String>>),
}

/// Parses a layout in DTensor notation (`[Shard(0), Replicate()]`, `(S(0), R)`, `S(0) R`) or JAX notation
/// (`P('tp', None)`, `PartitionSpec(('dp','tp'), None)`). Negative shard dims are refused; see
/// [`parse_layout_text_for_rank`].
pub fn parse_layout_text(text: &str) -> Result<LayoutText, String> {
    parse_layout_text_for_rank(text, None)
}

/// Whether `c` draws nothing and is not a space: a control character, or a format character such as a
/// zero-width space, a direction mark or a byte order mark.
fn invisible(c: char) -> bool {
    (c.is_control() && !c.is_whitespace())
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}')
        || matches!(c, '\u{061C}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// [`parse_layout_text`] for a tensor of `rank` dims, if known: `[Shard(-1)]` is its last dim, as in
/// DTensor, and is read as that dim's number.
pub fn parse_layout_text_for_rank(text: &str, rank: Option<usize>) -> Result<LayoutText, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty layout: expected e.g. [Shard(0), Replicate()] or P('tp', None)".into());
    }
    // A character that draws nothing (pasted from a web page or a chat: a zero-width space, a direction
    // mark) was refused as "`Shard(0)` is not a placement; did you mean Shard(0)?".
    if let Some((at, c)) = t.chars().enumerate().find(|&(_, c)| invisible(c)) {
        return Err(format!(
            "the layout holds an invisible character (U+{:04X}) at character {}: type it again without it",
            c as u32,
            at + 1
        ));
    }
    // Before either notation: `P('tp'))` read as a partition spec whose axis was `'tp')`.
    unbalanced(t)?;
    text_after_the_end(t)?;
    // In any case, as the placements are read (`p('tp', None)` was read as a Partial with arguments).
    let jax = ["partitionspec(", "p(", "jax.sharding.partitionspec("]
        .iter()
        .find_map(|p| t.get(..p.len()).filter(|head| head.eq_ignore_ascii_case(p)).map(|_| &t[p.len()..]));
    if let Some(rest) = jax {
        let inner = rest.strip_suffix(')').ok_or("JAX partition spec: missing the closing `)`")?;
        return parse_partition_spec(inner).map(LayoutText::PartitionSpec);
    }
    let inner = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .or_else(|| t.strip_prefix('(').and_then(|r| r.strip_suffix(')')))
        .unwrap_or(t);
    let mut placements = Vec::new();
    let items = split_top_level(inner, true);
    for (i, item) in items.iter().enumerate() {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        // `shard 0`, as a newcomer writes it, was told its dim "must be a whole number" (review 39).
        if let Some(dim) = items.get(i + 1).map(|d| d.trim())
            && matches!(item.to_ascii_lowercase().as_str(), "shard" | "s")
            && !dim.is_empty()
            && dim.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())
        {
            return Err(format!("placement {i}: `{item} {dim}`: write the dim in parentheses, Shard({dim})"));
        }
        placements.push(Placement::parse_for_rank(item, rank).map_err(|e| format!("placement {i}: {e}"))?);
    }
    if placements.is_empty() {
        return Err("no placements: expected one per mesh dim, e.g. [Shard(0), Replicate()]".into());
    }
    Ok(LayoutText::Placements(placements))
}

/// A word on how a layout text that parses was read, where a reader of the other notation would read it
/// otherwise: `P()` is JAX's empty PartitionSpec (every tensor dim whole on every device), while DTensor's
/// `P` is Partial (a reviewer typed `P()` for Partial and got Replicate without a word, review 37).
pub fn reading_note(text: &str) -> Option<&'static str> {
    let bare: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    matches!(bare.as_str(), "P()" | "PartitionSpec()").then_some(
        "Read as JAX's empty PartitionSpec: every tensor dim is replicated. For DTensor's Partial, write [Partial()].",
    )
}

/// Says where the brackets of a layout text (DTensor's or JAX's) do not pair up: `[Shard(0)]]` has an extra `]` (it read
/// as a placement with an unclosed parenthesis), `[Shard(0)` a `[` never closed (it read as no placement).
/// Positions count characters from 1.
fn unbalanced(text: &str) -> Result<(), String> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for (at, c) in text.chars().enumerate() {
        let at = at + 1;
        match c {
            '(' | '[' => open.push((c, at)),
            ')' | ']' => match open.pop() {
                None => return Err(format!("an extra `{c}` at character {at}: nothing before it opens one")),
                Some((o, from)) if (o == '(') != (c == ')') => {
                    return Err(format!("`{o}` at character {from} is closed by `{c}` at character {at}"));
                }
                Some(_) => {}
            },
            _ => {}
        }
    }
    match open.last() {
        Some((o, from)) => {
            let close = if *o == '(' { ')' } else { ']' };
            Err(format!("`{o}` at character {from} is never closed: add a `{close}`"))
        }
        None => Ok(()),
    }
}

/// Refuses text after the bracket that closes a layout opened by a bracket or `P(`: `[Shard(0)] garbage`
/// blamed placement 0 (`[Shard(0)] garbage` is not a placement), and `P('tp', None)  # comment` was missing
/// a closing `)` that was there. Brackets pair up (checked first).
fn text_after_the_end(text: &str) -> Result<(), String> {
    let opens_at = match text.chars().next() {
        Some('[' | '(') => 0,
        _ => match text.find('(') {
            Some(at) if ["PartitionSpec", "P", "jax.sharding.PartitionSpec"].contains(&&text[..at]) => at,
            _ => return Ok(()),
        },
    };
    let mut depth = 0usize;
    for (at, c) in text.char_indices().skip_while(|&(at, _)| at < opens_at) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 {
            let rest = text[at + c.len_utf8()..].trim();
            if rest.is_empty() {
                return Ok(());
            }
            let shown: String = rest.chars().take(40).collect();
            let more = if rest.chars().count() > 40 { "…" } else { "" };
            return Err(format!(
                "text after the layout's closing `{c}`: `{shown}{more}`; a layout ends at its last bracket"
            ));
        }
    }
    Ok(())
}

/// Splits on commas (and, if asked, whitespace) that are outside parentheses. Whitespace before a `(` is
/// no split: `Shard ( 0 )` is one placement (split, `Shard` was refused for a shard dim it never had).
fn split_top_level(text: &str, on_whitespace: bool) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for (at, c) in text.char_indices() {
        let opens_next = || text[at..].trim_start().starts_with('(');
        match c {
            '(' | '[' => {
                depth += 1;
                current.push(c)
            }
            ')' | ']' => {
                depth -= 1;
                current.push(c)
            }
            ',' if depth == 0 => items.push(std::mem::take(&mut current)),
            c if on_whitespace && c.is_whitespace() && depth == 0 => {
                if !current.trim().is_empty() && !current.trim_end().ends_with('=') && !opens_next() {
                    items.push(std::mem::take(&mut current))
                }
            }
            c => current.push(c),
        }
    }
    items.push(current);
    items.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

fn parse_partition_spec(inner: &str) -> Result<Vec<Vec<String>>, String> {
    let mut dims = Vec::new();
    for (i, item) in split_top_level(inner, false).into_iter().enumerate() {
        let item = item.trim();
        let names = if let Some(group) = item.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            group
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| axis_name(s, i))
                .collect::<Result<Vec<_>, _>>()?
        } else if item == "None" || item == "null" {
            Vec::new()
        } else {
            vec![axis_name(item, i)?]
        };
        dims.push(names);
    }
    Ok(dims)
}

fn axis_name(item: &str, index: usize) -> Result<String, String> {
    let unquoted = item.trim_matches(|c| c == '\'' || c == '"');
    // Any name a mesh dim may have (the cards take any), but not a separator, a quote or a space: which
    // names the mesh has is asked later. (Not `char::is_alphanumeric`: its Unicode tables weigh in the app.)
    let part_of_a_name = |c: char| !c.is_whitespace() && !"()[]{},;:='\"".contains(c);
    if unquoted.is_empty() || !unquoted.chars().all(part_of_a_name) {
        return Err(format!("tensor dim {index}: `{item}` is not a mesh axis name (expected e.g. 'tp' or None)"));
    }
    Ok(unquoted.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_partition_spec_is_said_to_replicate_and_partial_is_not_noted() {
        // Read as JAX: replicated on every mesh dim.
        assert_eq!(parse_layout_text(" P( ) "), Ok(LayoutText::PartitionSpec(vec![])));
        assert!(reading_note(" P( ) ").is_some_and(|note| note.contains("replicated") && note.contains("[Partial()]")));
        assert!(reading_note("PartitionSpec()").is_some());
        // DTensor's Partial, and JAX specs that name an axis, need no word.
        assert_eq!(parse_layout_text("[P()]"), Ok(LayoutText::Placements(vec![Placement::Partial])));
        for text in ["[P()]", "P", "Partial()", "P('tp')", "P(None)"] {
            assert_eq!(reading_note(text), None, "{text}");
        }
    }

    #[test]
    fn spaces_before_a_parenthesis_keep_the_placement_whole() {
        // Split at the space, `Shard` was refused for a shard dim it was never given (review 34).
        let placements = |text: &str| match parse_layout_text(text) {
            Ok(LayoutText::Placements(p)) => p,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(placements("  [ Shard ( 0 ) ]  "), [Placement::Shard(0)]);
        assert_eq!(placements("[Shard (0), Replicate ()]"), [Placement::Shard(0), Placement::Replicate]);
        assert_eq!(placements("S(0) R"), [Placement::Shard(0), Placement::Replicate], "still space-separated");
        let odd = parse_layout_text("R (S(1))").unwrap_err();
        assert!(odd.starts_with("placement 0: `R(S(1))` is not a placement"), "one item, however odd: {odd}");
    }

    #[test]
    fn brackets_that_do_not_pair_up_are_named_where_they_are() {
        let message = |text: &str| parse_layout_text(text).err().unwrap_or_default();
        assert_eq!(message("[Shard(0)]]"), "an extra `]` at character 11: nothing before it opens one");
        assert_eq!(message("[Shard(0)"), "`[` at character 1 is never closed: add a `]`");
        assert_eq!(message("[Shard(0], R]"), "`(` at character 7 is closed by `]` at character 9");
        assert_eq!(message("P('tp'))"), "an extra `)` at character 8: nothing before it opens one");
        assert_eq!(message("P(('dp', 'tp'), None"), "`(` at character 2 is never closed: add a `)`");
        assert!(parse_layout_text("P(('dp', 'tp'), None)").is_ok());
        assert!(
            message("<script>alert(1)</script>").contains("is not a placement"),
            "{}",
            message("<script>alert(1)</script>")
        );
        assert!(parse_layout_text("[Shard(0), Replicate()]").is_ok());
        assert!(parse_layout_text("S(0) R").is_ok());
        assert!(parse_layout_text("(S(0), R)").is_ok());
        assert_eq!(
            message("[Shard(0)] garbage"),
            "text after the layout's closing `]`: `garbage`; a layout ends at its last bracket"
        );
        assert_eq!(
            message("P('tp', None)  # comment"),
            "text after the layout's closing `)`: `# comment`; a layout ends at its last bracket"
        );
        assert!(parse_layout_text("  P('tp', None)  ").is_ok());
        assert!(parse_layout_text("jax.sharding.PartitionSpec('tp')").is_ok());
        assert_eq!(
            message("[S(-9223372036854775808)]"),
            "placement 0: `S(-9223372036854775808)`: a negative dim counts back from the last tensor dim; here write \
             it from 0 (Shard(1) is the last dim of a rank-2 tensor)"
        );
        assert_eq!(
            message("[_StridedShard(dim=0, split_factor=0)]"),
            "placement 0: `_StridedShard(dim=0, split_factor=0)`: split_factor must be a whole number of at least 1"
        );
    }

    #[test]
    fn a_negative_shard_dim_counts_back_from_the_last_when_the_rank_is_known() {
        // DTensor's distribute_tensor reads Shard(-1) as the last dim; tensor-parallel plans write it so.
        for (text, rank, want) in [
            ("Shard(-1)", 2, Placement::Shard(1)),
            ("Shard(dim=-2)", 2, Placement::Shard(0)),
            ("S(-1)", 3, Placement::Shard(2)),
            ("S-1", 1, Placement::Shard(0)),
            ("_StridedShard(dim=-1, split_factor=2)", 2, Placement::StridedShard { dim: 1, split_factor: 2 }),
            ("Shard(0)", 2, Placement::Shard(0)),
        ] {
            assert_eq!(Placement::parse_for_rank(text, Some(rank)), Ok(want), "{text} of rank {rank}");
        }
        assert_eq!(
            parse_layout_text_for_rank("[Shard(-1), Replicate()]", Some(2)),
            Ok(LayoutText::Placements(vec![Placement::Shard(1), Placement::Replicate]))
        );
        // Past the first dim, or without a rank: said, not guessed.
        let refused = Placement::parse_for_rank("Shard(-3)", Some(2)).unwrap_err();
        assert!(refused.contains("the tensor has 2 dims"), "{refused}");
        let refused = Placement::parse("Shard(-1)").unwrap_err();
        assert!(refused.contains("write it from 0"), "{refused}");
        let refused = Placement::parse("_StridedShard(dim=-1, split_factor=2)").unwrap_err();
        assert!(refused.contains("counts back from the last"), "{refused}");
        assert!(Placement::parse_for_rank("Shard(-0)", Some(2)).is_err());
        // A misspelt name is answered with the one meant; a word far from any with the list of spellings.
        assert_eq!(Placement::parse("Shrd(0)").unwrap_err(), "`Shrd(0)` is not a placement; did you mean Shard(0)?");
        assert_eq!(
            Placement::parse("replicte()").unwrap_err(),
            "`replicte()` is not a placement; did you mean Replicate()?"
        );
        assert!(Placement::parse("Partail(sum)").unwrap_err().ends_with("did you mean Partial()?"));
        assert!(Placement::parse("Sharding(0)").unwrap_err().contains("expected Shard(d), S(d)"));
        assert!(Placement::parse("Foo(0)").unwrap_err().contains("expected Shard(d), S(d)"));
        // A whole number too long to be a dim is too large, not "not a whole number".
        assert_eq!(
            Placement::parse_for_rank("Shard(99999999999999999999)", Some(2)).unwrap_err(),
            "`Shard(99999999999999999999)`: dim 99999999999999999999 is too large; the tensor has 2 dims"
        );
        assert!(Placement::parse("Shard(1234567)").unwrap_err().contains("at most 8 dims"));
        assert!(Placement::parse("Shard(x)").unwrap_err().contains("must be a whole number"));
        // An argument too many is said as such, not as a dim that is not a number (review 48).
        assert_eq!(
            Placement::parse("Shard(dim=0, foo=1)").unwrap_err(),
            "`Shard(dim=0, foo=1)`: Shard takes one argument, the tensor dim it splits"
        );
        // JAX's P in lower case, as the placements are read (it was read as a Partial with arguments).
        assert_eq!(
            parse_layout_text("p('tp', None)"),
            Ok(LayoutText::PartitionSpec(vec![vec!["tp".to_string()], vec![]]))
        );
        assert_eq!(parse_layout_text("partitionspec(None)"), Ok(LayoutText::PartitionSpec(vec![vec![]])));
        // An axis is named as the mesh's dims may be, in any script; not with a space or a separator in it.
        assert_eq!(
            parse_layout_text("P('τ', None)"),
            Ok(LayoutText::PartitionSpec(vec![vec!["τ".to_string()], vec![]]))
        );
        assert!(parse_layout_text("P('t p', None)").unwrap_err().contains("is not a mesh axis name"));
        assert!(parse_layout_text("P('tp=1')").unwrap_err().contains("is not a mesh axis name"));
        // A character that draws nothing is named, where it stands (it read as a placement misspelt as itself).
        assert_eq!(
            parse_layout_text("[\u{202E}Shard(0)]").unwrap_err(),
            "the layout holds an invisible character (U+202E) at character 2: type it again without it"
        );
        assert!(parse_layout_text("[Shard(0),\u{200B} R]").unwrap_err().contains("U+200B"));
        assert!(parse_layout_text("[Shard(0),\n\t R]").is_ok(), "spaces, tabs and new lines are not invisible");
        assert!(Placement::parse_for_rank("Shard(--1)", Some(2)).unwrap_err().contains("whole number"));
        // A name with its dim apart, as a newcomer writes it, is told how to write it (review 39).
        assert_eq!(
            parse_layout_text("shard 0").unwrap_err(),
            "placement 0: `shard 0`: write the dim in parentheses, Shard(0)"
        );
        assert_eq!(
            parse_layout_text("[R, S 1]").unwrap_err(),
            "placement 1: `S 1`: write the dim in parentheses, Shard(1)"
        );
        assert_eq!(
            parse_layout_text("Shard").unwrap_err(),
            "placement 0: `Shard`: which tensor dim? Write it in parentheses: Shard(0) for the first"
        );
        assert!(matches!(parse_layout_text("S (0) R"), Ok(LayoutText::Placements(p)) if p.len() == 2));
    }

    #[test]
    fn every_documented_spelling_parses() {
        for (text, want) in [
            ("Shard(dim=0)", Placement::Shard(0)),
            ("Shard(1)", Placement::Shard(1)),
            ("S(0)", Placement::Shard(0)),
            ("S1", Placement::Shard(1)),
            (" shard( dim = 2 ) ", Placement::Shard(2)),
            ("Replicate()", Placement::Replicate),
            ("R", Placement::Replicate),
            ("Partial()", Placement::Partial),
            ("Partial(sum)", Placement::Partial),
            ("P", Placement::Partial),
            ("_StridedShard(dim=0, split_factor=4)", Placement::StridedShard { dim: 0, split_factor: 4 }),
            ("SS0x4", Placement::StridedShard { dim: 0, split_factor: 4 }),
        ] {
            assert_eq!(Placement::parse(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn bad_spellings_say_what_was_expected() {
        for text in ["Shard(-1)", "Shard()", "Q", "Partial(max)", "Shard(0", "S(x)", ""] {
            assert!(Placement::parse(text).is_err(), "{text} should not parse");
        }
        assert!(Placement::parse("Partial(max)").unwrap_err().contains("only Partial(sum)"));
    }

    #[test]
    fn spellings_round_trip() {
        for p in [
            Placement::Shard(3),
            Placement::Replicate,
            Placement::Partial,
            Placement::StridedShard { dim: 1, split_factor: 2 },
        ] {
            assert_eq!(Placement::parse(&p.short()), Ok(p));
            assert_eq!(Placement::parse(&p.dtensor()), Ok(p));
        }
    }

    #[test]
    fn layout_text_reads_dtensor_and_jax() {
        assert_eq!(
            parse_layout_text("[Shard(0), Replicate()]"),
            Ok(LayoutText::Placements(vec![Placement::Shard(0), Placement::Replicate]))
        );
        assert_eq!(
            parse_layout_text("S(0) R"),
            Ok(LayoutText::Placements(vec![Placement::Shard(0), Placement::Replicate]))
        );
        assert_eq!(parse_layout_text("P('tp', None)"), Ok(LayoutText::PartitionSpec(vec![vec!["tp".into()], vec![]])));
        assert_eq!(
            parse_layout_text("PartitionSpec(('dp', 'tp'), None)"),
            Ok(LayoutText::PartitionSpec(vec![vec!["dp".into(), "tp".into()], vec![]]))
        );
        assert!(parse_layout_text("[Shard(0), Bogus]").unwrap_err().contains("placement 1"));
        assert!(parse_layout_text("P('t p')").is_err());
        assert!(parse_layout_text("").is_err());
    }
}
