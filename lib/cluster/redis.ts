import { createClient } from 'redis';

// The Redis connection as every part of the cluster uses it: commands fail at once while the link is down
// (no offline queue: a command queued for minutes would act on a world that moved on), and the client
// reconnects by itself, every second at most.

function create(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 1_000) },
  });
}

export type Redis = ReturnType<typeof create>;

export function redisClient(url: string, onError: (e: Error) => void): Redis {
  const client = create(url);
  client.on('error', onError);
  return client;
}

