// Runs once when the Next.js server starts. The feed, the simulator and the key belong to the Node.js
// runtime only; nothing here runs in the edge runtime or at build time.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startServerOrExit } = await import('./lib/server/start');
  await startServerOrExit();
}
