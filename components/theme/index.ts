export { ThemeScript } from './theme-script';
export { ThemeToggle } from './theme-toggle';
export { useTheme, applyTheme, THEME_STORAGE_KEY } from './theme';
