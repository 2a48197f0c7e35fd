//! Queries to other PostgreSQL servers (and to this one, as another
//! session) from a background worker, many at once and none blocking:
//! libpq's asynchronous calls (`PQconnectStart`/`PQconnectPoll`,
//! `PQsendQuery`/`PQconsumeInput`), each connection bounded by a deadline of
//! its own, and one `poll(2)` over every socket (`wait`).
//!
//! The extension links no libpq: PostgreSQL's own `libpqwalreceiver`
//! module does, so loading it (as logical replication does) maps libpq
//! into the process, and its functions are looked up there (`dlsym`). So
//! chronoid talks to a peer with the libpq its server was built with, and
//! every connection is a plain one (no walsender is taken on the peer).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

unsafe extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn poll(fds: *mut PollFd, nfds: u64, timeout: c_int) -> c_int;
}
const RTLD_NOW: c_int = 2;
const RTLD_NOLOAD: c_int = 4;

#[repr(C)]
struct PollFd {
    fd: c_int,
    events: i16,
    revents: i16,
}
const POLLIN: i16 = 1;
const POLLOUT: i16 = 4;

type Conn = *mut c_void;
type Res = *mut c_void;

/// libpq's functions this file calls (libpq-fe.h).
struct Api {
    connect_start: unsafe extern "C" fn(*const c_char) -> Conn,
    connect_poll: unsafe extern "C" fn(Conn) -> c_int,
    status: unsafe extern "C" fn(Conn) -> c_int,
    socket: unsafe extern "C" fn(Conn) -> c_int,
    error_message: unsafe extern "C" fn(Conn) -> *const c_char,
    set_nonblocking: unsafe extern "C" fn(Conn, c_int) -> c_int,
    send_query: unsafe extern "C" fn(Conn, *const c_char) -> c_int,
    flush: unsafe extern "C" fn(Conn) -> c_int,
    consume_input: unsafe extern "C" fn(Conn) -> c_int,
    is_busy: unsafe extern "C" fn(Conn) -> c_int,
    get_result: unsafe extern "C" fn(Conn) -> Res,
    result_status: unsafe extern "C" fn(Res) -> c_int,
    result_error: unsafe extern "C" fn(Res) -> *const c_char,
    ntuples: unsafe extern "C" fn(Res) -> c_int,
    nfields: unsafe extern "C" fn(Res) -> c_int,
    get_value: unsafe extern "C" fn(Res, c_int, c_int) -> *const c_char,
    get_is_null: unsafe extern "C" fn(Res, c_int, c_int) -> c_int,
    clear: unsafe extern "C" fn(Res),
    finish: unsafe extern "C" fn(Conn),
}

// PostgresPollingStatusType, ConnStatusType, ExecStatusType.
const PGRES_POLLING_FAILED: c_int = 0;
const PGRES_POLLING_READING: c_int = 1;
const PGRES_POLLING_WRITING: c_int = 2;
const PGRES_POLLING_OK: c_int = 3;
const CONNECTION_BAD: c_int = 1;
/// Connecting, and the socket not yet connected.
const CONNECTION_STARTED: c_int = 2;
const PGRES_COMMAND_OK: c_int = 1;
const PGRES_TUPLES_OK: c_int = 2;

static API: OnceLock<Result<Api, String>> = OnceLock::new();

/// Loads libpq (through `libpqwalreceiver`) once; `Err` says why it
/// cannot be had. Call first in a transaction-free moment of a process
/// connected to shared memory: `load_file` may raise an ERROR.
pub fn load() -> Result<(), String> {
    if API.get().is_none() {
        // SAFETY: PostgreSQL's own module, loaded as logical replication
        // loads it.
        unsafe { pgrx::pg_sys::load_file(c"libpqwalreceiver".as_ptr(), false) };
        let _ = API.set(find());
    }
    API.get()
        .expect("set above")
        .as_ref()
        .map(|_| ())
        .map_err(Clone::clone)
}

fn api() -> Result<&'static Api, String> {
    match API.get() {
        Some(Ok(api)) => Ok(api),
        Some(Err(why)) => Err(why.clone()),
        None => Err("libpq is not loaded".into()),
    }
}

