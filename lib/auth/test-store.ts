import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import * as schema from './schema';
import { AuthStore } from './store';

/** A fresh in-memory store holding sign-in's tables only, for unit tests. */
export async function testAuthStore(): Promise<{ store: AuthStore; close: () => Promise<void> }> {
  const client = new PGlite();
  const db = drizzle(client);
  const empty = generateDrizzleJson({});
  for (const statement of await generateMigration(empty, generateDrizzleJson(schema as Record<string, unknown>))) await client.exec(statement);
  return { store: new AuthStore(db), close: () => client.close() };
}
