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

#[pg_test(
    error = "codokey \"yj00o\" is not a key of the context (year zero 1970, max year 3265, fraction max 9)"
)]
fn codokey_rejects_an_hour_out_of_range_where_the_context_is_used() {
    // 'yj00o' is a day key of a 3-digit-year context, so it stores; in the
    // default context its hour countdown 24 is out of range.
    Spi::run("SELECT codokey_timestamp('yj00o'::codokey)").unwrap();
}

#[pg_test(error = "invalid input syntax for type codokey: \"yj0001o\"")]
fn codokey_input_rejects_a_key_no_context_has() {
    Spi::run("SELECT 'yj0001o'::codokey").unwrap();
}
