#[pg_test]
fn caloriosa_and_uid60_generators_fill_their_fields() {
    let row = Spi::get_two::<i32, bool>(
        "SELECT caloriosa_increment(c), caloriosa_timestamp(c) > now() - interval '1 minute' \
         FROM (SELECT gen_caloriosa() c) s",
    )
    .unwrap();
    assert!(matches!(row, (Some(0..=1023), Some(true))));
    let seq = Spi::get_one::<i32>("SELECT uid60_sequence(gen_uid60())").unwrap().unwrap();
    assert!((0..=511).contains(&seq));
}

#[pg_test]
fn uid60_display_round_trips_the_seed_example() {
    let n = Spi::get_one::<i64>("SELECT 'xinaS8QBh'::uid60::bigint").unwrap().unwrap();
    assert_eq!(n, 11_093_174_944_930_914);
}

#[pg_test(error = "invalid input syntax for type caloriosa: \"katjjMQN\"")]
fn caloriosa_refuses_the_old_layout() {
    Spi::run("SELECT 'katjjMQN'::caloriosa").unwrap();
}
