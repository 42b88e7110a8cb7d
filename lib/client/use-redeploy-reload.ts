'use client';
// Reloads a long-running wall once after a redeploy, at a quiet moment; lib/view/redeploy.ts tells a new
// build from the chunk names a fresh copy of the page asks for.
import { useEffect, useRef } from 'react';
import { chunksIn, newChunks } from '@/lib/view/redeploy';

const CHECK_EVERY_MS = 10 * 60_000;
const QUIET_CHECK_MS = 5_000;
const RELOADED_FOR = 'fleetmap.wall.reloadedFor';

function loadedChunks(): Set<string> {
  // Chunks loaded later on demand add to this set but never appear in a fresh page: only new names count.
  const urls = [
    ...Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'), (s) => s.src),
    ...Array.from(document.querySelectorAll<HTMLLinkElement>('link[href]'), (l) => l.href),
    ...performance.getEntriesByType('resource').map((e) => e.name),
  ];
  return chunksIn(urls.map((u) => `"${new URL(u, location.href).pathname}"`).join(' '));
}

/**
 * `isQuiet` says whether now is a good moment (data fine, nothing mid-change). The reload happens once per new
 * signature: if the fresh page still differs after reloading (a cache in between, say), the wall carries on.
 */
export function useRedeployReload(isQuiet: () => boolean) {
  const quiet = useRef(isQuiet);
  useEffect(() => {
    quiet.current = isQuiet;
  });
  useEffect(() => {
    const loaded = loadedChunks();
    let pending: string | null = null;
    let stopped = false;
    const check = async () => {
      if (pending) {
        if (quiet.current()) {
          sessionStorage.setItem(RELOADED_FOR, pending);
          location.reload();
        }
        return;
      }
      try {
        const res = await fetch(location.href, { cache: 'no-store', headers: { Accept: 'text/html' } });
        if (!res.ok || stopped) return;
        const added = newChunks(await res.text(), loaded);
        if (loaded.size > 0 && added && sessionStorage.getItem(RELOADED_FOR) !== added) pending = added;
      } catch {
        // The server being away is the feed banner's business; try again next time.
      }
    };
    const id = setInterval(check, CHECK_EVERY_MS);
    // After a pending reload is found, look for a quiet moment every few seconds rather than every ten minutes.
    const quietId = setInterval(() => pending && check(), QUIET_CHECK_MS);
    return () => {
      stopped = true;
      clearInterval(id);
      clearInterval(quietId);
    };
  }, []);
}
