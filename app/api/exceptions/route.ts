import { exceptionsGet } from '@/lib/http/exceptions-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The live exceptions with this user's read marks; with ?from=&to= (epoch ms) those opened in the period. */
export const GET = withAppContext((app, request: Request) => exceptionsGet(app.services.exceptions, request));
