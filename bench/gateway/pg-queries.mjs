// The statements a gateway instance sends to PostgreSQL, and the notifications it receives, counted in its own process by wrapping the
// pg driver's Client.prototype.query (the store's pools and listener all go through it).
import pg from 'pg';

/** Starts counting; returns the live counts by statement (its first words). */
export function countQueries() {
  const counts = {};
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (q, ...rest) {
    const text = typeof q === 'string' ? q : (q?.text ?? '');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 48);
    counts[key] = (counts[key] ?? 0) + 1;
    return query.call(this, q, ...rest);
  };
  // Notifications from the other instances (and this one's own) arrive as events on the listener.
  const emit = pg.Client.prototype.emit;
  pg.Client.prototype.emit = function (name, ...args) {
    if (name === 'notification') counts['(notification received)'] = (counts['(notification received)'] ?? 0) + 1;
    return emit.call(this, name, ...args);
  };
  return counts;
}
