/** Where the theme choice is stored (shared by the pre-paint script and the toggle). */
export const THEME_STORAGE_KEY = 'fleetmap-theme';