fn find() -> Result<Api, String> {
    // SAFETY: the library libpqwalreceiver mapped (RTLD_NOLOAD: no other).
    let lib = unsafe { dlopen(c"libpq.so.5".as_ptr(), RTLD_NOW | RTLD_NOLOAD) };
    if lib.is_null() {
        return Err("libpq.so.5 is not mapped after loading libpqwalreceiver".into());
    }
    macro_rules! sym {
        ($name:literal as $ty:ty) => {{
            // SAFETY: a symbol of libpq's, with the signature libpq-fe.h
            // gives it (the field's type).
            let p = unsafe { dlsym(lib, $name.as_ptr()) };
            if p.is_null() {
                return Err(format!("libpq has no {}", $name.to_string_lossy()));
            }
            // SAFETY: as above.
            unsafe { std::mem::transmute::<*mut c_void, $ty>(p) }
        }};
    }
    Ok(Api {
        connect_start: sym!(c"PQconnectStart" as unsafe extern "C" fn(*const c_char) -> Conn),
        connect_poll: sym!(c"PQconnectPoll" as unsafe extern "C" fn(Conn) -> c_int),
        status: sym!(c"PQstatus" as unsafe extern "C" fn(Conn) -> c_int),
        socket: sym!(c"PQsocket" as unsafe extern "C" fn(Conn) -> c_int),
        error_message: sym!(c"PQerrorMessage" as unsafe extern "C" fn(Conn) -> *const c_char),
        set_nonblocking: sym!(c"PQsetnonblocking" as unsafe extern "C" fn(Conn, c_int) -> c_int),
        send_query: sym!(c"PQsendQuery" as unsafe extern "C" fn(Conn, *const c_char) -> c_int),
        flush: sym!(c"PQflush" as unsafe extern "C" fn(Conn) -> c_int),
        consume_input: sym!(c"PQconsumeInput" as unsafe extern "C" fn(Conn) -> c_int),
        is_busy: sym!(c"PQisBusy" as unsafe extern "C" fn(Conn) -> c_int),
        get_result: sym!(c"PQgetResult" as unsafe extern "C" fn(Conn) -> Res),
        result_status: sym!(c"PQresultStatus" as unsafe extern "C" fn(Res) -> c_int),
        result_error: sym!(c"PQresultErrorMessage" as unsafe extern "C" fn(Res) -> *const c_char),
        ntuples: sym!(c"PQntuples" as unsafe extern "C" fn(Res) -> c_int),
        nfields: sym!(c"PQnfields" as unsafe extern "C" fn(Res) -> c_int),
        get_value: sym!(c"PQgetvalue" as unsafe extern "C" fn(Res, c_int, c_int) -> *const c_char),
        get_is_null: sym!(c"PQgetisnull" as unsafe extern "C" fn(Res, c_int, c_int) -> c_int),
        clear: sym!(c"PQclear" as unsafe extern "C" fn(Res)),
        finish: sym!(c"PQfinish" as unsafe extern "C" fn(Conn)),
    })
}

/// One row, each column as text (`None`: NULL).
pub type Row = Vec<Option<String>>;

/// What a connection is doing.
enum Phase {
    /// Connecting: the socket to wait on, for writing or not.
    Connecting {
        write: bool,
    },
    /// Connected, no query sent.
    Idle,
    /// A query sent, not yet all flushed.
    Flushing,
    /// Waiting for results.
    Reading,
    /// The last query's rows (taken by `poll`).
    Answered(Vec<Row>),
    Failed(String),
}

/// One connection, driven by `poll` until it answers or fails; closed when
/// dropped.
pub struct Connection {
    conn: Conn,
    phase: Phase,
    deadline: Instant,
    error: Option<String>,
}

/// What `Connection::poll` found.
pub enum Progress {
    /// Connected and no query under way: send one.
    Ready,
    /// Still going: wait (`wait`).
    Pending,
    Answered(Vec<Row>),
    Failed(String),
}

impl Connection {
    /// Starts connecting to what `conninfo` says, as `appname`; it fails
    /// if nothing has answered within `within`.
    pub fn start(conninfo: &str, appname: &str, within: Duration) -> Connection {
        let deadline = Instant::now() + within;
        let mut c = Connection {
            conn: std::ptr::null_mut(),
            phase: Phase::Failed(String::new()),
            deadline,
            error: None,
        };
        let api = match api() {
            Ok(api) => api,
            Err(why) => {
                c.phase = Phase::Failed(why);
                return c;
            }
        };
        let secs = within.as_secs().max(1).to_string();
        let mut info = with_parameter(conninfo, "connect_timeout", &secs, false);
        info = with_parameter(&info, "application_name", appname, true);
        let Ok(info) = CString::new(info) else {
            c.phase = Phase::Failed("a NUL in the connection string".into());
            return c;
        };
        // SAFETY: libpq copies what it needs of the string.
        c.conn = unsafe { (api.connect_start)(info.as_ptr()) };
        // SAFETY: a connection libpq made (or NULL: out of memory).
        c.phase = if c.conn.is_null() {
            Phase::Failed("out of memory".into())
        } else if unsafe { (api.status)(c.conn) } == CONNECTION_BAD {
            Phase::Failed(c.message())
        } else {
            Phase::Connecting { write: true }
        };
        c
    }

