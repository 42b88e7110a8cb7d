import type { Metadata, Viewport } from 'next';
import { ThemeScript } from '@/components/theme/theme-script';
import { pageNonce } from '@/lib/server/page-nonce';
import './globals.css';

export const metadata: Metadata = {
  title: 'Fleetmap',
  description: 'Live fleet map for dispatchers, managers and wall displays.',
  // Inline, so pages need no request for it; public/favicon.ico (the same mark) answers a browser that asks for
  // /favicon.ico all the same (Chromium did, twice in one run of the ladder e2e, which navigates page after page).
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231e293b'/%3E%3Ccircle cx='8' cy='8' r='3.5' fill='%23009E73'/%3E%3C/svg%3E",
  },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The CSP (proxy.ts) admits inline scripts by this per-request nonce only.
  const nonce = await pageNonce();
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
