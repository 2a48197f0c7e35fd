//! tokio-postgres and sqlx read and write every chronoid type through the
//! formats crate's `postgres-types` and `sqlx` features: binary and text,
//! parameters and results, arrays, prepared statements, binary COPY; values
//! made in the application order like the server's; serde's JSON is the
//! database's text form. Needs CHRONOID_TEST_DSN (libpq keywords) and
//! CHRONOID_TEST_URL (a postgresql:// URL) of a database where chronoid is
//! created; tests/t/021_clients.pl sets them.

use std::pin::pin;

use chronoid_formats::caloriosa::{self, Caloriosa, CaloriosaTicker};
use chronoid_formats::clock::{Clock, SystemClock};
use chronoid_formats::codokey::{Codokey, DEFAULT_CONTEXT};
use chronoid_formats::counter_id::CounterId;
use chronoid_formats::nanoflake::{self, Nanoflake, NanoflakeTicker};
use chronoid_formats::scru160::{Generator, Scru160};
use chronoid_formats::uid60::{self, Uid60, Uid60Ticker};
use futures_util::TryStreamExt;
use sqlx::Row;
use tokio_postgres::binary_copy::{BinaryCopyInWriter, BinaryCopyOutStream};
use tokio_postgres::NoTls;

fn dsn() -> String {
    std::env::var("CHRONOID_TEST_DSN").expect("CHRONOID_TEST_DSN: a libpq connection string")
}

/// One value of each type, made in the application.
struct AppValues {
    n: Nanoflake,
    s: Scru160,
    k: Codokey,
    c: Caloriosa,
    u: Uid60,
}

fn app_values() -> AppValues {
    let mut rng = rand::rng();
    let now = SystemClock.now_ms();
    let (s, _) = Generator::new().generate(now, &mut rng).unwrap();
    let n = Nanoflake::generate(
        &NanoflakeTicker::new(),
        &mut SystemClock,
        nanoflake::DEFAULT_EPOCH_UNIX_MS,
        99,
    )
    .unwrap();
    let c = Caloriosa::generate(
        &CaloriosaTicker::new(),
        &mut SystemClock,
        caloriosa::EPOCH_UNIX_MS,
        7,
    )
    .unwrap();
    let u = Uid60::generate(
        &Uid60Ticker::new(),
        &mut SystemClock,
        uid60::EPOCH_UNIX_MS,
        3,
    )
    .unwrap();
    let k = Codokey::encode(&DEFAULT_CONTEXT, i128::from(now) * 1000, 6).unwrap();
    AppValues { n, s, k, c, u }
}

async fn tokio_client() -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(&dsn(), NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}

const TABLE: &str = "CREATE TABLE IF NOT EXISTS client_ids (
    n nanoflake DEFAULT gen_nanoflake(), s scru160 DEFAULT gen_scru160(),
    k codokey DEFAULT codokey(now(), 6), c caloriosa DEFAULT gen_caloriosa(),
    u uid60 DEFAULT gen_uid60(), source text)";

