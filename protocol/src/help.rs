//! The text of the `help` command.

/// The reply to `help`: the commands, then the options as the option table
/// declares them, then the move notation.
pub fn lines() -> Vec<String> {
    use damas::options::OptionType;
    let mut lines: Vec<String> = COMMANDS.lines().map(String::from).collect();
    let names: Vec<String> = damas::options::OPTIONS
        .iter()
        .map(|decl| match decl.kind {
            OptionType::Combo(values) => format!("{} ({})", decl.name, values.join(", ")),
            _ => decl.name.to_string(),
        })
        .collect();
    lines.push("info string Options ('ugi' lists them with their defaults):".to_string());
    // Short lines, so that a terminal does not wrap them; every line but
    // the last ends with a comma.
    let chunks: Vec<String> = names.chunks(5).map(|chunk| chunk.join(", ")).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let comma = if i + 1 < chunks.len() { "," } else { "" };
        lines.push(format!("info string   {chunk}{comma}"));
    }
    lines.extend(NOTATION.lines().map(String::from));
    lines
}

const COMMANDS: &str = "\
info string Damas speaks UGI (UCI spellings accepted). Commands:
info string   ugi | uci                      identify, list options, end with ugiok/uciok
info string   isready                        answered 'readyok' at once, even while searching
info string   setoption name N value V       e.g. setoption name Game value chinese
info string   uginewgame | ucinewgame        new game (start position, p1 to move, fresh hash)
info string   position startpos [moves ...]  start position, then moves
info string   position fen TEXT [moves ...]  a position text (PDN FEN for draughts)
info string   go [depth D] [nodes N] [movetime MS] [infinite]
info string      [p1time..p6time MS] [p1inc..p6inc MS] [wtime btime winc binc] [movestogo N]
info string   stop                           end the search now; 'bestmove' follows
info string   query gameover|p1turn|result|turn|ranking|moves [cell]
info string   d                              board, position text, hash, side to move, result
info string   perft D | divide D             count move paths to depth D
info string   quit                           exit (also at end of input)
";

const NOTATION: &str = "\
info string Moves: draughts 11-15, 15x24 or 15x24x19x27 (long form); Chinese checkers
info string   a full path e1-e3-g5 or just its ends, and 'pass' or 'resign'.
info string See docs/PROTOCOL.md for the whole protocol.";
