package dev.seams.truth;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where PostgreSQL's truth is read: opens a new connection to the source database each time, so that a reader follows
 * the source wherever it is now (a promoted standby after a failover, claim B18). The stand's is {@code stand::pg}; an
 * external stand's is a JDBC URL with credentials.
 */
@FunctionalInterface
public interface PgConnections {

    /**
     * @return a new connection to the source database; the caller closes it
     * @throws SQLException if PostgreSQL cannot be reached or refuses the login
     */
    Connection open() throws SQLException;
}