#[tokio::test(flavor = "multi_thread")]
async fn tokio_postgres_binary_text_arrays_prepared_and_copy() {
    let db = tokio_client().await;
    db.batch_execute(&format!("DROP TABLE IF EXISTS client_ids; {TABLE}"))
        .await
        .unwrap();
    let v = app_values();

    // Binary parameters through a prepared statement, binary results.
    let insert = db
        .prepare(
            "INSERT INTO client_ids VALUES ($1, $2, $3, $4, $5, 'app') RETURNING n, s, k, c, u",
        )
        .await
        .unwrap();
    let row = db
        .query_one(&insert, &[&v.n, &v.s, &v.k, &v.c, &v.u])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Nanoflake>(0), v.n);
    assert_eq!(row.get::<_, Scru160>(1), v.s);
    assert_eq!(row.get::<_, Codokey>(2), v.k);
    assert_eq!(row.get::<_, Caloriosa>(3), v.c);
    assert_eq!(row.get::<_, Uid60>(4), v.u);
    db.execute("INSERT INTO client_ids (source) VALUES ('server')", &[])
        .await
        .unwrap();

    // Text: results of ::text columns, and text parameters cast in SQL.
    let row = db
        .query_one("SELECT n::text, s::text, k::text, c::text, u::text FROM client_ids WHERE source = 'app'", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Nanoflake>(0), v.n);
    assert_eq!(row.get::<_, Scru160>(1), v.s);
    assert_eq!(row.get::<_, Codokey>(2), v.k);
    assert_eq!(row.get::<_, Caloriosa>(3), v.c);
    assert_eq!(row.get::<_, Uid60>(4), v.u);
    let texts = db
        .query_one("SELECT $1::text::nanoflake = n, $2::text::scru160 = s FROM client_ids WHERE source = 'app'", &[&v.n, &v.s])
        .await
        .unwrap();
    assert!(texts.get::<_, bool>(0) && texts.get::<_, bool>(1));
    // What the database prints is what Display prints.
    let printed: String = db
        .query_one("SELECT $1::nanoflake::text", &[&v.n])
        .await
        .unwrap()
        .get(0);
    assert_eq!(printed, v.n.to_string());

    // Arrays, both ways.
    let ids: Vec<Nanoflake> = db
        .query_one("SELECT array_agg(n ORDER BY n) FROM client_ids", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(ids.len(), 2);
    let back: Vec<Scru160> = db
        .query_one("SELECT $1::scru160[]", &[&vec![v.s, v.s]])
        .await
        .unwrap()
        .get(0);
    assert_eq!(back, vec![v.s, v.s]);

    // Binary COPY out and in.
    let types: Vec<_> = db
        .prepare("SELECT n, s, k, c, u FROM client_ids")
        .await
        .unwrap()
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    let out = db
        .copy_out("COPY (SELECT n, s, k, c, u FROM client_ids ORDER BY source) TO STDOUT BINARY")
        .await
        .unwrap();
    let rows: Vec<_> = BinaryCopyOutStream::new(out, &types)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get::<Nanoflake>(0), v.n);
    let sink = db
        .copy_in("COPY client_ids (n, s, k, c, u) FROM STDIN BINARY")
        .await
        .unwrap();
    let mut writer = pin!(BinaryCopyInWriter::new(sink, &types));
    for row in &rows {
        writer
            .as_mut()
            .write(&[
                &row.get::<Nanoflake>(0),
                &row.get::<Scru160>(1),
                &row.get::<Codokey>(2),
                &row.get::<Caloriosa>(3),
                &row.get::<Uid60>(4),
            ])
            .await
            .unwrap();
    }
    assert_eq!(writer.finish().await.unwrap(), 2);
    let copies: i64 = db.query_one("SELECT count(*) FROM client_ids c1 JOIN client_ids c2 USING (n, s, k, c, u) WHERE c1.source IS NOT NULL AND c2.source IS NULL", &[]).await.unwrap().get(0);
    assert_eq!(copies, 2, "every row copied back equal");
}

