import type { AuthUser } from '../../platform/auth/guard.ts';

/**
 * Who may enrich (the spec's rule): administrators, or users whose `permissions.enriched`
 * contains 'all'. `permissionsOf` is read only for a user who is not an administrator.
 */
export async function mayEnrich(
  user: Pick<AuthUser, 'id' | 'accessLevel'>,
  permissionsOf: (userId: string) => Promise<readonly string[]>,
): Promise<boolean> {
  if (user.accessLevel === 'ADMINISTRATOR') return true;
  return (await permissionsOf(user.id)).includes('all');
}
