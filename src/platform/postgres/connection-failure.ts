/**
 * SQLSTATE classes that say the server is not there to answer, rather than that a statement is
 * wrong: 08 connection exception, 57P01-57P03 the server shutting down or starting up (a restart,
 * a fail-over), 53300 too many connections.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;

/**
 * Whether a query failed because PostgreSQL did not answer (not running, a socket refused, a
 * connection cut, the pool's connect timeout) and not because of the query: the first is an
 * outage a caller may retry, the second a bug that must stay what it is.
 */
export function isConnectionFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    // A socket's errno code (ECONNREFUSED, ENOENT for a missing Unix socket, ETIMEDOUT,
    // ECONNRESET, EPIPE) is always a connection's; no SQLSTATE class begins with E.
    if (/^E[A-Z_]+$/.test(code)) return true;
    return UNAVAILABLE_STATES.test(code);
  }
  // pg's own messages for a pool that cannot connect in time or a connection that ended.
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Connection ended|not queryable/i.test(
      message,
    )
  );
}
