//! `chronoid_node_verdicts()`, behind the `chronoid_node_verdicts` view
//! (`sql/generators.sql`): per database (each reads the server's verdict,
//! or its own where it is a Citus node), whether the peer worker lets this
//! server mint, for which node id, why not, and when it last confirmed it,
//! read from shared memory (`src/node/verdict.rs`) as callers read it, so
//! that an operator sees a refusal before an application meets it.
//!
//! The top layer, beside `src/generators.rs`; nothing imports it.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::prelude::*;

use chronoid_formats::node_verdict::State;

use crate::node::verdict;
use crate::pg::catalog::connectable_databases;
use crate::pg::guards::require_preloaded;
use crate::pg::time::unix_ms_timestamptz;

#[pg_extern(sql = false)]
#[allow(clippy::type_complexity)]
fn chronoid_node_verdicts() -> TableIterator<
    'static,
    (
        name!(database, Option<String>),
        name!(node_id, Option<i32>),
        name!(state, String),
        name!(reason, Option<String>),
        name!(hint, Option<String>),
        name!(confirmed_at, Option<TimestampWithTimeZone>),
    ),
> {
    require_preloaded("chronoid_node_verdicts()");
    // Every database a session may connect to, with the verdict it reads:
    // the server's, or its own where it is a Citus node.
    let rows = connectable_databases().into_iter().map(|(db, name)| {
        let p = verdict::published_for(db);
        // A verdict made for an older configuration is being made again:
        // callers wait for the new one (or, for a refusal, are refused).
        let state = match (p.current, p.verdict.state) {
            (true, State::Allowed) => "mints",
            (true, State::Refused) => "refuses",
            _ => "being judged",
        };
        let some = |s: String| (!s.is_empty()).then_some(s);
        // What the worker could not read: a mints verdict says it stands
        // on the last look.
        let reason = match (p.message.is_empty(), p.note.is_empty()) {
            (true, false) => p.note.clone(),
            (false, false) => format!("{}; {}", p.message, p.note),
            _ => p.message.clone(),
        };
        (
            Some(name),
            p.verdict.node.map(i32::from),
            state.to_owned(),
            some(reason),
            some(p.hint),
            (p.confirmed_ms > 0).then(|| unix_ms_timestamptz(p.confirmed_ms as i64)),
        )
    });
    TableIterator::new(rows.collect::<Vec<_>>())
}
