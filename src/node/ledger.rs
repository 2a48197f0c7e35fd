//! What this server remembers of the servers whose IDs meet its own, in
//! `chronoid.peers` in the data directory (the policy, what each entry
//! means and when it is forgotten, is `chronoid_formats::node_ledger`):
//!
//! - each peer's last answer, so that a peer out of reach is judged by it
//!   (`judging.rs`) rather than passed over: two servers cut apart
//!   and given one id no longer both mint;
//! - the servers known to mint near this one, with their ids: its peers,
//!   the servers that asked it, and what its peers know. Whoever asks this
//!   server is told them (`chronoid.node_ids_seen`), so a clash two
//!   servers away is seen: A ⇄ B ⇄ C with A and C on one id.
//!
//! Who asks says who it is (`answering.rs`) and is recorded here too.
//!
//! The file is read without a lock (it is only ever replaced whole, by
//! rename) and changed under a lock on the data directory (`flock`), so
//! that of two servers asking a third at once the second sees the first.
//! It is copied by pg_basebackup, so a promoted standby remembers what its
//! primary did.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use chronoid_formats::node_ledger::Ledger;

const FILE: &str = "chronoid.peers";

/// What the file says (nothing, if there is none; a file that cannot be
/// read is reported and taken as empty: what was remembered is asked again).
pub fn read() -> Ledger {
    match std::fs::read_to_string(FILE) {
        Ok(text) => Ledger::from_text(&text).unwrap_or_else(|why| {
            pgrx::warning!("chronoid: file \"{FILE}\" is not a chronoid peers file ({why}); it is taken as empty");
            Ledger::default()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ledger::default(),
        Err(e) => {
            pgrx::warning!("chronoid: could not read file \"{FILE}\": {e}");
            Ledger::default()
        }
    }
}

/// Whether the file is there (a coordinator's peer worker writes it once it
/// has read its formation).
pub fn exists() -> bool {
    std::path::Path::new(FILE).exists()
}

/// Changes the file under its lock: `change` returns whether it changed
/// anything. Returns the ledger as it now is, and `Err` with it if the
/// change could not be written (reported: the next change writes it again).
/// `node_id_set`: `chronoid.node_id` as set (what is forgotten by age
/// depends on it).
pub fn update(
    node_id_set: i32,
    change: impl FnOnce(&mut Ledger) -> bool,
) -> (Ledger, Result<(), String>) {
    let lock = std::fs::File::open(".").and_then(|dir| dir.lock().map(|()| dir));
    let mut ledger = read();
    let now = crate::pg::clock::now_ms();
    let written = match &lock {
        Err(e) => Err(format!(
            "could not lock the data directory to change \"{FILE}\": {e}"
        )),
        Ok(_) if !(change(&mut ledger) | ledger.forget_old(now, node_id_set)) => Ok(()),
        Ok(_) => write(&ledger).map_err(|e| format!("could not write file \"{FILE}\": {e}")),
    };
    drop(lock);
    if let Err(why) = &written {
        pgrx::warning!("chronoid: {why}");
    }
    (ledger, written)
}

fn write(ledger: &Ledger) -> std::io::Result<()> {
    crate::pg::files::replace(FILE, ledger.to_text().as_bytes())
}
