// JDBC (pgjdbc): reading works as is; parameters need stringtype=unspecified,
// Types.OTHER or a cast in the SQL, since setString sends varchar.
import java.sql.*;

public class Recipe {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv("CHRONOID_TEST_JDBC");  // jdbc:postgresql://host:port/db?user=...
        try (Connection c = DriverManager.getConnection(url)) {
            Statement st = c.createStatement();
            st.execute("CREATE EXTENSION IF NOT EXISTS chronoid");
            st.execute("DROP TABLE IF EXISTS jdbc_event");
            st.execute("CREATE TABLE jdbc_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), what text)");
            ResultSet rs = st.executeQuery("INSERT INTO jdbc_event (what) VALUES ('hello') RETURNING id");
            rs.next();
            String id = rs.getString(1);  // as is: the text form

            // setString sends varchar: "operator does not exist: nanoflake = character varying".
            PreparedStatement bad = c.prepareStatement("SELECT what FROM jdbc_event WHERE id = ?");
            bad.setString(1, id);
            try {
                bad.executeQuery();
                check(false, "setString should fail");
            } catch (SQLException e) {
                check(e.getMessage().contains("operator does not exist"), e.getMessage());
            }
            // Types.OTHER sends it untyped: the server infers nanoflake.
            PreparedStatement other = c.prepareStatement("SELECT what FROM jdbc_event WHERE id = ?");
            other.setObject(1, id, Types.OTHER);
            rs = other.executeQuery();
            check(rs.next() && rs.getString(1).equals("hello"), "Types.OTHER");
            // A cast in the SQL; and a decimal id through bigint.
            PreparedStatement cast = c.prepareStatement("SELECT ?::nanoflake = ?::bigint::nanoflake");
            cast.setString(1, "9ix");
            cast.setLong(2, 12345L);
            rs = cast.executeQuery();
            check(rs.next() && rs.getBoolean(1), "casts");
            // setLong compares the number (nanoflake = bigint, since 0.4.0),
            // and the primary key's index serves it.
            long number;
            rs = st.executeQuery("SELECT id::bigint FROM jdbc_event WHERE what = 'hello'");
            rs.next();
            number = rs.getLong(1);
            PreparedStatement byNumber = c.prepareStatement("SELECT what FROM jdbc_event WHERE id = ?");
            byNumber.setLong(1, number);
            rs = byNumber.executeQuery();
            check(rs.next() && rs.getString(1).equals("hello"), "setLong");
        }
        // stringtype=unspecified: every setString is sent untyped.
        try (Connection c = DriverManager.getConnection(url + "&stringtype=unspecified")) {
            PreparedStatement p = c.prepareStatement("SELECT what FROM jdbc_event WHERE id >= ?");
            p.setString(1, "0");
            ResultSet rs = p.executeQuery();
            check(rs.next() && rs.getString(1).equals("hello"), "stringtype=unspecified");
        }
        System.out.println("ok - JDBC: getString as is; setString fails; Types.OTHER, casts, setLong, stringtype=unspecified work");
    }
}