    fn message(&self) -> String {
        let Ok(api) = api() else { return String::new() };
        // SAFETY: libpq's message for this connection, copied at once.
        one_line(&unsafe { CStr::from_ptr((api.error_message)(self.conn)) }.to_string_lossy())
    }

    /// Sends `sql` (one statement) on a connection `poll` found `Ready`.
    pub fn send(&mut self, sql: &str) {
        let Ok(api) = api() else { return };
        let Ok(sql) = CString::new(sql) else {
            self.phase = Phase::Failed("a NUL in the query".into());
            return;
        };
        // SAFETY: a connected connection; the query is copied into libpq's
        // output buffer.
        self.phase = if unsafe { (api.send_query)(self.conn, sql.as_ptr()) } == 1 {
            Phase::Flushing
        } else {
            Phase::Failed(self.message())
        };
    }

    /// Drives the connection as far as it goes without blocking.
    pub fn poll(&mut self) -> Progress {
        let Ok(api) = api() else {
            return Progress::Failed("libpq is not loaded".into());
        };
        loop {
            if !matches!(self.phase, Phase::Failed(_) | Phase::Answered(_))
                && Instant::now() >= self.deadline
            {
                // Still connecting (no server's kernel took the
                // connection: a host down, a network cut) or connected to a
                // server that does not answer (its processes stopped).
                // SAFETY: this connection, made by libpq.
                let connecting = matches!(self.phase, Phase::Connecting { .. })
                    && unsafe { (api.status)(self.conn) } == CONNECTION_STARTED;
                let secs = ANSWER_WITHIN.as_secs();
                self.phase = Phase::Failed(if connecting {
                    format!("could not connect within {secs} s")
                } else {
                    format!("no answer within {secs} s")
                });
            }
            // SAFETY (every call below): this connection, made by libpq
            // and not yet finished.
            match &mut self.phase {
                Phase::Connecting { write } => match unsafe { (api.connect_poll)(self.conn) } {
                    PGRES_POLLING_OK => {
                        unsafe { (api.set_nonblocking)(self.conn, 1) };
                        self.phase = Phase::Idle;
                    }
                    PGRES_POLLING_READING => {
                        *write = false;
                        return Progress::Pending;
                    }
                    PGRES_POLLING_WRITING => {
                        *write = true;
                        return Progress::Pending;
                    }
                    PGRES_POLLING_FAILED => self.phase = Phase::Failed(self.message()),
                    _ => return Progress::Pending,
                },
                Phase::Idle => return Progress::Ready,
                Phase::Flushing => match unsafe { (api.flush)(self.conn) } {
                    0 => self.phase = Phase::Reading,
                    1 => return Progress::Pending,
                    _ => self.phase = Phase::Failed(self.message()),
                },
                Phase::Reading => {
                    if unsafe { (api.consume_input)(self.conn) } == 0 {
                        self.phase = Phase::Failed(self.message());
                        continue;
                    }
                    if unsafe { (api.is_busy)(self.conn) } == 1 {
                        return Progress::Pending;
                    }
                    let mut rows = Vec::new();
                    loop {
                        let res = unsafe { (api.get_result)(self.conn) };
                        if res.is_null() {
                            break;
                        }
                        match unsafe { (api.result_status)(res) } {
                            PGRES_TUPLES_OK => rows.extend(unsafe { read_rows(api, res) }),
                            PGRES_COMMAND_OK => {}
                            _ => {
                                let why = one_line(
                                    &unsafe { CStr::from_ptr((api.result_error)(res)) }
                                        .to_string_lossy(),
                                );
                                self.error.get_or_insert(why);
                            }
                        }
                        unsafe { (api.clear)(res) };
                        if unsafe { (api.is_busy)(self.conn) } == 1 {
                            // More results on the way.
                            if unsafe { (api.consume_input)(self.conn) } == 0 {
                                break;
                            }
                        }
                    }
                    self.phase = match self.error.take() {
                        Some(why) => Phase::Failed(why),
                        None => Phase::Answered(rows),
                    };
                }
                Phase::Answered(rows) => {
                    let rows = std::mem::take(rows);
                    self.phase = Phase::Idle;
                    return Progress::Answered(rows);
                }
                Phase::Failed(why) => return Progress::Failed(why.clone()),
            }
        }
    }

