// Bodies of the admin API (/api/admin/*): users, wall tokens, the audit log. Dates arrive as ISO strings.
import type { Role } from './access';

export interface AdminUser {
  name: string;
  role: Role;
  source: 'local' | 'oidc';
  createdAt: string;
  updatedAt: string;
  sessions: number;
}

export interface AdminWallToken {
  id: number;
  /** `wall`: a wall display's; `feed`: a GTFS-Realtime consumer's (role feed: the feeds and nothing else). */
  kind: 'wall' | 'feed';
  name: string;
  routes: string[] | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

export interface AdminAuditEntry {
  id: number;
  at: string;
  event: string;
  actor: string | null;
  subject: string | null;
  address: string | null;
  detail: Record<string, string | number | boolean | null> | null;
}

export interface CreatedWallToken {
  token: AdminWallToken;
  /** The wall's path with the token: shown once to the admin who created it, never again. Null for a feed token. */
  wallPath: string | null;
  /** A feed token's feed paths with the token (the token also works as a bearer token): shown once. */
  feedPaths?: string[];
}
