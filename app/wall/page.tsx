import type { Metadata } from 'next';
import { Providers } from '@/components/providers';
import { WallDisplay } from '@/components/wall/wall-display';
import { parseWallOptions } from '@/lib/view/wall-options';
import { appConfig, readAppConfig } from '@/lib/config';
import { firstSnapshot, preloadOfflineMap } from '@/lib/server/first-paint';

export const metadata: Metadata = { title: 'Wall · Fleetmap' };

export default async function WallPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const options = parseWallOptions(await searchParams);
  // Start-up validation already refused a bad configuration; a wall must not fail on it, so it falls back to
  // the defaults (the configuration with nothing set).
  const cfg = readAppConfig();
  const config = cfg.ok ? cfg.config : appConfig({});
  preloadOfflineMap([config.mapStyleUrl, config.mapStyleUrlDark]);
  return (
    <Providers live={firstSnapshot()}>
      <WallDisplay
        options={options}
        staleAfterS={config.staleAfterS}
        styleUrl={config.mapStyleUrl}
        styleUrlDark={config.mapStyleUrlDark}
      />
    </Providers>
  );
}
