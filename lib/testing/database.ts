import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

// A PostgreSQL database of a test's (or a benchmark's) own on a shared server: created with a random name, dropped
// by the caller. Nothing here depends on the test runner, so benchmarks use it too.

/** Creates an empty database on TEST_DATABASE_URL's server; returns its URL and the function that drops it. */
export async function createTestDatabase(baseUrl = process.env.TEST_DATABASE_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `fleetmap_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

