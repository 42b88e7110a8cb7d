import { deliveriesGet } from '@/lib/http/exceptions-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The webhook queue by state and the dead deliveries (for /status). */
export const GET = withAppContext((app) => deliveriesGet(app.services.exceptions));
