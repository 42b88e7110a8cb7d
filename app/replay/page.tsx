import type { Metadata } from 'next';
import { Suspense } from 'react';
import { Providers } from '@/components/providers';
import { ReplayView } from '@/components/replay/replay-view';
import { appConfig, readAppConfig } from '@/lib/config';

export const metadata: Metadata = { title: 'Replay · Fleetmap' };

export default function ReplayPage() {
  // Start-up validation already refused a bad configuration; the replay falls back to the defaults.
  const cfg = readAppConfig();
  const config = cfg.ok ? cfg.config : appConfig({});
  return (
    <Providers>
      {/* The moment lives in the URL: useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Replay</h1>}>
        <ReplayView staleAfterS={config.staleAfterS} styleUrl={config.mapStyleUrl} styleUrlDark={config.mapStyleUrlDark} thresholds={config.delay} />
      </Suspense>
    </Providers>
  );
}
