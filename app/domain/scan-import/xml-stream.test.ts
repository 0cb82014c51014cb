import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'
import { MAX_XML_PROLOG_CHARS, MAX_XML_RUN_CHARS, readXml, textOf, type XmlNode } from './xml-stream.ts'

const hostile = (name: string) => readFileSync(new URL(`../../../tests/fixtures/scans/hostile/${name}`, import.meta.url), 'utf8')

async function collect(xml: string, path: string, chunkSize?: number): Promise<XmlNode[]> {
  const nodes: XmlNode[] = []
  await readXml(textChunks(xml, chunkSize), 'Test XML', { collect: { [path]: (node) => nodes.push(node) } })
  return nodes
}

async function failure(run: Promise<unknown>): Promise<ScanParseError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ScanParseError)
  return error as ScanParseError
}

describe('readXml', () => {
  const doc = `<?xml version="1.0"?>\n<root a="1">\n<item id="1">one &amp; <b>two</b><![CDATA[<three>]]></item>\n<group><item id="2"/></group>\n</root>`

  it('hands over each collected subtree with attributes, text, children and line, whatever the chunk size', async () => {
    for (const size of [3, 7, 65_536]) {
      const items = await collect(doc, 'root/item', size)
      expect(items).toHaveLength(1)
      const [item] = items as [XmlNode]
      expect(item.attributes).toEqual({ id: '1' })
      expect(item.text).toBe('one & <three>')
      expect(textOf(item, 'b')).toBe('two')
      expect(item.line).toBe(3)
    }
  })

  it('matches "//" paths at any depth, and reports start tags to open handlers', async () => {
    expect((await collect(doc, '//item')).map((n) => n.attributes.id)).toEqual(['1', '2'])
    const opened: string[] = []
    await readXml(textChunks(doc), 'Test XML', {
      open: { root: (node) => opened.push(node.attributes.a ?? '') },
      root: (node) => opened.push(node.name),
    })
    expect(opened).toEqual(['root', '1'])
  })

  it('refuses a billion-laughs DOCTYPE before expanding anything', async () => {
    const error = await failure(collect(hostile('billion-laughs.xml'), '//host'))
    expect(error.message).toBe('Test XML, line 13: the DOCTYPE declares entities (entity expansion and external entities are refused)')
  })

  it('refuses an external entity (XXE) and never reads what it names', async () => {
    const error = await failure(collect(hostile('xxe.xml'), '//alertitem'))
    expect(error.reason).toMatch(/declares entities/)
    expect(error.where).toBe('line 4')
  })

  it('refuses an entity that was never declared, naming the line', async () => {
    const error = await failure(collect(hostile('undeclared-entity.xml'), '//host'))
    expect(error.where).toBe('line 3')
    expect(error.reason).toMatch(/undefined entity/)
  })

  it('refuses nesting deeper than the limit', async () => {
    const depth = PARSE_LIMITS.maxDepth + 1
    const deep = `<r>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</r>`
    const error = await failure(collect(deep, 'r'))
    expect(error.message).toBe(`Test XML, line 2: elements nested deeper than ${PARSE_LIMITS.maxDepth}`)
  })

  it('bounds a long attribute and a long text it keeps', async () => {
    const long = 'x'.repeat(PARSE_LIMITS.maxFieldChars * 3)
    const [node] = (await collect(`<r><item name="${long}">${long}</item></r>`, 'r/item', 4096)) as [XmlNode]
    expect(node.attributes.name).toHaveLength(PARSE_LIMITS.maxFieldChars)
    expect(node.attributes.name?.endsWith('…')).toBe(true)
    expect(node.text).toHaveLength(PARSE_LIMITS.maxFieldChars)
  })

  it('refuses a huge attribute or text run before holding it whole', async () => {
    const huge = 'x'.repeat(MAX_XML_RUN_CHARS + 10)
    expect((await failure(collect(`<r>\n<item name="${huge}"/></r>`, 'r/item'))).reason).toBe(
      `more than ${MAX_XML_RUN_CHARS} characters without markup`,
    )
    expect((await failure(collect(`<r>${huge}</r>`, 'r'))).reason).toMatch(/without markup/)
  })

  it('refuses a prolog (comments, DOCTYPE) larger than the limit', async () => {
    const prolog = '<!-- c -->\n'.repeat(MAX_XML_PROLOG_CHARS / 10)
    expect((await failure(collect(`${prolog}<r/>`, 'r'))).reason).toMatch(/before the root element/)
  })

  it('names the line of a truncated file and of a malformed one', async () => {
    const truncated = await failure(collect(hostile('nmap-truncated.xml'), '//host'))
    expect(truncated.formatLabel).toBe('Test XML')
    expect(truncated.where).toBe('line 22')
    const broken = await failure(collect('<r>\n<a>\n</b>\n</r>', 'r'))
    expect(broken.where).toBe('line 3')
    expect(broken.reason).toMatch(/unexpected close tag/)
  })

  it('refuses text that is not XML and an empty file', async () => {
    expect((await failure(collect('{"site": []}', 'r'))).where).toBe('line 1')
    expect((await failure(collect('', 'r'))).reason).toMatch(/root element/)
  })
})
