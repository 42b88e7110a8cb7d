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
  /** The wall's path with the token: shown once to the admin who created it, never again. */
  wallPath: string;
}
