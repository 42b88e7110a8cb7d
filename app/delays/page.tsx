import type { Metadata } from 'next';
import { DelayBoard } from '@/components/delays/delay-board';
import { Providers } from '@/components/providers';
import { pageViewer } from '@/lib/auth/page';

export const metadata: Metadata = { title: 'Delays · Fleetmap' };

export default async function DelaysPage() {
  const viewer = (await pageViewer()) ?? undefined;
  return (
    <Providers viewer={viewer}>
      <DelayBoard />
    </Providers>
  );
}
