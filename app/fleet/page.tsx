import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FleetView } from '@/components/fleet/fleet-view';
import { Providers } from '@/components/providers';
import { appConfig, readAppConfig } from '@/lib/config';

export const metadata: Metadata = { title: 'Fleet · Fleetmap' };

export default function FleetPage() {
  // Start-up validation refused a bad configuration already; the defaults stand in rather than a broken page.
  const cfg = readAppConfig();
  const { staleAfterS } = cfg.ok ? cfg.config : appConfig({});
  return (
    <Providers>
      {/* useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Fleet</h1>}>
        <FleetView staleAfterS={staleAfterS} />
      </Suspense>
    </Providers>
  );
}
