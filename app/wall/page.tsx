import type { Metadata } from 'next';
import { Providers } from '@/components/providers';
import { pageViewer } from '@/lib/auth/page';
import { WallDisplay } from '@/components/wall/wall-display';
import { parseWallOptions } from '@/lib/page-url/wall-options';
import { appConfig, readAppConfig } from '@/lib/config';
import { mapStyleConfig } from '@/lib/map-style/config';
import { firstLive, preloadMapLibre, preloadOfflineMap } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Wall · Fleetmap' };

export default async function WallPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = (await pageViewer()) ?? undefined;
  const asked = parseWallOptions(await searchParams);
  // A wall token limited to some routes shows those, whatever the URL says.
  const limitedTo = viewer?.kind === 'wall' ? viewer.routes : null;
  const options = limitedTo ? { ...asked, routes: limitedTo } : asked;
  // ... and its page carries only their buses and trips, as /api/live answers it (lib/http/live-scope.ts).
  const live = firstLive(limitedTo);
  // Start-up validation already refused a bad configuration; a wall must not fail on it, so it falls back to
  // the defaults (the configuration with nothing set).
  const cfg = readAppConfig();
  const config = cfg.ok ? cfg.config : appConfig({});
  const map = mapStyleConfig();
  await preloadMapLibre();
  preloadOfflineMap([map.styleUrl, map.styleUrlDark]);
  return (
    <Providers live={live} viewer={viewer}>
      <WallDisplay
        options={options}
        staleAfterS={config.staleAfterS}
        styleUrl={map.styleUrl}
        styleUrlDark={map.styleUrlDark}
      />
      {viewer?.kind === 'open' && viewer.warning && (
        <p role="alert" className="fixed bottom-0 left-0 z-50 bg-red-700 px-3 py-1 text-sm text-white">
          {viewer.warning}
        </p>
      )}
    </Providers>
  );
}
