'use client';
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { parseDispatcherUrl, serializeDispatcherUrl, type DispatcherUrlState } from '@/lib/view/dispatcher-url';

export type UrlPatch = Partial<DispatcherUrlState> | ((s: DispatcherUrlState) => Partial<DispatcherUrlState>);

/**
 * The view's state lives in the query string. Writes go through history.replaceState, which Next.js keeps
 * in step with useSearchParams: router.replace would re-request this dynamic page from the server on every
 * keystroke and map move, for a change only this browser cares about. No history entries, no scrolling.
 */
export function useDispatcherUrl(): [DispatcherUrlState, (patch: UrlPatch) => void] {
  const params = useSearchParams();
  const state = useMemo(() => parseDispatcherUrl(params), [params]);
  const update = useCallback((patch: UrlPatch) => {
    const current = parseDispatcherUrl(new URLSearchParams(window.location.search));
    const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
    const qs = serializeDispatcherUrl(next);
    if (qs === window.location.search.replace(/^\?/, '')) return;
    window.history.replaceState(null, '', qs ? `?${qs}` : window.location.pathname);
  }, []);
  return [state, update];
}

const VIEW_WRITE_DEBOUNCE_MS = 400;

/**
 * The map's view in the URL: read once, for the map's first camera; later map moves write it (debounced, a
 * drag fires many), never read it.
 */
export function useMapViewUrl(urlView: DispatcherUrlState['view'], update: (patch: UrlPatch) => void) {
  const [initialView] = useState(urlView);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onViewChange = useCallback(
    (view: NonNullable<DispatcherUrlState['view']>) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => update({ view }), VIEW_WRITE_DEBOUNCE_MS);
    },
    [update],
  );
  return { initialView, onViewChange };
}
