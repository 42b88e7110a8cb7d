import type { Metadata } from 'next';
import { Providers } from '@/components/providers';
import { WallDisplay } from '@/components/wall/wall-display';
import { parseWallOptions } from '@/lib/view/wall-options';
import { readAppConfig } from '@/lib/config';

export const metadata: Metadata = { title: 'Wall · Fleetmap' };

export default async function WallPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const options = parseWallOptions(await searchParams);
  // Start-up validation already refused a bad configuration; a wall must not fail on it, so fall back to no style.
  const cfg = readAppConfig();
  const config = cfg.ok ? cfg.config : null;
  return (
    <Providers>
      <WallDisplay
        options={options}
        staleAfterS={config?.staleAfterS ?? 120}
        styleUrl={config?.mapStyleUrl ?? null}
        styleUrlDark={config?.mapStyleUrlDark ?? null}
      />
    </Providers>
  );
}
