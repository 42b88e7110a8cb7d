'use client';
import { useCallback, useRef, useState } from 'react';
import { parseDispatcherUrl, serializeDispatcherUrl, type DispatcherUrlState } from '@/lib/view/dispatcher-url';
import { useUrlState, type UrlPatch as StatePatch } from './use-url-state';

export type UrlPatch = StatePatch<DispatcherUrlState>;

/** The dispatcher view's state in the query string (lib/view/dispatcher-url.ts). */
export function useDispatcherUrl(): [DispatcherUrlState, (patch: UrlPatch) => void] {
  return useUrlState(parseDispatcherUrl, serializeDispatcherUrl);
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
