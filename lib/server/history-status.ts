import 'server-only';
import type { RecorderStatus } from '@/lib/model';
import type { RecorderStats } from '@/lib/history/recorder';

/** Rows waiting, or the last batch's lag, past which the recorder is shown as behind the feed. */
const BEHIND_PENDING_ROWS = 20_000;
const BEHIND_LAG_MS = 30_000;

/** The recorder's own figures as the status page shows them. */
export function recorderStatusOf(stats: RecorderStats, where: string | null): RecorderStatus {
  const base = { store: where ?? 'store not open yet', lagMs: stats.lastLagMs, pending: stats.pendingRows, droppedRows: stats.droppedRows, lastWriteAt: null };
  if (stats.failing) return { ...base, state: 'failed', message: `Not recording: ${stats.failing.reason}` };
  const dropped = stats.droppedRows > 0 ? `${stats.droppedRows} rows dropped since start (buffer full)` : null;
  if (stats.pendingRows > BEHIND_PENDING_ROWS || (stats.lastLagMs ?? 0) > BEHIND_LAG_MS) return { ...base, state: 'behind', message: dropped };
  if (stats.batches === 0) return { ...base, state: 'starting', message: dropped };
  return { ...base, state: 'recording', message: dropped };
}
