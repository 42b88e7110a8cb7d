// next/navigation for render tests (vi.mock('next/navigation', () => import('@/lib/testing/next-navigation'))):
// the query string is the test's window.location's, and a view that writes it (history.replaceState, as
// lib/client/use-url-state.ts does) re-renders with the new one, as Next.js keeps useSearchParams in step.
import { useMemo, useSyncExternalStore } from 'react';

const CHANGED = 'fleetmap-test:url';
let patched = false;

function subscribe(onChange: () => void): () => void {
  if (!patched) {
    patched = true;
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = window.history[name].bind(window.history);
      window.history[name] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        window.dispatchEvent(new Event(CHANGED));
      };
    }
  }
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/** The same object while the query string stays the same, as Next's, so that memos keyed on it hold. */
export function useSearchParams(): URLSearchParams {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  return useMemo(() => new URLSearchParams(search), [search]);
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export function useRouter() {
  return {
    push: (href: string) => window.history.pushState(null, '', href),
    replace: (href: string) => window.history.replaceState(null, '', href),
    refresh: () => {},
    back: () => window.history.back(),
    forward: () => window.history.forward(),
    prefetch: () => {},
  };
}
