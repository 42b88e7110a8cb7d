'use client';
// Light or dark, remembered per browser, applied as data-theme on <html> (Tailwind's `dark:` variant reads
// it). ThemeScript sets it before first paint; this keeps React in step with it afterwards.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { isTheme, THEME_STORAGE_KEY, type Theme } from '@/lib/theme/theme';

function readTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function subscribe(listener: () => void) {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  // Another tab changing the theme changes this one too.
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY && isTheme(e.newValue)) applyTheme(e.newValue);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    observer.disconnect();
    window.removeEventListener('storage', onStorage);
  };
}

export function applyTheme(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

export function useTheme(): [Theme, (t: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'light' as Theme);
  const setTheme = useCallback((t: Theme) => {
    applyTheme(t);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, t);
    } catch {
      // storage disabled (private mode, policy): the choice lasts for this page only
    }
  }, []);
  return [theme, setTheme];
}

/** A page that picks its own theme (the wall) whatever another page left in the shared `data-theme`; restored on leave. */
export function useDocumentTheme(theme: Theme) {
  useEffect(() => {
    const html = document.documentElement;
    const before = html.dataset.theme;
    html.dataset.theme = theme;
    return () => {
      if (before === undefined) delete html.dataset.theme;
      else html.dataset.theme = before;
    };
  }, [theme]);
}
