import type { Metadata } from 'next';
import { AdminConsole } from '@/components/admin/admin-console';
import { Providers } from '@/components/providers';
import { authService } from '@/lib/auth';
import { pageViewer } from '@/lib/auth/page';

export const metadata: Metadata = { title: 'Admin · Fleetmap' };

/** Users and their sessions, wall-display tokens, the audit log (admins only: ROUTE_ACCESS['/admin']). */
export default async function AdminPage() {
  const viewer = (await pageViewer()) ?? undefined;
  const mode = authService()?.config.mode ?? 'none';
  return (
    <Providers viewer={viewer}>
      <AdminConsole mode={mode} />
    </Providers>
  );
}
