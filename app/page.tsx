import { Suspense } from 'react';
import { DispatcherView } from '@/components/dispatcher/dispatcher-view';
import { Providers } from '@/components/providers';
import { readAppConfig } from '@/lib/config';
import { firstSnapshot, preloadOfflineMap } from '@/lib/server/first-paint';

// The home page is the dispatcher view. Configuration is read here, on the server, per request; the
// client gets plain values and never the environment.
export default function HomePage() {
  const cfg = readAppConfig();
  if (!cfg.ok) {
    return (
      <main className="mx-auto max-w-xl p-8">
        <h1 className="text-xl font-semibold">Fleetmap</h1>
        <p className="mt-3">The server configuration is invalid:</p>
        <ul className="mt-2 list-disc pl-6 text-sm">
          {cfg.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </main>
    );
  }
  const { staleAfterS, mapStyleUrl, mapStyleUrlDark } = cfg.config;
  preloadOfflineMap([mapStyleUrl, mapStyleUrlDark]);
  return (
    <Providers live={firstSnapshot()}>
      {/* useSearchParams needs a Suspense boundary. */}
      <Suspense fallback={<h1 className="p-4 text-base font-semibold">Fleetmap</h1>}>
        <DispatcherView staleAfterS={staleAfterS} styleUrl={mapStyleUrl} styleUrlDark={mapStyleUrlDark} />
      </Suspense>
    </Providers>
  );
}
