// Who is looking, as the browser may know it: the roles, the sign-in mode, and what a page is told about its
// viewer. Secrets (session ids, tokens) never appear here: these values are rendered into pages.

export const ROLES = ['viewer', 'dispatcher', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type AuthMode = 'none' | 'local' | 'oidc';

/** True when `have` includes the rights of `need` (viewer < dispatcher < manager < admin). */
export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** What a page knows about its viewer. */
export type Viewer =
  | {
      kind: 'open';
      /** No sign-in: everyone may do everything. */
      role: 'admin';
      /** Set when sign-in is off on an address other machines can reach. */
      warning: string | null;
    }
  | { kind: 'user'; name: string; role: Role; mode: Exclude<AuthMode, 'none'> }
  | { kind: 'wall'; name: string; role: 'viewer'; routes: string[] | null };

/** Why an API answered 401/403, so a page can react (sign in again, or say the display was revoked). */
export type AccessDeniedReason = 'sign-in-required' | 'role-too-low' | 'wall-token-revoked' | 'csrf';

export interface AccessDeniedBody {
  error: { status: 401 | 403; message: string; reason: AccessDeniedReason };
}

/** What a wall display shows once its token is revoked, whether it learns it from a poll or from a reload. */
export const REVOKED_WALL_TEXT = {
  title: "This display's access was revoked",
  body: 'An administrator revoked the token this screen used. Ask for a new wall link to show the fleet here again.',
} as const;
