import type { Metadata } from 'next';
import { Suspense } from 'react';
import { Providers } from '@/components/providers';
import { ReplayView } from '@/components/replay/replay-view';
import { pageViewer } from '@/lib/auth/page';
import { appConfig, readAppConfig } from '@/lib/config';
import { mapStyleConfig } from '@/lib/map-style/config';
import { preloadMapLibre } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Replay · Fleetmap' };

export default async function ReplayPage() {
  const viewer = (await pageViewer()) ?? undefined;
  // Start-up validation already refused a bad configuration; the replay falls back to the defaults.
  const cfg = readAppConfig();
  const config = cfg.ok ? cfg.config : appConfig({});
  const map = mapStyleConfig();
  await preloadMapLibre();
  return (
    <Providers viewer={viewer}>
      {/* The moment lives in the URL: useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Replay</h1>}>
        <ReplayView staleAfterS={config.staleAfterS} styleUrl={map.styleUrl} styleUrlDark={map.styleUrlDark} thresholds={config.delay} />
      </Suspense>
    </Providers>
  );
}
