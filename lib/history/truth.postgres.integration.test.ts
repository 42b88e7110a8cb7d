// The truth test (lib/history/truth-test.ts) on PostgreSQL, when TEST_DATABASE_URL is set.
import { describeTruthTest } from './truth-test';

describeTruthTest('postgres');
