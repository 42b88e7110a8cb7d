import { exceptionsGet } from '@/lib/exceptions/api';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The live exceptions with this user's read marks; with ?from=&to= (epoch ms) those opened in the period. */
export function GET(request: Request): Promise<Response> {
  return exceptionsGet(request);
}
