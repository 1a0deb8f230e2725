import { expect, test } from 'bun:test';
import {
  delegatingMethod,
  INPUT_FACTORY_METHODS,
  OUTPUT_FACTORY_METHODS,
  SJSXP_GAV,
  sjsxpStandinSources,
} from './sjsxp-standin.ts';

test('a delegating method: the same arguments to the delegate, its result returned, its checked exception declared', () => {
  expect(
    delegatingMethod({
      sig: 'XMLStreamReader createXMLStreamReader(InputStream stream, String encoding)',
      throws: true,
    }),
  ).toBe(
    [
      '  @Override public XMLStreamReader createXMLStreamReader(InputStream stream, String encoding) throws XMLStreamException {',
      '    return delegate.createXMLStreamReader(stream, encoding);',
      '  }',
    ].join('\n'),
  );
  // void: no return; no arguments: an empty call
  expect(delegatingMethod({ sig: 'void setXMLResolver(XMLResolver resolver)', throws: false })).toContain(
    '    delegate.setXMLResolver(resolver);\n',
  );
  expect(delegatingMethod({ sig: 'XMLResolver getXMLResolver()', throws: false })).toBe(
    '  @Override public XMLResolver getXMLResolver() {\n    return delegate.getXMLResolver();\n  }',
  );
  expect(() => delegatingMethod({ sig: 'not java', throws: false })).toThrow('not a method signature');
});

test("the two classes: SJSXP's names, every abstract method of the JDK's factories handed to newDefaultFactory()", () => {
  const src = sjsxpStandinSources();
  expect(Object.keys(src)).toEqual([
    'com/sun/xml/stream/ZephyrParserFactory.java',
    'com/sun/xml/stream/ZephyrWriterFactory.java',
  ]);
  const parser = src['com/sun/xml/stream/ZephyrParserFactory.java']!;
  const writer = src['com/sun/xml/stream/ZephyrWriterFactory.java']!;
  for (const line of [
    'package com.sun.xml.stream;',
    'public class ZephyrParserFactory extends XMLInputFactory {',
    'private final XMLInputFactory delegate = XMLInputFactory.newDefaultFactory();',
    'public ZephyrParserFactory() {}',
  ])
    expect(parser).toContain(line);
  for (const line of [
    'public class ZephyrWriterFactory extends XMLOutputFactory {',
    'private final XMLOutputFactory delegate = XMLOutputFactory.newDefaultFactory();',
  ])
    expect(writer).toContain(line);
  // XMLInputFactory has 24 abstract methods, XMLOutputFactory 11 (Java 17); each delegated once
  expect(INPUT_FACTORY_METHODS).toHaveLength(24);
  expect(OUTPUT_FACTORY_METHODS).toHaveLength(11);
  expect(new Set(INPUT_FACTORY_METHODS.map((x) => x.sig)).size).toBe(24);
  expect(new Set(OUTPUT_FACTORY_METHODS.map((x) => x.sig)).size).toBe(11);
  expect(parser.match(/@Override/g)).toHaveLength(24);
  expect(writer.match(/@Override/g)).toHaveLength(11);
  for (const x of INPUT_FACTORY_METHODS) expect(parser).toContain(delegatingMethod(x));
  for (const x of OUTPUT_FACTORY_METHODS) expect(writer).toContain(delegatingMethod(x));
  // the methods that declare no checked exception (properties, resolver, reporter, allocator) do not gain one
  expect(parser).toContain('public Object getProperty(String name) {');
  expect(parser).toContain(
    'public XMLEventReader createXMLEventReader(XMLStreamReader reader) throws XMLStreamException {',
  );
  expect(SJSXP_GAV).toBe('com.sun.xml.stream:sjsxp:1.0.2');
});
