// A wall runs one page load for days; after a redeploy its old bundle may no longer match the server. Now and
// then it fetches a fresh copy of its page: when that names a script chunk this page never loaded (chunk names
// carry content hashes), the bundle changed, and the wall reloads once, at a quiet moment (see
// lib/client/use-redeploy-reload.ts). Here: reading the chunk names, pure.

/** The app's own script chunks an HTML document names (scripts and preloads). */
export function chunksIn(html: string): Set<string> {
  const found = new Set<string>();
  for (const m of html.matchAll(/\/_next\/static\/[^"'\s)?#]+\.js/g)) found.add(m[0]);
  return found;
}

/** The chunks of a fresh page this page does not have, as a stable key; '' when nothing is new. */
export function newChunks(freshHtml: string, loaded: ReadonlySet<string>): string {
  return [...chunksIn(freshHtml)]
    .filter((c) => !loaded.has(c))
    .sort()
    .join(',');
}
