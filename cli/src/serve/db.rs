//! The server's storage: groups, games and every turn of them in one
//! SQLite file (`--data PATH`; rusqlite with its bundled SQLite, so there
//! is nothing to install). A game's settings and seats are one JSON record
//! rewritten on each change; its turns are rows appended as they are
//! played, so a move costs one small write. A file that is not ours, or is
//! damaged, is refused at startup and never written (docs/SERVE.md,
//! "Storage").

use std::net::IpAddr;
use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

/// `PRAGMA application_id` of the server's files ("Dama"), so that
/// another program's SQLite file is recognised and left alone.
const APPLICATION_ID: i64 = 0x4461_6d61;
/// `PRAGMA user_version`: the layout of the tables below.
const LAYOUT: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE groups (
    id INTEGER PRIMARY KEY,
    client TEXT NOT NULL,
    record TEXT NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    client TEXT NOT NULL,
    record TEXT NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE turns (
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
";

/// A storage error, for the answer's message.
pub type DbError = rusqlite::Error;

/// A row of groups or games as read at startup.
pub struct StoredRow {
    pub id: u64,
    pub client: IpAddr,
    pub record: String,
    /// Seconds since it last changed.
    pub idle_secs: u64,
}

/// What the file holds: the groups, and the games with their turns.
pub struct Stored {
    pub groups: Vec<StoredRow>,
    pub games: Vec<(StoredRow, Vec<StoredTurn>)>,
}

/// One stored turn: who took it and its text.
pub struct StoredTurn {
    pub player: usize,
    pub text: String,
}

/// The open file. Writes are serialised behind the lock; each is one
/// transaction, on disk (in the write-ahead log) before it returns.
pub struct Db {
    connection: Mutex<Connection>,
}

/// The connection, even if a thread panicked while holding it: each write
/// is a transaction, so the file is consistent between them.
fn lock(connection: &Mutex<Connection>) -> std::sync::MutexGuard<'_, Connection> {
    connection
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Seconds since the Unix epoch, now.
fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Ids are `u64` on the wire and `i64` in SQLite: the same 64 bits.
fn key(id: u64) -> i64 {
    id as i64
}

impl Db {
    /// Opens `path`, made with the tables when missing or empty. A file
    /// that is not one of ours, of another layout, damaged, or in use by
    /// another server is refused with one line, and left as it was.
    ///
    /// # Errors
    ///
    /// The line to print, naming the file and why.
    pub fn open(path: &Path) -> Result<Db, String> {
        let shown = path.display();
        let existing = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags)
            .map_err(|e| format!("cannot open the data file {shown}: {e}"))?;
        // One server a file: the lock is held from the first read on, so a
        // second server is refused rather than writing over the first.
        connection
            .pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(|e| format!("cannot open the data file {shown}: {e}"))?;
        if existing {
            check(&connection).map_err(|why| {
                format!(
                    "the data file {shown} {why}; it was left as it is (give another --data file)"
                )
            })?;
        } else {
            create(&connection).map_err(|e| format!("cannot make the data file {shown}: {e}"))?;
        }
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .and_then(|()| connection.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| connection.pragma_update(None, "journal_size_limit", 4_194_304))
            .map_err(|e| format!("cannot use the data file {shown}: {e}"))?;
        Ok(Db {
            connection: Mutex::new(connection),
        })
    }

    /// Every group and game stored, and each game's turns in order.
    ///
    /// # Errors
    ///
    /// A read that failed.
    pub fn load(&self) -> Result<Stored, DbError> {
        let connection = lock(&self.connection);
        let now = unix_now();
        let rows = |table: &str| -> Result<Vec<StoredRow>, DbError> {
            let mut statement = connection.prepare(&format!(
                "SELECT id, client, record, updated FROM {table} ORDER BY id"
            ))?;
            let rows = statement.query_map([], |row| {
                let id: i64 = row.get(0)?;
                let client: String = row.get(1)?;
                let updated: i64 = row.get(3)?;
                Ok(StoredRow {
                    id: id as u64,
                    client: client
                        .parse()
                        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
                    record: row.get(2)?,
                    idle_secs: u64::try_from(now.saturating_sub(updated)).unwrap_or(0),
                })
            })?;
            rows.collect()
        };
        let groups = rows("groups")?;
        let mut games = Vec::new();
        let mut turns =
            connection.prepare("SELECT player, text FROM turns WHERE game = ?1 ORDER BY n")?;
        for game in rows("games")? {
            let played = turns
                .query_map([key(game.id)], |row| {
                    let player: i64 = row.get(0)?;
                    Ok(StoredTurn {
                        player: usize::try_from(player).unwrap_or(usize::MAX),
                        text: row.get(1)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            games.push((game, played));
        }
        Ok(Stored { groups, games })
    }

    /// Stores a new group.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn insert_group(&self, id: u64, client: IpAddr, record: &str) -> Result<(), DbError> {
        lock(&self.connection).execute(
            "INSERT OR REPLACE INTO groups (id, client, record, updated) VALUES (?1, ?2, ?3, ?4)",
            params![key(id), client.to_string(), record, unix_now()],
        )?;
        Ok(())
    }

    /// Rewrites a group's record.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn save_group(&self, id: u64, record: &str) -> Result<(), DbError> {
        lock(&self.connection).execute(
            "UPDATE groups SET record = ?2, updated = ?3 WHERE id = ?1",
            params![key(id), record, unix_now()],
        )?;
        Ok(())
    }

    /// Removes a group.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn delete_group(&self, id: u64) -> Result<(), DbError> {
        lock(&self.connection).execute("DELETE FROM groups WHERE id = ?1", [key(id)])?;
        Ok(())
    }

    /// Stores a new game with its turns (a game may start from a
    /// position, with none).
    ///
    /// # Errors
    ///
    /// A write that failed (then nothing was stored).
    pub fn insert_game(
        &self,
        id: u64,
        client: IpAddr,
        record: &str,
        turns: &[(usize, &str)],
    ) -> Result<(), DbError> {
        let mut connection = lock(&self.connection);
        let transaction = connection.transaction()?;
        transaction.execute(
            "INSERT OR REPLACE INTO games (id, client, record, updated) VALUES (?1, ?2, ?3, ?4)",
            params![key(id), client.to_string(), record, unix_now()],
        )?;
        transaction.execute("DELETE FROM turns WHERE game = ?1", [key(id)])?;
        append(&transaction, id, 0, turns)?;
        transaction.commit()
    }

    /// Rewrites a game's record, keeps its first `kept` turns and appends
    /// `turns` after them, in one transaction.
    ///
    /// # Errors
    ///
    /// A write that failed (then nothing changed).
    pub fn save_game(
        &self,
        id: u64,
        record: &str,
        kept: usize,
        turns: &[(usize, &str)],
    ) -> Result<(), DbError> {
        let mut connection = lock(&self.connection);
        let transaction = connection.transaction()?;
        transaction.execute(
            "UPDATE games SET record = ?2, updated = ?3 WHERE id = ?1",
            params![key(id), record, unix_now()],
        )?;
        transaction.execute(
            "DELETE FROM turns WHERE game = ?1 AND n >= ?2",
            params![key(id), i64::try_from(kept).unwrap_or(i64::MAX)],
        )?;
        append(&transaction, id, kept, turns)?;
        transaction.commit()
    }

    /// Removes a game and its turns.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn delete_game(&self, id: u64) -> Result<(), DbError> {
        let mut connection = lock(&self.connection);
        let transaction = connection.transaction()?;
        transaction.execute("DELETE FROM games WHERE id = ?1", [key(id)])?;
        transaction.execute("DELETE FROM turns WHERE game = ?1", [key(id)])?;
        transaction.commit()
    }

    /// Moves everything written into the file itself, so that a stopped
    /// server leaves one self-contained file.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn checkpoint(&self) -> Result<(), DbError> {
        lock(&self.connection).execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
    }

    /// Gives the pages freed by removals back to the file system, so that
    /// the file shrinks as groups and games expire.
    ///
    /// # Errors
    ///
    /// A write that failed.
    pub fn reclaim(&self) -> Result<(), DbError> {
        let connection = lock(&self.connection);
        let free: i64 = connection.query_row("PRAGMA freelist_count", [], |row| row.get(0))?;
        if free > 0 {
            connection
                .execute_batch("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);")?;
        }
        Ok(())
    }
}

