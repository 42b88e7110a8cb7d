// The truth test (lib/history/truth-test.ts) on PGlite.
import { describeTruthTest } from './truth-test';

describeTruthTest('pglite');
