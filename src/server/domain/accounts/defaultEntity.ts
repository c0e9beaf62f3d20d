/** Which entity a user's bare project names go to (W&B's `viewer.defaultEntity`). */
import type { UserRecord } from '../../store/Store.js';

/**
 * The chosen default when the user may still use it, else their first entity. A user without
 * entities: an admin (who may use every project) gets their username, anyone else null, which
 * makes both SDKs say plainly that no entity could be determined.
 */
export function defaultEntityOf(user: Pick<UserRecord, 'username' | 'isAdmin' | 'entities' | 'defaultEntity'>): string | null {
  const chosen = user.defaultEntity;
  if (chosen && (user.isAdmin || user.entities.includes(chosen))) return chosen;
  if (user.entities.length > 0) return user.entities[0]!;
  return user.isAdmin ? user.username : null;
}
