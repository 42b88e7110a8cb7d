'use client';
import { useTheme } from '@/lib/client/use-theme';

export function ThemeToggle({ className }: { className?: string }) {
  const [theme, setTheme] = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      className={`inline-flex size-8 items-center justify-center rounded-md border border-slate-300 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${className ?? ''}`}
    >
      {theme === 'dark' ? (
        <svg viewBox="0 0 20 20" className="size-4" aria-hidden fill="currentColor">
          <path d="M10 3a1 1 0 0 1 1 1v1a1 1 0 1 1-2 0V4a1 1 0 0 1 1-1Zm0 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm6-4a1 1 0 1 1 0 2h-1a1 1 0 1 1 0-2h1ZM5 9a1 1 0 1 1 0 2H4a1 1 0 1 1 0-2h1Zm5 6a1 1 0 0 1 1 1v1a1 1 0 1 1-2 0v-1a1 1 0 0 1 1-1Z" />
        </svg>
      ) : (
        <svg viewBox="0 0 20 20" className="size-4" aria-hidden fill="currentColor">
          <path d="M7.5 2.2a.75.75 0 0 1 .2.8 6.5 6.5 0 0 0 9.3 7.6.75.75 0 0 1 1 .9A8 8 0 1 1 6.7 2a.75.75 0 0 1 .8.2Z" />
        </svg>
      )}
    </button>
  );
}
