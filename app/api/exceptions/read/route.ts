import { readPost } from '@/lib/http/exceptions-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Marks {ids} as seen by this user (read state is per user). */
export const POST = withAppContext((app, request: Request) => readPost(app.services.exceptions, request));
