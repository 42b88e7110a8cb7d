import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DelayBoard } from '@/components/delays/delay-board';
import { Providers } from '@/components/providers';
import { firstSnapshot } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Delays · Fleetmap' };

export default function DelaysPage() {
  return (
    <Providers live={firstSnapshot()}>
      {/* The period lives in the URL: useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Delay board</h1>}>
        <DelayBoard />
      </Suspense>
    </Providers>
  );
}
