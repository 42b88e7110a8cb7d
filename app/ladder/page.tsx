import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LadderView } from '@/components/ladder/ladder-view';
import { Providers } from '@/components/providers';
import { pageViewer } from '@/lib/auth/page';

export const metadata: Metadata = { title: 'Ladder · Fleetmap' };

/** The route ladder: ?route=M15,M101 side by side, live headways, ghosts (docs/regularity.md). */
export default async function LadderPage() {
  const viewer = (await pageViewer()) ?? undefined;
  return (
    <Providers viewer={viewer}>
      {/* useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Ladder</h1>}>
        <LadderView />
      </Suspense>
    </Providers>
  );
}
