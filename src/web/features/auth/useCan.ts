/** The permission helper as a hook: the signed-in user's permissions in one project (or entity). */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { EndpointName } from '../../../contract/endpoints.js';
import { permission, type Permission } from '../../lib/permissions.js';
import { whoamiQueryOptions } from './authQueries.js';

/**
 * `can('callsDelete')` answers whether the signed-in user may call that endpoint in `scope`
 * (`<entity>/<project>`, or an entity), with the role needed when not.
 */
export function useCan(scope: string): (name: EndpointName) => Permission {
  const { data: who } = useSuspenseQuery(whoamiQueryOptions());
  return useCallback((name: EndpointName) => permission(who, name, scope), [who, scope]);
}
