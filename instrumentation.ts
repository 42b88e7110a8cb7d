// Runs once when the Next.js server starts. The feed, the simulator and the key belong to the Node.js
// runtime only; nothing here runs in the edge runtime or at build time.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startServer } = await import('./lib/server/start');
  try {
    await startServer();
  } catch (err) {
    // Next.js logs a failed hook and serves on regardless (its listener may already be open): a server with an
    // invalid configuration, such as a reachable address without sign-in, must not stay up. One message, no stack.
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
