import 'server-only';

// The status sources' shape lives in lib/model (rooms beside the feed, lib/metrics say, read it without reaching up
// into lib/server).
export type { StatusSources } from '@/lib/model/integration';
