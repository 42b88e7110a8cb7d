import { describe, expect, it } from 'vitest';
import type { RecorderStats } from '@/lib/history/recorder';
import { recorderStatusOf } from './history-status';

const stats = (over: Partial<RecorderStats> = {}): RecorderStats => ({ writtenRows: 10, droppedRows: 0, pendingRows: 3, batches: 2, lastLagMs: 900, maxLagMs: 1200, failing: null, ...over });

describe("the recorder's state on the status page", () => {
  it('is recording with its lag and waiting rows, or starting before its first batch', () => {
    expect(recorderStatusOf(stats(), 'PGlite in /data')).toEqual({ state: 'recording', store: 'PGlite in /data', lagMs: 900, pending: 3, droppedRows: 0, lastWriteAt: null, message: null });
    expect(recorderStatusOf(stats({ batches: 0, lastLagMs: null }), null)).toMatchObject({ state: 'starting', store: 'store not open yet' });
  });

  it('is behind when rows pile up or a batch lags, and failed with the reason when it cannot write', () => {
    expect(recorderStatusOf(stats({ pendingRows: 50_000, droppedRows: 7 }), 'x')).toMatchObject({ state: 'behind', message: '7 rows dropped since start (buffer full)' });
    expect(recorderStatusOf(stats({ lastLagMs: 45_000 }), 'x').state).toBe('behind');
    expect(recorderStatusOf(stats({ failing: { since: 1, reason: 'connection refused' } }), 'x')).toMatchObject({ state: 'failed', message: 'Not recording: connection refused' });
  });
});