/// Appends `turns` as turns `from..` of game `id`.
fn append(
    transaction: &rusqlite::Transaction<'_>,
    id: u64,
    from: usize,
    turns: &[(usize, &str)],
) -> Result<(), DbError> {
    let mut insert = transaction
        .prepare_cached("INSERT INTO turns (game, n, player, text) VALUES (?1, ?2, ?3, ?4)")?;
    for (offset, (player, text)) in turns.iter().enumerate() {
        let n = i64::try_from(from + offset).unwrap_or(i64::MAX);
        let player = i64::try_from(*player).unwrap_or(i64::MAX);
        insert.execute(params![key(id), n, player, text])?;
    }
    Ok(())
}

/// A new file: the tables, our id and layout.
fn create(connection: &Connection) -> Result<(), DbError> {
    // Set before the first table, while the file is still empty.
    connection.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
    connection.pragma_update(None, "application_id", APPLICATION_ID)?;
    connection.pragma_update(None, "user_version", LAYOUT)?;
    connection.execute_batch(SCHEMA)
}

/// Why an existing file is not ours to use, if it is not.
fn check(connection: &Connection) -> Result<(), String> {
    let read = |e: DbError| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => "is not a database".to_string(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            "is in use by another server".to_string()
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => "is damaged".to_string(),
        _ => format!("cannot be read ({e})"),
    };
    let application: i64 = connection
        .query_row("PRAGMA application_id", [], |row| row.get(0))
        .map_err(read)?;
    if application != APPLICATION_ID {
        return Err("is not a damas serve data file (another program's database)".into());
    }
    let layout: i64 = connection
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(read)?;
    if layout != LAYOUT {
        return Err(format!(
            "has layout {layout}, and this server reads layout {LAYOUT}"
        ));
    }
    let verdict: Option<String> = connection
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .optional()
        .map_err(read)?;
    if verdict.as_deref() != Some("ok") {
        return Err("is damaged (its integrity check failed)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("damas-db-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir.join("data.sqlite")
    }

    #[test]
    fn turns_are_appended_kept_and_cut_back() {
        let path = scratch("turns");
        let client: IpAddr = "127.0.0.1".parse().expect("an address");
        {
            let db = Db::open(&path).expect("a new file");
            db.insert_game(7, client, "{}", &[(0, "a"), (1, "b")])
                .expect("stored");
            db.save_game(7, "{\"x\":1}", 2, &[(0, "c")])
                .expect("stored");
            // An undo of two turns, then another move.
            db.save_game(7, "{\"x\":2}", 1, &[(1, "d")])
                .expect("stored");
            db.insert_group(9, client, "{\"g\":1}").expect("stored");
        }
        let db = Db::open(&path).expect("our file again");
        let Stored { groups, games } = db.load().expect("read");
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].id, 9);
        assert_eq!(games.len(), 1);
        let (game, turns) = &games[0];
        assert_eq!(game.record, "{\"x\":2}");
        assert_eq!(game.client, client);
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["a", "d"]);
        assert_eq!(turns[1].player, 1);
        db.delete_game(7).expect("removed");
        db.delete_group(9).expect("removed");
        let Stored { groups, games } = db.load().expect("read");
        assert!(groups.is_empty() && games.is_empty());
    }

    #[test]
    fn ids_keep_all_64_bits() {
        let path = scratch("ids");
        let db = Db::open(&path).expect("a new file");
        let client: IpAddr = "::1".parse().expect("an address");
        db.insert_group(u64::MAX - 3, client, "{}").expect("stored");
        let groups = db.load().expect("read").groups;
        assert_eq!(groups[0].id, u64::MAX - 3);
        assert_eq!(groups[0].client, client);
    }

    #[test]
    fn a_file_not_ours_is_refused_and_left_as_it_was() {
        let path = scratch("foreign");
        std::fs::write(
            &path,
            b"just some text, not a database at all\n".repeat(100),
        )
        .expect("written");
        let before = std::fs::read(&path).expect("read");
        let refused = Db::open(&path).err().expect("refused");
        assert!(refused.contains("is not a database"), "{refused}");
        assert_eq!(std::fs::read(&path).expect("read"), before);

        let other = scratch("other-program");
        {
            let connection = Connection::open(&other).expect("a database");
            connection
                .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi');")
                .expect("written");
        }
        let before = std::fs::read(&other).expect("read");
        let refused = Db::open(&other).err().expect("refused");
        assert!(refused.contains("not a damas serve data file"), "{refused}");
        assert_eq!(std::fs::read(&other).expect("read"), before);
    }

    #[test]
    fn a_second_server_on_the_same_file_is_refused() {
        let path = scratch("busy");
        let first = Db::open(&path).expect("a new file");
        first
            .insert_group(1, "127.0.0.1".parse().expect("an address"), "{}")
            .expect("stored");
        let refused = Db::open(&path).err().expect("refused");
        assert!(refused.contains("in use by another server"), "{refused}");
        drop(first);
        assert!(Db::open(&path).is_ok());
    }
}
