import type { Metadata } from 'next';
import { ExceptionHistory } from '@/components/exceptions/exception-history';
import { Providers } from '@/components/providers';
import { pageViewer } from '@/lib/auth/page';
import { firstLive } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Exceptions · Fleetmap' };

export default async function ExceptionsPage() {
  const viewer = (await pageViewer()) ?? undefined;
  return (
    <Providers live={firstLive()} viewer={viewer}>
      <ExceptionHistory />
    </Providers>
  );
}
