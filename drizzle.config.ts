import { defineConfig } from 'drizzle-kit';

// One migrations folder for the whole database: each room that keeps tables (lib/history, lib/auth) adds its
// schema file here, and `npx drizzle-kit generate` writes the next migration into ./drizzle. The app applies
// them at start on PGlite and PostgreSQL alike (lib/history/store.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./lib/history/schema.ts', './lib/auth/schema.ts', './lib/exceptions/schema.ts'],
  out: './drizzle',
});
