/**
 * A stand-in for the two classes of SJSXP 1.0.2 (com.sun.xml.stream:sjsxp) that jackson-dataformat-xml's
 * tests construct: `com.sun.xml.stream.ZephyrParserFactory` (a javax.xml.stream.XMLInputFactory) and
 * `com.sun.xml.stream.ZephyrWriterFactory` (an XMLOutputFactory). SJSXP is not here and Debian ships none;
 * each stand-in class hands every call to the JDK's own StAX implementation (`newDefaultFactory()`, Java 9+),
 * which descends from SJSXP. The Java source is generated from the abstract methods of the two JDK classes.
 */

/** One abstract method: its Java signature without modifiers, and whether it declares XMLStreamException. */
interface Method {
  sig: string;
  throws: boolean;
}

const m = (sig: string, throws = true): Method => ({ sig, throws });

/** Every abstract method of javax.xml.stream.XMLInputFactory (Java 17). */
export const INPUT_FACTORY_METHODS: Method[] = [
  m('XMLStreamReader createXMLStreamReader(Reader reader)'),
  m('XMLStreamReader createXMLStreamReader(Source source)'),
  m('XMLStreamReader createXMLStreamReader(InputStream stream)'),
  m('XMLStreamReader createXMLStreamReader(InputStream stream, String encoding)'),
  m('XMLStreamReader createXMLStreamReader(String systemId, InputStream stream)'),
  m('XMLStreamReader createXMLStreamReader(String systemId, Reader reader)'),
  m('XMLEventReader createXMLEventReader(Reader reader)'),
  m('XMLEventReader createXMLEventReader(String systemId, Reader reader)'),
  m('XMLEventReader createXMLEventReader(XMLStreamReader reader)'),
  m('XMLEventReader createXMLEventReader(Source source)'),
  m('XMLEventReader createXMLEventReader(InputStream stream)'),
  m('XMLEventReader createXMLEventReader(InputStream stream, String encoding)'),
  m('XMLEventReader createXMLEventReader(String systemId, InputStream stream)'),
  m('XMLStreamReader createFilteredReader(XMLStreamReader reader, StreamFilter filter)'),
  m('XMLEventReader createFilteredReader(XMLEventReader reader, EventFilter filter)'),
  m('XMLResolver getXMLResolver()', false),
  m('void setXMLResolver(XMLResolver resolver)', false),
  m('XMLReporter getXMLReporter()', false),
  m('void setXMLReporter(XMLReporter reporter)', false),
  m('void setProperty(String name, Object value)', false),
  m('Object getProperty(String name)', false),
  m('boolean isPropertySupported(String name)', false),
  m('void setEventAllocator(XMLEventAllocator allocator)', false),
  m('XMLEventAllocator getEventAllocator()', false),
];

/** Every abstract method of javax.xml.stream.XMLOutputFactory (Java 17). */
export const OUTPUT_FACTORY_METHODS: Method[] = [
  m('XMLStreamWriter createXMLStreamWriter(Writer stream)'),
  m('XMLStreamWriter createXMLStreamWriter(OutputStream stream)'),
  m('XMLStreamWriter createXMLStreamWriter(OutputStream stream, String encoding)'),
  m('XMLStreamWriter createXMLStreamWriter(Result result)'),
  m('XMLEventWriter createXMLEventWriter(Result result)'),
  m('XMLEventWriter createXMLEventWriter(OutputStream stream)'),
  m('XMLEventWriter createXMLEventWriter(OutputStream stream, String encoding)'),
  m('XMLEventWriter createXMLEventWriter(Writer stream)'),
  m('void setProperty(String name, Object value)', false),
  m('Object getProperty(String name)', false),
  m('boolean isPropertySupported(String name)', false),
];

/** The Java method that hands `method` to the field `delegate` (pure). */
export function delegatingMethod(method: Method): string {
  const sig = /^(\S+) (\w+)\((.*)\)$/.exec(method.sig);
  if (!sig) throw new Error(`not a method signature: ${method.sig}`);
  const [, ret, name, params] = sig;
  const args = params!
    .split(',')
    .map((p) => p.trim().split(' ')[1])
    .filter(Boolean)
    .join(', ');
  const call = `delegate.${name}(${args});`;
  return [
    `  @Override public ${method.sig}${method.throws ? ' throws XMLStreamException' : ''} {`,
    `    ${ret === 'void' ? call : `return ${call}`}`,
    '  }',
  ].join('\n');
}

const IMPORTS = [
  'java.io.InputStream',
  'java.io.OutputStream',
  'java.io.Reader',
  'java.io.Writer',
  'javax.xml.stream.*',
  'javax.xml.stream.util.XMLEventAllocator',
  'javax.xml.transform.Result',
  'javax.xml.transform.Source',
];

function standinClass(name: string, base: string, methods: Method[]): string {
  return [
    'package com.sun.xml.stream;',
    '',
    ...IMPORTS.map((i) => `import ${i};`),
    '',
    `/** Stand-in for SJSXP's ${name}: every call goes to the JDK's own StAX implementation. */`,
    `public class ${name} extends ${base} {`,
    `  private final ${base} delegate = ${base}.newDefaultFactory();`,
    '',
    `  public ${name}() {}`,
    '',
    methods.map(delegatingMethod).join('\n\n'),
    '}',
    '',
  ].join('\n');
}

/** The stand-in's Java sources by path under a source root (pure). */
export function sjsxpStandinSources(): Record<string, string> {
  return {
    'com/sun/xml/stream/ZephyrParserFactory.java': standinClass(
      'ZephyrParserFactory',
      'XMLInputFactory',
      INPUT_FACTORY_METHODS,
    ),
    'com/sun/xml/stream/ZephyrWriterFactory.java': standinClass(
      'ZephyrWriterFactory',
      'XMLOutputFactory',
      OUTPUT_FACTORY_METHODS,
    ),
  };
}

/** The Maven coordinates the stand-in is installed as: what jackson-dataformat-xml's POM asks for. */
export const SJSXP_GAV = 'com.sun.xml.stream:sjsxp:1.0.2';
