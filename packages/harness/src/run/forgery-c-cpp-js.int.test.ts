/** Forgeries from the code under test (packages/harness/testing/forgery.ts), for the languages of share 'c-cpp-js'. */
import { forgerySuite } from '../../testing/forgery.ts';

forgerySuite('c-cpp-js');
