import 'server-only';

/** Time as the feed sees it; tests drive a fake one to run minutes of polling in milliseconds. */
export interface Clock {
  now(): number;
  /** Resolves after ms; resolves early (never rejects) when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      // A sleeping poller must never keep a process (a test run, a build) alive on its own.
      timer.unref?.();
      signal?.addEventListener('abort', done, { once: true });
    }),
};
