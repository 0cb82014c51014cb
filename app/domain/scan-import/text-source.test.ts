import { describe, expect, it } from 'vitest'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'
import { decodeBytes, numberedLines, textChunks } from './text-source.ts'

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of source) out.push(item)
  return out
}

describe('decodeBytes', () => {
  it('keeps a character split between two chunks whole, from a ReadableStream', async () => {
    const bytes = new TextEncoder().encode('Grüße €')
    const split = bytes.indexOf(0xe2) + 1
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split))
        controller.enqueue(bytes.slice(split))
        controller.close()
      },
    })
    expect((await collect(decodeBytes(stream))).join('')).toBe('Grüße €')
  })

  it('reads async iterables of bytes too', async () => {
    async function* bytes() {
      yield new TextEncoder().encode('a\n')
      yield new TextEncoder().encode('b')
    }
    expect((await collect(decodeBytes(bytes()))).join('')).toBe('a\nb')
  })
})

describe('numberedLines', () => {
  it('numbers lines across chunk boundaries and drops carriage returns', async () => {
    const lines = await collect(numberedLines(textChunks('one\r\ntwo\nthree', 3), 'Test'))
    expect(lines).toEqual([
      { line: 'one', number: 1 },
      { line: 'two', number: 2 },
      { line: 'three', number: 3 },
    ])
  })

  it('refuses a line longer than the limit, naming the format and the line', async () => {
    const long = `ok\n${'x'.repeat(PARSE_LIMITS.maxLineChars + 10)}`
    await expect(collect(numberedLines(textChunks(long), 'Nuclei JSONL'))).rejects.toThrow(
      new ScanParseError('Nuclei JSONL', 'line 2', `longer than ${PARSE_LIMITS.maxLineChars} characters`),
    )
  })

  it('refuses a long line that arrives whole in one chunk, by the limit and refusal it is given', async () => {
    const refusal = (where: string, reason: string) => new RangeError(`${where}: ${reason}`)
    const lines = numberedLines(textChunks('short\nlonger line\nok\n', 1_000), 'Feed', { maxLineChars: 6, refusal })
    await expect(collect(lines)).rejects.toThrow(new RangeError('line 2: longer than 6 characters'))
  })
})
