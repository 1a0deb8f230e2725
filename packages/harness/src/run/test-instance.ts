import type { ExecutionInstance } from '@faun/schema';

/** An execution instance for tests: empty patches and lists, every optional field null, `over` on top. */
export function testInstance(over: Partial<ExecutionInstance> = {}): ExecutionInstance {
  return {
    v: 1,
    instance_id: 'x',
    repo: 'org/repo',
    language: 'python',
    base_commit: 'abc1234',
    patch: '',
    test_patch: '',
    fail_to_pass: [],
    pass_to_pass: [],
    problem_statement: '',
    version: null,
    environment_setup_commit: null,
    test_cmd: null,
    image: null,
    ...over,
  };
}
