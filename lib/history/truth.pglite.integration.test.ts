// The truth test (lib/testing/truth-test.ts) on PGlite.
import { describeTruthTest } from '@/lib/testing/truth-test';

describeTruthTest('pglite');
