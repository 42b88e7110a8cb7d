'use client';
// Light or dark, remembered per browser, applied as data-theme on <html> (Tailwind's `dark:` variant reads
// it). ThemeScript sets it before first paint; this keeps React in step with it afterwards.
import { useCallback, useSyncExternalStore } from 'react';
import type { Theme } from '@/lib/client/delay-palette';

import { THEME_STORAGE_KEY } from './theme-key';

export { THEME_STORAGE_KEY };

function readTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function subscribe(listener: () => void) {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  // Another tab changing the theme changes this one too.
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY && (e.newValue === 'light' || e.newValue === 'dark')) applyTheme(e.newValue);
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
