#[pg_test]
fn caloriosa_generator_fills_its_fields() {
    let row = Spi::get_two::<i32, bool>(
        "SELECT caloriosa_increment(c), caloriosa_timestamp(c) > now() - interval '1 minute' \
         FROM (SELECT gen_caloriosa() c) s",
    )
    .unwrap();
    assert!(matches!(row, (Some(0..=1023), Some(true))));
}

#[pg_test(error = "invalid input syntax for type caloriosa: \"katjjMQN\"")]
fn caloriosa_refuses_the_old_layout() {
    Spi::run("SELECT 'katjjMQN'::caloriosa").unwrap();
}