    /// The socket and whether to wait for it to be writable, while the
    /// connection waits on the network.
    fn waits_on(&self) -> Option<(c_int, bool)> {
        let write = match self.phase {
            Phase::Connecting { write } => write,
            Phase::Flushing => true,
            Phase::Reading => false,
            _ => return None,
        };
        let api = api().ok()?;
        // SAFETY: this connection's socket.
        let fd = unsafe { (api.socket)(self.conn) };
        (fd >= 0).then_some((fd, write))
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let (false, Ok(api)) = (self.conn.is_null(), api()) {
            // SAFETY: finished once, here.
            unsafe { (api.finish)(self.conn) };
        }
    }
}

/// How long one question to another server may take, connecting included.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(5);

unsafe fn read_rows(api: &Api, res: Res) -> Vec<Row> {
    // SAFETY: a result libpq made, read within its bounds.
    unsafe {
        let (n, f) = ((api.ntuples)(res), (api.nfields)(res));
        (0..n)
            .map(|r| {
                (0..f)
                    .map(|c| {
                        ((api.get_is_null)(res, r, c) == 0).then(|| {
                            CStr::from_ptr((api.get_value)(res, r, c))
                                .to_string_lossy()
                                .into_owned()
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// Waits until one of `connections` can go on, the latch is set, or
/// `timeout` passes; at most `tick` at a time, so that the latch (which
/// `poll(2)` cannot watch) is looked at that often. The process exits if
/// the postmaster dies (`WaitLatch` does when there is nothing to poll).
pub fn wait<'a>(connections: impl Iterator<Item = &'a Connection>, timeout: Duration) {
    let now = Instant::now();
    let mut fds: Vec<PollFd> = Vec::new();
    let mut until = now + timeout;
    for c in connections {
        until = until.min(c.deadline);
        if let Some((fd, write)) = c.waits_on() {
            fds.push(PollFd {
                fd,
                events: if write { POLLOUT } else { POLLIN },
                revents: 0,
            });
        }
    }
    let ms = until.saturating_duration_since(now).as_millis() as u64;
    if fds.is_empty() {
        super::worker::wait(ms.max(1));
        return;
    }
    // The latch at least every 20 ms while a question is under way.
    let tick = ms.clamp(1, 20) as c_int;
    // SAFETY: an array of `fds.len()` entries, alive across the call.
    unsafe { poll(fds.as_mut_ptr(), fds.len() as u64, tick) };
    // The postmaster's death ends the process, as in any wait of ours.
    super::worker::wait(0);
}

/// A value for a `keyword=value` connection string: quoted, with `\\` and
/// `'` escaped, as libpq reads it.
pub fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A connection string to this server's own socket, database `dbname` as
/// `user`, bounded by short lock and statement timeouts.
pub fn local_conninfo(dbname: &str, user: &str) -> String {
    let dirs = super::guc::config_text(c"unix_socket_directories")
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default();
    let host = dirs
        .split(',')
        .map(str::trim)
        .find(|d| !d.is_empty())
        .unwrap_or("localhost");
    // SAFETY: the port this server listens on.
    let port = unsafe { pgrx::pg_sys::PostPortNumber };
    format!(
        "host={} port={port} dbname={} user={} options='-c lock_timeout=500 -c statement_timeout=4000'",
        quote(host),
        quote(dbname),
        quote(user)
    )
}

/// `conninfo` with `keyword` set to `value`, unless it has one already and
/// `over` is false. libpq keeps the last of a keyword given twice; a URI
/// takes it as a query parameter, percent-encoded.
pub fn with_parameter(conninfo: &str, keyword: &str, value: &str, over: bool) -> String {
    if !over && names(conninfo, keyword) {
        conninfo.to_owned()
    } else if conninfo.starts_with("postgres://") || conninfo.starts_with("postgresql://") {
        let sep = if conninfo.contains('?') { '&' } else { '?' };
        let value: String = value
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        format!("{conninfo}{sep}{keyword}={value}")
    } else {
        format!("{conninfo} {keyword}={}", quote(value))
    }
}

/// Whether `conninfo` gives `keyword` (a `keyword =` of its own, or a
/// URI's `?keyword=` / `&keyword=`), not merely contains the word (a
/// database named after it).
fn names(conninfo: &str, keyword: &str) -> bool {
    let bytes = conninfo.as_bytes();
    conninfo.match_indices(keyword).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let starts = matches!(before, None | Some(b' ' | b'\t' | b'\n' | b'?' | b'&'));
        let rest = conninfo[at + keyword.len()..].trim_start();
        starts && rest.starts_with('=')
    })
}

/// libpq's messages run over lines ("Is the server running ..."): one
/// line, to sit inside a sentence of chronoid's.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
