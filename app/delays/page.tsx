import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DelayBoard } from '@/components/delays/delay-board';
import { Providers } from '@/components/providers';
import { firstLive } from '@/lib/server/first-paint';
import { pageViewer } from '@/lib/auth/page';

export const metadata: Metadata = { title: 'Delays · Fleetmap' };

export default async function DelaysPage() {
  const viewer = (await pageViewer()) ?? undefined;
  return (
    <Providers live={firstLive()} viewer={viewer}>
      {/* The period lives in the URL: useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Delay board</h1>}>
        <DelayBoard />
      </Suspense>
    </Providers>
  );
}
