'use client';
import { useSyncExternalStore } from 'react';

// False in the server's HTML and while the page hydrates, true once React runs the page: a control whose action
// needs the page's JavaScript (a form answered by fetch) stays disabled until then, so an early click is never a
// native submit that reloads the page and drops what was typed.

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
