// The page theme: light or dark, chosen per browser (the wall takes its own from its URL).

export type Theme = 'light' | 'dark';

export function isTheme(v: unknown): v is Theme {
  return v === 'light' || v === 'dark';
}

/** Where the theme choice is stored (shared by the pre-paint script and the toggle). */
export const THEME_STORAGE_KEY = 'fleetmap-theme';
