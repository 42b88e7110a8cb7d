'use client';
import { useEffect, useRef } from 'react';

export interface DispatcherKeyActions {
  focusSearch: () => void;
  /** Esc: returns true when it cleared something. */
  escape: () => void;
  move: (delta: 1 | -1) => void;
  toggleFollow: () => void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== 'checkbox');
}

/**
 * `/` search, Esc clear, ArrowUp/ArrowDown through the list, `f` follow. Arrows also work from the search
 * box (type, then walk the results), but not from selects, which need them.
 */
export function useDispatcherKeys(actions: DispatcherKeyActions) {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const target = e.target;
      const inSearch = target instanceof HTMLInputElement && target.type === 'search';
      const typing = isTyping(target);
      if (e.key === 'Escape') {
        latest.current.escape();
        return;
      }
      if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && (!typing || inSearch)) {
        e.preventDefault();
        latest.current.move(e.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      if (typing) return;
      if (e.key === '/') {
        e.preventDefault();
        latest.current.focusSearch();
      } else if (e.key === 'f' || e.key === 'F') {
        latest.current.toggleFollow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
