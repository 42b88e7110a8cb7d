'use client';
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';

type Params = Pick<URLSearchParams, 'get'>;
export type UrlPatch<S> = Partial<S> | ((s: S) => Partial<S>);

/**
 * A view's state kept in the query string. Writes go through history.replaceState, which Next.js keeps in step
 * with useSearchParams: router.replace would re-request the dynamic page from the server on every keystroke,
 * for a change only this browser cares about. No history entries, no scrolling.
 */
export function useUrlState<S>(parse: (p: Params) => S, serialize: (s: S) => string): [S, (patch: UrlPatch<S>) => void] {
  const params = useSearchParams();
  const state = useMemo(() => parse(params), [parse, params]);
  const update = useCallback(
    (patch: UrlPatch<S>) => {
      const current = parse(new URLSearchParams(window.location.search));
      const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
      const qs = serialize(next);
      if (qs === window.location.search.replace(/^\?/, '')) return;
      window.history.replaceState(null, '', qs ? `?${qs}` : window.location.pathname);
    },
    [parse, serialize],
  );
  return [state, update];
}
