'use client';
// The header every page but the wall shares: the page's title, the views to switch between, what the page says
// about its data (`status`), its own controls (`actions`), who is signed in, and the theme toggle.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { AccessBadge } from '@/components/auth/access-badge';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { TimeZoneSwitch } from '@/components/time-zone-switch';
import { ROUTE_ACCESS } from '@/lib/auth/access';
import { useViewer } from '@/lib/client/use-viewer';
import { roleAtLeast } from '@/lib/model/access';

const VIEWS = [
  { id: 'dispatch', href: '/', label: 'Dispatch' },
  { id: 'ladder', href: '/ladder', label: 'Ladder' },
  { id: 'delays', href: '/delays', label: 'Delays' },
  { id: 'exceptions', href: '/exceptions', label: 'Exceptions' },
  { id: 'replay', href: '/replay', label: 'Replay' },
  { id: 'fleet', href: '/fleet', label: 'Fleet' },
  { id: 'status', href: '/status', label: 'Status' },
  { id: 'wall', href: '/wall', label: 'Wall' },
] as const;

export type AppView = (typeof VIEWS)[number]['id'] | 'admin';

export interface AppHeaderProps {
  title: string;
  current: AppView;
  /** On phones on a row of its own under the title; on wider screens between the views and the controls. */
  status?: ReactNode;
  actions?: ReactNode;
  /** The organization's zone (the feed's), null while not known: the page's times follow the switch. */
  agencyZone: string | null;
}

export function AppHeader({ title, current, status, actions, agencyZone }: AppHeaderProps) {
  const viewer = useViewer();
  // Views the role does not include are not offered (the server would refuse them).
  const mayOpen = (href: keyof typeof ROUTE_ACCESS) => {
    const need = ROUTE_ACCESS[href].role;
    return need === 'public' || roleAtLeast(viewer.role, need);
  };
  return (
    <header className="flex flex-wrap items-center gap-x-5 gap-y-1 border-b border-slate-200 bg-white px-3 py-1.5 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-center gap-3">
        <h1 className="text-base font-semibold tracking-tight">{title}</h1>
        <nav aria-label="Views" className="flex gap-3 text-sm text-slate-600 dark:text-slate-300">
          {VIEWS.filter((v) => mayOpen(v.href)).map((v) =>
            v.id === current ? (
              <span key={v.id} aria-current="page" className="font-medium text-slate-900 dark:text-white">
                {v.label}
              </span>
            ) : (
              // No prefetch: each view is rendered per request with the live snapshot in it, and rendering the
              // other two while this page paints its first buses would compete with it for the server and the wire.
              <Link key={v.id} href={v.href} prefetch={false} className="hover:underline">
                {v.label}
              </Link>
            ),
          )}
        </nav>
      </div>
      <div className="ml-auto flex items-center gap-2 md:order-last">
        {actions}
        <TimeZoneSwitch agencyZone={agencyZone} />
        <AccessBadge />
        <ThemeToggle />
      </div>
      {status && <div className="order-last w-full md:order-none md:w-auto md:min-w-0 md:flex-1">{status}</div>}
    </header>
  );
}
