import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { ThemeScript } from '@/components/theme/theme-script';
import './globals.css';

export const metadata: Metadata = {
  title: 'Fleetmap',
  description: 'Live fleet map for dispatchers, managers and wall displays.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The CSP (proxy.ts) admits inline scripts by this per-request nonce only.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    // data-theme is set by ThemeScript before hydration, so the attribute legitimately differs from the server's.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">{children}</body>
    </html>
  );
}
