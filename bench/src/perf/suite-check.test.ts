import { expect, test } from 'bun:test';
import { SUREFIRE_DEFAULTS, suiteCheck, surefirePatterns, surefireSelection } from './suite-check.ts';

const POM = `<project><build><plugins>
  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
    <configuration><includes><include>nothing/*.java</include></includes></configuration></plugin>
  <plugin>
      <groupId>org.apache.maven.plugins</groupId>
      <artifactId>maven-surefire-plugin</artifactId>
      <version>\${version.plugin.surefire}</version>
      <configuration>
        <excludes>
          <exclude>com/x/failing/*.java</exclude>
        </excludes>
        <includes>
          <include>**/Test*.java</include>
          <include>**/*Test.java</include>
        </includes>
      </configuration>
    </plugin></plugins></build></project>`;

test("the surefire plugin's own includes and excludes are read (not another plugin's), else Surefire's defaults", () => {
  expect(surefirePatterns(POM)).toEqual({
    includes: ['**/Test*.java', '**/*Test.java'],
    excludes: ['com/x/failing/*.java'],
  });
  expect(surefirePatterns('<project><build><plugins></plugins></build></project>')).toEqual(
    SUREFIRE_DEFAULTS,
  );
});

test('the selection: includes at any depth, excludes in their folder only, sources of other roots ignored', () => {
  const paths = [
    'src/test/java/com/x/TestA.java',
    'src/test/java/com/x/BTest.java',
    'src/test/java/com/x/BaseTestCase.java', // neither pattern of this POM
    'src/test/java/com/x/failing/CTest.java', // excluded
    'src/test/java/com/x/failing/deeper/DTest.java', // the exclude's `*` stays in its folder
    'src/test/java/com/x/util/Helper.java',
    'src/test/resources/com/x/ETest.java',
    'src/main/java/com/x/FTest.java',
  ];
  expect(surefireSelection(paths, surefirePatterns(POM))).toEqual([
    'com.x.BTest',
    'com.x.TestA',
    'com.x.failing.deeper.DTest',
  ]);
  expect(surefireSelection(paths, SUREFIRE_DEFAULTS)).toContain('com.x.BaseTestCase');
});

test('the check lists what was selected and did not run, and what ran unselected', () => {
  expect(suiteCheck(['a.B', 'a.C'], ['a.C', 'a.B'])).toEqual({
    selected: 2,
    ran: 2,
    missing: [],
    extra: [],
    equal: true,
  });
  expect(suiteCheck(['a.B', 'a.C'], ['a.C', 'a.D'])).toEqual({
    selected: 2,
    ran: 2,
    missing: ['a.B'],
    extra: ['a.D'],
    equal: false,
  });
});
