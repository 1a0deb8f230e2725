/** Forgeries from the code under test (packages/harness/testing/forgery.ts), for the languages of share 'go-rust-ts'. */
import { forgerySuite } from '../../testing/forgery.ts';

forgerySuite('go-rust-ts');
