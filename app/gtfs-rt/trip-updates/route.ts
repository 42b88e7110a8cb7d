import { gtfsRtResponse } from '@/lib/gtfs-rt';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** GTFS-Realtime TripUpdates (protobuf; ?format=json for a readable copy): docs/gtfs-realtime.md. */
export const GET = withAppContext((app, request: Request) => gtfsRtResponse(app.services.gtfsRt, 'trip-updates', request));
