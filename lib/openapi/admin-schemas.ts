import { z } from 'zod';
import type { AdminAuditEntry, AdminUser, AdminWallToken, CreatedWallToken } from '@/lib/model';
import { named, nullableString } from './schemas';

// The admin pages' answers (/api/admin/*: users, wall and feed tokens, the audit log) as zod schemas, each checked
// against its lib/model type by the compiler and registered in COMPONENTS like those of schemas.ts.

const role = z.enum(['viewer', 'dispatcher', 'manager', 'admin']);

export const adminUser = named(
  'AdminUser',
  z.object({ name: z.string(), role, source: z.enum(['local', 'oidc']), createdAt: z.string(), updatedAt: z.string(), sessions: z.number().int() }) satisfies z.ZodType<AdminUser>,
);

export const adminWallToken = named(
  'AdminWallToken',
  z.object({
    id: z.number().int(),
    kind: z.enum(['wall', 'feed']).describe("wall: a wall display's; feed: a GTFS-Realtime consumer's"),
    name: z.string(),
    routes: z.array(z.string()).nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    lastUsedAt: nullableString,
    revokedAt: nullableString,
    revokedBy: nullableString,
  }) satisfies z.ZodType<AdminWallToken>,
);

export const createdWallToken = named(
  'CreatedWallToken',
  z.object({
    token: adminWallToken,
    wallPath: z.string().nullable().describe('The wall address with its token, shown this once (null for a feed token)'),
    feedPaths: z.array(z.string()).optional().describe("A feed token's feed addresses with the token, shown this once"),
  }) satisfies z.ZodType<CreatedWallToken>,
);

export const adminAuditEntry = named(
  'AdminAuditEntry',
  z.object({
    id: z.number().int(),
    at: z.string(),
    event: z.string(),
    actor: nullableString,
    subject: nullableString,
    address: nullableString,
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
  }) satisfies z.ZodType<AdminAuditEntry>,
);
