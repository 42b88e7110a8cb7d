import 'server-only';
import type { LiveSnapshot } from '@/lib/model';

/** A snapshot as served: serialised once, with its ETag, however many viewers read it. */
export interface StoredSnapshot {
  snapshot: LiveSnapshot;
  body: string;
  etag: string;
}

// Several app instances will share one snapshot (one leader polls, all serve): keep the store this small so
// an in-memory one can be swapped for Redis.
export interface SnapshotStore {
  read(): StoredSnapshot | null;
  write(s: StoredSnapshot): void;
}

export class MemorySnapshotStore implements SnapshotStore {
  private current: StoredSnapshot | null = null;

  read(): StoredSnapshot | null {
    return this.current;
  }

  write(s: StoredSnapshot): void {
    this.current = s;
  }
}
