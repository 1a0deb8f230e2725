/** Forgeries from the code under test (packages/harness/testing/forgery.ts), for the languages of share 'java-python'. */
import { forgerySuite } from '../../testing/forgery.ts';

forgerySuite('java-python');
