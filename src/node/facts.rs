//! What each scope of the peer worker's rounds rests on (`Facts`): the
//! node id in effect, the subscriptions, a Citus database's formation and
//! coordinator, or why it refuses whatever its peers say; and which scopes
//! there are (the server, once every database was looked at; each Citus
//! database).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use super::citus;
use super::judging::{Facts, FormationPeer, HoldingFacts};
use super::rounds::Worker;
use super::verdict::{self, Scope};
use chronoid_formats::node_id::{resolve, Node, Source, MAX_NODE_ID, UNSET};

impl Worker {
    /// Every database whose Citus formation needs a verdict of its own,
    /// with its group id (`None`: cannot be read).
    pub(super) fn citus_databases(&self) -> Vec<(u32, Option<i32>, [u32; 2])> {
        self.databases
            .iter()
            .filter_map(|(db, d)| match (&d.citus, &d.unreadable) {
                // A group id chronoid cannot take (no formation yet) is
                // published as none: callers then find the refusal.
                (Some(Some((group, nodes, tables))), _) => Some((
                    *db,
                    group.filter(|_| citus::unusable_group(*group, nodes).is_none()),
                    *tables,
                )),
                // Never read: it may be a Citus node, whose node id would be
                // its group's; where chronoid.node_id is set, that is the
                // node id whatever it is, and the database reads the
                // server's verdict (the view notes it).
                (None, Some(_)) if self.settings.0 == UNSET => Some((*db, None, [0, 0])),
                _ => None,
            })
            .collect()
    }

    /// The facts of one scope.
    pub(super) fn facts(&self, scope: Scope, overflow: &[u32]) -> Facts {
        let (setting, base) = self.settings;
        let base = base.clamp(0, i32::from(MAX_NODE_ID)) as u16;
        let mut facts = Facts {
            node: Node {
                id: None,
                source: Source::Unset,
            },
            own: UNSET,
            subscriptions: self.subscriptions.clone(),
            formation: None,
            holding: None,
            unusable: None,
        };
        let db = match scope {
            Scope::Server => {
                facts.node = resolve(setting, None, base).unwrap_or(facts.node);
                facts.own = facts.node.id.map_or(UNSET, i32::from);
                if !overflow.is_empty() {
                    facts.unusable = Some((
                        chronoid_formats::reason!("more than {} databases of this server are Citus nodes, and chronoid judges at most {}", verdict::MAX_CITUS_DATABASES, verdict::MAX_CITUS_DATABASES),
                        "Keep Citus in fewer databases of one server.".into(),
                    ));
                }
                return facts;
            }
            Scope::Citus(db) => db,
        };
        let Some(d) = self.databases.get(&db) else {
            return facts;
        };
        let (group, nodes) = match (&d.citus, &d.unreadable) {
            (Some(Some((g, n, _))), _) => (*g, n.clone()),
            (_, why) => {
                facts.unusable = Some((
                    chronoid_formats::reason!("chronoid cannot read this database's Citus formation: {}", why.as_deref().unwrap_or("not read yet")),
                    "Let the bootstrap superuser connect to this database over the server's own socket (pg_hba.conf), or set chronoid.node_id for this server in postgresql.conf.".into(),
                ));
                return facts;
            }
        };
        if let Some(refusal) = citus::unusable_group(group, &nodes) {
            if setting == UNSET {
                facts.unusable = Some(refusal);
                return facts;
            }
        }
        let group = group.unwrap_or(0);
        match resolve(setting, Some(group), base) {
            Ok(node) => facts.node = node,
            Err(_) => {
                // Callers raise it themselves (22023), before any verdict.
                facts.unusable = Some((
                    chronoid_formats::reason!(
                        "the node id cannot be taken from the Citus formation"
                    ),
                    String::new(),
                ));
                return facts;
            }
        }
        facts.own = facts.node.id.map_or(UNSET, i32::from);
        let own_id_asks = match facts.node.source {
            Source::Setting => true,
            Source::Citus { base, .. } => base != 0,
            Source::Unset => false,
        };
        let options = citus::options();
        if own_id_asks {
            let peers = citus::other_nodes(&nodes, group)
                .iter()
                .map(|n| FormationPeer {
                    key: format!("citus node {}:{}", n.host, n.port),
                    conninfo: citus::conninfo_of(n, &d.name, &self.superuser, &options),
                    group: n.group,
                    name: format!("the Citus node {}:{} (group {})", n.host, n.port, n.group),
                })
                .collect();
            facts.formation = Some((group, peers));
        }
        facts.holding = citus::coordinator(&nodes, group).map(|c| HoldingFacts {
            db,
            group,
            conninfo: citus::conninfo_of(&c, &d.name, &self.superuser, &options),
            coordinator: format!("{}:{}", c.host, c.port),
            dbname: d.name.clone(),
            user: self.superuser.clone(),
        });
        facts
    }

    /// The scopes to judge: the server, once every database was looked
    /// at (a Citus database not yet found would read the server's), and
    /// each Citus database.
    pub(super) fn scopes(&self) -> (Vec<Scope>, Vec<u32>) {
        let citus = self.citus_databases();
        let overflow = verdict::set_citus_databases(&citus);
        let mut scopes: Vec<Scope> = citus
            .iter()
            .filter(|(db, _, _)| !overflow.contains(db))
            .map(|(db, _, _)| Scope::Citus(*db))
            .collect();
        let all_looked = self
            .databases
            .values()
            .all(|d| (d.citus.is_some() || d.unreadable.is_some()) && d.stale_since.is_none());
        if !self.citus_preloaded || (!self.superuser.is_empty() && all_looked) {
            scopes.push(Scope::Server);
        }
        (scopes, overflow)
    }
}
