import { gtfsRtResponse } from '@/lib/gtfs-rt';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** GTFS-Realtime TripUpdates (protobuf; ?format=json for a readable copy): docs/gtfs-realtime.md. */
export const GET = (request: Request) => gtfsRtResponse('trip-updates', request);
