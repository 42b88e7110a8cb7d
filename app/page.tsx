import { Suspense } from 'react';
import { DispatcherView } from '@/components/dispatcher/dispatcher-view';
import { Providers } from '@/components/providers';
import { pageViewer } from '@/lib/auth/page';
import { readAppConfig, readRegularityConfig } from '@/lib/config';
import { readMapStyleConfig } from '@/lib/map-style/config';
import { DEFAULT_REGULARITY } from '@/lib/model';
import { firstLive, preloadMapLibre, preloadOfflineMap } from '@/lib/server/first-paint';

// The home page is the dispatcher view. Configuration is read here, on the server, per request; the
// client gets plain values and never the environment.
export default async function HomePage() {
  const cfg = readAppConfig();
  const map = readMapStyleConfig();
  if (!cfg.ok || !map.ok) {
    return (
      <main className="mx-auto max-w-xl p-8">
        <h1 className="text-xl font-semibold">Fleetmap</h1>
        <p className="mt-3">The server configuration is invalid:</p>
        <ul className="mt-2 list-disc pl-6 text-sm">
          {[...(cfg.ok ? [] : cfg.problems), ...(map.ok ? [] : map.problems)].map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </main>
    );
  }
  const { staleAfterS } = cfg.config;
  const { styleUrl, styleUrlDark } = map.config;
  const regularity = readRegularityConfig();
  const { ghostAfterS } = regularity.ok ? regularity.config : DEFAULT_REGULARITY;
  await preloadMapLibre();
  preloadOfflineMap([styleUrl, styleUrlDark]);
  const viewer = (await pageViewer()) ?? undefined;
  return (
    <Providers live={firstLive()} viewer={viewer}>
      {/* useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Fleetmap</h1>}>
        <DispatcherView staleAfterS={staleAfterS} ghostAfterS={ghostAfterS} styleUrl={styleUrl} styleUrlDark={styleUrlDark} />
      </Suspense>
    </Providers>
  );
}
