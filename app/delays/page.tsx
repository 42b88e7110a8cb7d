import type { Metadata } from 'next';
import { DelayBoard } from '@/components/delays/delay-board';
import { Providers } from '@/components/providers';

export const metadata: Metadata = { title: 'Delays · Fleetmap' };

export default function DelaysPage() {
  return (
    <Providers>
      <DelayBoard />
    </Providers>
  );
}
