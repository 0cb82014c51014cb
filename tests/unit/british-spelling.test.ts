// The product speaks British English: a US spelling in a text people read fails
// here. Texts are string literals and JSX text; code names (CSS properties, APIs) are not read.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

const US_SPELLINGS =
  /\b(organiz\w*|favorite\w*|canceled|canceling|behavior\w*|analyz\w*|customiz\w*|recogniz\w*|summariz\w*|prioritiz\w*|authoriz\w*|minimiz\w*|maximiz\w*|finaliz\w*|color(s|ed)?|gray|labeled|labeling|modeled|catalog|enrollment|enrolls?|judgment|defense|offense|license[ds]?|licensing|fulfill|centered)\b/i

/** The sign-in refusal's fixed phrase (#domain/sign-in.ts), kept as written, and the HTTP header's name. */
const KEPT = ['not currently authorized', 'Authorization:']

/** A line's string literals and JSX text. */
function texts(line: string): string[] {
  const found: string[] = []
  for (const match of line.matchAll(/'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\])*)`/g))
    found.push(match[1] ?? match[2] ?? match[3] ?? '')
  for (const match of line.matchAll(/>([^<>{}=]*[A-Za-z][^<>{}=]*)</g)) found.push(match[1]!)
  // A line of JSX text on its own.
  if (/^\s+[A-Z][a-z][^<>{};=()]*$/.test(line)) found.push(line.trim())
  return found
}

/** Sentences, not code: at least two words, no import path, no CSS. */
const isProse = (text: string) => /[A-Za-z]+ [A-Za-z]+/.test(text) && !/^[@~#./]/.test(text) && !/[;{}]|var\(--/.test(text)

const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line)

function usSpellings(file: string, source: string): string[] {
  return source.split('\n').flatMap((line, index) =>
    (isComment(line) ? [] : texts(line))
      .filter(isProse)
      .filter((text) => !KEPT.some((words) => text.includes(words)))
      .flatMap((text) => {
        const word = US_SPELLINGS.exec(text)?.[0]
        return word ? [`${file}:${index + 1}: ${word}`] : []
      }),
  )
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [path] : []
  })
}

describe('one spelling', () => {
  it('the texts of the app, the functions (emails) and the seed are in British English', () => {
    const files = [...sources('app'), ...sources('functions/src'), ...sources('emulators/seed')]
    expect(files.flatMap((file) => usSpellings(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([])
  })

  it('would catch a US spelling in a string or in JSX text, and leaves code alone', () => {
    const page = [
      "const title = 'Your favorite reports'",
      '      <p>The organization was canceled.</p>',
      '      Pick a color for the chart',
      "  color: 'var(--color-danger)',",
      "import { organize } from './organize'",
      "const message = 'You are not currently authorized to create an account.'",
      '// The server renders `<html data-color-scheme>` from the cookie',
    ].join('\n')
    expect(usSpellings('page.tsx', page).map((hit) => hit.split(': ')[0])).toEqual(['page.tsx:1', 'page.tsx:2', 'page.tsx:3'])
  })
})
