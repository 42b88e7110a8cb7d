// The truth test (lib/testing/truth-test.ts) on PostgreSQL, when TEST_DATABASE_URL is set.
import { describeTruthTest } from '@/lib/testing/truth-test';

describeTruthTest('postgres');
