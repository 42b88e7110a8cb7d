import type { Metadata } from 'next';
import { StatusView } from '@/components/integration/status-view';
import { Providers } from '@/components/providers';

export const metadata: Metadata = { title: 'Status · Fleetmap' };

/** For administrators (admin-only once sign-in exists): the integration's key, budget, errors and health. */
export default function StatusPage() {
  return (
    <Providers>
      <StatusView />
    </Providers>
  );
}
