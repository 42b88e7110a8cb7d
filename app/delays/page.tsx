import type { Metadata } from 'next';
import { DelayBoard } from '@/components/delays/delay-board';
import { Providers } from '@/components/providers';
import { firstSnapshot } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Delays · Fleetmap' };

export default function DelaysPage() {
  return (
    <Providers live={firstSnapshot()}>
      <DelayBoard />
    </Providers>
  );
}
