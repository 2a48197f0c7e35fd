#[pg_test]
fn codokey_encodes_in_utc_whatever_the_session_time_zone() {
    Spi::run("SET TimeZone = 'Asia/Tokyo'").unwrap();
    let key = Spi::get_one::<String>("SELECT codokey('2022-01-31 23:30:00+00'::timestamptz, 2)::text")
        .unwrap()
        .unwrap();
    assert_eq!(key, "yjb0", "the UTC calendar day, 31 January");
}

#[pg_test]
fn codokey_session_context_follows_the_gucs() {
    Spi::run("SET chronoid.codokey_fraction_max = 999999").unwrap();
    let key = Spi::get_one::<String>("SELECT codokey('1970-01-01 00:00:00+00'::timestamptz, 6)::text")
        .unwrap()
        .unwrap();
    assert_eq!(key, "zzbun1n1nlflr");
}

#[pg_test(error = "invalid input syntax for type codokey: \"yj00o\"")]
fn codokey_rejects_an_hour_out_of_range() {
    Spi::run("SELECT 'yj00o'::codokey").unwrap();
}