#[tokio::test(flavor = "multi_thread")]
async fn application_and_server_values_order_alike() {
    let db = tokio_client().await;
    // Interleave values made here and by the server; the server's ORDER BY
    // and Rust's Ord agree on every type.
    let mut rng = rand::rng();
    let mut app = Generator::new();
    let mut mixed: Vec<Scru160> = Vec::new();
    for _ in 0..50 {
        mixed.push(app.generate(SystemClock.now_ms(), &mut rng).unwrap().0);
        mixed.push(
            db.query_one("SELECT gen_scru160()", &[])
                .await
                .unwrap()
                .get(0),
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sorted_by_db: Vec<Scru160> = db
        .query_one(
            "SELECT array_agg(x ORDER BY x) FROM unnest($1::scru160[]) x",
            &[&mixed],
        )
        .await
        .unwrap()
        .get(0);
    let mut rust_order = mixed.clone();
    rust_order.sort();
    assert_eq!(rust_order, sorted_by_db);
    for pair in mixed.windows(2) {
        let lt: bool = db
            .query_one("SELECT $1::scru160 < $2::scru160", &[&pair[0], &pair[1]])
            .await
            .unwrap()
            .get(0);
        assert_eq!(lt, pair[0] < pair[1]);
    }
    // The 64-bit types and codokey: values from both sides, one ORDER BY.
    let v = app_values();
    let row = db.query_one(
        "SELECT array_agg(n ORDER BY n), array_agg(c ORDER BY c), array_agg(u ORDER BY u), array_agg(k ORDER BY k)
         FROM (VALUES ($1::nanoflake, $2::caloriosa, $3::uid60, $4::codokey),
                      (gen_nanoflake(), gen_caloriosa(), gen_uid60(), codokey(now() - interval '1 day', 6))) t(n, c, u, k)",
        &[&v.n, &v.c, &v.u, &v.k],
    ).await.unwrap();
    // Each array came back in the database's order: Rust's Ord agrees.
    fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
        let mut s = v.to_vec();
        s.sort();
        s
    }
    let ns: Vec<Nanoflake> = row.get(0);
    let cs: Vec<Caloriosa> = row.get(1);
    let us: Vec<Uid60> = row.get(2);
    let ks: Vec<Codokey> = row.get(3);
    assert_eq!(sorted(&ns), ns);
    assert_eq!(sorted(&cs), cs);
    assert_eq!(sorted(&us), us);
    assert_eq!(sorted(&ks), ks, "codokey: newest first on both sides");
}

#[tokio::test(flavor = "multi_thread")]
async fn serde_json_is_the_database_text() {
    let db = tokio_client().await;
    let v = app_values();
    let row = db
        .query_one("SELECT $1::nanoflake::text, $2::scru160::text, $3::codokey::text, $4::caloriosa::text, $5::uid60::text", &[&v.n, &v.s, &v.k, &v.c, &v.u])
        .await
        .unwrap();
    let json = serde_json::to_value((&v.n, &v.s, &v.k, &v.c, &v.u)).unwrap();
    let texts: Vec<String> = (0..5).map(|i| row.get(i)).collect();
    assert_eq!(json, serde_json::json!(texts));
    let back: (Nanoflake, Scru160, Codokey, Caloriosa, Uid60) =
        serde_json::from_value(json).unwrap();
    assert_eq!(
        (back.0, back.1, back.2, back.3, back.4),
        (v.n, v.s, v.k.clone(), v.c, v.u)
    );
    assert!(serde_json::from_str::<Nanoflake>("\"-1\"").is_err());
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlx_binary_text_arrays_prepared_and_copy() {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(&std::env::var("CHRONOID_TEST_URL").expect("CHRONOID_TEST_URL"))
        .await
        .unwrap();
    sqlx::raw_sql(&format!(
        "DROP TABLE IF EXISTS sqlx_ids; {}",
        TABLE.replace("client_ids", "sqlx_ids")
    ))
    .execute(&pool)
    .await
    .unwrap();
    let v = app_values();
    // Binary parameters and results (sqlx prepares and caches statements).
    for _ in 0..2 {
        let row = sqlx::query(
            "INSERT INTO sqlx_ids VALUES ($1, $2, $3, $4, $5, 'app') RETURNING n, s, k, c, u",
        )
        .bind(v.n)
        .bind(v.s)
        .bind(v.k.clone())
        .bind(v.c)
        .bind(v.u)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(row.get::<Nanoflake, _>(0), v.n);
        assert_eq!(row.get::<Scru160, _>(1), v.s);
        assert_eq!(row.get::<Codokey, _>(2), v.k);
        assert_eq!(row.get::<Caloriosa, _>(3), v.c);
        assert_eq!(row.get::<Uid60, _>(4), v.u);
    }
    sqlx::query("INSERT INTO sqlx_ids (source) VALUES ('server')")
        .execute(&pool)
        .await
        .unwrap();
    // Text results.
    let row = sqlx::query("SELECT n::text, s::text, k::text, c::text, u::text FROM sqlx_ids WHERE source = 'app' LIMIT 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(row.get::<Nanoflake, _>(0), v.n);
    assert_eq!(row.get::<Scru160, _>(1), v.s);
    assert_eq!(row.get::<Codokey, _>(2), v.k);
    assert_eq!(row.get::<Caloriosa, _>(3), v.c);
    assert_eq!(row.get::<Uid60, _>(4), v.u);
    // Arrays both ways.
    let ids: Vec<Uid60> = sqlx::query_scalar("SELECT array_agg(u ORDER BY u) FROM sqlx_ids")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(ids.len(), 3);
    let back: Vec<Codokey> = sqlx::query_scalar("SELECT $1::codokey[]")
        .bind(vec![v.k.clone()])
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(back, vec![v.k.clone()]);
    // Binary COPY in, built from the binary forms.
    let mut data = b"PGCOPY\n\xff\r\n\0".to_vec();
    data.extend_from_slice(&[0; 8]);
    for _ in 0..3 {
        data.extend_from_slice(&5i16.to_be_bytes());
        for field in [
            chronoid_formats::wire::Wire::to_binary(&v.n),
            chronoid_formats::wire::Wire::to_binary(&v.s),
            chronoid_formats::wire::Wire::to_binary(&v.k),
            chronoid_formats::wire::Wire::to_binary(&v.c),
            chronoid_formats::wire::Wire::to_binary(&v.u),
        ] {
            data.extend_from_slice(&(field.len() as i32).to_be_bytes());
            data.extend_from_slice(&field);
        }
    }
    data.extend_from_slice(&(-1i16).to_be_bytes());
    let mut conn = pool.acquire().await.unwrap();
    let mut copy = conn
        .copy_in_raw("COPY sqlx_ids (n, s, k, c, u) FROM STDIN BINARY")
        .await
        .unwrap();
    copy.send(data).await.unwrap();
    assert_eq!(copy.finish().await.unwrap(), 3);
    let equal: i64 = sqlx::query_scalar("SELECT count(*) FROM sqlx_ids WHERE source IS NULL AND n = $1 AND s = $2 AND k = $3 AND c = $4 AND u = $5")
        .bind(v.n).bind(v.s).bind(v.k.clone()).bind(v.c).bind(v.u)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(equal, 3);
}
